import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { LifecycleEvents } from '../catalogue/lifecycle/lifecycle.enums.js';
import { channelName, type Channel } from '../catalogue/catalogue.enums.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { selectRows } from '../db/rows.js';
import { truncateText } from '../core/text-limits.js';
import type { DomainEvent } from '../events/domain-events.js';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import { postWebhook, EXCERPT_BYTES, type AttemptResult } from './sender.js';
import { checkWebhookUrl, UrlRefused, type UrlPolicy } from './url-guard.js';
import { WebhookDelivery } from './webhook.entity.js';
import { webhookOwnerId, type WebhookEndpointsService } from './webhook-endpoints.service.js';
import { WEBHOOK_TEST_EVENT, webhookFacts, type WebhookFacts } from './webhook-events.js';

const DEFAULT_DELIVERIES_PAGE = 20;
const MAX_DELIVERIES_PAGE = 50;
/** Retries after a deferral (an earlier event of the same endpoint not yet tried). */
const DEFER_MS = 250;

export interface WebhooksOptions extends UrlPolicy {
  timeoutMs: number;
  /** Seconds before each retry; its length is the number of retries. */
  retrySchedule: readonly number[];
  sendDelayMs: number;
}

export interface DeliveryPage {
  items: WebhookDelivery[];
  /** The cursor of the last item, for `after`. */
  endCursor: string | null;
  hasNextPage: boolean;
}

interface DeliveryRow {
  id: number;
  endpoint_id: number;
  event_id: string;
  status: string;
  attempts: number;
  addon_id: number | null;
  sequence: string | null;
  payload: Record<string, unknown> | string;
  /** Epoch milliseconds of the later of the next attempt and the lease (null: neither). */
  wait_until_ms: string | number | null;
  waiting: boolean | null;
  url: string;
  secret_ciphertext: string;
  is_active: boolean;
  owner_id: number;
  endpoint_addon_id: number | null;
  earlier_untried: boolean;
  still_author: boolean;
}

const TERMINAL = ['succeeded', 'abandoned'];

/**
 * Webhook deliveries: the subscriber that turns each lifecycle event into one delivery per
 * interested endpoint of the add-on's authors, the endpoints' delivery logs, test events and
 * redeliveries (GraphQL, the executor's transaction: they only queue jobs), and the attempts
 * (`webhook-deliver` jobs, Standard Webhooks signatures, retries on a schedule).
 *
 * Order: an endpoint's deliveries are first tried in the order their events occurred (a delivery
 * waits while an earlier one of the same endpoint has not been tried yet), and each gets the next
 * per-endpoint `sequence` when first tried. A failed delivery does not hold back later ones: its
 * retries may arrive after them; receivers order by `data.sequence` (or `timestamp`).
 */
