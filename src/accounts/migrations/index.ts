import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121071440_Initial } from './Migration20261121071440_Initial.js';
import { Migration20261121120404_Accounts } from './Migration20261121120404_Accounts.js';
import { Migration20261129120000_ProfileCacheTags } from './Migration20261129120000_ProfileCacheTags.js';

/** The accounts module's migrations (all modules' run together, in the order of their names). */
export const accountsMigrations: MigrationObject[] = [
  { name: 'Migration20261121071440_Initial', class: Migration20261121071440_Initial },
  { name: 'Migration20261121120404_Accounts', class: Migration20261121120404_Accounts },
  { name: 'Migration20261129120000_ProfileCacheTags', class: Migration20261129120000_ProfileCacheTags },
];
