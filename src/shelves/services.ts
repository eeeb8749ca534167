import type { Platform } from '../core/module.js';
import type { CatalogueServices } from '../catalogue/services.js';
import type { SearchServices } from '../search/services.js';
import type { CollectionsServices } from '../collections/services.js';
import type { CurationServices } from '../curation/services.js';
import { ShelvesService } from './shelves.service.js';
import { HomeShelvesService } from './home-shelves.service.js';

/** The shelves module's services, from the platform and the modules it depends on. */
export function createShelvesServices(
  _platform: Platform,
  {
    catalogue,
    collections,
    curation,
    search,
  }: {
    readonly catalogue: CatalogueServices;
    readonly search: SearchServices;
    readonly collections: CollectionsServices;
    readonly curation: CurationServices;
  },
) {
  return {
    shelves: new ShelvesService(catalogue.catalogue, curation.curationLog),
    homeShelves: new HomeShelvesService(
      search.search,
      collections.collectionItems,
      curation.curationLog,
      collections.vendorUsername,
    ),
  };
}

export type ShelvesServices = ReturnType<typeof createShelvesServices>;
