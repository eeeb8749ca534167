import type { Platform } from '../core/module.js';
import type { CatalogueServices } from '../catalogue/services.js';
import type { CurationServices } from '../curation/services.js';
import { DiscoveryService } from './discovery.service.js';
import { AddonRecommendationsService } from './addon-recommendations.js';
import { BrowserMappingsService } from './browser-mappings/browser-mappings.service.js';
import { ReplacementsService } from './replacements/replacements.service.js';

/** The discovery module's services, from the platform and the modules it depends on. */
export function createDiscoveryServices(
  _platform: Platform,
  { catalogue, curation }: { readonly catalogue: CatalogueServices; readonly curation: CurationServices },
) {
  return {
    discovery: new DiscoveryService(catalogue.catalogue, curation.curationLog),
    /** Other add-ons to suggest on an add-on's page (the service's recommender, or the curated list). */
    addonRecommendations: new AddonRecommendationsService(),
    /** Replacement add-ons: what replaces an add-on id no longer supported. */
    replacements: new ReplacementsService(curation.curationLog),
    /** Another browser's extensions and the add-ons that replace them. */
    browserMappings: new BrowserMappingsService(catalogue.catalogue, curation.curationLog),
  };
}

export type DiscoveryServices = ReturnType<typeof createDiscoveryServices>;
