import { defineModule } from '../core/module.js';
import { webhooksMigrations } from './migrations/index.js';
import { webhooksSettings } from './settings.js';
import { createWebhooksServices } from './services.js';
import { WEBHOOK_SOURCE_EVENTS } from './webhook-events.js';
import { WebhookDelivery, WebhookEndpoint } from './webhook.entity.js';
import { WebhookDeliveryResolver, WebhooksResolver } from './webhooks.resolver.js';

declare module '../jobs/service-jobs.js' {
  interface ServiceJobs {
    /**
     * A run of one webhook endpoint (`WebhookRunner`): sends its due deliveries, one at a time. Send
     * with `WebhookRunner.wake` (`singletonKey` the endpoint's id: one queued run per endpoint).
     */
    'webhook-deliver': { endpointId: number };
  }
}

/** Developers' webhook endpoints and the signed deliveries of their events: recorded, attempted, retried, logged. */
export const webhooksModule = defineModule({
  name: 'webhooks',
  dependsOn: [],
  settings: webhooksSettings,
  entities: [WebhookEndpoint, WebhookDelivery],
  resolvers: [WebhooksResolver, WebhookDeliveryResolver],
  migrations: webhooksMigrations,
  services: createWebhooksServices,
  jobs: {
    'webhook-deliver': {
      queue: { policy: 'short', retryLimit: 5, retryDelaySeconds: 30, retryBackoff: true, expireInSeconds: 3 * 60 },
      work: (config) => ({ concurrency: config.WEBHOOKS_CONCURRENCY, pollIntervalSeconds: 1 }),
      handle: (services) => (job) => services.webhookDeliveries.runJob(job),
    },
  },
  subscribers: ({ webhookDeliveries }) => [
    { name: 'webhooks', on: WEBHOOK_SOURCE_EVENTS, handle: (event) => webhookDeliveries.record(event) },
  ],
});

export type { WebhooksServices } from './services.js';
