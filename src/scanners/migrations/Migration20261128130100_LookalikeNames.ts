import { Migration } from '@mikro-orm/migrations';

const SEARCHABLE = 'status = 4 and not disabled_by_user and current_version_id is not null';

/**
 * Look-alike names (src/scanners/lookalike-names.ts): each add-on's names stored once as keys
 * (`lookalike_keys`), found through a GIN index over public add-ons. The keys are computed in
 * TypeScript where names are written (the normalisation depends on the configured trademark words,
 * which a migration does not see), so this migration leaves them null: null keys are computed
 * before the next look-up, in batches (the backfill of existing rows, through `addons_lookalike_stale`).
 * A trigger clears the keys when a write changes a name without writing them (raw SQL, the seed
 * command), so stored keys never belong to another name.
 */
export class Migration20261128130100_LookalikeNames extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "addons" add column "lookalike_keys" text[] null;`);
    this.addSql(`create index "addons_lookalike_keys" on "addons" using gin ("lookalike_keys") with (fastupdate = off) where ${SEARCHABLE};`);
    this.addSql(`create index "addons_lookalike_stale" on "addons" ("id") where "lookalike_keys" is null;`);
    this.addSql(`create or replace function addons_lookalike_keys_stale() returns trigger language plpgsql as $$
      begin
        if new.name is distinct from old.name and new.lookalike_keys is not distinct from old.lookalike_keys then
          new.lookalike_keys := null;
        end if;
        return new;
      end $$;`);
    this.addSql(`create trigger addons_lookalike_keys_stale before update of name on "addons"
      for each row execute function addons_lookalike_keys_stale();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists addons_lookalike_keys_stale on "addons";`);
    this.addSql(`drop function if exists addons_lookalike_keys_stale();`);
    this.addSql(`drop index if exists "addons_lookalike_stale";`);
    this.addSql(`drop index if exists "addons_lookalike_keys";`);
    this.addSql(`alter table "addons" drop column if exists "lookalike_keys";`);
  }

}
