import { defineModule } from '../core/module.js';
import { discoveryMigrations } from './migrations/index.js';
import { createDiscoveryServices } from './services.js';
import { catalogueModule } from '../catalogue/module.js';
import { curationModule } from '../curation/module.js';
import { DiscoveryItem } from './discovery.entity.js';
import { DiscoveryResolver } from './discovery.resolver.js';
import { AddonRecommendationsResolver } from './addon-recommendations.resolver.js';
import { AddonBrowserMapping } from './browser-mappings/browser-mapping.entity.js';
import { BrowserMappingsResolver } from './browser-mappings/browser-mappings.resolver.js';
import { ReplacementAddon } from './replacements/replacement.entity.js';
import { ReplacementsResolver } from './replacements/replacements.resolver.js';

/** The discovery pane and its editorial content, recommendations, replacement add-ons and browser mappings. */
export const discoveryModule = defineModule({
  name: 'discovery',
  dependsOn: [catalogueModule, curationModule],
  entities: [DiscoveryItem, ReplacementAddon, AddonBrowserMapping],
  resolvers: [DiscoveryResolver, AddonRecommendationsResolver, ReplacementsResolver, BrowserMappingsResolver],
  migrations: discoveryMigrations,
  services: createDiscoveryServices,
});

export type { DiscoveryServices } from './services.js';
