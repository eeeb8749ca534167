import { Migration } from '@mikro-orm/migrations';

/**
 * Stored file diffs (package_file_diffs, a cache of diffFile's results) were computed with line
 * endings kept in each line's content and hunk header, and with the previous "no newline" markers
 * and unchanged-file hunk. They are dropped, to be computed again in the original's shape.
 */
export class Migration20261127150000_DiffLineEndings extends Migration {

  override async up(): Promise<void> {
    this.addSql(`delete from "package_file_diffs";`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "package_file_diffs";`);
  }

}
