import type { Platform } from '../core/module.js';
import { WebhookDeliveriesService } from './webhook-deliveries.service.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';

/** The webhooks module's services, from the platform. */
export function createWebhooksServices({ config, db, jobs, keyring }: Platform) {
  const urls = {
    allowPrivateNetworks: config.WEBHOOKS_ALLOW_PRIVATE_NETWORKS,
    allowedHosts: config.WEBHOOKS_ALLOWED_HOSTS.map((host) => host.toLowerCase()),
    requireHttps: config.WEBHOOKS_REQUIRE_HTTPS ?? config.NODE_ENV === 'production',
  };
  const webhookEndpoints = new WebhookEndpointsService(keyring.box('webhook-secrets'), urls);
  const webhookDeliveries = new WebhookDeliveriesService(webhookEndpoints, jobs, () => db.fork(), {
    ...urls,
    timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
    retrySchedule: config.WEBHOOKS_RETRY_SCHEDULE,
    sendDelayMs: config.WEBHOOKS_SEND_DELAY_MS,
    maxPending: config.WEBHOOKS_MAX_PENDING,
    suspendAfterFailures: config.WEBHOOKS_SUSPEND_AFTER_FAILURES,
    testEventsPerHour: config.WEBHOOKS_TEST_EVENTS_PER_HOUR,
    redeliveriesPerHour: config.WEBHOOKS_REDELIVERIES_PER_HOUR,
  });
  return { webhookEndpoints, webhookDeliveries };
}

export type WebhooksServices = ReturnType<typeof createWebhooksServices>;
