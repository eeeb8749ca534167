import { CacheTag } from './cache-tag.entity.js';

/**
 * The database port's own entities. The domains' entities are given to `openDatabase` by the
 * composition (`entities` of `src/domains.ts`): the port imports no domain.
 */
export const databaseEntities = [CacheTag];
