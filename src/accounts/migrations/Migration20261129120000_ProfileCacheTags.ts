import { Migration } from '@mikro-orm/migrations';

/**
 * An account's tag `u:<user id>` covers everything the `User` type shows anyone (issue 39), so that
 * anonymous answers showing authors' and raters' public profiles can be shared:
 * - every public column of `users` (the CacheTags migration bumped it for names, picture and
 *   deletion only; biography, homepage, location and occupation are added);
 * - the account's authorships: an `addon_users` row inserted, deleted or changed bumps its user's
 *   tag (the count of listed public add-ons, whether the account is a developer, hence whether it
 *   is shown at all). The add-ons' own changes (status, type, average rating) bump their `a:` tags,
 *   which the statistics record too (accountStatsByUserId).
 */
export class Migration20261129120000_ProfileCacheTags extends Migration {
  override async up(): Promise<void> {
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
                  or n.picture_hash is distinct from o.picture_hash or n.biography is distinct from o.biography
                  or n.homepage is distinct from o.homepage or n.location is distinct from o.location
                  or n.occupation is distinct from o.occupation or n.created is distinct from o.created
                  then array['u:' || n.id]
                else '{}'::text[] end) as t);
        end if;
        if cardinality(tags) > 0 then perform cache_bump(tags); end if;
        return null;
      end $$;`);
    this.addSql(`create or replace function addon_users_user_cache_tags() returns trigger language plpgsql as $$
      declare tags text[];
      begin
        if tg_op = 'INSERT' then tags := array(select distinct 'u:' || user_id from new_rows);
        elsif tg_op = 'DELETE' then tags := array(select distinct 'u:' || user_id from old_rows);
        else tags := array(select 'u:' || n.user_id from new_rows n join old_rows o on o.id = n.id
                             where (n.*) is distinct from (o.*)
                           union select 'u:' || o.user_id from new_rows n join old_rows o on o.id = n.id
                             where (n.*) is distinct from (o.*));
        end if;
        if cardinality(tags) > 0 then perform cache_bump(tags); end if;
        return null;
      end $$;`);
    this.addSql(`create trigger "addon_users_user_cache_tags_insert" after insert on "addon_users"
      referencing new table as new_rows for each statement execute function addon_users_user_cache_tags();`);
    this.addSql(`create trigger "addon_users_user_cache_tags_update" after update on "addon_users"
      referencing old table as old_rows new table as new_rows for each statement execute function addon_users_user_cache_tags();`);
    this.addSql(`create trigger "addon_users_user_cache_tags_delete" after delete on "addon_users"
      referencing old table as old_rows for each statement execute function addon_users_user_cache_tags();`);
  }

  override async down(): Promise<void> {
    for (const suffix of ['insert', 'update', 'delete']) {
      this.addSql(`drop trigger if exists "addon_users_user_cache_tags_${suffix}" on "addon_users";`);
    }
    this.addSql(`drop function if exists addon_users_user_cache_tags();`);
  }
}
