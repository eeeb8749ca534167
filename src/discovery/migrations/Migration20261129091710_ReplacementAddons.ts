import { Migration } from '@mikro-orm/migrations';

/** Replacement add-ons (issue 37: the original's `GET /addons/replacement-addon/`), set by curators. */
export class Migration20261129091710_ReplacementAddons extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "replacement_addons" ("id" serial primary key, "guid" varchar(255) not null, "path" varchar(255) not null, "created" timestamptz not null default now(), "modified" timestamptz not null default now());`,
    );
    this.addSql(`alter table "replacement_addons" add constraint "replacement_addons_guid_unique" unique ("guid");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "replacement_addons" cascade;`);
  }
}
