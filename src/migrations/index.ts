import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121071440_Initial } from './Migration20261121071440_Initial.js';

/** Applied in order at start. Add each new migration here (npm run migration:create prints the line). */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121071440_Initial', class: Migration20261121071440_Initial },
];
