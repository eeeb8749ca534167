import { Migration } from '@mikro-orm/migrations';

/**
 * What v5's version edit writes beyond release notes and source: the notes for reviewers
 * (`approval_notes`), and for a file disabled by its developer (`is_disabled`) the status it had
 * and why it is disabled, so re-enabling restores it and only the developer's own disabling can be
 * undone by the developer.
 */
export class Migration20261129095500_VersionEdit extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "versions" add column "approval_notes" text not null default '';`);
    this.addSql(
      `alter table "files" add column "original_status" smallint null, add column "disabled_reason" smallint not null default 0;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "files" drop column "original_status", drop column "disabled_reason";`);
    this.addSql(`alter table "versions" drop column "approval_notes";`);
  }
}
