import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, intArray } from '../db/sql.js';
import { visibleVersionSql } from './public.js';

/**
 * Recomputes what an add-on row carries from its versions: the current version (newest
 * non-deleted listed version with an approved file), that version's compatibility
 * (`compat_apps`/`compat_min`/`compat_max`, in application order) and file platforms, and
 * `last_updated`. Called after any change to versions, files or compatibility.
 *
 * `onlyChanged` (reindex): rows whose values are already right are left alone instead of being
 * rewritten with the same values; the result is the same, but an unchanged row costs no new row
 * version (its stored search columns recomputed, every index entry rewritten) and fires no
 * trigger work (the cache-tag triggers already ignore rows equal to their old selves).
 */
export async function refreshAddons(
  em: EntityManager,
  addonIds: readonly number[],
  options: { onlyChanged?: boolean } = {},
): Promise<void> {
  if (!addonIds.length) return;
  const changed = options.onlyChanged
    ? `and (a.current_version_id, a.compat_apps, a.compat_min, a.compat_max, a.platforms, a.last_updated)
         is distinct from (c.version_id, c.compat_apps, c.compat_min, c.compat_max, c.platforms, coalesce(c.last_updated, a.last_updated))`
    : '';
  await executeSql(
    em,
    `with current as (
       select a.id as addon_id,
              (select v.id from versions v
                where v.addon_id = a.id and ${visibleVersionSql('v')}
                order by v.id desc limit 1) as version_id
         from addons a where a.id = any(?::int[])
     ), computed as (
       select c.addon_id, c.version_id,
              coalesce((select array_agg(vc.application order by vc.application) from version_compat vc where vc.version_id = c.version_id), '{}') as compat_apps,
              coalesce((select array_agg(vc.min_int order by vc.application) from version_compat vc where vc.version_id = c.version_id), '{}') as compat_min,
              coalesce((select array_agg(vc.max_int order by vc.application) from version_compat vc where vc.version_id = c.version_id), '{}') as compat_max,
              coalesce((select array_agg(distinct f.platform) from files f where f.version_id = c.version_id), '{}') as platforms,
              (select coalesce(v.reviewed, v.created) from versions v where v.id = c.version_id) as last_updated
         from current c
     )
     update addons a set
       current_version_id = c.version_id,
       compat_apps = c.compat_apps,
       compat_min = c.compat_min,
       compat_max = c.compat_max,
       platforms = c.platforms,
       last_updated = coalesce(c.last_updated, a.last_updated)
     from computed c
     where a.id = c.addon_id ${changed}`,
    [intArray(addonIds)],
  );
}
