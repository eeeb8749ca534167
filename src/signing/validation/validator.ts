import { resolve as resolvePath } from 'node:path';
import type { Logger } from '../../core/logger.js';
import { LinterProcess, type LintOutcome } from './linter-process.js';
import { crashResults, type MappingOptions, type ValidationResults } from './results.js';

export interface ValidatorOptions {
  /** Worker processes, each linting one file at a time. Default 1. */
  poolSize?: number;
  /** Per-file limit, after which the worker is killed and restarted. Default 110 s (AMO's VALIDATOR_TIMEOUT). */
  timeoutMs?: number;
  /** Import plus warm-up lint. Default 60 s. */
  startupTimeoutMs?: number;
  /** V8 heap limit of a worker: a package that makes the linter balloon crashes its worker, not the host. Default 1024. */
  heapLimitMb?: number;
  /** A worker whose RSS is above this after a job is replaced. Default 768 MiB. */
  maxRssBytes?: number;
  /** Defaults to `worker.ts` (from sources) or `worker.js` (compiled) next to this module. */
  workerEntry?: URL;
  /** Worker start-ups, failures, recycling and the workers' stderr; without one, workers inherit stderr. */
  logger?: Logger;
  /**
   * A worker that lints nothing for this long is stopped (its memory given back), and the next
   * file starts another, paying its start-up. 0 keeps workers for good. Default 0.
   */
  idleMs?: number;
}

export interface ValidateOptions extends MappingOptions {
  /** Overrides the validator's per-file timeout for this file. */
  timeoutMs?: number;
}

export interface WorkerStats {
  pid: number | null;
  /** As last reported by the worker (after start-up and after every file). */
  rssBytes: number;
  jobs: number;
  restarts: number;
  busy: boolean;
}

export interface ValidatorStats {
  queued: number;
  jobs: number;
  restarts: number;
  crashes: number;
  timeouts: number;
  workers: WorkerStats[];
}

export class ValidatorClosedError extends Error {
  constructor() {
    super('The validator is closed');
    this.name = 'ValidatorClosedError';
  }
}

interface Job {
  path: string;
  retried: boolean;
  options: MappingOptions;
  timeoutMs: number;
  resolve: (results: ValidationResults) => void;
  reject: (error: Error) => void;
}

type Outcome = LintOutcome | { ok: false; reason: 'startup'; detail: string };
type Failure = Extract<Outcome, { ok: false }>;

const MiB = 1024 * 1024;

/**
 * Validates add-on packages with addons-linter in long-lived child processes, off the server's event
 * loop. `validate` resolves with AMO's `validation_results`: a crash, a timeout or a worker that cannot
 * start gives the crash skeleton instead of an exception. Call `close()` on shutdown: the workers
 * keep the process alive until then.
 */
export class Validator {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private readonly timeoutMs: number;
  private readonly maxRssBytes: number;
  private readonly logger?: Logger;
  private readonly counters = { jobs: 0, crashes: 0, timeouts: 0 };
  private closed = false;

  constructor(options: ValidatorOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 110_000;
    this.maxRssBytes = options.maxRssBytes ?? 768 * MiB;
    this.logger = options.logger;
    const processOptions = {
      entry: options.workerEntry ?? defaultWorkerEntry(),
      heapLimitMb: options.heapLimitMb ?? 1024,
      startupTimeoutMs: options.startupTimeoutMs ?? 60_000,
      onStderr: this.logger && ((text: string, pid: number | null) => this.logStderr(text, pid)),
    };
    const spawn = () => this.logWhenReady(new LinterProcess(processOptions));
    const idle = (pid: number | null) => this.logger?.info({ pid }, 'linter worker stopped after idling');
    this.slots = Array.from(
      { length: Math.max(1, options.poolSize ?? 1) },
      () => new Slot(spawn, options.idleMs ?? 0, idle),
    );
  }

