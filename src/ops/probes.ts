import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { sendJson } from '../core/http.js';
import type { Logger } from '../core/logger.js';
import type { Database } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import type { ServiceMetrics } from './metrics.js';
import type { DatabaseGate } from './outage.js';
import { withTimeout } from './timeout.js';

/** A readiness check waits this long for each dependency before calling it unavailable. */
export const READINESS_TIMEOUT_MS = 2_000;
/** A job id no job has: looking it up is one indexed read through the queue's own connections. */
const NO_JOB = '00000000-0000-0000-0000-000000000000';

type Status = 'ok' | 'unavailable';

/**
 * Readiness: whether this process can serve requests now. Unlike /healthz (liveness: the process
 * answers), it is 503 while the database or the job queue's connections are unreachable, and
 * while the process drains after SIGTERM, so a load balancer sends requests elsewhere. Checks run
 * one at a time: probes arriving during a check share its result.
 */
export class Readiness {
  private draining = false;
  private inflight: Promise<{ database: Status; jobs: Status }> | null = null;

  constructor(
    private readonly db: Database,
    private readonly jobs: JobQueue<ServiceJobs>,
    private readonly logger: Logger,
    /** Told when the database answers, so that it reopens without waiting for its own probe. */
    private readonly gate?: DatabaseGate,
  ) {}

  /** From now on the process is not ready: it is stopping and only finishes what it has. */
  drain(): void {
    this.draining = true;
  }

  async check(): Promise<{ ready: boolean; body: Record<string, string> }> {
    if (this.draining) return { ready: false, body: { status: 'draining' } };
    this.inflight ??= this.checkDependencies().finally(() => (this.inflight = null));
    const { database, jobs } = await this.inflight;
    const ready = database === 'ok' && jobs === 'ok';
    return { ready, body: { status: ready ? 'ready' : 'unavailable', database, jobs } };
  }

  private async checkDependencies(): Promise<{ database: Status; jobs: Status }> {
    const [database, jobs] = await Promise.all([
      this.probe('database', this.db.ping()).then((status) => {
        if (status === 'ok') this.gate?.reachable();
        return status;
      }),
      this.probe('job queue', this.jobs.getJob('validate-upload', NO_JOB)),
    ]);
    return { database, jobs };
  }

  private async probe(what: string, check: Promise<unknown>): Promise<Status> {
    try {
      await withTimeout(check, READINESS_TIMEOUT_MS, what);
      return 'ok';
    } catch (error) {
      this.logger.warn({ err: error }, `readiness: ${what} unavailable`);
      return 'unavailable';
    }
  }

  handler(): RequestHandler {
    return async (_req, res) => {
      const { ready, body } = await this.check();
      sendJson(res, ready ? 200 : 503, body, { 'Cache-Control': 'no-store' });
    };
  }
}

/**
 * `GET /metrics` (Prometheus text format). Callers on loopback (a direct connection: no proxy
 * header) may scrape without credentials; anyone else needs `Authorization: Bearer <METRICS_TOKEN>`,
 * and without a token configured, nobody else may.
 */
export function metricsEndpoint(metrics: ServiceMetrics, token: string | undefined): RequestHandler {
  const expected = token ? digest(token) : null;
  return async (req, res) => {
    const presented = bearer(req);
    const authorized = expected !== null && presented !== null && timingSafeEqual(digest(presented), expected);
    if (!authorized && !directFromLoopback(req)) {
      if (expected === null) {
        return sendJson(res, 403, { detail: 'You do not have permission to perform this action.' });
      }
      const detail = presented === null ? 'Authentication credentials were not provided.' : 'Invalid token.';
      return sendJson(res, 401, { detail }, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    }
    const text = await metrics.scrape();
    res.status(200);
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(text);
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

function bearer(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header || header.length > 1024) return null;
  const space = header.indexOf(' ');
  if (space === -1 || header.slice(0, space).toLowerCase() !== 'bearer') return null;
  const value = header.slice(space + 1).trim();
  return value || null;
}

/**
 * A connection from this host that no proxy relayed. A reverse proxy on the same host forwards
 * outside requests from loopback too: they carry its forwarding header and need the token.
 */
function directFromLoopback(req: Request): boolean {
  const address = req.socket.remoteAddress ?? '';
  const loopback = address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
  const headers = req.headers;
  return loopback && !headers['x-forwarded-for'] && !headers.forwarded && !headers['x-real-ip'];
}
