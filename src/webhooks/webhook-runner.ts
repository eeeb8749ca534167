import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from '../db/rows.js';
import { truncateText } from '../core/text-limits.js';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import { postWebhook, EXCERPT_BYTES, type AttemptResult } from './sender.js';
import { checkWebhookUrl, UrlRefused, type UrlPolicy } from './url-guard.js';
import type { WebhookEndpointsService } from './webhook-endpoints.service.js';

export interface RunnerOptions extends UrlPolicy {
  timeoutMs: number;
  /** Seconds before each retry; its length is the number of retries. */
  retrySchedule: readonly number[];
  sendDelayMs: number;
  suspendAfterFailures: number;
}

/**
 * A run stops starting attempts after this long and queues its continuation, so that it ends
 * (with an attempt of at most `WEBHOOKS_TIMEOUT_MS`, 60 s, and a 3 s lookup) well within the
 * `webhook-deliver` queue's 3-minute expiry.
 */
const RUN_BUDGET_MS = 60_000;
/** Rounds of "nothing due, lease released, something due again" a run goes through before it queues a continuation. */
const MAX_ROUNDS = 3;
/** The longest an endpoint backs off after failed attempts in a row, in seconds. */
export const MAX_BACKOFF_SECONDS = 600;

interface EndpointRow {
  url: string;
  secret_ciphertext: string;
  is_active: boolean;
  suspended: boolean;
  backing_off: boolean;
}

interface DueRow {
  id: number;
  event_id: string;
  attempts: number;
  still_author: boolean;
}

type RunEnd = 'idle' | 'continue' | 'stop';

/**
 * Sends webhook deliveries: one runner per endpoint at a time (`webhook-deliver` jobs, one queued
 * per endpoint), which takes the endpoint's lease and attempts its due deliveries one after the
 * other. Its cost follows the attempts made, never the backlog: a delivery that is not due yet is
 * not looked at again before its time, when one job (`singletonKey` `<endpoint>@<time>`) wakes the
 * endpoint. New deliveries, redeliveries and resumptions wake it (`wake`).
 *
 * Due, in the order events occurred (`occurred_at, rank, id`): the earliest untried delivery
 * (`pending`) once `WEBHOOKS_SEND_DELAY_MS` old (later untried ones wait behind it), and every
 * `failed` one whose retry time has come. Each attempt checks the URL (and connects to the address
 * checked), the owner's authorship of the add-on and the endpoint's state. A failed attempt backs
 * the endpoint off (`backoff_until`: the first retry's wait, doubled with each failure in a row, at
 * most `MAX_BACKOFF_SECONDS`) and ends the run: an endpoint that does not answer holds a sending
 * slot for one timeout per back-off, not for its whole backlog, so the endpoints of others are not
 * starved behind it. A success, a resumption and a test event clear it. `suspendAfterFailures`
 * failed attempts in a row suspend the endpoint (`suspended_at`, the reason in the endpoint and in
 * the log of the delivery whose failure suspended it), and nothing is attempted until its owner
 * resumes it.
 *
 * Crash safety: the lease names the job that holds it, so that job's redelivery (after a crash or
 * an expiry) takes it over at once; any other waits for it to expire. A wake-up that finds the lease
 * taken does nothing: the holder looks for due deliveries again after releasing it.
 */