  /** Starts and warms up every worker; rejects if one cannot start. Optional: `validate` starts them too. */
  async start(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.worker()));
    for (const slot of this.slots) slot.rest();
  }

  /** Queued behind earlier files; rejects only with `ValidatorClosedError`. */
  validate(path: string, options: ValidateOptions): Promise<ValidationResults> {
    if (this.closed) return Promise.reject(new ValidatorClosedError());
    const { timeoutMs = this.timeoutMs, ...mapping } = options;
    return new Promise((resolve, reject) => {
      this.queue.push({ path: resolvePath(path), retried: false, options: mapping, timeoutMs, resolve, reject });
      this.pump();
    });
  }

  stats(): ValidatorStats {
    const workers = this.slots.map((slot) => slot.stats());
    const restarts = workers.reduce((sum, worker) => sum + worker.restarts, 0);
    return { queued: this.queue.length, ...this.counters, restarts, workers };
  }

  /** Rejects queued and running validations and waits until every worker has exited. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new ValidatorClosedError());
    await Promise.all(this.slots.map((slot) => slot.close()));
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.busy) continue;
      const job = this.queue.shift();
      if (!job) return;
      slot.busy = true;
      void this.run(slot, job).finally(() => {
        slot.busy = false;
        slot.rest();
        this.pump();
      });
    }
  }

  private async run(slot: Slot, job: Job): Promise<void> {
    const outcome = await lintOn(slot, job);
    if (!outcome.ok && this.closed) {
      job.reject(new ValidatorClosedError());
      return;
    }
    if (!outcome.ok && outcome.reason === 'unreachable' && !job.retried) {
      this.retry(slot, job, outcome.detail);
      return;
    }
    slot.jobs += 1;
    this.counters.jobs += 1;
    if (outcome.ok) {
      job.resolve(outcome.results);
      this.recycleIfBloated(slot);
    } else {
      this.recordFailure(slot, job, outcome);
      job.resolve(crashResults(job.options));
    }
  }

  /** The worker died before it saw the file (killed while idle, say): try once more on a fresh one. */
  private retry(slot: Slot, job: Job, detail: string): void {
    this.logger?.info({ path: job.path, detail }, 'linter worker gone, retrying on a new one');
    job.retried = true;
    slot.replace();
    this.queue.unshift(job);
  }

  private recordFailure(slot: Slot, job: Job, failure: Failure): void {
    const context = { path: job.path, reason: failure.reason, detail: failure.detail };
    this.logger?.warn(context, 'validation failed, answering with the crash skeleton');
    if (failure.reason === 'failure' || failure.reason === 'startup') return;
    this.counters[failure.reason === 'timeout' ? 'timeouts' : 'crashes'] += 1;
    slot.replace();
  }

  private recycleIfBloated(slot: Slot): void {
    const { rssBytes, pid } = slot.stats();
    if (this.closed || rssBytes <= this.maxRssBytes) return;
    this.logger?.info({ pid, rssBytes }, 'replacing a linter worker above its memory limit');
    slot.replace();
  }

  private logStderr(text: string, pid: number | null): void {
    this.logger?.warn({ pid, stderr: text.trimEnd() }, 'linter worker stderr');
  }

  private logWhenReady(worker: LinterProcess): LinterProcess {
    worker.ready.then(
      ({ importMs, warmUpMs, rss }) =>
        this.logger?.info({ pid: worker.pid, importMs, warmUpMs, rss }, 'linter worker ready'),
      () => undefined,
    );
    return worker;
  }
}

async function lintOn(slot: Slot, job: Job): Promise<Outcome> {
  try {
    const worker = await slot.worker();
    return await worker.lint(job.path, job.options, job.timeoutMs);
  } catch (error) {
    return { ok: false, reason: 'startup', detail: error instanceof Error ? error.message : String(error) };
  }
}

/** One place in the pool: the current worker process, replaced whenever it dies or misbehaves. */
class Slot {
  busy = false;
  jobs = 0;
  private restarts = 0;
  private spawned = false;
  private closed = false;
  private current?: LinterProcess;
  private idleTimer?: NodeJS.Timeout;
  private readonly live = new Set<LinterProcess>();

  constructor(
    private readonly spawn: () => LinterProcess,
    private readonly idleMs: number,
    private readonly onIdleStop: (pid: number | null) => void,
  ) {}

  /** The worker is free: it is stopped if it stays so for `idleMs` (the next file starts another). */
  rest(): void {
    clearTimeout(this.idleTimer);
    if (!this.idleMs || this.closed) return;
    this.idleTimer = setTimeout(() => {
      const worker = this.current;
      if (this.busy || !worker) return;
      this.current = undefined;
      this.onIdleStop(worker.pid);
      void worker.stop();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  /** The running worker; one that died (idle or while starting) is started again here, on next use. */
  async worker(): Promise<LinterProcess> {
    if (this.closed) throw new ValidatorClosedError();
    const worker = this.current ?? this.start();
    await worker.ready;
    return worker;
  }

  /** Stops the current worker and starts another at once, so that the next file finds it warm. */
  replace(): void {
    void this.current?.stop();
    this.current = undefined;
    if (!this.closed) this.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    this.current = undefined;
    await Promise.all([...this.live].map((worker) => worker.stop()));
  }

  stats(): WorkerStats {
    const { busy, jobs, restarts } = this;
    return { pid: this.current?.pid ?? null, rssBytes: this.current?.rssBytes ?? 0, jobs, restarts, busy };
  }

  private start(): LinterProcess {
    if (this.spawned) this.restarts += 1;
    this.spawned = true;
    const worker = this.spawn();
    this.current = worker;
    this.live.add(worker);
    void worker.exited.then(() => {
      this.live.delete(worker);
      if (this.current === worker) this.current = undefined;
    });
    return worker;
  }
}

function defaultWorkerEntry(): URL {
  return new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url);
}
