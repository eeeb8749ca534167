import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261125171326_AbuseReports } from './Migration20261125171326_AbuseReports.js';
import { Migration20261129030100_AbuseV5 } from './Migration20261129030100_AbuseV5.js';

/** The abuse module's migrations (all modules' run together, in the order of their names). */
export const abuseMigrations: MigrationObject[] = [
  { name: 'Migration20261125171326_AbuseReports', class: Migration20261125171326_AbuseReports },
  { name: 'Migration20261129030100_AbuseV5', class: Migration20261129030100_AbuseV5 },
];
