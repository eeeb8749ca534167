import { Migration } from '@mikro-orm/migrations';

/**
 * `sort=random` without sorting (src/search/postgres.random.ts): each searchable add-on's fixed
 * pseudo-random key, `hashint4(id)`, in key order, for the plain public set and per promoted
 * category (the home page's shelves), with the usual shelf filters (type, applications) in the
 * tuple so that a page is read index-only. An expression, not a column: no table rewrite, nothing
 * to write per add-on.
 */
export class Migration20261127112000_RandomSort extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "addons_search_random" on "addons" (hashint4("id")) include ("id", "type", "compat_apps") where status = 4 and not disabled_by_user and current_version_id is not null;`);
    this.addSql(`create index "addons_search_random_promoted" on "addons" ("promoted_category", hashint4("id")) include ("id", "type", "promoted_apps", "compat_apps") where status = 4 and not disabled_by_user and current_version_id is not null and promoted_category is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "addons_search_random";`);
    this.addSql(`drop index "addons_search_random_promoted";`);
  }

}
