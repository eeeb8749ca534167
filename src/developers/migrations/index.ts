import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261129094000_SupportTickets } from './Migration20261129094000_SupportTickets.js';

/** The developers module's migrations (all modules' run together, in the order of their names). */
export const developersMigrations: MigrationObject[] = [
  { name: 'Migration20261129094000_SupportTickets', class: Migration20261129094000_SupportTickets },
];
