import { Migration } from '@mikro-orm/migrations';

export class Migration20261121111410_Collections extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "collections" ("id" serial primary key, "uuid" varchar(32) not null, "author_id" int not null, "slug" varchar(30) not null, "name" jsonb null, "description" jsonb null, "default_locale" varchar(10) not null default 'en-US', "listed" boolean not null default true, "created" timestamptz not null default now(), "modified" timestamptz not null default now());`);
    this.addSql(`alter table "collections" add constraint "collections_uuid_unique" unique ("uuid");`);
    this.addSql(`create index "collections_author_id_modified_index" on "collections" ("author_id", "modified");`);
    this.addSql(`alter table "collections" add constraint "collections_author_id_slug_unique" unique ("author_id", "slug");`);

    this.addSql(`create table "collection_addons" ("id" serial primary key, "collection_id" int not null, "addon_id" int not null, "notes" jsonb null, "created" timestamptz not null default now());`);
    this.addSql(`create index "collection_addons_addon_id_index" on "collection_addons" ("addon_id");`);
    this.addSql(`alter table "collection_addons" add constraint "collection_addons_collection_id_addon_id_unique" unique ("collection_id", "addon_id");`);

    this.addSql(`alter table "collections" add constraint "collections_author_id_foreign" foreign key ("author_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "collection_addons" add constraint "collection_addons_collection_id_foreign" foreign key ("collection_id") references "collections" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "collection_addons" add constraint "collection_addons_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "collection_addons" drop constraint "collection_addons_collection_id_foreign";`);

    this.addSql(`drop table if exists "collections" cascade;`);

    this.addSql(`drop table if exists "collection_addons" cascade;`);
  }

}
