import { Migration } from '@mikro-orm/migrations';

/** The scanners: admins' YARA rules, and each version's results per scanner. */
export class Migration20261127182934_Scanners extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "scanners_rules" ("id" serial primary key, "name" varchar(200) not null, "scanner" varchar(20) not null default 'yara', "definition" text not null, "action" smallint not null default 0, "is_active" boolean not null default true, "created" timestamptz not null default now(), "modified" timestamptz not null default now());`);
    this.addSql(`alter table "scanners_rules" add constraint "scanners_rules_name_unique" unique ("name");`);

    this.addSql(`create table "scanners_results" ("id" serial primary key, "version_id" int not null, "scanner" varchar(20) not null, "matches" jsonb not null, "action" smallint not null default 0, "created" timestamptz not null default now());`);
    this.addSql(`alter table "scanners_results" add constraint "scanners_results_version_id_scanner_unique" unique ("version_id", "scanner");`);

    this.addSql(`alter table "scanners_results" add constraint "scanners_results_version_id_foreign" foreign key ("version_id") references "versions" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "scanners_rules" cascade;`);

    this.addSql(`drop table if exists "scanners_results" cascade;`);
  }

}
