import { Migration } from '@mikro-orm/migrations';

export class Migration20261125171045_Shelves extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "hero_secondary_shelves" ("id" serial primary key, "headline" jsonb not null, "description" jsonb not null, "cta_url" varchar(255) null, "cta_text" jsonb null, "enabled" boolean not null default false, "position" int not null default 0, "created" timestamptz not null default now(), "modified" timestamptz not null default now());`);
    this.addSql(`create index "hero_secondary_shelves_enabled_position_index" on "hero_secondary_shelves" ("enabled", "position");`);

    this.addSql(`create table "hero_secondary_modules" ("id" serial primary key, "shelf_id" int not null, "position" smallint not null, "icon" varchar(255) not null, "description" jsonb not null, "cta_url" varchar(255) null, "cta_text" jsonb null);`);
    this.addSql(`create index "hero_secondary_modules_shelf_id_position_index" on "hero_secondary_modules" ("shelf_id", "position");`);

    this.addSql(`create table "hero_primary_shelves" ("id" serial primary key, "addon_id" int not null, "description" jsonb null, "featured_image" varchar(255) null, "gradient_color" varchar(40) null, "is_external" boolean not null default false, "enabled" boolean not null default false, "position" int not null default 0, "created" timestamptz not null default now(), "modified" timestamptz not null default now());`);
    this.addSql(`create index "hero_primary_shelves_addon_id_index" on "hero_primary_shelves" ("addon_id");`);
    this.addSql(`create index "hero_primary_shelves_enabled_position_index" on "hero_primary_shelves" ("enabled", "position");`);

    this.addSql(`create table "curation_log" ("id" serial primary key, "user_id" int null, "action" varchar(20) not null, "subject_type" varchar(20) not null, "subject_id" int not null, "addon_id" int null, "details" jsonb null, "created" timestamptz not null default now());`);
    this.addSql(`create index "curation_log_addon_id_index" on "curation_log" ("addon_id");`);
    this.addSql(`create index "curation_log_subject_type_subject_id_id_index" on "curation_log" ("subject_type", "subject_id", "id");`);

    this.addSql(`alter table "hero_secondary_modules" add constraint "hero_secondary_modules_shelf_id_foreign" foreign key ("shelf_id") references "hero_secondary_shelves" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "hero_primary_shelves" add constraint "hero_primary_shelves_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "curation_log" add constraint "curation_log_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "curation_log" add constraint "curation_log_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "hero_secondary_modules" drop constraint "hero_secondary_modules_shelf_id_foreign";`);

    this.addSql(`drop table if exists "hero_secondary_shelves" cascade;`);

    this.addSql(`drop table if exists "hero_secondary_modules" cascade;`);

    this.addSql(`drop table if exists "hero_primary_shelves" cascade;`);

    this.addSql(`drop table if exists "curation_log" cascade;`);
  }

}
