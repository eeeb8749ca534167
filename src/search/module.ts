import { defineModule } from '../core/module.js';
import { searchMigrations } from './migrations/index.js';
import { searchSettings } from './settings.js';
import { createSearchServices } from './services.js';
import { catalogueModule } from '../catalogue/module.js';
import { CATALOGUE_EVENTS, type LifecycleEvents } from '../catalogue/lifecycle/lifecycle.enums.js';
import { SearchResolver } from './search.resolver.js';

declare module '../jobs/service-jobs.js' {
  interface ServiceJobs {
    /** Refreshes one add-on's search document; send with `singletonKey: String(addonId)`. */
    'index-addon': { addonId: number };
  }
}

/**
 * Search and autocomplete over the catalogue: no entities of its own; its per-term postings are
 * kept by triggers on the add-ons and read by SQL (postgres.postings.ts).
 */
export const searchModule = defineModule({
  name: 'search',
  dependsOn: [catalogueModule],
  settings: searchSettings,
  entities: [],
  unmappedTables: ['addon_search_postings'],
  resolvers: [SearchResolver],
  migrations: searchMigrations,
  services: createSearchServices,
  jobs: {
    // One waiting job per add-on: edits made before it runs are all picked up by that run.
    'index-addon': {
      queue: { policy: 'short', retryLimit: 5, retryDelaySeconds: 5, expireInSeconds: 5 * 60 },
      handle: (services) => (job) => services.search.indexAddons([job.data.addonId]),
    },
  },
  // Cached answers need no subscriber: cache-tag triggers outdate them in the writing transaction.
  subscribers: ({ search }) => [
    {
      name: 'search-index',
      on: CATALOGUE_EVENTS,
      handle: (event) => search.indexAddons([(event.data as LifecycleEvents[typeof event.type]).addonId]),
    },
  ],
});

export type { SearchServices } from './services.js';
