import { lengthProblem } from '../core/text-limits.js';
import { App, versionInt } from '../catalogue/catalogue.enums.js';

/**
 * The parameters of an update check, as Firefox sends them (its `extensions.update.url` pref:
 * `reqVersion`, `id`, `version`, `maxAppVersion`, `status`, `appID`, `appVersion`, `appOS`,
 * `appABI`, `locale`, `currentAppVersion`, `updateType`, `compatMode`). The answer depends on four:
 * the add-on id (`id`), the application (`appID`), its version (`appVersion`) and the compatibility
 * mode; the others describe the installed copy and are read by nobody (the original's newest update
 * view reads them no more; `reqVersion` is no longer required).
 */

/** The application ids browsers send as `appID`: Firefox and Firefox for Android. */
export const APP_GUIDS: Readonly<Record<string, App>> = {
  '{ec8030f7-c20a-464f-9b0e-13a3a9e97384}': App.BROWSER,
  '{aa3c5121-dab2-40e2-81ca-7ea25febc110}': App.ANDROID,
};

/**
 * `compatMode` (Firefox's `%COMPATIBILITY_MODE%`): `strict` compares the caller's version with every
 * version's maximum; `normal` only with the maximum of files that ask for strict compatibility;
 * anything else (`ignore`) with no maximum. Absent, it is `strict`, as in the original.
 */
export type CompatMode = 'strict' | 'normal' | 'ignore';

export function compatModeOf(value: string | undefined): CompatMode {
  if (value === undefined || value === 'strict') return 'strict';
  return value === 'normal' ? 'normal' : 'ignore';
}

/** Add-on ids are `varchar(255)`: a longer one is no add-on here (checked before any use). */
export const MAX_GUID_LENGTH = 255;
/** An application version longer than this is read as no version (0). */
export const MAX_APP_VERSION_LENGTH = 64;

/** An update check the service can answer, or null when a required parameter is missing or unknown. */
export interface UpdateRequest {
  /** The add-on id exactly as asked (the answer is keyed by it). */
  readonly guid: string;
  readonly app: App;
  /** The caller's application version as the original's version_int. */
  readonly appVersion: number;
  readonly compatMode: CompatMode;
}

/**
 * The check a query string asks for (the last value of a repeated parameter counts, as Django's
 * `QueryDict.get`); null, the original's 400, when `id`, `appID` or `appVersion` is missing or
 * empty, or `appID` is no application this service knows.
 */
export function parseUpdateRequest(query: URLSearchParams): UpdateRequest | null {
  const last = (name: string) => query.getAll(name).at(-1);
  const guid = last('id');
  const app = APP_GUIDS[last('appID') ?? ''];
  const appVersion = last('appVersion');
  if (!guid || !app || !appVersion) return null;
  return { guid, app, appVersion: lenientVersionInt(appVersion), compatMode: compatModeOf(last('compatMode')) };
}

/**
 * The version_int of an application version, read from its start as the original's `version_int`
 * does (`128.0esr` is 128.0); 0 when it does not start with a number (no version's minimum is
 * lower, so nothing is offered).
 */
export function lenientVersionInt(version: string): number {
  if (lengthProblem(version, MAX_APP_VERSION_LENGTH)) return 0;
  const whole = versionInt(version);
  if (whole !== null) return whole;
  const prefix = /^\d{1,5}(?:\.(?:\d{1,2}|\*)){0,3}(?:(?:[ab]|pre)\d{0,2})?/.exec(version.trim());
  return (prefix && versionInt(prefix[0])) ?? 0;
}

/** Whether `guid` can name an add-on here (length checked first). */
export function isPossibleGuid(guid: string): boolean {
  return lengthProblem(guid, MAX_GUID_LENGTH) === null;
}
