import type { DomainManifest } from '../core/domain.js';
import { CurationLogEntry } from './curation-log.entity.js';
import { CurationLogResolver } from './curation-log.resolver.js';

/**
 * Curation: the curation log (every change to a curated object, with its curator), who may curate
 * (`Admin:Curation`) and the rules curated objects share (positions). Hero shelves (`shelves/`)
 * and the discovery pane (`discovery/`) are curated through it.
 */
export const curationManifest: DomainManifest = {
  name: 'curation',
  entities: [CurationLogEntry],
  resolvers: [CurationLogResolver],
};
