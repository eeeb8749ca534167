import type { Translations } from '../../core/i18n/translations.js';

/**
 * Rows as the seeder writes them: one interface per table, columns in snake_case as in the
 * database, timestamps as epoch milliseconds.
 */
export interface AddonRow {
  id: number;
  guid: string | null;
  slug: string;
  type: number;
  status: number;
  disabled_by_user: boolean;
  default_locale: string;
  name: Translations;
  summary: Translations;
  description: Translations | null;
  developer_comments: Translations | null;
  homepage: Translations | null;
  support_url: Translations | null;
  support_email: Translations | null;
  privacy_policy: Translations | null;
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
  compat_apps: number[];
  compat_min: number[];
  compat_max: number[];
  platforms: number[];
  colors: { h: number; s: number; l: number; ratio: number }[] | null;
  last_updated: number | null;
  created: number;
  modified: number;
}

export interface VersionRow {
  id: number;
  addon_id: number;
  version: string;
  channel: number;
  license_id: number | null;
  release_notes: Translations | null;
  deleted: boolean;
  created: number;
  reviewed: number | null;
}

export interface CompatRow {
  id: number;
  version_id: number;
  application: number;
  min: string;
  max: string;
  min_int: number;
  max_int: number;
}

export interface FileRow {
  id: number;
  version_id: number;
  platform: number;
  status: number;
  filename: string;
  hash: string;
  size: number;
  is_webextension: boolean;
  is_restart_required: boolean;
  is_vendor_signed: boolean;
  strict_compatibility: boolean;
  permissions: string[];
  optional_permissions: string[];
  created: number;
}

export interface PreviewRow {
  id: number;
  addon_id: number;
  position: number;
  caption: Translations | null;
  image_size: number[];
  thumbnail_size: number[];
  image_format: string;
  modified: number;
}

export interface AuthorRow {
  id: number;
  addon_id: number;
  user_id: number;
  role: number;
  listed: boolean;
  position: number;
}

export interface FeaturedRow {
  id: number;
  addon_id: number;
  application: number;
  locale: string | null;
}

export interface UserRow {
  id: number;
  username: string;
  email: string;
  display_name: string | null;
  biography: string | null;
  homepage: string | null;
  location: string | null;
  occupation: string | null;
  read_dev_agreement: number;
  created: number;
  modified: number;
}

/** The rows of a batch of add-ons, every table they touch. */
export class AddonBatch {
  readonly addons: AddonRow[] = [];
  readonly versions: VersionRow[] = [];
  readonly compat: CompatRow[] = [];
  readonly files: FileRow[] = [];
  readonly previews: PreviewRow[] = [];
  readonly authors: AuthorRow[] = [];
  readonly featured: FeaturedRow[] = [];

  get rows(): number {
    return (
      this.addons.length +
      this.versions.length +
      this.compat.length +
      this.files.length +
      this.previews.length +
      this.authors.length +
      this.featured.length
    );
  }
}

/** The next id of every table the seeder fills (ids are set explicitly, then sequences are moved). */
export interface IdCursor {
  users: number;
  addons: number;
  versions: number;
  version_compat: number;
  files: number;
  previews: number;
  addon_users: number;
  featured_addons: number;
}

export type SeededTable = keyof IdCursor;
export const SEEDED_TABLES = [
  'users',
  'addons',
  'versions',
  'version_compat',
  'files',
  'previews',
  'addon_users',
  'featured_addons',
] as const satisfies readonly SeededTable[];

/** The span of creation dates: about fifteen years up to a fixed day (not "now": runs must repeat). */
export const TIME_END = Date.UTC(2026, 10, 1);
export const TIME_START = Date.UTC(2011, 10, 1);
export const DAY = 86_400_000;