export class WebhookDeliveriesService {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly jobs: JobQueue<ServiceJobs>,
    private readonly fork: () => EntityManager,
    private readonly options: WebhooksOptions,
  ) {}

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
    const occurredAt = new Date();
    const payload = {
      type: WEBHOOK_TEST_EVENT,
      timestamp: occurredAt.toISOString(),
      data: { endpoint: endpoint.id },
    };
    const [id] = await this.insertDeliveries(ctx.em, [endpoint.id], {
      eventId: randomUUID(),
      type: WEBHOOK_TEST_EVENT,
      addonId: null,
      occurredAt,
      rank: 0,
      payload,
    });
    return ctx.em.findOneOrFail(WebhookDelivery, id!);
  }

  /** Sends a finished delivery again (same `webhook-id` and body), with a new retry schedule. */
  async redeliver(ctx: RequestContext, deliveryId: number): Promise<WebhookDelivery> {
    const delivery = await ctx.em.findOne(WebhookDelivery, deliveryId, { populate: ['endpoint'] });
    if (!delivery || delivery.endpoint.owner.id !== webhookOwnerId(ctx)) throw errors.notFound();
    if (!TERMINAL.includes(delivery.status)) throw errors.conflict('This delivery is still being attempted.');
    Object.assign(delivery, {
      status: 'pending',
      attempts: 0,
      nextAttemptAt: null,
      lockedUntil: null,
      delivered: null,
    });
    await ctx.em.flush();
    await this.jobs.send('webhook-deliver', { deliveryId }, { transaction: ctx.em });
    return delivery;
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

  // ---- Attempts (`webhook-deliver` jobs) ----

  /** One attempt at a delivery, when it is due; schedules its retry or the deferred attempt. */
  async attempt(deliveryId: number): Promise<void> {
    const em = this.fork();
    const [row] = await selectRows<DeliveryRow>(
      em,
      `select d.id, d.endpoint_id, d.event_id, d.status, d.attempts, d.addon_id, d.sequence, d.payload,
          greatest(extract(epoch from d.next_attempt_at), extract(epoch from d.locked_until)) * 1000 as wait_until_ms,
          (d.next_attempt_at > now() or d.locked_until > now()) as waiting, e.url, e.secret_ciphertext, e.is_active, e.owner_id,
          e.addon_id as endpoint_addon_id,
          exists (select 1 from webhook_deliveries o where o.endpoint_id = d.endpoint_id and o.id <> d.id
            and o.status = 'pending' and o.attempts = 0 and o.created > now() - interval '1 hour'
            and (o.occurred_at, o.rank, o.id) < (d.occurred_at, d.rank, d.id)) as earlier_untried,
          (d.addon_id is null or exists (select 1 from addon_users au
            where au.addon_id = d.addon_id and au.user_id = e.owner_id)) as still_author
        from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id where d.id = ?`,
      [deliveryId],
    );
    if (!row || TERMINAL.includes(row.status)) return;
    if (row.waiting) return this.schedule(em, deliveryId, new Date(Number(row.wait_until_ms) + 10));
    if (row.earlier_untried) return this.schedule(em, deliveryId, new Date(Date.now() + DEFER_MS));
    if (!row.is_active || !row.still_author) {
      const reason = !row.is_active ? 'The endpoint is disabled.' : 'The endpoint’s owner is no longer an author.';
      await em.execute(
        `update webhook_deliveries set status = 'abandoned', last_error = ?, next_attempt_at = null where id = ?`,
        [reason, deliveryId],
      );
      return;
    }
    const claimed = await this.claim(em, row);
    if (!claimed) return;
    const secret = this.endpoints.openSecret(row.endpoint_id, row.secret_ciphertext);
    let result: AttemptResult;
    if (secret === null) {
      result = { ok: false, statusCode: null, error: 'The endpoint’s secret cannot be read.', excerpt: null };
    } else {
      try {
        const target = await checkWebhookUrl(row.url, this.options);
        result = await postWebhook(
          target,
          { id: row.event_id, body: JSON.stringify(claimed.payload), secret },
          this.options.timeoutMs,
        );
      } catch (error) {
        if (!(error instanceof UrlRefused)) throw error;
        result = { ok: false, statusCode: null, error: `Refused URL: ${error.message}`, excerpt: null };
      }
    }
    await this.settle(em, row, result);
  }

  /** Takes the delivery for one attempt (a lease past the timeout) and gives it its sequence. */
  private async claim(em: EntityManager, row: DeliveryRow): Promise<{ payload: Record<string, unknown> } | null> {
    return em.transactional(async (tx) => {
      const leaseMs = this.options.timeoutMs + 60_000;
      const [taken] = await selectRows<{ sequence: string | null; payload: unknown }>(
        tx,
        `update webhook_deliveries set locked_until = now() + (? * interval '1 millisecond')
          where id = ? and status in ('pending', 'failed') and (locked_until is null or locked_until < now())
          returning sequence, payload`,
        [leaseMs, row.id],
      );
      if (!taken) return null;
      let payload = parseJson(taken.payload);
      if (taken.sequence === null) {
        const [endpoint] = await selectRows<{ last_sequence: string }>(
          tx,
          `update webhook_endpoints set last_sequence = last_sequence + 1 where id = ? returning last_sequence`,
          [row.endpoint_id],
        );
        const sequence = Number(endpoint!.last_sequence);
        payload = { ...payload, data: { ...(payload.data as object), sequence } };
        await tx.execute(`update webhook_deliveries set sequence = ?, payload = ?::jsonb where id = ?`, [
          sequence,
          JSON.stringify(payload),
          row.id,
        ]);
        const [stored] = await selectRows<{ payload: unknown }>(
          tx,
          `select payload from webhook_deliveries where id = ?`,
          [row.id],
        );
        payload = parseJson(stored!.payload);
      }
      return { payload };
    });
  }

  /** Records an attempt's outcome; a failure is retried on the schedule, then abandoned. */
  private async settle(em: EntityManager, row: DeliveryRow, result: AttemptResult): Promise<void> {
    const attempts = row.attempts + 1;
    const retryIn = this.options.retrySchedule[attempts - 1];
    const status = result.ok ? 'succeeded' : retryIn === undefined ? 'abandoned' : 'failed';
    const next = status === 'failed' ? new Date(Date.now() + retryIn! * 1000) : null;
    await em.transactional(async (tx) => {
      await tx.execute(
        `update webhook_deliveries set status = ?, attempts = ?, last_status_code = ?, last_error = ?,
            response_excerpt = ?, next_attempt_at = ?::timestamptz, locked_until = null,
            delivered = case when ? then now() else delivered end where id = ?`,
        [
          status,
          attempts,
          result.statusCode,
          result.error === null ? null : truncateText(clean(result.error), 255),
          result.excerpt === null ? null : truncateText(clean(result.excerpt), EXCERPT_BYTES),
          next?.toISOString() ?? null,
          result.ok,
          row.id,
        ],
      );
      if (next) await this.jobs.send('webhook-deliver', { deliveryId: row.id }, { startAfter: next, transaction: tx });
    });
  }

  private async schedule(em: EntityManager, deliveryId: number, at: Date): Promise<void> {
    await em.transactional((tx) =>
      this.jobs.send('webhook-deliver', { deliveryId }, { startAfter: at, transaction: tx }),
    );
  }

  // ---- Helpers ----

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
  ): Promise<number[]> {
    const ids: number[] = [];
    const startAfter = new Date(Date.now() + this.options.sendDelayMs);
    for (const endpointId of endpointIds) {
      const [row] = await selectRows<{ id: number }>(
        tx,
        `insert into webhook_deliveries (endpoint_id, event_id, type, addon_id, occurred_at, rank, payload)
          values (?, ?, ?, ?, ?::timestamptz, ?, ?::jsonb) on conflict (endpoint_id, event_id) do nothing returning id`,
        [endpointId, d.eventId, d.type, d.addonId, d.occurredAt.toISOString(), d.rank, JSON.stringify(d.payload)],
      );
      if (!row) continue;
      ids.push(row.id);
      await this.jobs.send('webhook-deliver', { deliveryId: row.id }, { startAfter, transaction: tx });
    }
    return ids;
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

function parseJson(value: unknown): Record<string, unknown> {
  return (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
}

/** PostgreSQL text cannot hold NUL. */
const clean = (text: string) => text.replaceAll('\u0000', '');
