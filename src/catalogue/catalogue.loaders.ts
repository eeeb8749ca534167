import type { Platform as DbPlatform } from '@mikro-orm/core';
import { cacheTagVersionSql, recordCacheTag, type RequestContext } from '../core/context.js';
import type { Translations } from '../core/i18n/translations.js';
import { byKeys, defineLoader } from '../core/loaders.js';
import { lookupRows } from '../db/rows.js';
import { intArray, textArray } from '../db/sql.js';
import { Channel } from './catalogue.enums.js';
import {
  ADDON_COLUMNS,
  AUTHOR_COLUMNS,
  COMPAT_COLUMNS,
  FILE_COLUMNS,
  LICENSE_COLUMNS,
  PREVIEW_COLUMNS,
  VERSION_COLUMNS,
  LICENSE_JOINED_COLUMNS,
  toAddonRecord,
  toAuthorRecord,
  toCompatRecord,
  toFileRecord,
  toLicenseRecord,
  toPreviewRecord,
  toVersionRecord,
  type AddonRecord,
  type AddonRow,
  type AuthorRow,
  type CompatRow,
  type FileRow,
  type JoinedLicenseRow,
  type PreviewRow,
  type VersionRow,
  type AuthorRecord,
  type CompatRecord,
  type FileRecord,
  type LicenseRecord,
  type PreviewRecord,
  type VersionRecord,
} from './catalogue.records.js';

// Catalogue reads are plain rows mapped into read-only records (catalogue.records.ts): no entity
// hydration on the read path. Arrays go to PostgreSQL as one literal (see src/db/sql.ts).

/** Groups records by a key, keeping their order; every key gets a list. */
function groupBy<T>(keys: readonly number[], records: T[], key: (record: T) => number): T[][] {
  const groups = new Map<number, T[]>();
  for (const record of records) {
    const k = key(record);
    const group = groups.get(k);
    if (group) group.push(record);
    else groups.set(k, [record]);
  }
  return keys.map((k) => groups.get(k) ?? []);
}

/** One record per key in key order (the first one of a key wins), null where none. */
function oneByKey<K, T>(keys: readonly K[], records: T[], key: (record: T) => K): (T | null)[] {
  const found = new Map<K, T>();
  for (const record of records) {
    const k = key(record);
    if (!found.has(k)) found.set(k, record);
  }
  return keys.map((k) => found.get(k) ?? null);
}

/** The rows of `sql`, whose one parameter is `keys` (an array literal), as records. */
async function selectRecords<Row, R>(
  ctx: RequestContext,
  sql: string,
  keys: string,
  toRecord: (row: Row, db: DbPlatform) => R,
): Promise<R[]> {
  const rows = await lookupRows<Row>(ctx.em, sql, [keys]);
  const db = ctx.em.getPlatform();
  return rows.map((row) => toRecord(row, db));
}

/** Rows of a loader that records the cache tag of each (its version is read in the same statement). */
async function selectTagged<Row, R>(
  ctx: RequestContext,
  sql: (versionColumn: string) => string,
  tagExpression: string,
  keys: string,
  tagOf: (record: R) => string,
  toRecord: (row: Row, db: DbPlatform) => R,
): Promise<R[]> {
  const rows = await lookupRows<Row & { cache_version: string | null }>(
    ctx.em,
    sql(cacheTagVersionSql(ctx, tagExpression, 'cache_version')),
    [keys],
  );
  const db = ctx.em.getPlatform();
  return rows.map((row) => {
    const record = toRecord(row, db);
    recordCacheTag(ctx, tagOf(record), row.cache_version);
    return record;
  });
}

/**
 * What an add-on object shows of its neighbours, read with the add-on in one statement and primed
 * into their loaders: authors (with their accounts), previews, and the current version with its
 * licence, files and compatibility. A detail or a page of search results then costs one statement
 * for all of them instead of six. Each part is the same SELECT as its own loader's (`where` is the
 * key condition), aggregated in the loader's order.
 */
const AUTHOR_TAG = `'u:' || u.id`;
/** `versionColumn`: the authors' cache tag versions (`cacheTagVersionSql`). */
const authorsSql = (where: string, versionColumn: string) =>
  `select ${AUTHOR_COLUMNS}${versionColumn} from addon_users au join users u on u.id = au.user_id where ${where}`;
