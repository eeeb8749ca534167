import { Migration } from '@mikro-orm/migrations';

/**
 * Ratings get a cache tag of their own, `r:<addon id>`: any insert, update or delete of a rating
 * or reply bumps its add-on's ratings tag (one statement per batch, as the CacheTags migration's
 * triggers do), so that an anonymous list of an add-on's ratings can be answered from the answer
 * cache (REST `GET /api/v4/ratings/rating/?addon=…` and the GraphQL `ratings(addon:)` query) and is
 * outdated by exactly the writes that change it. A truncate bumps `global`.
 */
export class Migration20261127113000_RatingCacheTags extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function rating_rows_cache_tags() returns trigger language plpgsql as $$
      declare tags text[];
      begin
        if tg_op = 'INSERT' then tags := array(select distinct 'r:' || addon_id from new_rows);
        elsif tg_op = 'DELETE' then tags := array(select distinct 'r:' || addon_id from old_rows);
        else tags := array(select 'r:' || addon_id from new_rows union select 'r:' || addon_id from old_rows);
        end if;
        if cardinality(tags) > 0 then perform cache_bump(tags); end if;
        return null;
      end $$;`);
    this.addSql(`create trigger "ratings_cache_tags_insert" after insert on "ratings"
      referencing new table as new_rows for each statement execute function rating_rows_cache_tags();`);
    this.addSql(`create trigger "ratings_cache_tags_update" after update on "ratings"
      referencing old table as old_rows new table as new_rows for each statement execute function rating_rows_cache_tags();`);
    this.addSql(`create trigger "ratings_cache_tags_delete" after delete on "ratings"
      referencing old table as old_rows for each statement execute function rating_rows_cache_tags();`);
    this.addSql(`create trigger "ratings_cache_tags_truncate" after truncate on "ratings"
      for each statement execute function global_cache_tags();`);
  }

  override async down(): Promise<void> {
    for (const suffix of ['insert', 'update', 'delete', 'truncate']) {
      this.addSql(`drop trigger if exists "ratings_cache_tags_${suffix}" on "ratings";`);
    }
    this.addSql(`drop function if exists rating_rows_cache_tags();`);
  }
}
