import { Migration } from '@mikro-orm/migrations';

/**
 * Narrow cache invalidation: instead of one catalogue generation bumped by every write, a version
 * per tag, bumped in the writing transaction by statement-level triggers that read the changed
 * rows (transition tables), so a batch of rows costs one bump statement:
 * - `a:<addon id>`: the add-on's row and everything shown with it (versions, files, compatibility,
 *   previews, authors, featured entries);
 * - `u:<user id>`: the public fields of an account (names, picture, deletion);
 * - `l:all`: which add-ons are in listings (a public add-on appears, disappears or changes a
 *   filtered column: type, slug, guid, categories, tags, compatibility, platforms, promotion,
 *   colors, authors, featured entries); `l:text` (names, summaries, descriptions: search with a
 *   query), `l:names` (names only: autocomplete),
 *   `l:users`, `l:downloads`, `l:hotness`, `l:rating`, `l:created`, `l:updated` (sort keys),
 *   changed only for public add-ons;
 * - `global`: licences and categories.
 * Tags are bumped in sorted order in one statement, so two transactions never wait on each other's
 * tags in opposite orders.
 */
const PUBLIC = (r: string) => `(${r}.status = 4 and not ${r}.disabled_by_user and ${r}.current_version_id is not null)`;

const ADDON_CHILDREN = ['versions', 'previews', 'addon_users', 'featured_addons'];
const LISTING_CHILDREN = new Set(['addon_users', 'featured_addons']);
const VERSION_CHILDREN = ['files', 'version_compat'];
const GLOBAL_TABLES = ['licenses', 'categories'];
const OLD_TABLES = ['addons', 'addon_users', 'versions', 'version_compat', 'files', 'licenses', 'previews', 'categories', 'featured_addons'];

