import { defineModule } from '../core/module.js';
import { createCurationServices } from './services.js';
import { CurationLogEntry } from './curation-log.entity.js';
import { CurationLogResolver } from './curation-log.resolver.js';

/** The curation log (shelves, discovery items) and the rules the curated domains share. */
export const curationModule = defineModule({
  name: 'curation',
  dependsOn: [],
  entities: [CurationLogEntry],
  resolvers: [CurationLogResolver],
  services: createCurationServices,
});

export type { CurationServices } from './services.js';
