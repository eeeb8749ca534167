import type { WriteRowOf } from '../../db/columns.js';
import type { Translations } from '../../core/i18n/translations.js';
import type { ADDON_TABLE, AUTHOR_TABLE, PREVIEW_TABLE } from '../addon.columns.js';
import type { COMPAT_TABLE, FILE_TABLE, VERSION_TABLE } from '../version.columns.js';

/**
 * Rows as the seeder writes them: one type per table, columns in snake_case as in the database,
 * timestamps as epoch milliseconds. The catalogue's tables are their column maps' (every column
 * the map lists, `WriteRowOf`); the seeder always writes an add-on's name and summary.
 */
export type AddonRow = WriteRowOf<typeof ADDON_TABLE> & { name: Translations; summary: Translations };
export type VersionRow = WriteRowOf<typeof VERSION_TABLE>;
export type CompatRow = WriteRowOf<typeof COMPAT_TABLE>;
/** Files also say whether they were signed (`is_signed`, the signing domain's column): approved ones are. */
export type FileRow = WriteRowOf<typeof FILE_TABLE> & { is_signed: boolean };
export type PreviewRow = WriteRowOf<typeof PREVIEW_TABLE>;
export type AuthorRow = WriteRowOf<typeof AUTHOR_TABLE>;

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
