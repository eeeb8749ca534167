import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121081500_SearchIndexes } from './Migration20261121081500_SearchIndexes.js';
import { Migration20261127112000_RandomSort } from './Migration20261127112000_RandomSort.js';
import { Migration20261127120000_RankedSearchIndex } from './Migration20261127120000_RankedSearchIndex.js';
import { Migration20261129121000_SearchPostings } from './Migration20261129121000_SearchPostings.js';

/** The search module's migrations (all modules' run together, in the order of their names). */
export const searchMigrations: MigrationObject[] = [
  { name: 'Migration20261121081500_SearchIndexes', class: Migration20261121081500_SearchIndexes },
  { name: 'Migration20261127112000_RandomSort', class: Migration20261127112000_RandomSort },
  { name: 'Migration20261127120000_RankedSearchIndex', class: Migration20261127120000_RankedSearchIndex },
  { name: 'Migration20261129121000_SearchPostings', class: Migration20261129121000_SearchPostings },
];
