import { Migration } from '@mikro-orm/migrations';

/**
 * Extensions of other browsers and the add-ons that replace them (issue 37: the original's
 * `GET /addons/browser-mappings/`, the browser's "import extensions from Chrome"), set by curators.
 */
export class Migration20261129091720_BrowserMappings extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "addon_browser_mappings" ("id" serial primary key, "addon_id" int not null, "browser" smallint not null, "extension_id" varchar(255) not null, "created" timestamptz not null default now(), "modified" timestamptz not null default now());`,
    );
    this.addSql(`create index "addon_browser_mappings_addon_id_index" on "addon_browser_mappings" ("addon_id");`);
    this.addSql(
      `alter table "addon_browser_mappings" add constraint "addon_browser_mappings_browser_extension_id_unique" unique ("browser", "extension_id");`,
    );
    this.addSql(
      `alter table "addon_browser_mappings" add constraint "addon_browser_mappings_addon_id_foreign" foreign key ("addon_id") references "addons" ("id") on update cascade on delete cascade;`,
    );
    // Any change outdates the cached answers of the list (cache tag `bm:all`).
    this.addSql(`create or replace function addon_browser_mappings_cache_tags() returns trigger language plpgsql as $$
      begin perform cache_bump(array['bm:all']); return null; end $$;`);
    this.addSql(`create trigger "addon_browser_mappings_cache_tags" after insert or update or delete or truncate on "addon_browser_mappings"
      for each statement execute function addon_browser_mappings_cache_tags();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "addon_browser_mappings" cascade;`);
    this.addSql(`drop function if exists addon_browser_mappings_cache_tags();`);
  }
}
