import type { Translations } from '../core/i18n/translations.js';
import { column, nullable, pg, table, writeOnly } from '../db/columns.js';
import type { AddonStatus, AddonType } from './catalogue.enums.js';

const translations = nullable(pg.jsonb<Translations>());

/** A static theme's dominant colours (search by colour). */
export interface AddonColor {
  h: number;
  s: number;
  l: number;
  ratio: number;
}

/**
 * The `addons` columns that plain-row reads select (`AddonRecord`, keyed as its fields) and the
 * seeder writes, each once, in table order. Lazy and large columns (eula, search_vector,
 * search_name) are neither; privacy_policy, the search-only denormalised ones (compat_*,
 * platforms, colors) and modified are only written. The entity (`addon.entity.ts`) stays the
 * table's definition for migrations.
 */
export const ADDON_TABLE = table('addons', {
  id: column('id', pg.int),
  guid: column('guid', nullable(pg.text)),
  slug: column('slug', pg.text),
  type: column('type', pg.smallintEnum<AddonType>()),
  status: column('status', pg.smallintEnum<AddonStatus>()),
  disabledByUser: column('disabled_by_user', pg.boolean),
  defaultLocale: column('default_locale', pg.text),
  name: column('name', translations),
  summary: column('summary', translations),
  description: column('description', translations),
  developerComments: column('developer_comments', translations),
  homepage: column('homepage', translations),
  supportUrl: column('support_url', translations),
  supportEmail: column('support_email', translations),
  privacyPolicy: writeOnly('privacy_policy', translations),
  contributionsUrl: column('contributions_url', nullable(pg.text)),
  requiresPayment: column('requires_payment', pg.boolean),
  isExperimental: column('is_experimental', pg.boolean),
  publicStats: column('public_stats', pg.boolean),
  iconType: column('icon_type', nullable(pg.text)),
  iconHash: column('icon_hash', nullable(pg.text)),
  averageDailyUsers: column('average_daily_users', pg.int),
  weeklyDownloads: column('weekly_downloads', pg.int),
  hotness: column('hotness', pg.real),
  averageRating: column('average_rating', pg.real),
  bayesianRating: column('bayesian_rating', pg.real),
  totalRatings: column('total_ratings', pg.int),
  textRatingsCount: column('text_ratings_count', pg.int),
  currentVersion: column('current_version_id', nullable(pg.ref)),
  promotedCategory: column('promoted_category', nullable(pg.smallint)),
  targetLocale: column('target_locale', nullable(pg.text)),
  promotedApps: column('promoted_apps', pg.smallintArray),
  tags: column('tags', pg.textArray),
  categoryIds: column('category_ids', pg.intArray),
  compatApps: writeOnly('compat_apps', pg.smallintArray),
  compatMin: writeOnly('compat_min', pg.bigintArray),
  compatMax: writeOnly('compat_max', pg.bigintArray),
  platforms: writeOnly('platforms', pg.smallintArray),
  colors: writeOnly('colors', nullable(pg.jsonb<AddonColor[]>())),
  lastUpdated: column('last_updated', nullable(pg.timestamptz)),
  created: column('created', pg.timestamptz),
  modified: writeOnly('modified', pg.timestamptz),
});

export const PREVIEW_TABLE = table('previews', {
  id: column('id', pg.int),
  addon: column('addon_id', pg.ref),
  position: column('position', pg.int),
  caption: column('caption', translations),
  imageSize: column('image_size', pg.intArray),
  thumbnailSize: column('thumbnail_size', pg.intArray),
  imageFormat: column('image_format', pg.text),
  modified: column('modified', pg.timestamptz),
});

/** An add-on's authors; a read joins the account (`users u`) for the record's `user`. */
export const AUTHOR_TABLE = table('addon_users', {
  id: column('id', pg.int),
  addon: column('addon_id', pg.ref),
  user: writeOnly('user_id', pg.int),
  role: column('role', pg.smallint),
  listed: column('listed', pg.boolean),
  position: column('position', pg.int),
});
