import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261127173713_Blocklist } from './Migration20261127173713_Blocklist.js';
import { Migration20261128130200_BlocklistRequests } from './Migration20261128130200_BlocklistRequests.js';
import { Migration20261129064500_BlockCacheTags } from './Migration20261129064500_BlockCacheTags.js';

/** The blocklist module's migrations (all modules' run together, in the order of their names). */
export const blocklistMigrations: MigrationObject[] = [
  { name: 'Migration20261127173713_Blocklist', class: Migration20261127173713_Blocklist },
  { name: 'Migration20261128130200_BlocklistRequests', class: Migration20261128130200_BlocklistRequests },
  { name: 'Migration20261129064500_BlockCacheTags', class: Migration20261129064500_BlockCacheTags },
];
