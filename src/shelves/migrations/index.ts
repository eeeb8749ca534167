import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261125171045_Shelves } from './Migration20261125171045_Shelves.js';
import { Migration20261129030200_HomeShelves } from './Migration20261129030200_HomeShelves.js';

/** The shelves module's migrations (all modules' run together, in the order of their names). */
export const shelvesMigrations: MigrationObject[] = [
  { name: 'Migration20261125171045_Shelves', class: Migration20261125171045_Shelves },
  { name: 'Migration20261129030200_HomeShelves', class: Migration20261129030200_HomeShelves },
];
