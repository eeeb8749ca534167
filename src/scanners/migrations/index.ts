import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261127182934_Scanners } from './Migration20261127182934_Scanners.js';
import { Migration20261128130100_LookalikeNames } from './Migration20261128130100_LookalikeNames.js';

/** The scanners module's migrations (all modules' run together, in the order of their names). */
export const scannersMigrations: MigrationObject[] = [
  { name: 'Migration20261127182934_Scanners', class: Migration20261127182934_Scanners },
  { name: 'Migration20261128130100_LookalikeNames', class: Migration20261128130100_LookalikeNames },
];