export class Migration20261125110314_CacheTags extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "cache_tags" ("tag" varchar(64) not null, "version" bigint not null, constraint "cache_tags_pkey" primary key ("tag"));`);
    for (const table of [...OLD_TABLES, 'users']) {
      this.addSql(`drop trigger if exists "${table}_bump_cache_generation" on "${table}";`);
    }
    this.addSql(`drop function if exists bump_cache_generation();`);
    this.addSql(`drop table if exists "cache_generation" cascade;`);

    this.addSql(`create or replace function cache_bump(tags text[]) returns void language sql as $$
      insert into cache_tags as c (tag, version)
      select t, 1 from (select distinct t from unnest(tags) as u(t) where t is not null) s order by t
      on conflict (tag) do update set version = c.version + 1
    $$;`);

    this.addSql(`create or replace function addons_cache_tags() returns trigger language plpgsql as $$
      declare tags text[];
      begin
        if tg_op = 'INSERT' then
          tags := array(select 'l:all' from new_rows n where ${PUBLIC('n')} limit 1);
        elsif tg_op = 'DELETE' then
          tags := array(select 'a:' || o.id from old_rows o)
            || array(select 'l:all' from old_rows o where ${PUBLIC('o')} limit 1);
        else
          tags := array(
            select distinct t from new_rows n join old_rows o on o.id = n.id,
              lateral unnest(
                case when (n.*) is not distinct from (o.*) then '{}'::text[]
                else array['a:' || n.id] ||
                  case when not (${PUBLIC('o')} or ${PUBLIC('n')}) then '{}'::text[]
                  when ${PUBLIC('o')} <> ${PUBLIC('n')} or n.type <> o.type or n.slug <> o.slug
                    or n.guid is distinct from o.guid or n.category_ids <> o.category_ids or n.tags <> o.tags
                    or n.compat_apps <> o.compat_apps or n.compat_min <> o.compat_min or n.compat_max <> o.compat_max
                    or n.platforms <> o.platforms or n.promoted_category is distinct from o.promoted_category
                    or n.promoted_apps <> o.promoted_apps or n.colors is distinct from o.colors
                  then array['l:all']
                  else array_remove(array[
                    case when n.name is distinct from o.name or n.summary is distinct from o.summary
                      or n.description is distinct from o.description then 'l:text' end,
                    case when n.name is distinct from o.name then 'l:names' end,
                    case when n.average_daily_users <> o.average_daily_users then 'l:users' end,
                    case when n.weekly_downloads <> o.weekly_downloads then 'l:downloads' end,
                    case when n.hotness <> o.hotness then 'l:hotness' end,
                    case when n.bayesian_rating <> o.bayesian_rating then 'l:rating' end,
                    case when n.created <> o.created then 'l:created' end,
                    case when n.last_updated is distinct from o.last_updated then 'l:updated' end
                  ], null)
                  end
                end) as t);
        end if;
        if cardinality(tags) > 0 then perform cache_bump(tags); end if;
        return null;
      end $$;`);

    // Rows that belong to an add-on; TG_ARGV[0] = 'listing' when they also filter listings.
    this.addSql(`create or replace function addon_rows_cache_tags() returns trigger language plpgsql as $$
      declare tags text[];
      begin
        if tg_op = 'INSERT' then tags := array(select distinct 'a:' || addon_id from new_rows);
        elsif tg_op = 'DELETE' then tags := array(select distinct 'a:' || addon_id from old_rows);
        else tags := array(select 'a:' || addon_id from new_rows union select 'a:' || addon_id from old_rows);
        end if;
        if cardinality(tags) > 0 and tg_argv[0] = 'listing' then tags := tags || 'l:all'::text; end if;
        if cardinality(tags) > 0 then perform cache_bump(tags); end if;
        return null;
      end $$;`);

    // Rows that belong to a version (files, compatibility): their add-on's tag.
    this.addSql(`create or replace function version_rows_cache_tags() returns trigger language plpgsql as $$
      declare tags text[];
      begin
        if tg_op = 'INSERT' then
          tags := array(select distinct 'a:' || v.addon_id from versions v where v.id in (select version_id from new_rows));
        elsif tg_op = 'DELETE' then
          tags := array(select distinct 'a:' || v.addon_id from versions v where v.id in (select version_id from old_rows));
        else
          tags := array(select distinct 'a:' || v.addon_id from versions v
                         where v.id in (select version_id from new_rows union select version_id from old_rows));
        end if;
        if cardinality(tags) > 0 then perform cache_bump(tags); end if;
        return null;
      end $$;`);

    this.addSql(`create or replace function users_cache_tags() returns trigger language plpgsql as $$
      declare tags text[];
      begin
        if tg_op = 'DELETE' then
          tags := array(select 'u:' || id from old_rows);
        else
          tags := array(
            select distinct t from new_rows n join old_rows o on o.id = n.id,
              lateral unnest(
                case when n.username is distinct from o.username or n.deleted is distinct from o.deleted
                  then array['u:' || n.id, 'l:all']
                when n.display_name is distinct from o.display_name or n.picture_type is distinct from o.picture_type
                  or n.picture_hash is distinct from o.picture_hash
                  then array['u:' || n.id]
                else '{}'::text[] end) as t);
        end if;
        if cardinality(tags) > 0 then perform cache_bump(tags); end if;
        return null;
      end $$;`);

    this.addSql(`create or replace function global_cache_tags() returns trigger language plpgsql as $$
      begin
        perform cache_bump(array['global']);
        return null;
      end $$;`);

    const rowTriggers = (table: string, fn: string, arg = '') => {
      this.addSql(`create trigger "${table}_cache_tags_insert" after insert on "${table}"
        referencing new table as new_rows for each statement execute function ${fn}(${arg});`);
      this.addSql(`create trigger "${table}_cache_tags_update" after update on "${table}"
        referencing old table as old_rows new table as new_rows for each statement execute function ${fn}(${arg});`);
      this.addSql(`create trigger "${table}_cache_tags_delete" after delete on "${table}"
        referencing old table as old_rows for each statement execute function ${fn}(${arg});`);
    };
    rowTriggers('addons', 'addons_cache_tags');
    for (const table of ADDON_CHILDREN) {
      rowTriggers(table, 'addon_rows_cache_tags', LISTING_CHILDREN.has(table) ? `'listing'` : '');
    }
    for (const table of VERSION_CHILDREN) rowTriggers(table, 'version_rows_cache_tags');
    this.addSql(`create trigger "users_cache_tags_update" after update on "users"
      referencing old table as old_rows new table as new_rows for each statement execute function users_cache_tags();`);
    this.addSql(`create trigger "users_cache_tags_delete" after delete on "users"
      referencing old table as old_rows for each statement execute function users_cache_tags();`);
    for (const table of GLOBAL_TABLES) {
      this.addSql(`create trigger "${table}_cache_tags" after insert or update or delete on "${table}"
        for each statement execute function global_cache_tags();`);
    }
    for (const table of [...OLD_TABLES, 'users']) {
      this.addSql(`create trigger "${table}_cache_tags_truncate" after truncate on "${table}"
        for each statement execute function global_cache_tags();`);
    }
  }

  override async down(): Promise<void> {
    const all = [...OLD_TABLES, 'users'];
    for (const table of all) {
      for (const suffix of ['insert', 'update', 'delete', 'truncate']) {
        this.addSql(`drop trigger if exists "${table}_cache_tags_${suffix}" on "${table}";`);
      }
      this.addSql(`drop trigger if exists "${table}_cache_tags" on "${table}";`);
    }
    for (const fn of ['addons_cache_tags', 'addon_rows_cache_tags', 'version_rows_cache_tags', 'users_cache_tags', 'global_cache_tags']) {
      this.addSql(`drop function if exists ${fn}();`);
    }
    this.addSql(`drop function if exists cache_bump(text[]);`);
    this.addSql(`drop table if exists "cache_tags" cascade;`);
    this.addSql(`create table "cache_generation" ("id" smallint primary key, "generation" bigint not null default 0);`);
    this.addSql(`insert into "cache_generation" ("id", "generation") values (1, 0);`);
    this.addSql(`create or replace function bump_cache_generation() returns trigger language plpgsql as $$
      begin
        update cache_generation set generation = generation + 1 where id = 1;
        return null;
      end $$;`);
    for (const table of OLD_TABLES) {
      this.addSql(`create trigger "${table}_bump_cache_generation"
        after insert or update or delete or truncate on "${table}"
        for each statement execute function bump_cache_generation();`);
    }
    this.addSql(`create trigger "users_bump_cache_generation"
      after insert or delete or truncate or update of "username", "display_name", "deleted" on "users"
      for each statement execute function bump_cache_generation();`);
  }
}
