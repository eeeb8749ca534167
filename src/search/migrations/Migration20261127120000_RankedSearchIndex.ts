import { Migration } from '@mikro-orm/migrations';

const SEARCHABLE = 'status = 4 and not disabled_by_user and current_version_id is not null';

/**
 * The ranked text index of the PostgreSQL search adapter (src/search/postgres.ranked.ts): a RUM
 * index on `search_vector` carrying `average_daily_users`, which returns the matches of a query in
 * popularity order, or those above a popularity, without reading the others. Created only where the
 * `rum` extension is installed or can be (PostgreSQL with the `postgresql-15-rum` package, as a
 * superuser); elsewhere (PGlite, PostgreSQL without rum) an empty index of the same name stands in,
 * so that the schema matches the entity everywhere, and the adapter keeps its other paths.
 * Building it reads every searchable add-on (~2 minutes at 500,000 add-ons on 2 vCPUs).
 */
export class Migration20261127120000_RankedSearchIndex extends Migration {

  override async up(): Promise<void> {
    const [row] = await this.execute(`select
      exists (select 1 from pg_extension where extname = 'rum') as installed,
      exists (select 1 from pg_available_extensions where name = 'rum') as available,
      (select rolsuper from pg_roles where rolname = current_user) as superuser`);
    if (row.installed || (row.available && row.superuser)) {
      this.addSql(`create extension if not exists rum;`);
      this.addSql(`set local maintenance_work_mem = '256MB';`);
      this.addSql(`create index "addons_search_rum" on "addons" using rum ("search_vector" rum_tsvector_addon_ops, "average_daily_users") with (attach = 'average_daily_users', to = 'search_vector') where ${SEARCHABLE};`);
    } else {
      this.addSql(`create index "addons_search_rum" on "addons" ("id") where false;`);
    }
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "addons_search_rum";`);
  }

}