const previewsSql = (where: string) => `select ${PREVIEW_COLUMNS} from previews p where ${where}`;
const versionsSql = (where: string, versionColumn = '') =>
  `select ${VERSION_COLUMNS}, ${LICENSE_JOINED_COLUMNS}${versionColumn}
     from versions v left join licenses l on l.id = v.license_id where ${where}`;
const filesSql = (where: string) => `select ${FILE_COLUMNS} from files f where ${where}`;
const compatSql = (where: string) => `select ${COMPAT_COLUMNS} from version_compat c where ${where}`;
/** Orders of the loaders' lists, by their output columns (`x`). */
const AUTHORS_ORDER = 'x.position, x.id';
const PREVIEWS_ORDER = 'x.position, x.id';
const FILES_ORDER = 'x.id';
const COMPAT_ORDER = 'x.application';

const jsonList = (select: string, order: string, alias: string) =>
  `(select coalesce(json_agg(x order by ${order}), '[]'::json) from (${select}) x) as ${alias}`;

const neighbourColumns = (ctx: RequestContext) =>
  [
    jsonList(
      authorsSql('au.addon_id = a.id', cacheTagVersionSql(ctx, AUTHOR_TAG, 'cache_version')),
      AUTHORS_ORDER,
      'page_authors',
    ),
    jsonList(previewsSql('p.addon_id = a.id'), PREVIEWS_ORDER, 'page_previews'),
    `(select row_to_json(x) from (${versionsSql('v.id = a.current_version_id')}) x) as page_version`,
    jsonList(filesSql('f.version_id = a.current_version_id'), FILES_ORDER, 'page_files'),
    jsonList(compatSql('c.version_id = a.current_version_id'), COMPAT_ORDER, 'page_compat'),
  ].join(',\n    ');

interface NeighbourRows {
  page_authors: (AuthorRow & { cache_version: string | null })[];
  page_previews: PreviewRow[];
  page_version: (VersionRow & JoinedLicenseRow) | null;
  page_files: FileRow[];
  page_compat: CompatRow[];
}

function primeNeighbours(ctx: RequestContext, row: { id: number } & NeighbourRows, db: DbPlatform) {
  const authors = row.page_authors.map((author) => {
    const record = toAuthorRecord(author, db);
    recordCacheTag(ctx, `u:${record.user.id}`, author.cache_version);
    return record;
  });
  ctx.loaders.get(authorsByAddonId).prime(row.id, authors);
  ctx.loaders.get(previewsByAddonId).prime(
    row.id,
    row.page_previews.map((preview) => toPreviewRecord(preview, db)),
  );
  const version = row.page_version;
  if (!version) return;
  ctx.loaders.get(versionById).prime(version.id, toVersionWithLicence(ctx, version, db));
  ctx.loaders.get(filesByVersionId).prime(
    version.id,
    row.page_files.map((file) => toFileRecord(file, db)),
  );
  ctx.loaders.get(compatByVersionId).prime(
    version.id,
    row.page_compat.map((compat) => toCompatRecord(compat, db)),
  );
}

/**
 * Add-on rows with what a detail also shows of each (flags, featured applications, and the
 * neighbours above), read in the same statement and primed into their loaders.
 */
const selectAddons = (ctx: RequestContext, where: string, keys: string) =>
  selectTagged(
    ctx,
    (version) =>
      `select ${ADDON_COLUMNS}, ${ADDON_FLAG_COLUMNS}, ${FEATURED_APPS_COLUMN}${version},
    ${neighbourColumns(ctx)}
  from addons a where ${where}`,
    `'a:' || a.id`,
    keys,
    (a: AddonRecord) => `a:${a.id}`,
    (row: AddonRow & AddonFlagsRow & NeighbourRows & { featured_apps: number[] }, db) => {
      ctx.loaders.get(addonFlagsById).prime(row.id, toAddonFlags(row));
      ctx.loaders.get(featuredAppsByAddonId).prime(row.id, row.featured_apps);
      primeNeighbours(ctx, row, db);
      return toAddonRecord(row, db);
    },
  );

