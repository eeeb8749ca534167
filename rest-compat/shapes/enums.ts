import {
  AddonStatus,
  AddonType,
  App,
  addonStatusName,
  addonTypeName,
  appName,
  APPS_BY_VERSION,
  Platform,
  platformName,
  PromotedCategory,
  promotedName,
} from '../../src/catalogue/catalogue.enums.js';
import type { ApiVersion } from '../route.js';

/** GraphQL enum values arrive as names (`STATICTHEME`); these turn them into the v3/v4 strings. */
export const restEnums = {
  type: (name: keyof typeof AddonType, version: ApiVersion) => addonTypeName(AddonType[name], version),
  status: (name: keyof typeof AddonStatus, version: ApiVersion) => addonStatusName(AddonStatus[name], version),
  app: (name: keyof typeof App) => appName(App[name]),
  /** Whether the API version knows this application (v4: browser and android only). */
  appInVersion: (name: keyof typeof App, version: ApiVersion) => APPS_BY_VERSION[version].includes(App[name]),
  platform: (name: keyof typeof Platform) => platformName(Platform[name]),
  promoted: (name: keyof typeof PromotedCategory) => promotedName(PromotedCategory[name]),
  channel: (name: 'LISTED' | 'UNLISTED') => name.toLowerCase(),
};

/** GraphQL enum name for a stored value (the reverse, for variables). */
export function enumName<T extends Record<string, number>>(enumObject: T, value: number): keyof T {
  const entry = Object.entries(enumObject).find(([, v]) => v === value);
  if (!entry) throw new Error(`No enum name for ${value}`);
  return entry[0] as keyof T;
}
