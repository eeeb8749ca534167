import { Migration } from '@mikro-orm/migrations';

export class Migration20261125101956_Lifecycle extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "addon_activity" ("id" serial primary key, "addon_id" int not null, "version_id" int null, "user_id" int null, "action" varchar(40) not null, "from_status" smallint not null, "to_status" smallint not null, "details" jsonb null, "comments" text not null default '', "created" timestamptz not null default now());`);
    this.addSql(`create index "addon_activity_user_id_id_index" on "addon_activity" ("user_id", "id");`);
    this.addSql(`create index "addon_activity_addon_id_id_index" on "addon_activity" ("addon_id", "id");`);

    this.addSql(`alter table "addon_activity" add constraint "addon_activity_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "addon_activity" add constraint "addon_activity_version_id_foreign" foreign key ("version_id") references "versions" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "addon_activity" add constraint "addon_activity_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "addon_activity" cascade;`);
  }

}
