import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261127221514_ScopedApiKeys } from './Migration20261127221514_ScopedApiKeys.js';

/** The auth module's migrations (all modules' run together, in the order of their names). */
export const authMigrations: MigrationObject[] = [
  { name: 'Migration20261127221514_ScopedApiKeys', class: Migration20261127221514_ScopedApiKeys },
];
