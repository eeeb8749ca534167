import { Migration } from '@mikro-orm/migrations';

/** The blocklist: blocks of add-on ids, the published records and what each publication published. */
export class Migration20261127173713_Blocklist extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "blocklist_publications" ("generation" bigint not null, "base_generation" bigint not null, "blocked_count" int not null, "soft_blocked_count" int not null, "signed_count" int not null, "stashed_since_base" int not null default 0, "created" timestamptz not null default now(), constraint "blocklist_publications_pkey" primary key ("generation"));`);

    this.addSql(`create table "blocklist_records" ("id" uuid not null, "last_modified" bigint not null, "attachment_type" varchar(40) null, "data" jsonb not null, constraint "blocklist_records_pkey" primary key ("id"));`);
    this.addSql(`create index "blocklist_records_last_modified_index" on "blocklist_records" ("last_modified");`);

    this.addSql(`create table "blocks" ("id" serial primary key, "guid" varchar(255) not null, "min_version" varchar(255) not null default '0', "max_version" varchar(255) not null default '*', "soft" boolean not null default false, "reason" text null, "url" text null, "updated_by_id" int null, "created" timestamptz not null default now(), "modified" timestamptz not null default now());`);
    this.addSql(`alter table "blocks" add constraint "blocks_guid_unique" unique ("guid");`);

    this.addSql(`alter table "blocks" add constraint "blocks_updated_by_id_foreign" foreign key ("updated_by_id") references "users" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "blocklist_publications" cascade;`);

    this.addSql(`drop table if exists "blocklist_records" cascade;`);

    this.addSql(`drop table if exists "blocks" cascade;`);
  }

}
