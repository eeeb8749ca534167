import { AddonStatus, Channel, FileStatus } from './catalogue.enums.js';

/**
 * What "public" means, defined once: in TypeScript for records, and as SQL fragments for every
 * read that filters in the database (search engines, account statistics, collections, the current
 * version). Only the lifecycle (`lifecycle/`) changes the columns these read.
 *
 * A public add-on is approved (`status` public), not disabled by its developer, and has a current
 * version (a visible listed version). An add-on disabled by the vendor has status `disabled`;
 * a deleted one `deleted`: neither is public.
 *
 * A visible version is listed, not deleted, and has an approved file.
 */

/** The add-on columns `isPublicAddon` reads. */
export interface PublicAddonFacts {
  readonly status: number;
  readonly disabledByUser: boolean;
  readonly currentVersion: unknown;
}

export function isPublicAddon(addon: PublicAddonFacts): boolean {
  return addon.status === AddonStatus.PUBLIC && !addon.disabledByUser && addon.currentVersion !== null;
}

/** Users below which an add-on's page asks search engines not to index it (unless promoted). */
export const NOINDEX_BELOW_USERS = 2;

/**
 * Whether the add-on's page asks search engines not to index it (the original's `is_noindexed`):
 * an add-on nobody uses yet, and no editor promoted, is where spam and look-alikes live.
 */
export function isNoindexedAddon(addon: { promotedCategory: number | null; averageDailyUsers: number }): boolean {
  return addon.promotedCategory === null && addon.averageDailyUsers < NOINDEX_BELOW_USERS;
}

/** Disabled by its developer or by the vendor (the original's `is_disabled`). */
export function isDisabledAddon(addon: Pick<PublicAddonFacts, 'status' | 'disabledByUser'>): boolean {
  return addon.status === AddonStatus.DISABLED || addon.disabledByUser;
}

/**
 * `isPublicAddon` over the `addons` row aliased `alias` (none: the bare columns, as in the partial
 * indexes' predicates). The text is exactly the search indexes' predicate, so the planner matches
 * queries that use it to those indexes: do not reformat it.
 */
export function publicAddonSql(alias: string | null = 'a'): string {
  const p = alias ? `${alias}.` : '';
  return `${p}status = ${AddonStatus.PUBLIC} and not ${p}disabled_by_user and ${p}current_version_id is not null`;
}

/** The version facts `isVisibleVersion` reads. */
export interface VisibleVersionFacts {
  readonly channel: number;
  readonly deleted: boolean;
}

/** Listed, not deleted, with an approved file (`fileStatuses`: the statuses of its files). */
export function isVisibleVersion(version: VisibleVersionFacts, fileStatuses: readonly number[]): boolean {
  return version.channel === Channel.LISTED && !version.deleted && fileStatuses.some((s) => s === FileStatus.APPROVED);
}

/** A file of the version aliased `alias` is approved. */
export function approvedFileSql(alias = 'v'): string {
  return `exists (select 1 from files f where f.version_id = ${alias}.id and f.status = ${FileStatus.APPROVED})`;
}

/** `isVisibleVersion` over the `versions` row aliased `alias`. */
export function visibleVersionSql(alias = 'v'): string {
  return `${alias}.channel = ${Channel.LISTED} and not ${alias}.deleted and ${approvedFileSql(alias)}`;
}
