import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The job queue port: background work (upload validation, signing, search indexing) stored in the
 * service's own database, so a job is as durable as the rows it is about.
 *
 * Delivery is at least once: a job whose handler throws, runs past its expiry or whose process dies
 * is delivered again (until its retry limit), so handlers must be idempotent.
 */

/** Job names to payload types, e.g. `{ 'validate-upload': { uploadId: string } }`. Payloads are stored as JSON. */
export type JobMap<M> = Record<keyof M, object>;
export type JobName<M> = keyof M & string;

export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

/**
 * `standard`: every send is a job. `short`: at most one queued (not yet started) job per
 * `singletonKey`, later sends return null. `singleton`: at most one active job per key.
 * `stately`: at most one job per key and state up to active.
 */
export type QueuePolicy = 'standard' | 'short' | 'singleton' | 'stately';

export interface QueueDefinition {
  policy?: QueuePolicy;
  /** Deliveries after the first one; default 3. A crash counts as a failed delivery. */
  retryLimit?: number;
  /** Seconds before a failed job is delivered again; default 0. */
  retryDelaySeconds?: number;
  /** Doubles the delay on each retry (with jitter). */
  retryBackoff?: boolean;
  /** The longest a handler may run; past it the job fails and is retried. Default 900 (15 min). */
  expireInSeconds?: number;
  /** How long a queued job may wait before it is dropped; default 14 days. */
  retentionDays?: number;
}

export type QueueDefinitions<M> = { readonly [N in JobName<M>]: QueueDefinition };

export interface SendOptions {
  /** Deduplication key; what it dedupes depends on the queue's policy. */
  singletonKey?: string;
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** Seconds from now, or a point in time. */
  startAfter?: number | Date;
  /** Higher runs first. */
  priority?: number;
  /**
   * An entity manager inside `em.transactional()`: the job is inserted in that transaction and
   * exists only if it commits. Required when sending from inside a transaction.
   */
  transaction?: EntityManager;
}

export interface Job<T> {
  readonly id: string;
  readonly name: string;
  readonly data: T;
  /** 0 on the first delivery, then 1, 2… after failures, expiries or crashes. */
  readonly retryCount: number;
  /** Aborted when the handler runs past the queue's expiry or the queue stops without waiting for it. */
  readonly signal: AbortSignal;
}

/** Resolves when the work is done (the value is kept as the job's output); throws to retry. */
export type JobHandler<T> = (job: Job<T>) => Promise<unknown>;

export interface WorkOptions {
  /** Jobs of this queue run at once in this process; default 1. */
  concurrency?: number;
  /** Seconds between polls when the queue is idle (a send from this process wakes it at once). */
  pollIntervalSeconds?: number;
}

export interface StopOptions {
  /** Wait for running handlers (default true). Handlers still running afterwards are failed and retried. */
  graceful?: boolean;
  /** How long a graceful stop waits, default 30 s. */
  timeoutMs?: number;
}

export interface JobInfo<T> {
  id: string;
  name: string;
  data: T;
  state: JobState;
  retryCount: number;
  retryLimit: number;
  output: unknown;
  createdOn: Date;
  completedOn: Date | null;
}

export type StateCounts = Record<JobState, number>;

export interface JobQueue<M extends JobMap<M>> {
  /** Installs or migrates the queue's tables, creates the queues, redelivers jobs of dead processes. */
  start(): Promise<void>;
  stop(options?: StopOptions): Promise<void>;
  /** The job's id, or null when the queue's policy deduplicated it. */
  send<N extends JobName<M>>(name: N, data: M[N], options?: SendOptions): Promise<string | null>;
  /** Starts processing a queue in this process (after `start`). */
  work<N extends JobName<M>>(name: N, handler: JobHandler<M[N]>, options?: WorkOptions): Promise<void>;
  /** A job that is still in the queue's table (completed jobs are archived after 12 hours). */
  getJob<N extends JobName<M>>(name: N, id: string): Promise<JobInfo<M[N]> | null>;
  /** Jobs per queue and state. */
  stats(): Promise<Record<JobName<M>, StateCounts>>;
}
