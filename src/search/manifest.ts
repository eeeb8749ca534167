import type { DomainManifest } from '../core/domain.js';
import { SearchResolver } from './search.resolver.js';

/**
 * Search reads the catalogue's tables: no entities of its own. Its per-term postings are kept by
 * triggers on the add-ons and read by SQL (postgres.postings.ts).
 */
export const searchManifest: DomainManifest = {
  name: 'search',
  entities: [],
  unmappedTables: ['addon_search_postings'],
  resolvers: [SearchResolver],
};
