import type { Platform } from '../core/module.js';
import type { CatalogueServices } from '../catalogue/services.js';
import { SearchService } from './search.service.js';
import { createSearchEngine } from './engines.js';

/** The search module's services, from the platform and the modules it depends on. */
export function createSearchServices(
  { config, db }: Platform,
  { catalogue }: { readonly catalogue: CatalogueServices },
) {
  return {
    search: new SearchService(
      createSearchEngine(config, db),
      catalogue.categories,
      catalogue.catalogue,
      config.SEARCH_MAX_RESULT_WINDOW,
    ),
  };
}

export type SearchServices = ReturnType<typeof createSearchServices>;
