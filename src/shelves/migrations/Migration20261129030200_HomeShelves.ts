import { Migration } from '@mikro-orm/migrations';

/** Home page shelves (issue 37): a search or a collection of the vendor's, curated by Admin:Curation. */
export class Migration20261129030200_HomeShelves extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "home_shelves" ("id" serial primary key, "title" jsonb not null, "endpoint" varchar(20) not null, "addon_type" smallint not null, "criteria" varchar(200) not null, "footer_text" jsonb null, "footer_pathname" varchar(255) null, "addon_count" smallint not null default 0, "enabled" boolean not null default false, "position" int not null default 0, "created" timestamptz not null default now(), "modified" timestamptz not null default now());`,
    );
    this.addSql(`create index "home_shelves_enabled_position_index" on "home_shelves" ("enabled", "position");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "home_shelves" cascade;`);
  }
}
