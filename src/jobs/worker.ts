import { AsyncLocalStorage } from 'node:async_hooks';
import type { JobHandler } from './queue.port.js';

/** The async context of no request and no transaction, for workers started from inside one. */
const detached = AsyncLocalStorage.snapshot();

export interface FetchedJob<T> {
  id: string;
  name: string;
  data: T;
  retryCount: number;
  expireInSeconds: number;
}

export interface WorkerDeps<T> {
  name: string;
  concurrency: number;
  pollIntervalMs: number;
  handler: JobHandler<T>;
  /** Marks up to `limit` jobs active for this process and returns them. */
  fetch(limit: number): Promise<FetchedJob<T>[]>;
  complete(id: string, output: unknown): Promise<void>;
  fail(id: string, error: Error): Promise<void>;
  onError(error: unknown, context: { queue: string; jobId?: string }): void;
}

type Outcome = { ok: true; output: unknown } | { ok: false; error: Error };

interface Running<T> {
  job: FetchedJob<T>;
  /** When the handler started (Date.now()). */
  started: number;
  controller: AbortController;
  expiry: NodeJS.Timeout;
  settled: boolean;
  whenSettled: Promise<void>;
  markSettled: () => void;
}

/**
 * Runs one queue's jobs in this process: polls for as many jobs as it has free slots, runs each
 * handler, then completes or fails the job. A handler past its expiry is failed (and its signal
 * aborted) like pg-boss does, so the job is retried even if the handler never returns.
 */
export class Worker<T> {
  readonly #running = new Map<string, Running<T>>();
  #stopping = false;
  #woken = false;
  #wake: (() => void) | null = null;
  #loop: Promise<void> | null = null;

  constructor(private readonly deps: WorkerDeps<T>) {}

  get name(): string {
    return this.deps.name;
  }

  start(): void {
    this.#loop = detached(() => this.#poll());
  }

  /** Polls now instead of at the end of the interval (a job was sent or a slot freed). */
  notify(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /** Stops polling; waits for running jobs (if graceful) up to `timeoutMs`, then fails the rest. */
  async stop(graceful: boolean, timeoutMs: number): Promise<void> {
    this.#stopping = true;
    this.notify();
    await this.#loop;
    if (graceful)
      await waitAtMost(
        timeoutMs,
        [...this.#running.values()].map((r) => r.whenSettled),
      );
    const abandoned = new Error('The job queue stopped while the job was running');
    await Promise.all([...this.#running.values()].map((r) => this.#settle(r, { ok: false, error: abandoned }, true)));
  }

  async #poll(): Promise<void> {
    while (!this.#stopping) {
      const free = this.deps.concurrency - this.#running.size;
      let fetched = 0;
      if (free > 0) {
        try {
          const jobs = await this.deps.fetch(free);
          for (const job of jobs) this.#run(job);
          fetched = jobs.length;
        } catch (error) {
          this.deps.onError(error, { queue: this.deps.name });
        }
      }
      // A full batch suggests more are waiting: fetch again at once.
      if (free === 0 || fetched < free) await this.#sleep();
    }
  }

  #sleep(): Promise<void> {
    if (this.#woken) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wake = null;
        this.#woken = false;
        resolve();
      };
      const timer = setTimeout(done, this.deps.pollIntervalMs);
      this.#wake = done;
    });
  }

  #run(job: FetchedJob<T>): void {
    let markSettled = () => {};
    const whenSettled = new Promise<void>((resolve) => (markSettled = resolve));
    const seconds = Math.max(1, job.expireInSeconds);
    const entry: Running<T> = {
      job,
      started: Date.now(),
      controller: new AbortController(),
      settled: false,
      whenSettled,
      markSettled,
      expiry: setTimeout(() => {
        const error = new Error(`The handler ran longer than the queue's ${seconds} s expiry`);
        void this.#settle(entry, { ok: false, error }, true);
      }, seconds * 1000),
    };
    this.#running.set(job.id, entry);
    void this.#execute(entry);
  }

  async #execute(entry: Running<T>): Promise<void> {
    const { id, name, data, retryCount } = entry.job;
    let outcome: Outcome;
    try {
      const output = await this.deps.handler({ id, name, data, retryCount, signal: entry.controller.signal });
      outcome = { ok: true, output };
    } catch (error) {
      outcome = { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
    }
    await this.#settle(entry, outcome, false);
  }

  /** Records the first outcome of a job (handler result, expiry or shutdown); later ones are ignored. */
  async #settle(entry: Running<T>, outcome: Outcome, abort: boolean): Promise<void> {
    if (entry.settled) return entry.whenSettled;
    entry.settled = true;
    clearTimeout(entry.expiry);
    if (abort) entry.controller.abort(outcome.ok ? undefined : outcome.error);
    const record = () =>
      outcome.ok ? this.deps.complete(entry.job.id, outcome.output) : this.deps.fail(entry.job.id, outcome.error);
    try {
      await record();
    } catch (error) {
      this.deps.onError(error, { queue: this.deps.name, jobId: entry.job.id });
      // The database may be restarting. Left active, the job would wait for its expiry: this
      // process's lease is taken again under the same owner, so crash recovery never sees it.
      await this.#recordLater(entry, record);
    } finally {
      this.#running.delete(entry.job.id);
      entry.markSettled();
      this.notify();
    }
  }

  /**
   * Records an outcome the database refused, retrying with backoff (0.5 s doubling up to 5 s)
   * while the job's slot stays taken, until it is recorded, the job's expiry has passed (pg-boss
   * then expires and retries it) or the worker stops (the job stays active: recovery or expiry).
   */
  async #recordLater(entry: Running<T>, record: () => Promise<void>): Promise<void> {
    const deadline = entry.started + Math.max(1, entry.job.expireInSeconds) * 1000;
    for (let delay = 500; !this.#stopping && Date.now() + delay < deadline; delay = Math.min(delay * 2, 5_000)) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (this.#stopping) return;
      try {
        await record();
        return;
      } catch {
        // Still unreachable: try again later.
      }
    }
  }
}

async function waitAtMost(ms: number, promises: Promise<void>[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([Promise.all(promises), timeout]);
  clearTimeout(timer);
}
