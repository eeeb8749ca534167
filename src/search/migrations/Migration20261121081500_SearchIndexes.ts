import { Migration } from '@mikro-orm/migrations';

/**
 * Search indexes of the PostgreSQL search adapter (src/search/postgres.engine.ts), declared on the
 * Addon entity. All are partial: only searchable add-ons (public, enabled, with a current version).
 */
export class Migration20261121081500_SearchIndexes extends Migration {

  override async up(): Promise<void> {
    // An upper bound of the bytes the variable-width columns of the walk index take, computed from
    // the values (pg_column_size would see the stored, possibly compressed, datum). Per lexeme a
    // tsvector's binary form (4-byte entry, lexeme, padding, position count, 2 bytes per position)
    // exceeds its text form (quotes, colon, separator, a digit and a comma per position) by at most
    // 5 bytes; arrays and text add their headers and 4-byte lengths. Rows up to 2300 bytes fit the
    // walk index (a B-tree tuple holds at most 2704, the fixed-width columns take ~250).
    // PL/pgSQL with a high cost: never inlined, so the planner counts it as expensive and reaches
    // these rows through the indexes whose predicate it is, instead of computing it per row.
    this.addSql(`create or replace function addons_search_walk_size(v tsvector, tags text[], name text, categories int[])
      returns integer language plpgsql immutable parallel safe cost 10000 as $$
      begin
        return coalesce(octet_length(v::text) + 5 * length(v), 0) + 8
          + coalesce(octet_length(array_to_string(tags, '')) + 8 * cardinality(tags), 0) + 24
          + coalesce(octet_length(name), 0) + 4
          + 4 * coalesce(cardinality(categories), 0) + 24;
      end $$;`);
    // Statistics on the expressions, so that the planner knows how many rows fit (~98% with the vector).
    this.addSql(`create statistics if not exists "addons_search_walk_size_stats"
      on (addons_search_walk_size(search_vector, tags, null::text, category_ids)) from "addons";`);
    this.addSql(`create statistics if not exists "addons_search_names_size_stats"
      on (addons_search_walk_size(null::tsvector, tags, search_name, category_ids)) from "addons";`);
    // Each locale's name, trimmed, lower-cased, inner whitespace collapsed: the exact-name match.
    this.addSql(`create or replace function addons_name_keys(t jsonb) returns text[]
      language sql immutable parallel safe as $$
        select coalesce(array_agg(distinct k), '{}') from (
          select regexp_replace(lower(btrim(value)), '\\s+', ' ', 'g') as k
          from jsonb_each_text(coalesce(t, '{}'::jsonb))
        ) names where k <> ''
      $$;`);
    this.addSql(`create statistics if not exists "addons_name_keys_stats" on (addons_name_keys(name)) from "addons";`);
    this.addSql(`create statistics if not exists "addons_search_name_sort_stats" on (left(search_name, 101)) from "addons";`);
    // Name-match estimates decide whether the relevance walk fetches them (postgres.walk.ts).
    this.addSql(`create statistics if not exists "addons_search_name_text_stats"
      on (to_tsvector('english'::regconfig, addons_translations_text(name))) from "addons";`);
    // 5,000 most common lexemes instead of 1,000: rarer terms get real estimates rather than a floor
    // (~0.3% of the rows), and typo variants are checked against the list before probing the index.
    // ANALYZE samples 150k rows instead of 30k (~20 s at 500k add-ons).
    this.addSql(`alter table "addons" alter column "search_vector" set statistics 500;`);
    this.addSql(`create index "addons_search_promoted" on "addons" ("promoted_category", "average_daily_users" desc, "id" desc) where status = 4 and not disabled_by_user and current_version_id is not null and promoted_category is not null;`);
    this.addSql(`create index "addons_search_type" on "addons" ("type", "average_daily_users" desc, "id" desc) where status = 4 and not disabled_by_user and current_version_id is not null;`);
    this.addSql(`create index "addons_search_updated" on "addons" ("last_updated" desc nulls last, "id" desc) where status = 4 and not disabled_by_user and current_version_id is not null;`);
    this.addSql(`create index "addons_search_rating" on "addons" ("bayesian_rating" desc, "id" desc) where status = 4 and not disabled_by_user and current_version_id is not null;`);
    this.addSql(`create index "addons_search_hotness" on "addons" ("hotness" desc, "id" desc) where status = 4 and not disabled_by_user and current_version_id is not null;`);
    this.addSql(`create index "addons_search_downloads" on "addons" ("weekly_downloads" desc, "id" desc) where status = 4 and not disabled_by_user and current_version_id is not null;`);
    this.addSql(`create index "addons_search_created" on "addons" ("created" desc, "id" desc) where status = 4 and not disabled_by_user and current_version_id is not null;`);
    this.addSql(`create index "addons_search_users" on "addons" ("average_daily_users" desc, "id" desc) where status = 4 and not disabled_by_user and current_version_id is not null;`);
    this.addSql(`create index "addons_search_facets" on "addons" using gin ("compat_apps", "platforms") where status = 4 and not disabled_by_user and current_version_id is not null;`);
    this.addSql(`create index "addons_search_name_trgm" on "addons" using gin ("search_name" gin_trgm_ops) where status = 4 and not disabled_by_user and current_version_id is not null;`);
    this.addSql(`create index "addons_search_name_exact" on "addons" using gin (addons_name_keys("name")) where status = 4 and not disabled_by_user and current_version_id is not null and addons_name_keys("name") <> array["search_name"];`);
    this.addSql(`create index "addons_search_name_sort" on "addons" (left("search_name", 101), "average_daily_users" desc, "id" desc) where status = 4 and not disabled_by_user and current_version_id is not null;`);
    this.addSql(`create index "addons_search_name_text" on "addons" using gin (to_tsvector('english'::regconfig, addons_translations_text("name"))) where status = 4 and not disabled_by_user and current_version_id is not null;`);
    this.addSql(`create index "addons_search_text_large" on "addons" using gin ("search_vector") with (fastupdate = off) where status = 4 and not disabled_by_user and current_version_id is not null and not (addons_search_walk_size(search_vector, tags, null::text, category_ids) <= 2300);`);
    this.addSql(`create index "addons_search_names_large" on "addons" ("average_daily_users" desc, "id" desc) where status = 4 and not disabled_by_user and current_version_id is not null and not (addons_search_walk_size(null::tsvector, tags, search_name, category_ids) <= 2300);`);
    this.addSql(`create index "addons_search_names" on "addons" ("average_daily_users" desc, "id" desc) include ("type", "promoted_category", "promoted_apps", "compat_apps", "compat_min", "compat_max", "platforms", "category_ids", "tags", "search_name") where status = 4 and not disabled_by_user and current_version_id is not null and addons_search_walk_size(null::tsvector, tags, search_name, category_ids) <= 2300;`);
    this.addSql(`create index "addons_search_walk_large" on "addons" ("average_daily_users" desc, "id" desc) where status = 4 and not disabled_by_user and current_version_id is not null and not (addons_search_walk_size(search_vector, tags, null::text, category_ids) <= 2300);`);
    this.addSql(`create index "addons_search_walk_recommended" on "addons" ("average_daily_users" desc, "id" desc) include ("type", "promoted_category", "promoted_apps", "compat_apps", "compat_min", "compat_max", "platforms", "category_ids", "tags", "search_vector") where status = 4 and not disabled_by_user and current_version_id is not null and addons_search_walk_size(search_vector, tags, null::text, category_ids) <= 2300 and promoted_category = 2;`);
    this.addSql(`create index "addons_search_walk" on "addons" ("average_daily_users" desc, "id" desc) include ("type", "promoted_category", "promoted_apps", "compat_apps", "compat_min", "compat_max", "platforms", "category_ids", "tags", "search_vector") where status = 4 and not disabled_by_user and current_version_id is not null and addons_search_walk_size(search_vector, tags, null::text, category_ids) <= 2300;`);
    this.addSql(`create index "addons_search_text" on "addons" using gin ("search_vector", "category_ids", "tags") with (fastupdate = off) where status = 4 and not disabled_by_user and current_version_id is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "addons_search_promoted";`);
    this.addSql(`drop index "addons_search_type";`);
    this.addSql(`drop index "addons_search_updated";`);
    this.addSql(`drop index "addons_search_rating";`);
    this.addSql(`drop index "addons_search_hotness";`);
    this.addSql(`drop index "addons_search_downloads";`);
    this.addSql(`drop index "addons_search_created";`);
    this.addSql(`drop index "addons_search_users";`);
    this.addSql(`drop index "addons_search_facets";`);
    this.addSql(`drop index "addons_search_name_trgm";`);
    this.addSql(`drop index "addons_search_name_exact";`);
    this.addSql(`drop index "addons_search_name_sort";`);
    this.addSql(`drop index "addons_search_name_text";`);
    this.addSql(`drop index "addons_search_text_large";`);
    this.addSql(`drop index "addons_search_names_large";`);
    this.addSql(`drop index "addons_search_names";`);
    this.addSql(`drop index "addons_search_walk_large";`);
    this.addSql(`drop index "addons_search_walk_recommended";`);
    this.addSql(`drop index "addons_search_walk";`);
    this.addSql(`drop index "addons_search_text";`);
    this.addSql(`alter table "addons" alter column "search_vector" set statistics -1;`);
    this.addSql(`drop statistics if exists "addons_name_keys_stats";`);
    this.addSql(`drop statistics if exists "addons_search_name_sort_stats";`);
    this.addSql(`drop statistics if exists "addons_search_name_text_stats";`);
    this.addSql(`drop statistics if exists "addons_search_walk_size_stats";`);
    this.addSql(`drop statistics if exists "addons_search_names_size_stats";`);
    this.addSql(`drop function if exists addons_search_walk_size(tsvector, text[], text, int[]);`);
    this.addSql(`drop function if exists addons_name_keys(jsonb);`);
  }

}
