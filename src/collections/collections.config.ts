import type { Config } from '../config.js';
import type { CollectionsOptions } from './collections.service.js';

export const DEFAULT_VENDOR_COLLECTIONS_USER = 'vendor';
export const DEFAULT_FEATURED_THEMES_COLLECTION = 'featured-themes';

/**
 * `VENDOR_COLLECTIONS_USER` (username of the vendor's own account) and
 * `VENDOR_FEATURED_THEMES_COLLECTION` (slug of its featured-themes collection), read from the
 * configuration when it declares them, else the defaults.
 */
export function collectionsOptions(config: Config): CollectionsOptions {
  const settings: Readonly<Record<string, unknown>> = config;
  const text = (key: string, fallback: string) => {
    const value = settings[key];
    return typeof value === 'string' && value !== '' ? value : fallback;
  };
  return {
    vendorUsername: text('VENDOR_COLLECTIONS_USER', DEFAULT_VENDOR_COLLECTIONS_USER),
    featuredThemesSlug: text('VENDOR_FEATURED_THEMES_COLLECTION', DEFAULT_FEATURED_THEMES_COLLECTION),
  };
}
