import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121111410_Collections } from './Migration20261121111410_Collections.js';

/** The collections module's migrations (all modules' run together, in the order of their names). */
export const collectionsMigrations: MigrationObject[] = [
  { name: 'Migration20261121111410_Collections', class: Migration20261121111410_Collections },
];
