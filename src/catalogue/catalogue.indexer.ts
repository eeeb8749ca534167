import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, intArray } from '../db/sql.js';
import { visibleVersionSql } from './public.js';

/**
 * Recomputes what an add-on row carries from its versions: the current version (newest
 * non-deleted listed version with an approved file), that version's compatibility
 * (`compat_apps`/`compat_min`/`compat_max`, in application order) and file platforms, and
 * `last_updated`. Called after any change to versions, files or compatibility.
 */
export async function refreshAddons(em: EntityManager, addonIds: readonly number[]): Promise<void> {
  if (!addonIds.length) return;
  await executeSql(
    em,
    `with current as (
       select a.id as addon_id,
              (select v.id from versions v
                where v.addon_id = a.id and ${visibleVersionSql('v')}
                order by v.id desc limit 1) as version_id
         from addons a where a.id = any(?::int[])
     )
     update addons a set
       current_version_id = c.version_id,
       compat_apps = coalesce((select array_agg(vc.application order by vc.application) from version_compat vc where vc.version_id = c.version_id), '{}'),
       compat_min = coalesce((select array_agg(vc.min_int order by vc.application) from version_compat vc where vc.version_id = c.version_id), '{}'),
       compat_max = coalesce((select array_agg(vc.max_int order by vc.application) from version_compat vc where vc.version_id = c.version_id), '{}'),
       platforms = coalesce((select array_agg(distinct f.platform) from files f where f.version_id = c.version_id), '{}'),
       last_updated = coalesce((select coalesce(v.reviewed, v.created) from versions v where v.id = c.version_id), a.last_updated)
     from current c
     where a.id = c.addon_id`,
    [intArray(addonIds)],
  );
}
