import type { DomainManifest } from '../core/domain.js';
import { SearchResolver } from './search.resolver.js';

/** Search reads the catalogue's tables: no entities of its own. */
export const searchManifest: DomainManifest = {
  name: 'search',
  entities: [],
  resolvers: [SearchResolver],
};