export class WebhookRunner {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly jobs: JobQueue<ServiceJobs>,
    private readonly fork: () => EntityManager,
    private readonly options: RunnerOptions,
  ) {}

  /**
   * Queues a run of the endpoint: now (or after `delaySeconds`), merged with a run already queued;
   * `at` (seconds from now, database time) queues one for that time.
   */
  async wake(
    endpointId: number,
    options: { transaction?: EntityManager; delaySeconds?: number; timed?: boolean } = {},
  ): Promise<void> {
    const delay = options.delaySeconds ?? 0;
    await this.jobs.send(
      'webhook-deliver',
      { endpointId },
      {
        singletonKey: options.timed ? `${endpointId}@${Math.round(Date.now() / 1000 + delay)}` : String(endpointId),
        ...(delay > 0 ? { startAfter: delay } : {}),
        ...(options.transaction ? { transaction: options.transaction } : {}),
      },
    );
  }

  /** One run (a `webhook-deliver` job): `runner` names the lease's holder (the job's id). */
  async run(endpointId: number, runner: string, signal?: AbortSignal): Promise<void> {
    const em = this.fork();
    const deadline = Date.now() + RUN_BUDGET_MS;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (!(await this.takeLease(em, endpointId, runner))) return;
      let end: RunEnd;
      try {
        end = await this.sendDue(em, endpointId, runner, deadline, signal);
      } finally {
        await em.execute(
          `update webhook_endpoints set send_lease_until = null, send_lease_owner = null
            where id = ? and send_lease_owner = ?`,
          [endpointId, runner],
        );
      }
      if (end === 'stop') return;
      if (end === 'continue') return this.wake(endpointId);
      // Released: a delivery recorded meanwhile found the lease taken, so look once more.
      const [next] = await selectRows<{ wait_s: number | null; suspended: boolean }>(
        em,
        `select e.suspended_at is not null or not e.is_active as suspended,
            extract(epoch from greatest(d.due, case when d.due is not null then e.backoff_until end) - now())::float8 as wait_s
          from webhook_endpoints e, lateral (select least(
              (select min(greatest(r.next_attempt_at, r.locked_until)) from webhook_deliveries r
                where r.endpoint_id = e.id and r.status = 'failed'),
              (select greatest(p.created + ? * interval '1 millisecond', p.locked_until) from webhook_deliveries p
                where p.endpoint_id = e.id and p.status = 'pending' order by p.occurred_at, p.rank, p.id limit 1)
            ) as due) d
          where e.id = ?`,
        [this.options.sendDelayMs, endpointId],
      );
      if (!next || next.suspended || next.wait_s === null) return;
      if (next.wait_s > 0) return this.wake(endpointId, { timed: true, delaySeconds: next.wait_s + 0.05 });
    }
    await this.wake(endpointId);
  }

  /** Attempts due deliveries until none is, the budget is spent, or the endpoint stops. */
  private async sendDue(
    em: EntityManager,
    endpointId: number,
    runner: string,
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<RunEnd> {
    for (;;) {
      if (Date.now() >= deadline || signal?.aborted) return 'continue';
      // Renews the lease and reads the endpoint; no row: deleted, or the lease was lost.
      const [endpoint] = await selectRows<EndpointRow>(
        em,
        `update webhook_endpoints set send_lease_until = now() + ? * interval '1 millisecond'
          where id = ? and send_lease_owner = ?
          returning url, secret_ciphertext, is_active, suspended_at is not null as suspended,
            coalesce(backoff_until > now(), false) as backing_off`,
        [this.leaseMs(), endpointId, runner],
      );
      if (!endpoint || endpoint.suspended) return 'stop';
      // After a failure: nothing more until the back-off ends (the run queues its wake-up then).
      if (endpoint.backing_off) return 'idle';
      if (!endpoint.is_active) {
        await this.abandon(em, endpointId, null, 'The endpoint is disabled.');
        return 'stop';
      }
      const [due] = await selectRows<DueRow>(
        em,
        `select d.id, d.event_id, d.attempts,
            (d.addon_id is null or exists (select 1 from addon_users au join webhook_endpoints e on e.id = d.endpoint_id
              where au.addon_id = d.addon_id and au.user_id = e.owner_id)) as still_author
          from webhook_deliveries d
          where d.endpoint_id = ? and (d.locked_until is null or d.locked_until <= now()) and (
            (d.status = 'failed' and d.next_attempt_at <= now())
            or d.id = (select p.id from webhook_deliveries p where p.endpoint_id = ? and p.status = 'pending'
                        and p.created <= now() - ? * interval '1 millisecond'
                        order by p.occurred_at, p.rank, p.id limit 1))
          order by d.occurred_at, d.rank, d.id limit 1`,
        [endpointId, endpointId, this.options.sendDelayMs],
      );
      if (!due) return 'idle';
      if (!due.still_author) {
        await this.abandon(em, endpointId, due.id, 'The endpoint’s owner is no longer an author.');
        continue;
      }
      if (await this.attempt(em, endpointId, endpoint, due)) return 'stop';
    }
  }

  /** One attempt; true when its failure suspended the endpoint. */
  private async attempt(em: EntityManager, endpointId: number, endpoint: EndpointRow, due: DueRow): Promise<boolean> {
    const claimed = await this.claim(em, endpointId, due.id);
    if (!claimed) return false;
    const secret = this.endpoints.openSecret(endpointId, endpoint.secret_ciphertext);
    let result: AttemptResult;
    if (secret === null) {
      result = { ok: false, statusCode: null, error: 'The endpoint’s secret cannot be read.', excerpt: null };
    } else {
      try {
        const target = await checkWebhookUrl(endpoint.url, this.options);
        result = await postWebhook(
          target,
          { id: due.event_id, body: JSON.stringify(claimed.payload), secret },
          this.options.timeoutMs,
        );
      } catch (error) {
        if (!(error instanceof UrlRefused)) throw error;
        result = { ok: false, statusCode: null, error: `Refused URL: ${error.message}`, excerpt: null };
      }
    }
    return this.settle(em, endpointId, due, result);
  }

  /** Takes the delivery for one attempt (a lease past the timeout) and gives it its sequence. */
  private async claim(
    em: EntityManager,
    endpointId: number,
    deliveryId: number,
  ): Promise<{ payload: Record<string, unknown> } | null> {
    return em.transactional(async (tx) => {
      const [taken] = await selectRows<{ sequence: string | null; payload: unknown }>(
        tx,
        `update webhook_deliveries set locked_until = now() + (? * interval '1 millisecond')
          where id = ? and status in ('pending', 'failed') and (locked_until is null or locked_until <= now())
          returning sequence, payload`,
        [this.options.timeoutMs + 60_000, deliveryId],
      );
      if (!taken) return null;
      let payload = parseJson(taken.payload);
      if (taken.sequence === null) {
        const [endpoint] = await selectRows<{ last_sequence: string }>(
          tx,
          `update webhook_endpoints set last_sequence = last_sequence + 1 where id = ? returning last_sequence`,
          [endpointId],
        );
        const sequence = Number(endpoint!.last_sequence);
        payload = { ...payload, data: { ...(payload.data as object), sequence } };
        const [stored] = await selectRows<{ payload: unknown }>(
          tx,
          `update webhook_deliveries set sequence = ?, payload = ?::jsonb where id = ? returning payload`,
          [sequence, JSON.stringify(payload), deliveryId],
        );
        payload = parseJson(stored!.payload);
      }
      return { payload };
    });
  }

  /**
   * Records an attempt's outcome (a failure is retried on the schedule, then abandoned) and the
   * endpoint's run of failures; true when this failure suspended it.
   */
  private async settle(em: EntityManager, endpointId: number, due: DueRow, result: AttemptResult): Promise<boolean> {
    const attempts = due.attempts + 1;
    const retryIn = this.options.retrySchedule[attempts - 1];
    const status = result.ok ? 'succeeded' : retryIn === undefined ? 'abandoned' : 'failed';
    const error = result.error === null ? null : truncateText(clean(result.error), 255);
    return em.transactional(async (tx) => {
      await tx.execute(
        `update webhook_deliveries set status = ?, attempts = ?, last_status_code = ?, last_error = ?,
            response_excerpt = ?, next_attempt_at = now() + ? * interval '1 second', locked_until = null,
            delivered = case when ? then now() else delivered end where id = ?`,
        [
          status,
          attempts,
          result.statusCode,
          error,
          result.excerpt === null ? null : truncateText(clean(result.excerpt), EXCERPT_BYTES),
          status === 'failed' ? retryIn! : null,
          result.ok,
          due.id,
        ],
      );
      if (result.ok) {
        await tx.execute(
          `update webhook_endpoints set consecutive_failures = 0, backoff_until = null
            where id = ? and (consecutive_failures <> 0 or backoff_until is not null)`,
          [endpointId],
        );
        return false;
      }
      const limit = this.options.suspendAfterFailures;
      const reason = truncateText(
        `Suspended after ${limit} consecutive failed attempts (the last: ${error ?? 'failed'}); resume it with resumeWebhookEndpoint.`,
        255,
      );
      const [endpoint] = await selectRows<{ suspended_now: boolean }>(
        tx,
        `update webhook_endpoints set consecutive_failures = consecutive_failures + 1,
            backoff_until = now() + least(? * power(2, least(consecutive_failures, 30)), ?) * interval '1 second',
            suspended_at = case when consecutive_failures + 1 >= ? then coalesce(suspended_at, now()) else suspended_at end,
            suspended_reason = case when consecutive_failures + 1 >= ? then coalesce(suspended_reason, ?) else suspended_reason end
          where id = ? returning suspended_at = now() as suspended_now`,
        [this.backoffBase(), Math.max(MAX_BACKOFF_SECONDS, this.backoffBase()), limit, limit, reason, endpointId],
      );
      if (!endpoint?.suspended_now) return false;
      await tx.execute(`update webhook_deliveries set last_error = ? where id = ?`, [reason, due.id]);
      return true;
    });
  }

  /** Abandons one delivery, or (null) every waiting one of the endpoint. */
  private async abandon(em: EntityManager, endpointId: number, deliveryId: number | null, reason: string) {
    await em.execute(
      `update webhook_deliveries set status = 'abandoned', last_error = ?, next_attempt_at = null
        where endpoint_id = ? and status in ('pending', 'failed') ${deliveryId === null ? '' : 'and id = ?'}`,
      deliveryId === null ? [reason, endpointId] : [reason, endpointId, deliveryId],
    );
  }

  /** Takes the endpoint's lease: free, expired, or held by this runner (a redelivered job after a crash). */
  private async takeLease(em: EntityManager, endpointId: number, runner: string): Promise<boolean> {
    const taken = await selectRows<{ id: number }>(
      em,
      `update webhook_endpoints set send_lease_owner = ?, send_lease_until = now() + ? * interval '1 millisecond'
        where id = ? and (send_lease_until is null or send_lease_until < now() or send_lease_owner = ?) returning id`,
      [runner, this.leaseMs(), endpointId, runner],
    );
    return taken.length > 0;
  }

  /** The first back-off (seconds): the first retry's wait, at least 0.1 s; doubled with each failure in a row. */
  private backoffBase(): number {
    return Math.max(this.options.retrySchedule[0] ?? 5, 0.1);
  }

  /** Longer than one attempt (lookup, timeout) after the lease's renewal. */
  private leaseMs(): number {
    return this.options.timeoutMs + 60_000;
  }
}

function parseJson(value: unknown): Record<string, unknown> {
  return (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
}

/** PostgreSQL text cannot hold NUL. */
const clean = (text: string) => text.replaceAll('\u0000', '');
