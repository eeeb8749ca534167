import type { DomainManifest } from '../core/domain.js';
import { ScannerResult, ScannerRule } from './scanner.entity.js';
import { ScannersResolver } from './scanners.resolver.js';
import { LabelledResultsResolver } from './labelled-results.resolver.js';

export const scannersManifest: DomainManifest = {
  name: 'scanners',
  entities: [ScannerRule, ScannerResult],
  resolvers: [ScannersResolver, LabelledResultsResolver],
};
