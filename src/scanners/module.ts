import { defineModule } from '../core/module.js';
import { scannersMigrations } from './migrations/index.js';
import { createScannersServices } from './services.js';
import { catalogueModule } from '../catalogue/module.js';
import { ScannerResult, ScannerRule } from './scanner.entity.js';
import { ScannersResolver } from './scanners.resolver.js';
import { LabelledResultsResolver } from './labelled-results.resolver.js';

/**
 * The scanners run on every version made from an upload (YARA rules, secrets, look-alike names),
 * and their results labelled by what humans decided.
 */
export const scannersModule = defineModule({
  name: 'scanners',
  dependsOn: [catalogueModule],
  entities: [ScannerRule, ScannerResult],
  resolvers: [ScannersResolver, LabelledResultsResolver],
  migrations: scannersMigrations,
  services: createScannersServices,
});

export type { ScannersServices } from './services.js';
