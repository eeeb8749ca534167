import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261127225000_TrustedPublishing } from './Migration20261127225000_TrustedPublishing.js';
import { Migration20261128130300_TrustedPublishingAddon } from './Migration20261128130300_TrustedPublishingAddon.js';

/** The trusted-publishing module's migrations (all modules' run together, in the order of their names). */
export const trustedPublishingMigrations: MigrationObject[] = [
  { name: 'Migration20261127225000_TrustedPublishing', class: Migration20261127225000_TrustedPublishing },
  { name: 'Migration20261128130300_TrustedPublishingAddon', class: Migration20261128130300_TrustedPublishingAddon },
];
