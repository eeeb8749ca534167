/**
 * Catalogue enumerations. Stored as small integers (the original's codes); their names are
 * mapped here once (what older REST versions call them differently is in rest-compat's gates).
 */

export const AddonType = {
  EXTENSION: 1,
  THEME: 2,
  DICTIONARY: 3,
  SEARCH: 4,
  LANGUAGE: 5,
  PERSONA: 9,
  STATICTHEME: 10,
} as const;
export type AddonType = (typeof AddonType)[keyof typeof AddonType];

const TYPE_NAMES: Record<AddonType, string> = {
  1: 'extension',
  2: 'theme',
  3: 'dictionary',
  4: 'search',
  5: 'language',
  9: 'persona',
  10: 'statictheme',
};

export const addonTypeName = (type: AddonType): string => TYPE_NAMES[type];

/** The type a name stands for, or null. */
export function addonTypeFromName(name: string): AddonType | null {
  const entry = Object.entries(TYPE_NAMES).find(([, n]) => n === name);
  return entry ? (Number(entry[0]) as AddonType) : null;
}

export const AddonStatus = {
  INCOMPLETE: 0,
  UNREVIEWED: 1,
  PENDING: 2,
  NOMINATED: 3,
  PUBLIC: 4,
  DISABLED: 5,
  LITE: 7,
  LITE_NOMINATED: 8,
  REVIEW_PENDING: 10,
  DELETED: 11,
  REJECTED: 12,
} as const;
export type AddonStatus = (typeof AddonStatus)[keyof typeof AddonStatus];

const STATUS_NAMES: Record<AddonStatus, string> = {
  0: 'incomplete',
  1: 'unreviewed',
  2: 'pending',
  3: 'nominated',
  4: 'public',
  5: 'disabled',
  7: 'lite',
  8: 'lite-nominated',
  10: 'review-pending',
  11: 'deleted',
  12: 'rejected',
};

export const addonStatusName = (status: AddonStatus): string => STATUS_NAMES[status];

/**
 * The statuses of today's add-ons: public, deleted, disabled, nominated, incomplete, unreviewed
 * and rejected (the listing's content was rejected: `lifecycle/listing-review.service.ts`, the
 * original's STATUS_REJECTED). The legacy ones read as the current status they became.
 */
export function currentAddonStatus(status: AddonStatus): AddonStatus {
  if (status === AddonStatus.LITE || status === AddonStatus.REVIEW_PENDING) return AddonStatus.PUBLIC;
  if (status === AddonStatus.LITE_NOMINATED || status === AddonStatus.PENDING) return AddonStatus.NOMINATED;
  return status;
}

/** File review states (files[].status is the integer in v3/v4). */
export const FileStatus = {
  AWAITING_REVIEW: 1,
  APPROVED: 4,
  DISABLED: 5,
} as const;
export type FileStatus = (typeof FileStatus)[keyof typeof FileStatus];

export const Channel = { UNLISTED: 1, LISTED: 2 } as const;
export type Channel = (typeof Channel)[keyof typeof Channel];
export const channelName = (channel: Channel) => (channel === Channel.LISTED ? 'listed' : 'unlisted');

/** Applications (`app` parameter, compatibility keys); Firefox and Firefox for Android today. */
export const App = { BROWSER: 1, MAILCLIENT: 18, SUITE: 59, ANDROID: 61 } as const;
export type App = (typeof App)[keyof typeof App];
const APP_NAMES: Record<App, string> = { 1: 'browser', 18: 'mailclient', 59: 'suite', 61: 'android' };
export const appName = (app: App) => APP_NAMES[app];
export const CURRENT_APPS: readonly App[] = [App.ANDROID, App.BROWSER];
/** Today's and the retired applications (SeaMonkey, Thunderbird). */
export const ALL_APPS: readonly App[] = [App.ANDROID, App.BROWSER, App.SUITE, App.MAILCLIENT];

