import { Migration } from '@mikro-orm/migrations';

export class Migration20261125172012_Discovery extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "discovery_items" ("id" serial primary key, "addon_id" int not null, "custom_heading" jsonb null, "custom_description" jsonb null, "position" smallint not null default 0, "position_china" smallint not null default 0, "created" timestamptz not null default now(), "modified" timestamptz not null default now());`);
    this.addSql(`alter table "discovery_items" add constraint "discovery_items_addon_id_unique" unique ("addon_id");`);
    this.addSql(`create index "discovery_items_position_index" on "discovery_items" ("position");`);
    this.addSql(`create index "discovery_items_position_china_index" on "discovery_items" ("position_china");`);

    this.addSql(`alter table "discovery_items" add constraint "discovery_items_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "discovery_items" cascade;`);
  }

}
