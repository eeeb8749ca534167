import type { DomainManifest } from '../core/domain.js';
import { DiscoveryItem } from './discovery.entity.js';
import { DiscoveryResolver } from './discovery.resolver.js';
import { AddonRecommendationsResolver } from './addon-recommendations.resolver.js';
import { AddonBrowserMapping } from './browser-mappings/browser-mapping.entity.js';
import { BrowserMappingsResolver } from './browser-mappings/browser-mappings.resolver.js';
import { ReplacementAddon } from './replacements/replacement.entity.js';
import { ReplacementsResolver } from './replacements/replacements.resolver.js';

/**
 * The discovery pane: its items and editorial texts, and recommendations (also an add-on page's);
 * replacement add-ons and browser mappings (what replaces an unsupported add-on id or another
 * browser's extension); curated through `curation/`.
 */
export const discoveryManifest: DomainManifest = {
  name: 'discovery',
  entities: [DiscoveryItem, ReplacementAddon, AddonBrowserMapping],
  resolvers: [DiscoveryResolver, AddonRecommendationsResolver, ReplacementsResolver, BrowserMappingsResolver],
};
