import { Migration } from '@mikro-orm/migrations';

export class Migration20261125110034_SlugPattern extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "addons_slug_pattern" on "addons" ("slug" text_pattern_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "addons_slug_pattern";`);
  }

}
