import { Migration } from '@mikro-orm/migrations';

/** Tables whose rows show up in cached catalogue answers. */
const CATALOGUE_TABLES = [
  'addons',
  'addon_users',
  'versions',
  'version_compat',
  'files',
  'licenses',
  'previews',
  'categories',
  'featured_addons',
];

/**
 * The catalogue generation: one row bumped by a statement-level trigger on every write to a
 * catalogue table, in the writing transaction. Cached anonymous answers are keyed by it.
 */
export class Migration20261121080000_CatalogueCache extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "cache_generation" ("id" smallint primary key, "generation" bigint not null default 0);`);
    this.addSql(`insert into "cache_generation" ("id", "generation") values (1, 0);`);
    this.addSql(`create or replace function bump_cache_generation() returns trigger language plpgsql as $$
      begin
        update cache_generation set generation = generation + 1 where id = 1;
        return null;
      end $$;`);
    for (const table of CATALOGUE_TABLES) {
      this.addSql(`create trigger "${table}_bump_cache_generation"
        after insert or update or delete or truncate on "${table}"
        for each statement execute function bump_cache_generation();`);
    }
    // Users appear in catalogue answers only through these columns (not last_login, written on sign-in).
    this.addSql(`create trigger "users_bump_cache_generation"
      after insert or delete or truncate or update of "username", "display_name", "deleted" on "users"
      for each statement execute function bump_cache_generation();`);
  }

  override async down(): Promise<void> {
    for (const table of [...CATALOGUE_TABLES, 'users']) {
      this.addSql(`drop trigger if exists "${table}_bump_cache_generation" on "${table}";`);
    }
    this.addSql(`drop function if exists bump_cache_generation();`);
    this.addSql(`drop table if exists "cache_generation";`);
  }
}
