import { Migration } from '@mikro-orm/migrations';

/**
 * Autocomplete matches names only: a name change of a public add-on now also bumps `l:names`, which
 * autocomplete answers depend on instead of `l:text` (names, summaries, descriptions: search with a
 * query), so summary and description edits leave them cached. Same function as CacheTags otherwise.
 */
const PUBLIC = (r: string) => `(${r}.status = 4 and not ${r}.disabled_by_user and ${r}.current_version_id is not null)`;

export class Migration20261125120000_CacheTagNames extends Migration {
  override async up(): Promise<void> {
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

  }

  override async down(): Promise<void> {
    // The CacheTags version of the function: without `l:names`.
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

  }
}
