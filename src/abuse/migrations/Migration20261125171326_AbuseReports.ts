import { Migration } from '@mikro-orm/migrations';

export class Migration20261125171326_AbuseReports extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "abuse_throttles" ("scope" varchar(16) not null, "key" varchar(64) not null, "hits" timestamptz[] not null, "last_at" timestamptz not null, constraint "abuse_throttles_pkey" primary key ("scope", "key"));`);
    this.addSql(`create index "abuse_throttles_last_at_index" on "abuse_throttles" ("last_at");`);

    this.addSql(`create table "abuse_reports" ("id" serial primary key, "addon_id" int null, "guid" varchar(255) null, "user_id" int null, "reporter_id" int null, "ip_address" varchar(45) null, "message" text not null default '', "reason" varchar(32) null, "report_entry_point" varchar(32) null, "addon_install_method" varchar(32) null, "addon_install_origin" varchar(255) null, "addon_install_source" varchar(32) null, "addon_install_source_url" varchar(255) null, "addon_name" varchar(255) null, "addon_signature" varchar(32) null, "addon_summary" varchar(255) null, "addon_version" varchar(255) null, "app" varchar(16) null, "appversion" varchar(255) null, "lang" varchar(255) null, "client_id" varchar(64) null, "install_date" timestamptz null, "operating_system" varchar(255) null, "operating_system_version" varchar(255) null, "created" timestamptz not null default now(), "resolved_at" timestamptz null, "resolved_by_id" int null, "resolution_note" text not null default '');`);
    this.addSql(`create index "abuse_reports_addon_id_index" on "abuse_reports" ("addon_id");`);
    this.addSql(`create index "abuse_reports_user_id_index" on "abuse_reports" ("user_id");`);
    this.addSql(`create index "abuse_reports_created_index" on "abuse_reports" ("created");`);
    this.addSql(`create index "abuse_reports_guid_lower_index" on "abuse_reports" (lower("guid"));`);

    this.addSql(`alter table "abuse_reports" add constraint "abuse_reports_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "abuse_reports" add constraint "abuse_reports_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "abuse_reports" add constraint "abuse_reports_reporter_id_foreign" foreign key ("reporter_id") references "users" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "abuse_reports" add constraint "abuse_reports_resolved_by_id_foreign" foreign key ("resolved_by_id") references "users" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "abuse_throttles" cascade;`);

    this.addSql(`drop table if exists "abuse_reports" cascade;`);
  }

}
