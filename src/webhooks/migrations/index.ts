import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261127224500_Webhooks } from './Migration20261127224500_Webhooks.js';
import { Migration20261128130000_WebhookBacklog } from './Migration20261128130000_WebhookBacklog.js';
import { Migration20261129020000_WebhookBackoff } from './Migration20261129020000_WebhookBackoff.js';

/** The webhooks module's migrations (all modules' run together, in the order of their names). */
export const webhooksMigrations: MigrationObject[] = [
  { name: 'Migration20261127224500_Webhooks', class: Migration20261127224500_Webhooks },
  { name: 'Migration20261128130000_WebhookBacklog', class: Migration20261128130000_WebhookBacklog },
  { name: 'Migration20261129020000_WebhookBackoff', class: Migration20261129020000_WebhookBackoff },
];
