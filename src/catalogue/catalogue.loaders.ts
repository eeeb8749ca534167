import type { RequestContext } from '../core/context.js';
import { byKeys, defineLoader } from '../core/loaders.js';
import { intArray } from '../db/sql.js';
import { Addon, AddonUser } from './addon.entity.js';
import { Channel } from './catalogue.enums.js';
import { License } from './license.entity.js';
import { Preview } from './preview.entity.js';
import { AddonFile, Version, VersionCompat } from './version.entity.js';

/** Groups rows by a key, keeping their order. */
function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

const findByIds = <T extends { id: number }>(
  ctx: RequestContext,
  entity: new (...args: never[]) => T,
  ids: readonly number[],
) => ctx.em.find(entity, { id: { $in: [...ids] } } as never) as Promise<T[]>;

export const addonById = defineLoader<number, Addon | null>('addonById', async (ctx, ids) =>
  byKeys(
    ids,
    (await findByIds(ctx, Addon, ids)).map((a) => [a.id, a] as [number, Addon]),
    null,
  ),
);

export const versionById = defineLoader<number, Version | null>('versionById', async (ctx, ids) =>
  byKeys(
    ids,
    (await findByIds(ctx, Version, ids)).map((v) => [v.id, v] as [number, Version]),
    null,
  ),
);

export const licenseById = defineLoader<number, License | null>('licenseById', async (ctx, ids) =>
  byKeys(
    ids,
    (await findByIds(ctx, License, ids)).map((l) => [l.id, l] as [number, License]),
    null,
  ),
);

/** Licence texts are lazy (long); loaded only when asked for. */
export const licenseTextById = defineLoader<number, License['text']>('licenseTextById', async (ctx, ids) => {
  const rows: { id: number; text: License['text'] }[] = await ctx.em
    .getConnection()
    .execute('select id, text from licenses where id = any(?::int[])', [intArray(ids)]);
  return byKeys(
    ids,
    rows.map((r) => [r.id, r.text] as [number, License['text']]),
    null,
  );
});

export const filesByVersionId = defineLoader<number, AddonFile[]>('filesByVersionId', async (ctx, ids) => {
  const files = await ctx.em.find(AddonFile, { version: { $in: [...ids] } }, { orderBy: { id: 'asc' } });
  const groups = groupBy(files, (f) => f.version.id);
  return ids.map((id) => groups.get(id) ?? []);
});

export const compatByVersionId = defineLoader<number, VersionCompat[]>('compatByVersionId', async (ctx, ids) => {
  const rows = await ctx.em.find(VersionCompat, { version: { $in: [...ids] } }, { orderBy: { application: 'asc' } });
  const groups = groupBy(rows, (c) => c.version.id);
  return ids.map((id) => groups.get(id) ?? []);
});

/** Every author (listed or not) of each add-on, with the user, in position order. */
export const authorsByAddonId = defineLoader<number, AddonUser[]>('authorsByAddonId', async (ctx, ids) => {
  const rows = await ctx.em.find(
    AddonUser,
    { addon: { $in: [...ids] } },
    { populate: ['user'], orderBy: { position: 'asc', id: 'asc' } },
  );
  const groups = groupBy(rows, (r) => r.addon.id);
  return ids.map((id) => groups.get(id) ?? []);
});

export const previewsByAddonId = defineLoader<number, Preview[]>('previewsByAddonId', async (ctx, ids) => {
  const rows = await ctx.em.find(Preview, { addon: { $in: [...ids] } }, { orderBy: { position: 'asc', id: 'asc' } });
  const groups = groupBy(rows, (r) => r.addon.id);
  return ids.map((id) => groups.get(id) ?? []);
});

/** The newest non-deleted unlisted version id of each add-on. */
export const latestUnlistedVersionIdByAddonId = defineLoader<number, number | null>(
  'latestUnlistedVersionIdByAddonId',
  async (ctx, ids) => {
    const rows: { addon_id: number; id: number }[] = await ctx.em.getConnection().execute(
      `select distinct on (addon_id) addon_id, id from versions
        where addon_id = any(?::int[]) and channel = ? and not deleted
        order by addon_id, id desc`,
      [intArray(ids), Channel.UNLISTED],
    );
    return byKeys(
      ids,
      rows.map((r) => [r.addon_id, r.id] as [number, number]),
      null,
    );
  },
);

export interface AddonFlags {
  hasEula: boolean;
  hasPrivacyPolicy: boolean;
  /** Channels of the add-on's non-deleted versions. */
  hasListed: boolean;
  hasUnlisted: boolean;
}

/** Facts about an add-on that need more than its row: one query for a whole page. */
export const addonFlagsById = defineLoader<number, AddonFlags>('addonFlagsById', async (ctx, ids) => {
  const rows: {
    id: number;
    has_eula: boolean;
    has_privacy_policy: boolean;
    has_listed: boolean;
    has_unlisted: boolean;
  }[] = await ctx.em.getConnection().execute(
    `select a.id,
              a.eula is not null and a.eula <> '{}'::jsonb as has_eula,
              a.privacy_policy is not null and a.privacy_policy <> '{}'::jsonb as has_privacy_policy,
              exists (select 1 from versions v where v.addon_id = a.id and v.channel = ${Channel.LISTED} and not v.deleted) as has_listed,
              exists (select 1 from versions v where v.addon_id = a.id and v.channel = ${Channel.UNLISTED} and not v.deleted) as has_unlisted
         from addons a where a.id = any(?::int[])`,
    [intArray(ids)],
  );
  const none: AddonFlags = { hasEula: false, hasPrivacyPolicy: false, hasListed: false, hasUnlisted: false };
  return byKeys(
    ids,
    rows.map(
      (r) =>
        [
          r.id,
          {
            hasEula: r.has_eula,
            hasPrivacyPolicy: r.has_privacy_policy,
            hasListed: r.has_listed,
            hasUnlisted: r.has_unlisted,
          },
        ] as [number, AddonFlags],
    ),
    none,
  );
});

/** Applications (and locales) each add-on is featured for (v3). */
export const featuredAppsByAddonId = defineLoader<number, number[]>('featuredAppsByAddonId', async (ctx, ids) => {
  const rows: { addon_id: number; apps: number[] }[] = await ctx.em
    .getConnection()
    .execute(
      'select addon_id, array_agg(distinct application) as apps from featured_addons where addon_id = any(?::int[]) group by addon_id',
      [intArray(ids)],
    );
  return byKeys(
    ids,
    rows.map((r) => [r.addon_id, r.apps] as [number, number[]]),
    [],
  );
});