export const addonById = defineLoader<number, AddonRecord | null>('addonById', async (ctx, ids) =>
  oneByKey(ids, await selectAddons(ctx, 'a.id = any(?::int[])', intArray(ids)), (a) => a.id),
);

export const addonBySlug = defineLoader<string, AddonRecord | null>('addonBySlug', async (ctx, slugs) => {
  const addons = await selectAddons(ctx, 'a.slug = any(?::text[])', textArray(slugs));
  return oneByKey(slugs, addons, (a) => a.slug);
});

/** Keys are lower-cased guids (guids are ASCII); the lowest id wins when two differ only in case. */
export const addonByLowerGuid = defineLoader<string, AddonRecord | null>('addonByLowerGuid', async (ctx, guids) =>
  oneByKey(
    guids,
    await selectAddons(ctx, 'lower(a.guid) = any(?::text[]) order by a.id', textArray(guids)),
    (a) => a.guid?.toLowerCase() ?? '',
  ),
);

/** A version row with its left-joined licence, which is primed into `licenseById`. */
function toVersionWithLicence(ctx: RequestContext, row: VersionRow & JoinedLicenseRow, db: DbPlatform) {
  if (row.license_id !== null && row.l_id !== null) {
    ctx.loaders.get(licenseById).prime(row.license_id, {
      id: row.l_id,
      builtin: row.l_builtin!,
      name: row.l_name,
      url: row.l_url,
    });
  }
  return toVersionRecord(row, db);
}

export const versionById = defineLoader<number, VersionRecord | null>('versionById', async (ctx, ids) => {
  // Each version's licence comes with it (primed into licenseById): one statement, not two.
  const versions = await selectTagged(
    ctx,
    (version) => versionsSql('v.id = any(?::int[])', version),
    `'a:' || v.addon_id`,
    intArray(ids),
    (v: VersionRecord) => `a:${v.addon.id}`,
    (row: VersionRow & JoinedLicenseRow, db) => toVersionWithLicence(ctx, row, db),
  );
  return oneByKey(ids, versions, (v) => v.id);
});

export const licenseById = defineLoader<number, LicenseRecord | null>('licenseById', async (ctx, ids) => {
  const sql = `select ${LICENSE_COLUMNS} from licenses l where l.id = any(?::int[])`;
  return oneByKey(ids, await selectRecords(ctx, sql, intArray(ids), toLicenseRecord), (l) => l.id);
});

/** Licence texts are long; loaded only when asked for. */
export const licenseTextById = defineLoader<number, Translations | null>('licenseTextById', async (ctx, ids) => {
  const rows = await lookupRows<{ id: number; text: Translations | null }>(
    ctx.em,
    'select id, text from licenses where id = any(?::int[])',
    [intArray(ids)],
  );
  return byKeys(
    ids,
    rows.map((r) => [r.id, r.text] as [number, Translations | null]),
    null,
  );
});

export const filesByVersionId = defineLoader<number, FileRecord[]>('filesByVersionId', async (ctx, ids) => {
  const sql = `${filesSql('f.version_id = any(?::int[])')} order by f.id`;
  return groupBy(ids, await selectRecords(ctx, sql, intArray(ids), toFileRecord), (f) => f.version.id);
});

export const compatByVersionId = defineLoader<number, CompatRecord[]>('compatByVersionId', async (ctx, ids) => {
  const sql = `${compatSql('c.version_id = any(?::int[])')} order by c.application`;
  return groupBy(ids, await selectRecords(ctx, sql, intArray(ids), toCompatRecord), (c) => c.version.id);
});

/** Every author (listed or not) of each add-on, with the account's public fields, in position order. */
export const authorsByAddonId = defineLoader<number, AuthorRecord[]>('authorsByAddonId', async (ctx, ids) => {
  const authors = await selectTagged(
    ctx,
    (version) => `${authorsSql('au.addon_id = any(?::int[])', version)} order by au.position, au.id`,
    AUTHOR_TAG,
    intArray(ids),
    (a: AuthorRecord) => `u:${a.user.id}`,
    toAuthorRecord,
  );
  return groupBy(ids, authors, (a) => a.addon.id);
});

