import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { Addon } from '../catalogue/addon.entity.js';

/**
 * A developer's webhook endpoint: where the events of their add-ons are POSTed, signed with the
 * endpoint's secret (Standard Webhooks). `addon` null: every add-on the owner authors, now or later.
 * The secret is stored sealed (`SecretBox`, bound to the endpoint's id) and shown once.
 */
@Entity({ tableName: 'webhook_endpoints' })
export class WebhookEndpoint {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => User, deleteRule: 'cascade', index: true })
  owner!: User;

  @ManyToOne({ entity: () => Addon, nullable: true, deleteRule: 'cascade', index: true })
  addon: Addon | null = null;

  @Property({ type: 'text' })
  url!: string;

  /** Public event names (`WEBHOOK_EVENT_TYPES`). */
  @Property({ type: 'jsonb' })
  events!: string[];

  @Property({ type: 'string', length: 255, default: '' })
  description: Opt<string> = '';

  @Property({ type: 'text' })
  secretCiphertext!: string;

  @Property({ type: 'boolean', default: true })
  isActive: Opt<boolean> = true;

  /** The last sequence number given to one of its deliveries (per endpoint, from 1). */
  @Property({ type: 'bigint', default: 0 })
  lastSequence: Opt<string> = '0';

  /** Failed attempts since its last success; at `WEBHOOKS_SUSPEND_AFTER_FAILURES` it is suspended. */
  @Property({ type: 'integer', default: 0 })
  consecutiveFailures: Opt<number> = 0;

  /** Set when it kept failing: no attempts until its owner resumes it (its deliveries wait). */
  @Property({ type: 'timestamptz', nullable: true })
  suspendedAt: Date | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  suspendedReason: string | null = null;

  /** After failed attempts in a row: nothing is attempted before this time (`webhook-runner.ts`). */
  @Property({ type: 'timestamptz', nullable: true })
  backoffUntil: Date | null = null;

  /** The runner sending its deliveries (one at a time: `webhook-runner.ts`), and until when. */
  @Property({ type: 'timestamptz', nullable: true })
  sendLeaseUntil: Date | null = null;

  @Property({ type: 'string', length: 64, nullable: true })
  sendLeaseOwner: string | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}

/** One event for one endpoint, and its attempts (the delivery log). */
@Entity({ tableName: 'webhook_deliveries' })
@Unique({ properties: ['endpoint', 'eventId'] })
@Index({ properties: ['endpoint', 'status'] })
@Index({
  name: 'webhook_deliveries_untried',
  expression:
    'create index "webhook_deliveries_untried" on "webhook_deliveries" ("endpoint_id", "occurred_at", "rank", "id") where "status" = \'pending\'',
})
@Index({
  name: 'webhook_deliveries_retries',
  expression:
    'create index "webhook_deliveries_retries" on "webhook_deliveries" ("endpoint_id", "next_attempt_at") where "status" = \'failed\'',
})
export class WebhookDelivery {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => WebhookEndpoint, deleteRule: 'cascade' })
  endpoint!: WebhookEndpoint;

  /** The `webhook-id` header: the same on every attempt. */
  @Property({ type: 'string', length: 64 })
  eventId!: string;

  @Property({ type: 'string', length: 64 })
  type!: string;

  /** The add-on the event is about (null: the test event); authorship is checked again before each attempt. */
  @Property({ type: 'integer', nullable: true })
  addonId: number | null = null;

  /** When the event occurred, and its rank among events of the same instant: the sending order. */
  @Property({ type: 'timestamptz' })
  occurredAt!: Date;

  @Property({ type: 'smallint', default: 0 })
  rank: Opt<number> = 0;

  /** Per endpoint, given at the first attempt (null before); part of the payload. */
  @Property({ type: 'bigint', nullable: true })
  sequence: string | null = null;

  /** The JSON body sent (`{type, timestamp, data}`; `data.sequence` once given). */
  @Property({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  /**
   * `pending` (not tried since recorded or redelivered), `failed` (a retry is scheduled), `succeeded`,
   * `abandoned`, `dropped` (never sent: the endpoint had `WEBHOOKS_MAX_PENDING` waiting).
   */
  @Property({ type: 'string', length: 16, default: 'pending' })
  status: Opt<string> = 'pending';

  @Property({ type: 'smallint', default: 0 })
  attempts: Opt<number> = 0;

  @Property({ type: 'smallint', nullable: true })
  lastStatusCode: number | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  lastError: string | null = null;

  /** At most 1 KiB of the last response's body. */
  @Property({ type: 'text', nullable: true })
  responseExcerpt: string | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null = null;

  /** While an attempt runs (crash safety: another runner may take it after this time). */
  @Property({ type: 'timestamptz', nullable: true })
  lockedUntil: Date | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  delivered: Date | null = null;
}
