import { Migration } from '@mikro-orm/migrations';

/** The locale a language pack or dictionary is for (issue 37/38: language tools), from its manifest. */
export class Migration20261129032000_TargetLocale extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "addons" add column "target_locale" varchar(35) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "addons" drop column "target_locale";`);
  }
}
