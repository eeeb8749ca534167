import { Migration } from '@mikro-orm/migrations';

/**
 * A block's creation, change or removal outdates the cached answers that show the add-ons with its
 * id (`a:<addon id>`, matched case-insensitively as blocks are), as a write to the add-on would:
 * the update service must stop offering a version as soon as a block covering it commits.
 */
export class Migration20261129064500_BlockCacheTags extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function blocks_cache_tags() returns trigger language plpgsql as $$
      declare tags text[];
      begin
        if tg_op = 'INSERT' then
          tags := array(select distinct 'a:' || a.id from addons a
                         where lower(a.guid) in (select lower(guid) from new_rows));
        elsif tg_op = 'DELETE' then
          tags := array(select distinct 'a:' || a.id from addons a
                         where lower(a.guid) in (select lower(guid) from old_rows));
        else
          tags := array(select distinct 'a:' || a.id from addons a
                         where lower(a.guid) in (select lower(guid) from new_rows union select lower(guid) from old_rows));
        end if;
        if cardinality(tags) > 0 then perform cache_bump(tags); end if;
        return null;
      end $$;`);
    this.addSql(`create trigger "blocks_cache_tags_insert" after insert on "blocks"
      referencing new table as new_rows for each statement execute function blocks_cache_tags();`);
    this.addSql(`create trigger "blocks_cache_tags_update" after update on "blocks"
      referencing old table as old_rows new table as new_rows for each statement execute function blocks_cache_tags();`);
    this.addSql(`create trigger "blocks_cache_tags_delete" after delete on "blocks"
      referencing old table as old_rows for each statement execute function blocks_cache_tags();`);
    this.addSql(`create trigger "blocks_cache_tags_truncate" after truncate on "blocks"
      for each statement execute function global_cache_tags();`);
  }

  override async down(): Promise<void> {
    for (const suffix of ['insert', 'update', 'delete', 'truncate']) {
      this.addSql(`drop trigger if exists "blocks_cache_tags_${suffix}" on "blocks";`);
    }
    this.addSql(`drop function if exists blocks_cache_tags();`);
  }
}
