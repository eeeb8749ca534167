import {
  ALL_APPS,
  AddonStatus,
  AddonType,
  App,
  CURRENT_APPS,
  addonStatusName,
  addonTypeFromName,
  addonTypeName,
  appFromParam,
  appName,
  currentAddonStatus,
  Platform,
  platformName,
  PromotedCategory,
  promotedName,
} from '../../src/catalogue/catalogue.enums.js';
import { gate, type ApiVersion } from '../gates.js';

/** The original's names of the applications whose neutral names differ. */
const ORIGINAL_APP_NAMES: Partial<Record<App, string>> = {
  [App.BROWSER]: 'firefox',
  [App.SUITE]: 'seamonkey',
  [App.MAILCLIENT]: 'thunderbird',
};
const wireAppName = (app: App, version: ApiVersion) =>
  (!gate(version, 'neutral-names') && ORIGINAL_APP_NAMES[app]) || appName(app);

/** An application name as received (`app` values): the version's name for it, as the neutral name. */
export function neutralAppName(value: string, version: ApiVersion): string {
  if (gate(version, 'neutral-names')) return value;
  const trimmed = value.trim().toLowerCase();
  const app = Object.entries(ORIGINAL_APP_NAMES).find(([, name]) => name === trimmed)?.[0];
  return app === undefined ? value : appName(Number(app) as App);
}

/** A stored (neutral) application name as the version sends it. */
export function wireAppNameOf(value: string, version: ApiVersion): string {
  const app = appFromParam(value, ALL_APPS);
  return app === null ? value : wireAppName(app, version);
}

const knownApps = (version: ApiVersion) => (gate(version, 'legacy-applications') ? ALL_APPS : CURRENT_APPS);

/** GraphQL enum values arrive as names (`STATICTHEME`); these turn them into the REST strings. */
export const restEnums = {
  /** `static-theme-as-persona`: v3 predates static themes and reports them as `persona`. */
  type: (name: keyof typeof AddonType, version: ApiVersion) =>
    AddonType[name] === AddonType.STATICTHEME && gate(version, 'static-theme-as-persona')
      ? 'persona'
      : addonTypeName(AddonType[name]),
  /** `legacy-addon-statuses`: else the legacy statuses read as the current ones they became. */
  status: (name: keyof typeof AddonStatus, version: ApiVersion) =>
    addonStatusName(gate(version, 'legacy-addon-statuses') ? AddonStatus[name] : currentAddonStatus(AddonStatus[name])),
  /** An application's name: the contract's neutral one (`neutral-names`: `browser`), else the original's. */
  app: (name: keyof typeof App, version: ApiVersion) => wireAppName(App[name], version),
  /** Whether the API version knows this application (`legacy-applications`). */
  appInVersion: (name: keyof typeof App, version: ApiVersion) => knownApps(version).includes(App[name]),
  platform: (name: keyof typeof Platform) => platformName(Platform[name]),
  promoted: (name: keyof typeof PromotedCategory) => promotedName(PromotedCategory[name]),
  channel: (name: 'LISTED' | 'UNLISTED') => name.toLowerCase(),
};

/** The `app` parameter: a name or numeric id of an application the version knows. */
export const appParam = (value: string, version: ApiVersion): App | null =>
  appFromParam(neutralAppName(value, version), knownApps(version));

/**
 * The stored types a `type` parameter selects: under `static-theme-as-persona`, `persona` also
 * covers static themes and `statictheme` is unknown.
 */
export function addonTypesParam(name: string, version: ApiVersion): AddonType[] | null {
  const type = addonTypeFromName(name);
  if (type === null) return null;
  if (gate(version, 'static-theme-as-persona')) {
    if (type === AddonType.STATICTHEME) return null;
    if (type === AddonType.PERSONA) return [AddonType.PERSONA, AddonType.STATICTHEME];
  }
  return [type];
}

/** GraphQL enum name for a stored value (the reverse, for variables). */
export function enumName<T extends Record<string, number>>(enumObject: T, value: number): keyof T {
  const entry = Object.entries(enumObject).find(([, v]) => v === value);
  if (!entry) throw new Error(`No enum name for ${value}`);
  return entry[0] as keyof T;
}
