import type { Request, RequestHandler, Response } from 'express';
import { sendJson } from '../core/http.js';
import type { Logger } from '../core/logger.js';
import type { Database } from '../db/database.js';
import { withTimeout } from './timeout.js';

/** DRF's ServiceUnavailable detail. */
export const UNAVAILABLE_DETAIL = 'Service temporarily unavailable, try again later.';
/** Seconds a client is told to wait (`Retry-After`) while the database is unreachable. */
const RETRY_AFTER_SECONDS = '5';

/** The 503 of a request refused while the database is unreachable, in the shape of the API it asked. */
export function sendUnavailable(req: Request, res: Response): void {
  const headers = { 'Retry-After': RETRY_AFTER_SECONDS, 'Cache-Control': 'no-store' };
  if (req.path === '/graphql' || req.path.startsWith('/graphql/')) {
    return sendJson(
      res,
      503,
      { errors: [{ message: UNAVAILABLE_DETAIL, extensions: { code: 'SERVICE_UNAVAILABLE' } }] },
      headers,
    );
  }
  sendJson(res, 503, { detail: UNAVAILABLE_DETAIL }, headers);
}

/** Probes while the database is unreachable, and the longest one may take. */
const PROBE_INTERVAL_MS = 250;
const PROBE_TIMEOUT_MS = 1_000;

/**
 * Fails fast while the database is unreachable. A server error (5xx) makes it ping the database
 * (at most one ping at a time); a failed ping closes the gate: requests are answered 503 with
 * `Retry-After` at once, without waiting for a connection, and the database is pinged every
 * 250 ms until it answers, which opens the gate again. Nothing is restarted: the pools reconnect
 * by themselves. /healthz, /readyz and /metrics pass (they report the outage).
 */
export class DatabaseGate {
  private down = false;
  private probing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
  ) {}

  get open(): boolean {
    return !this.down;
  }

  middleware(): RequestHandler {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const gate = this;
    function onClose(this: Response) {
      if (this.statusCode >= 500) gate.suspect();
    }
    return (req, res, next) => {
      if (this.down && !PASS.has(req.path)) return sendUnavailable(req, res);
      res.on('close', onClose);
      next();
    };
  }

  /** The database answered someone else's ping (readiness): open at once rather than at the next probe. */
  reachable(): void {
    if (!this.down) return;
    this.logger.warn('database reachable again: serving requests');
    this.down = false;
  }

  /** Something failed on the server's side: is the database still there? */
  suspect(): void {
    if (this.stopped) return;
    this.probing ??= this.probe().finally(() => (this.probing = null));
  }

  private async probe(): Promise<void> {
    try {
      await withTimeout(this.db.ping(), PROBE_TIMEOUT_MS, 'database');
      if (this.down) this.logger.warn('database reachable again: serving requests');
      this.down = false;
    } catch (error) {
      if (!this.down) this.logger.error({ err: error }, 'database unreachable: answering 503 until it is back');
      this.down = true;
      this.schedule();
    }
  }

  private schedule(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.suspect();
    }, PROBE_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }
}

const PASS = new Set(['/healthz', '/readyz', '/metrics']);
