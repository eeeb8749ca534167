import type { Platform as DbPlatform } from '@mikro-orm/core';
import {
  JOINED_USER_COLUMNS,
  toJoinedUserRecord,
  type JoinedUserRow,
  type UserRecord,
} from '../accounts/accounts.records.js';
import type { Translations } from '../core/i18n/translations.js';
import { ref, toDate, toDateOrNull, type DbBigint, type DbTimestamp } from '../db/rows.js';
import type { Addon, AddonUser } from './addon.entity.js';
import type { AddonStatus, AddonType, Channel, FileStatus, Platform } from './catalogue.enums.js';
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

export interface AddonRecord {
  readonly id: number;
  readonly guid: string | null;
  readonly slug: string;
  readonly type: AddonType;
  readonly status: AddonStatus;
  readonly disabledByUser: boolean;
  readonly defaultLocale: string;
  readonly name: Translations | null;
  readonly summary: Translations | null;
  readonly description: Translations | null;
  readonly developerComments: Translations | null;
  readonly homepage: Translations | null;
  readonly supportUrl: Translations | null;
  readonly supportEmail: Translations | null;
  readonly contributionsUrl: string | null;
  readonly requiresPayment: boolean;
  readonly isExperimental: boolean;
  readonly publicStats: boolean;
  readonly iconType: string | null;
  readonly iconHash: string | null;
  readonly averageDailyUsers: number;
  readonly weeklyDownloads: number;
  readonly hotness: number;
  readonly averageRating: number;
  readonly bayesianRating: number;
  readonly totalRatings: number;
  readonly textRatingsCount: number;
  readonly currentVersion: RowRef | null;
  readonly promotedCategory: number | null;
  readonly promotedApps: number[];
  readonly tags: string[];
  readonly categoryIds: number[];
  readonly lastUpdated: Date | null;
  readonly created: Date;
}

export interface VersionRecord {
  readonly id: number;
  readonly addon: RowRef;
  readonly version: string;
  readonly channel: Channel;
  readonly license: RowRef | null;
  readonly releaseNotes: Translations | null;
  readonly deleted: boolean;
  readonly created: Date;
  readonly reviewed: Date | null;
}

export interface FileRecord {
  readonly id: number;
  readonly version: RowRef;
  readonly platform: Platform;
  readonly status: FileStatus;
  readonly filename: string;
  readonly hash: string;
  readonly size: number;
  readonly isWebextension: boolean;
  readonly isRestartRequired: boolean;
  readonly isVendorSigned: boolean;
  readonly strictCompatibility: boolean;
  readonly permissions: string[];
  readonly optionalPermissions: string[];
  readonly created: Date;
}

export interface CompatRecord {
  readonly version: RowRef;
  readonly application: number;
  readonly min: string;
  readonly max: string;
}

/** Without the licence text, which is long and read on its own (`licenseTextById`). */
export interface LicenseRecord {
  readonly id: number;
  readonly builtin: number;
  readonly name: Translations | null;
  readonly url: string | null;
}

export interface PreviewRecord {
  readonly id: number;
  readonly addon: RowRef;
  readonly position: number;
  readonly caption: Translations | null;
  readonly imageSize: number[];
  readonly thumbnailSize: number[];
  readonly imageFormat: string;
  readonly modified: Date;
}

/** An author (listed or not) with the public fields of the account. */
export interface AuthorRecord {
  readonly id: number;
  readonly addon: RowRef;
  readonly user: UserRecord;
  readonly role: number;
  readonly listed: boolean;
  readonly position: number;
}

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

export const ADDON_COLUMNS = `a.id, a.guid, a.slug, a.type, a.status, a.disabled_by_user, a.default_locale, a.name,
  a.summary, a.description, a.developer_comments, a.homepage, a.support_url, a.support_email, a.contributions_url,
  a.requires_payment, a.is_experimental, a.public_stats, a.icon_type, a.icon_hash, a.average_daily_users,
  a.weekly_downloads, a.hotness, a.average_rating, a.bayesian_rating, a.total_ratings, a.text_ratings_count,
  a.current_version_id, a.promoted_category, a.promoted_apps, a.tags, a.category_ids, a.last_updated, a.created`;

export interface AddonRow {
  id: number;
  guid: string | null;
  slug: string;
  type: AddonType;
  status: AddonStatus;
  disabled_by_user: boolean;
  default_locale: string;
  name: Translations | null;
  summary: Translations | null;
  description: Translations | null;
  developer_comments: Translations | null;
  homepage: Translations | null;
  support_url: Translations | null;
  support_email: Translations | null;
  contributions_url: string | null;
  requires_payment: boolean;
  is_experimental: boolean;
  public_stats: boolean;
  icon_type: string | null;
  icon_hash: string | null;
  average_daily_users: number;
  weekly_downloads: number;
  hotness: number;
  average_rating: number;
  bayesian_rating: number;
  total_ratings: number;
  text_ratings_count: number;
  current_version_id: number | null;
  promoted_category: number | null;
  promoted_apps: number[];
  tags: string[];
  category_ids: number[];
  last_updated: DbTimestamp | null;
  created: DbTimestamp;
}

