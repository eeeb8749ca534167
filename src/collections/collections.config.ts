import type { Settings as Config } from '../core/settings.js';
import type { CollectionsOptions } from './collections.access.js';

/** The vendor's own account and its featured-themes collection, from the configuration. */
export function collectionsOptions(config: Config): CollectionsOptions {
  return {
    vendorUsername: config.VENDOR_COLLECTIONS_USER,
    featuredThemesSlug: config.VENDOR_FEATURED_THEMES_COLLECTION,
  };
}
