import { z } from 'zod';
import { bool, list, type SettingsSlice, type SettingValues } from '../core/settings.js';

/** Webhooks' settings; composed with the others by src/config.ts. */
const shape = {
  /** Outgoing webhooks (src/webhooks/): the longest one attempt waits for an answer, in milliseconds. */
  WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /**
   * Seconds before each retry of a failed webhook delivery (comma-separated, fractions allowed); after
   * the last one the delivery is abandoned. Default: Standard Webhooks' schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).
   */
  WEBHOOKS_RETRY_SCHEDULE: list
    .transform((items) => items.map(Number))
    .refine((items) => items.length <= 20 && items.every((n) => Number.isFinite(n) && n >= 0 && n <= 7 * 86_400), {
      message: 'must be up to 20 comma-separated numbers of seconds (0 to 604800)',
    })
    .default([5, 300, 1800, 7200, 18_000, 36_000, 36_000]),
  /**
   * Milliseconds a webhook delivery waits before its first attempt, so that the events of one change
   * (signed and approved commit together) are all recorded and sent to an endpoint in their order.
   */
  WEBHOOKS_SEND_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /** Webhook attempts one process makes at once (each endpoint's are sent one at a time). */
  WEBHOOKS_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  /**
   * Deliveries an endpoint may have waiting (pending or failed); past it, an event's delivery is
   * recorded as dropped (in its log) and a test event or redelivery is refused.
   */
  WEBHOOKS_MAX_PENDING: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
  /** Consecutive failed attempts after which an endpoint is suspended until its owner resumes it. */
  WEBHOOKS_SUSPEND_AFTER_FAILURES: z.coerce.number().int().min(1).max(100_000).default(50),
  /** Test events (`sendTestWebhookEvent`), and redeliveries, a user may ask for per endpoint and hour. */
  WEBHOOKS_TEST_EVENTS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
  WEBHOOKS_REDELIVERIES_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(60),
  /** Webhook URLs may name hosts resolving to private, loopback or link-local addresses (development only). */
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: bool.default(false),
  /** Host names (exact, lower-case) webhook URLs may name whatever they resolve to (e.g. an internal relay). */
  WEBHOOKS_ALLOWED_HOSTS: list.default([]),
  /** Webhook URLs must be https (default: in production only). */
  WEBHOOKS_REQUIRE_HTTPS: bool.optional(),
};

declare module '../core/settings.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Settings extends SettingValues<typeof shape> {}
}

export const webhooksSettings: SettingsSlice<typeof shape> = { owner: 'webhooks', shape };
