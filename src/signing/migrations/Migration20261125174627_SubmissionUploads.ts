import { Migration } from '@mikro-orm/migrations';

/** v5 uploads are validated before they are submitted to an add-on (issue 14). */
export class Migration20261125174627_SubmissionUploads extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "file_uploads" alter column "addon_id" drop not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "file_uploads" where "addon_id" is null;`);
    this.addSql(`alter table "file_uploads" alter column "addon_id" set not null;`);
  }

}