export const previewsByAddonId = defineLoader<number, PreviewRecord[]>('previewsByAddonId', async (ctx, ids) => {
  const sql = `${previewsSql('p.addon_id = any(?::int[])')} order by p.position, p.id`;
  return groupBy(ids, await selectRecords(ctx, sql, intArray(ids), toPreviewRecord), (p) => p.addon.id);
});

/** The newest non-deleted unlisted version id of each add-on. */
export const latestUnlistedVersionIdByAddonId = defineLoader<number, number | null>(
  'latestUnlistedVersionIdByAddonId',
  async (ctx, ids) => {
    const rows = await lookupRows<{ addon_id: number; id: number }>(
      ctx.em,
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

/** The flags' columns, in the add-on statements and on their own (`a` is the add-on). */
const ADDON_FLAG_COLUMNS = `a.eula is not null and a.eula <> '{}'::jsonb as has_eula,
  a.privacy_policy is not null and a.privacy_policy <> '{}'::jsonb as has_privacy_policy,
  exists (select 1 from versions v where v.addon_id = a.id and v.channel = ${Channel.LISTED} and not v.deleted) as has_listed,
  exists (select 1 from versions v where v.addon_id = a.id and v.channel = ${Channel.UNLISTED} and not v.deleted) as has_unlisted`;

interface AddonFlagsRow {
  has_eula: boolean;
  has_privacy_policy: boolean;
  has_listed: boolean;
  has_unlisted: boolean;
}

const toAddonFlags = (r: AddonFlagsRow): AddonFlags => ({
  hasEula: r.has_eula,
  hasPrivacyPolicy: r.has_privacy_policy,
  hasListed: r.has_listed,
  hasUnlisted: r.has_unlisted,
});

/** An add-on's licence agreement and privacy policy (large columns its row leaves out). */
export interface AddonPolicies {
  eula: Translations | null;
  privacyPolicy: Translations | null;
}

export const addonPoliciesById = defineLoader<number, AddonPolicies>('addonPoliciesById', async (ctx, ids) => {
  const rows = await lookupRows<{ id: number; eula: Translations | null; privacy_policy: Translations | null }>(
    ctx.em,
    `select a.id, a.eula, a.privacy_policy from addons a where a.id = any(?::int[])`,
    [intArray(ids)],
  );
  const none: AddonPolicies = { eula: null, privacyPolicy: null };
  return byKeys(
    ids,
    rows.map((r) => [r.id, { eula: r.eula, privacyPolicy: r.privacy_policy }] as [number, AddonPolicies]),
    none,
  );
});

/** Facts about an add-on that need more than its row: one query for a whole page. */
export const addonFlagsById = defineLoader<number, AddonFlags>('addonFlagsById', async (ctx, ids) => {
  const rows = await lookupRows<{ id: number } & AddonFlagsRow>(
    ctx.em,
    `select a.id, ${ADDON_FLAG_COLUMNS} from addons a where a.id = any(?::int[])`,
    [intArray(ids)],
  );
  const none: AddonFlags = { hasEula: false, hasPrivacyPolicy: false, hasListed: false, hasUnlisted: false };
  return byKeys(
    ids,
    rows.map((r) => [r.id, toAddonFlags(r)] as [number, AddonFlags]),
    none,
  );
});

/** The distinct applications an add-on (`a`) is featured for. */
const FEATURED_APPS_COLUMN = `array(select distinct f.application from featured_addons f where f.addon_id = a.id order by 1) as featured_apps`;

/** Applications (and locales) each add-on is featured for (v3). */
export const featuredAppsByAddonId = defineLoader<number, number[]>('featuredAppsByAddonId', async (ctx, ids) => {
  const rows = await lookupRows<{ id: number; featured_apps: number[] }>(
    ctx.em,
    `select a.id, ${FEATURED_APPS_COLUMN} from addons a where a.id = any(?::int[])`,
    [intArray(ids)],
  );
  return byKeys(
    ids,
    rows.map((r) => [r.id, r.featured_apps] as [number, number[]]),
    [],
  );
});
