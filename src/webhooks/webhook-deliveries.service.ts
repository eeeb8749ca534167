import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { takeAbuseThrottle, type AbuseRate } from '../abuse/abuse.throttle.js';
import type { LifecycleEvents } from '../catalogue/lifecycle/lifecycle.enums.js';
import { channelName, type Channel } from '../catalogue/catalogue.enums.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { selectRows } from '../db/rows.js';
import type { DomainEvent } from '../events/domain-events.js';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import { WebhookDelivery, type WebhookEndpoint } from './webhook.entity.js';
import type { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { ownWebhookEndpoint, webhookOwnerId } from './webhooks.access.js';
import { WEBHOOK_TEST_EVENT, webhookFacts, type WebhookFacts } from './webhook-events.js';
import { WebhookRunner, type RunnerOptions } from './webhook-runner.js';

const DEFAULT_DELIVERIES_PAGE = 20;
const MAX_DELIVERIES_PAGE = 50;

export interface WebhooksOptions extends RunnerOptions {
  /** Deliveries an endpoint may have waiting (pending or failed). */
  maxPending: number;
  /** Per user and endpoint, in an hour. */
  testEventsPerHour: number;
  redeliveriesPerHour: number;
}

export interface DeliveryPage {
  items: WebhookDelivery[];
  /** The cursor of the last item, for `after`. */
  endCursor: string | null;
  hasNextPage: boolean;
}

const TERMINAL = ['succeeded', 'abandoned', 'dropped'];

/**
 * Webhook deliveries: the subscriber that turns each lifecycle event into one delivery per
 * interested endpoint of the add-on's authors, the endpoints' delivery logs, test events,
 * redeliveries and resumptions (GraphQL, the executor's transaction: they only record rows and
 * queue jobs); the attempts are `WebhookRunner`'s (one runner per endpoint, `webhook-deliver` jobs).
 *
 * Limits: an endpoint has at most `maxPending` deliveries waiting; past it an event's delivery is
 * recorded as `dropped` (its log shows what was not sent, and it can be redelivered later), and a
 * test event or redelivery is refused (CONFLICT). Test events and redeliveries are throttled per
 * user and endpoint (THROTTLED, with `retryAfter`). A suspended endpoint still records its events
 * (they wait for its resumption, within `maxPending`), but refuses test events and redeliveries.
 *
 * Order: an endpoint's deliveries are first tried in the order their events occurred (a delivery
 * waits while an earlier one of the same endpoint has not been tried yet), and each gets the next
 * per-endpoint `sequence` when first tried. A failed delivery does not hold back later ones: its
 * retries may arrive after them; receivers order by `data.sequence` (or `timestamp`).
 */
export class WebhookDeliveriesService {
  readonly runner: WebhookRunner;

  constructor(
    private readonly endpoints: WebhookEndpointsService,
    jobs: JobQueue<ServiceJobs>,
    private readonly fork: () => EntityManager,
    private readonly options: WebhooksOptions,
  ) {
    this.runner = new WebhookRunner(endpoints, jobs, fork, options);
  }

  /** A `webhook-deliver` job: a run of its endpoint (jobs queued before runs existed name a delivery). */
  async runJob(job: { id: string; data: ServiceJobs['webhook-deliver']; signal?: AbortSignal }): Promise<void> {
    let endpointId: number | undefined = job.data.endpointId;
    const legacy = (job.data as { deliveryId?: unknown }).deliveryId;
    if (endpointId === undefined && typeof legacy === 'number') {
      const [row] = await selectRows<{ endpoint_id: number }>(
        this.fork(),
        `select endpoint_id from webhook_deliveries where id = ?`,
        [legacy],
      );
      endpointId = row?.endpoint_id;
    }
    if (endpointId !== undefined) await this.runner.run(endpointId, job.id, job.signal);
  }

  // ---- Delivery logs, test events, redeliveries (GraphQL; the executor's transaction) ----

  /** The endpoint's deliveries, newest first; `after` is a previous page's `endCursor`. */
  async deliveries(
    ctx: RequestContext,
    endpointId: number,
    first: number | null | undefined,
    after: string | null | undefined,
  ): Promise<DeliveryPage> {
    const endpoint = await this.endpoints.own(ctx, endpointId);
    const size = first ?? DEFAULT_DELIVERIES_PAGE;
    if (!Number.isInteger(size) || size < 1 || size > MAX_DELIVERIES_PAGE) {
      throw errors.field('first', `Between 1 and ${MAX_DELIVERIES_PAGE}.`);
    }
    let before: number | null = null;
    if (after !== null && after !== undefined) {
      if (!/^[1-9]\d{0,9}$/.test(after)) throw errors.field('after', 'Not a cursor of this list.');
      before = Number(after);
    }
    const rows = await ctx.em.find(
      WebhookDelivery,
      { endpoint: endpoint.id, ...(before !== null ? { id: { $lt: before } } : {}) },
      { orderBy: { id: 'desc' }, limit: size + 1 },
    );
    const items = rows.slice(0, size);
    return { items, hasNextPage: rows.length > size, endCursor: items.length ? String(items.at(-1)!.id) : null };
  }

  /** Queues a `webhook.test` delivery (whatever events the endpoint asked for). */
  async sendTest(ctx: RequestContext, endpointId: number): Promise<WebhookDelivery> {
    const endpoint = await this.endpoints.own(ctx, endpointId);
    refuseSuspended(endpoint);
    await this.throttle(ctx, { scope: 'webhook-test', requests: this.options.testEventsPerHour }, endpoint.id);
    // A test is how an owner checks a repaired receiver: it is tried at once (at most testEventsPerHour).
    if (endpoint.backoffUntil) {
      endpoint.backoffUntil = null;
      await ctx.em.flush();
    }
    const occurredAt = new Date();
    const payload = {
      type: WEBHOOK_TEST_EVENT,
      timestamp: occurredAt.toISOString(),
      data: { endpoint: endpoint.id },
    };
    const [id] = await this.insertDeliveries(
      ctx.em,
      [endpoint.id],
      { eventId: randomUUID(), type: WEBHOOK_TEST_EVENT, addonId: null, occurredAt, rank: 0, payload },
      'refuse',
    );
    return ctx.em.findOneOrFail(WebhookDelivery, id!);
  }

  /** Sends a finished delivery again (same `webhook-id` and body), with a new retry schedule. */
  async redeliver(ctx: RequestContext, deliveryId: number): Promise<WebhookDelivery> {
    const delivery = await ctx.em.findOne(WebhookDelivery, deliveryId, { populate: ['endpoint'] });
    if (!delivery) throw errors.notFound();
    ownWebhookEndpoint(ctx, delivery.endpoint);
    if (!TERMINAL.includes(delivery.status)) throw errors.conflict('This delivery is still being attempted.');
    refuseSuspended(delivery.endpoint);
    const endpointId = delivery.endpoint.id;
    await this.throttle(ctx, { scope: 'webhook-resend', requests: this.options.redeliveriesPerHour }, endpointId);
    await this.refuseFull(ctx.em, endpointId);
    Object.assign(delivery, {
      status: 'pending',
      attempts: 0,
      nextAttemptAt: null,
      lockedUntil: null,
      delivered: null,
    });
    await ctx.em.flush();
    await this.runner.wake(endpointId, { transaction: ctx.em });
    return delivery;
  }

  /** Lifts an endpoint's suspension: its waiting deliveries are attempted again, in order. */
  async resume(ctx: RequestContext, endpointId: number): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.own(ctx, endpointId);
    Object.assign(endpoint, { suspendedAt: null, suspendedReason: null, consecutiveFailures: 0, backoffUntil: null });
    await ctx.em.flush();
    await this.runner.wake(endpoint.id, { transaction: ctx.em });
    return endpoint;
  }

  // ---- The lifecycle subscriber (job queue, after commit) ----

  /** One delivery (and its job) per active endpoint of the add-on's authors that asked for the event. */
  async record(event: DomainEvent<LifecycleEvents>): Promise<void> {
    const facts = webhookFacts(event);
    if (!facts) return;
    await this.fork().transactional(async (tx) => {
      const endpoints = await selectRows<{ id: number }>(
        tx,
        `select e.id from webhook_endpoints e
          where e.is_active and e.events @> ?::jsonb and (e.addon_id = ? or e.addon_id is null)
            and exists (select 1 from addon_users au where au.addon_id = ? and au.user_id = e.owner_id)
          order by e.id`,
        [JSON.stringify([facts.type]), facts.addonId, facts.addonId],
      );
      if (!endpoints.length) return;
      const data = await this.eventData(tx, facts);
      if (!data) return;
      await this.insertDeliveries(
        tx,
        endpoints.map((e) => e.id),
        {
          eventId: event.id,
          type: facts.type,
          addonId: facts.addonId,
          occurredAt: new Date(event.occurredAt),
          rank: facts.rank,
          payload: { type: facts.type, timestamp: event.occurredAt, data },
        },
      );
    });
  }

  // ---- Helpers ----

  /**
   * Records one delivery per endpoint and wakes each endpoint's runner; an endpoint with
   * `maxPending` deliveries waiting gets a `dropped` one instead (`refuse`: the request is refused).
   */
  private async insertDeliveries(
    tx: EntityManager,
    endpointIds: number[],
    d: {
      eventId: string;
      type: string;
      addonId: number | null;
      occurredAt: Date;
      rank: number;
      payload: Record<string, unknown>;
    },
    whenFull: 'drop' | 'refuse' = 'drop',
  ): Promise<number[]> {
    const ids: number[] = [];
    for (const endpointId of endpointIds) {
      const full = whenFull === 'refuse' ? await this.refuseFull(tx, endpointId) : await this.isFull(tx, endpointId);
      const [row] = await selectRows<{ id: number }>(
        tx,
        `insert into webhook_deliveries (endpoint_id, event_id, type, addon_id, occurred_at, rank, payload, status, last_error)
          values (?, ?, ?, ?, ?::timestamptz, ?, ?::jsonb, ?, ?) on conflict (endpoint_id, event_id) do nothing returning id`,
        [
          endpointId,
          d.eventId,
          d.type,
          d.addonId,
          d.occurredAt.toISOString(),
          d.rank,
          JSON.stringify(d.payload),
          full ? 'dropped' : 'pending',
          full ? this.fullMessage('Not sent') : null,
        ],
      );
      if (!row) continue;
      ids.push(row.id);
      if (!full) {
        await this.runner.wake(endpointId, { transaction: tx, delaySeconds: this.options.sendDelayMs / 1000 });
      }
    }
    return ids;
  }

  /** Whether the endpoint has `maxPending` deliveries waiting (counts at most that many rows). */
  private async isFull(tx: EntityManager, endpointId: number): Promise<boolean> {
    const [row] = await selectRows<{ waiting: number }>(
      tx,
      `select count(*)::int as waiting from (select 1 from webhook_deliveries
        where endpoint_id = ? and status in ('pending', 'failed') limit ?) w`,
      [endpointId, this.options.maxPending],
    );
    return row!.waiting >= this.options.maxPending;
  }

  private async refuseFull(tx: EntityManager, endpointId: number): Promise<false> {
    if (await this.isFull(tx, endpointId)) throw errors.conflict(this.fullMessage('Refused'));
    return false;
  }

  private fullMessage(what: string): string {
    return `${what}: the endpoint already has ${this.options.maxPending} deliveries waiting to be sent.`;
  }

  /** Counts a test event or redelivery of the caller's for the endpoint; THROTTLED past the hour's limit. */
  private async throttle(
    ctx: RequestContext,
    rate: Pick<AbuseRate, 'scope' | 'requests'>,
    endpointId: number,
  ): Promise<void> {
    const wait = await takeAbuseThrottle(ctx.em, { ...rate, seconds: 3600 }, `${webhookOwnerId(ctx)}:${endpointId}`);
    if (wait !== null) throw errors.throttled(wait);
  }

  /** The payload's `data`: the add-on, the version (when the event is about one) and the event's own fields. */
  private async eventData(tx: EntityManager, facts: WebhookFacts): Promise<Record<string, unknown> | null> {
    const [addon] = await selectRows<{ id: number; guid: string | null; slug: string | null }>(
      tx,
      `select id, guid, slug from addons where id = ?`,
      [facts.addonId],
    );
    if (!addon) return null;
    let version: Record<string, unknown> | null = facts.version ? { id: null, ...facts.version } : null;
    if (facts.versionId !== null) {
      const [row] = await selectRows<{ id: number; version: string; channel: number }>(
        tx,
        `select id, version, channel from versions where id = ?`,
        [facts.versionId],
      );
      if (row) version = { id: row.id, version: row.version, channel: channelName(row.channel as Channel) };
    }
    return { addon: { id: addon.id, guid: addon.guid, slug: addon.slug }, version, ...facts.extra };
  }
}

function refuseSuspended(endpoint: WebhookEndpoint): void {
  if (endpoint.suspendedAt) {
    throw errors.conflict('This endpoint is suspended (it kept failing): resume it with resumeWebhookEndpoint first.');
  }
}