export function toAddonRecord(row: AddonRow, db: DbPlatform): AddonRecord {
  return {
    id: row.id,
    guid: row.guid,
    slug: row.slug,
    type: row.type,
    status: row.status,
    disabledByUser: row.disabled_by_user,
    defaultLocale: row.default_locale,
    name: row.name,
    summary: row.summary,
    description: row.description,
    developerComments: row.developer_comments,
    homepage: row.homepage,
    supportUrl: row.support_url,
    supportEmail: row.support_email,
    contributionsUrl: row.contributions_url,
    requiresPayment: row.requires_payment,
    isExperimental: row.is_experimental,
    publicStats: row.public_stats,
    iconType: row.icon_type,
    iconHash: row.icon_hash,
    averageDailyUsers: row.average_daily_users,
    weeklyDownloads: row.weekly_downloads,
    hotness: row.hotness,
    averageRating: row.average_rating,
    bayesianRating: row.bayesian_rating,
    totalRatings: row.total_ratings,
    textRatingsCount: row.text_ratings_count,
    currentVersion: ref(row.current_version_id),
    promotedCategory: row.promoted_category,
    promotedApps: row.promoted_apps,
    tags: row.tags,
    categoryIds: row.category_ids,
    lastUpdated: toDateOrNull(db, row.last_updated),
    created: toDate(db, row.created),
  };
}

export const VERSION_COLUMNS =
  'v.id, v.addon_id, v.version, v.channel, v.license_id, v.release_notes, v.deleted, v.created, v.reviewed';

export interface VersionRow {
  id: number;
  addon_id: number;
  version: string;
  channel: Channel;
  license_id: number | null;
  release_notes: Translations | null;
  deleted: boolean;
  created: DbTimestamp;
  reviewed: DbTimestamp | null;
}

export function toVersionRecord(row: VersionRow, db: DbPlatform): VersionRecord {
  return {
    id: row.id,
    addon: { id: row.addon_id },
    version: row.version,
    channel: row.channel,
    license: ref(row.license_id),
    releaseNotes: row.release_notes,
    deleted: row.deleted,
    created: toDate(db, row.created),
    reviewed: toDateOrNull(db, row.reviewed),
  };
}

export const FILE_COLUMNS = `f.id, f.version_id, f.platform, f.status, f.filename, f.hash, f.size, f.is_webextension,
  f.is_restart_required, f.is_vendor_signed, f.strict_compatibility, f.permissions, f.optional_permissions, f.created`;

export interface FileRow {
  id: number;
  version_id: number;
  platform: Platform;
  status: FileStatus;
  filename: string;
  hash: string;
  size: DbBigint;
  is_webextension: boolean;
  is_restart_required: boolean;
  is_vendor_signed: boolean;
  strict_compatibility: boolean;
  permissions: string[];
  optional_permissions: string[];
  created: DbTimestamp;
}

export function toFileRecord(row: FileRow, db: DbPlatform): FileRecord {
  return {
    id: row.id,
    version: { id: row.version_id },
    platform: row.platform,
    status: row.status,
    filename: row.filename,
    hash: row.hash,
    size: Number(row.size),
    isWebextension: row.is_webextension,
    isRestartRequired: row.is_restart_required,
    isVendorSigned: row.is_vendor_signed,
    strictCompatibility: row.strict_compatibility,
    permissions: row.permissions,
    optionalPermissions: row.optional_permissions,
    created: toDate(db, row.created),
  };
}

export const COMPAT_COLUMNS = 'c.version_id, c.application, c.min, c.max';

export interface CompatRow {
  version_id: number;
  application: number;
  min: string;
  max: string;
}

export function toCompatRecord(row: CompatRow): CompatRecord {
  return { version: { id: row.version_id }, application: row.application, min: row.min, max: row.max };
}

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

export const PREVIEW_COLUMNS =
  'p.id, p.addon_id, p.position, p.caption, p.image_size, p.thumbnail_size, p.image_format, p.modified';

export interface PreviewRow {
  id: number;
  addon_id: number;
  position: number;
  caption: Translations | null;
  image_size: number[];
  thumbnail_size: number[];
  image_format: string;
  modified: DbTimestamp;
}

export function toPreviewRecord(row: PreviewRow, db: DbPlatform): PreviewRecord {
  return {
    id: row.id,
    addon: { id: row.addon_id },
    position: row.position,
    caption: row.caption,
    imageSize: row.image_size,
    thumbnailSize: row.thumbnail_size,
    imageFormat: row.image_format,
    modified: toDate(db, row.modified),
  };
}

export const AUTHOR_COLUMNS = `au.id, au.addon_id, au.role, au.listed, au.position, ${JOINED_USER_COLUMNS}`;

export interface AuthorRow extends JoinedUserRow {
  id: number;
  addon_id: number;
  role: number;
  listed: boolean;
  position: number;
}

export function toAuthorRecord(row: AuthorRow, db: DbPlatform): AuthorRecord {
  return {
    id: row.id,
    addon: { id: row.addon_id },
    role: row.role,
    listed: row.listed,
    position: row.position,
    user: toJoinedUserRecord(row, db),
  };
}
