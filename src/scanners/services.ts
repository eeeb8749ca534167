import type { Platform } from '../core/module.js';
import type { CatalogueServices } from '../catalogue/services.js';
import { ScannersService } from './scanners.service.js';
import { LabelledScannerResults } from './labelled-results.js';

/** The scanners module's services, from the platform and the modules it depends on. */
export function createScannersServices(
  { config, db, files, jobs, logger }: Platform,
  { catalogue }: { readonly catalogue: CatalogueServices },
) {
  return {
    scanners: new ScannersService(db, files, jobs, catalogue.lifecycle, logger, {
      trademarks: [config.VENDOR_NAME, config.BROWSER_NAME],
    }),
    labelledScannerResults: new LabelledScannerResults(),
  };
}

export type ScannersServices = ReturnType<typeof createScannersServices>;