/** `app` accepts a name or the numeric id, limited to `known` applications. */
export function appFromParam(value: string, known: readonly App[] = CURRENT_APPS): App | null {
  const trimmed = value.trim().toLowerCase();
  const byName = Object.entries(APP_NAMES).find(([, name]) => name === trimmed);
  const app = (byName ? Number(byName[0]) : /^\d+$/.test(trimmed) ? Number(trimmed) : NaN) as App;
  return known.includes(app) ? app : null;
}

export const Platform = { ALL: 1, LINUX: 2, MAC: 3, WINDOWS: 5, ANDROID: 7 } as const;
export type Platform = (typeof Platform)[keyof typeof Platform];
const PLATFORM_NAMES: Record<Platform, string> = { 1: 'all', 2: 'linux', 3: 'mac', 5: 'windows', 7: 'android' };
export const platformName = (p: Platform) => PLATFORM_NAMES[p];
const PLATFORM_ALIASES: Record<string, Platform> = {
  all: Platform.ALL,
  linux: Platform.LINUX,
  mac: Platform.MAC,
  darwin: Platform.MAC,
  macosx: Platform.MAC,
  windows: Platform.WINDOWS,
  win: Platform.WINDOWS,
  android: Platform.ANDROID,
};
export const platformFromParam = (value: string): Platform | null =>
  PLATFORM_ALIASES[value.trim().toLowerCase()] ?? null;

/** Promoted (badged) programme categories; `badged` in the v4 filter means the four badged ones. */
export const PromotedCategory = {
  LINE: 1,
  RECOMMENDED: 2,
  SPONSORED: 3,
  SPOTLIGHT: 4,
  STRATEGIC: 5,
  VERIFIED: 6,
} as const;
export type PromotedCategory = (typeof PromotedCategory)[keyof typeof PromotedCategory];
const PROMOTED_NAMES: Record<PromotedCategory, string> = {
  1: 'line',
  2: 'recommended',
  3: 'sponsored',
  4: 'spotlight',
  5: 'strategic',
  6: 'verified',
};
export const promotedName = (c: PromotedCategory) => PROMOTED_NAMES[c];
export const BADGED: PromotedCategory[] = [
  PromotedCategory.LINE,
  PromotedCategory.RECOMMENDED,
  PromotedCategory.SPONSORED,
  PromotedCategory.VERIFIED,
];
export function promotedFromParam(value: string): PromotedCategory[] | null {
  const name = value.trim().toLowerCase();
  if (name === 'badged') return BADGED;
  const entry = Object.entries(PROMOTED_NAMES).find(([, n]) => n === name);
  return entry ? [Number(entry[0]) as PromotedCategory] : null;
}

/**
 * Application version strings as comparable integers (the original's version_int): a major
 * version of up to five digits (Firefox 128 and later; the original has no limit), up to three
 * two-digit minor parts, then an alpha/beta/pre-release marker. `*` is the largest.
 */
export function versionInt(version: string): number | null {
  const v = version.trim();
  if (v === '*') return STAR_VERSION_INT;
  const m = /^(\d{1,5})(?:\.(\d{1,2}|\*))?(?:\.(\d{1,2}|\*))?(?:\.(\d{1,2}|\*))?(?:([ab]|pre)(\d{0,2}))?$/.exec(v);
  if (!m) return null;
  const part = (s: string | undefined) => (s === '*' ? 99 : Number(s ?? 0));
  const alpha = m[5] === 'a' ? 0 : m[5] === 'b' ? 1 : m[5] === 'pre' ? 2 : 3;
  return (
    ((((part(m[1]) * 100 + part(m[2])) * 100 + part(m[3])) * 100 + part(m[4])) * 10 + alpha) * 100 + Number(m[6] || 0)
  );
}

/** `*`: above every version `versionInt` reads (99999.99.99.99). */
export const STAR_VERSION_INT = 99999_99_99_99_9_99;
/** What `*` was while major versions had two digits (stored rows are moved to STAR_VERSION_INT). */
export const OLD_STAR_VERSION_INT = 99_99_99_99_9_99;
