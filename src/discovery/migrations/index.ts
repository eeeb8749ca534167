import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261125172012_Discovery } from './Migration20261125172012_Discovery.js';
import { Migration20261129091710_ReplacementAddons } from './Migration20261129091710_ReplacementAddons.js';
import { Migration20261129091720_BrowserMappings } from './Migration20261129091720_BrowserMappings.js';

/** The discovery module's migrations (all modules' run together, in the order of their names). */
export const discoveryMigrations: MigrationObject[] = [
  { name: 'Migration20261125172012_Discovery', class: Migration20261125172012_Discovery },
  { name: 'Migration20261129091710_ReplacementAddons', class: Migration20261129091710_ReplacementAddons },
  { name: 'Migration20261129091720_BrowserMappings', class: Migration20261129091720_BrowserMappings },
];
