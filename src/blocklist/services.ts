import type { Platform } from '../core/module.js';
import type { CatalogueServices } from '../catalogue/services.js';
import { BlocklistService } from './blocklist.service.js';
import { BlocklistPublisher } from './blocklist.publisher.js';

/** The blocklist module's services, from the platform and the modules it depends on. */
export function createBlocklistServices(
  { config, db, files, jobs, logger }: Platform,
  { catalogue }: { readonly catalogue: CatalogueServices },
) {
  return {
    blocklist: new BlocklistService(catalogue.lifecycle, jobs),
    blocklistPublisher: new BlocklistPublisher(db, files, logger, { threshold: config.BLOCKLIST_BASE_THRESHOLD }),
  };
}

export type BlocklistServices = ReturnType<typeof createBlocklistServices>;
