import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261129021348_Signin } from './Migration20261129021348_Signin.js';

/** The signin module's migrations (all modules' run together, in the order of their names). */
export const signinMigrations: MigrationObject[] = [
  { name: 'Migration20261129021348_Signin', class: Migration20261129021348_Signin },
];
