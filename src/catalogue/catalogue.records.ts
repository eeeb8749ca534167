import type { Platform as DbPlatform } from '@mikro-orm/core';
import {
  JOINED_USER_COLUMNS,
  toJoinedUserRecord,
  type JoinedUserRow,
  type UserRecord,
} from '../accounts/accounts.records.js';
import type { Translations } from '../core/i18n/translations.js';
import { recordMapper, selectList, type RecordOf, type RowOf } from '../db/columns.js';
import type { Addon, AddonUser } from './addon.entity.js';
import { ADDON_TABLE, AUTHOR_TABLE, PREVIEW_TABLE } from './addon.columns.js';
import { COMPAT_TABLE, FILE_TABLE, VERSION_TABLE } from './version.columns.js';
import type { License } from './license.entity.js';
import type { Preview } from './preview.entity.js';
import type { AddonFile, Version, VersionCompat } from './version.entity.js';

/**
 * Read-only records of the catalogue, as the read paths (GraphQL resolvers, read services) use
 * them. Loaders fill them from plain SQL rows; the entities satisfy the same types, so what a
 * mutation returns (an entity) resolves through the same resolvers.
 */

/** A relation as both an entity (`addon.currentVersion`) and a record carry it. */
export interface RowRef {
  readonly id: number;
}

/**
 * The add-on, version, file, compatibility, preview and author records are their column maps'
 * read columns (`addon.columns.ts`, `version.columns.ts`), each field written once there with its
 * column and type: the maps are the readable list of the fields.
 */
export type AddonRecord = RecordOf<typeof ADDON_TABLE>;
export type VersionRecord = RecordOf<typeof VERSION_TABLE>;
export type FileRecord = RecordOf<typeof FILE_TABLE>;
export type CompatRecord = RecordOf<typeof COMPAT_TABLE>;

/** Without the licence text, which is long and read on its own (`licenseTextById`). */
export interface LicenseRecord {
  readonly id: number;
  readonly builtin: number;
  readonly name: Translations | null;
  readonly url: string | null;
}

export type PreviewRecord = RecordOf<typeof PREVIEW_TABLE>;

/** An author (listed or not) with the public fields of the account. */
export type AuthorRecord = RecordOf<typeof AUTHOR_TABLE> & { readonly user: UserRecord };

/** Fails to compile when an entity stops satisfying its record (mutations hand entities to the resolvers). */
type Satisfies<E extends R, R> = E;
export type EntitiesSatisfyRecords = [
  Satisfies<Addon, AddonRecord>,
  Satisfies<Version, VersionRecord>,
  Satisfies<AddonFile, FileRecord>,
  Satisfies<VersionCompat, CompatRecord>,
  Satisfies<License, LicenseRecord>,
  Satisfies<Preview, PreviewRecord>,
  Satisfies<AddonUser, AuthorRecord>,
];

// Columns and row mappings. Lazy and large columns (eula, privacy_policy, search_vector,
// search_name, licence text) and the search-only denormalised ones (compat_*, platforms, colors)
// are never selected.

export const ADDON_COLUMNS = selectList(ADDON_TABLE, 'a');
export type AddonRow = RowOf<typeof ADDON_TABLE>;
export const toAddonRecord = recordMapper(ADDON_TABLE);

export const VERSION_COLUMNS = selectList(VERSION_TABLE, 'v');
export type VersionRow = RowOf<typeof VERSION_TABLE>;
export const toVersionRecord = recordMapper(VERSION_TABLE);

export const FILE_COLUMNS = selectList(FILE_TABLE, 'f');
export type FileRow = RowOf<typeof FILE_TABLE>;
export const toFileRecord = recordMapper(FILE_TABLE);

export const COMPAT_COLUMNS = selectList(COMPAT_TABLE, 'c');
export type CompatRow = RowOf<typeof COMPAT_TABLE>;
export const toCompatRecord = recordMapper(COMPAT_TABLE);

export const LICENSE_COLUMNS = 'l.id, l.builtin, l.name, l.url';

export interface LicenseRow {
  id: number;
  builtin: number;
  name: Translations | null;
  url: string | null;
}

/** A version's licence in the version's statement (`l` left-joined): prefixed, null without one. */
export const LICENSE_JOINED_COLUMNS = 'l.id as l_id, l.builtin as l_builtin, l.name as l_name, l.url as l_url';

export interface JoinedLicenseRow {
  l_id: number | null;
  l_builtin: number | null;
  l_name: Translations | null;
  l_url: string | null;
}

export function toLicenseRecord(row: LicenseRow): LicenseRecord {
  return { id: row.id, builtin: row.builtin, name: row.name, url: row.url };
}

export const PREVIEW_COLUMNS = selectList(PREVIEW_TABLE, 'p');
export type PreviewRow = RowOf<typeof PREVIEW_TABLE>;
export const toPreviewRecord = recordMapper(PREVIEW_TABLE);

export const AUTHOR_COLUMNS = `${selectList(AUTHOR_TABLE, 'au')}, ${JOINED_USER_COLUMNS}`;
export type AuthorRow = RowOf<typeof AUTHOR_TABLE> & JoinedUserRow;
const authorFields = recordMapper(AUTHOR_TABLE);

export function toAuthorRecord(row: AuthorRow, db: DbPlatform): AuthorRecord {
  return { ...authorFields(row, db), user: toJoinedUserRecord(row, db) };
}
