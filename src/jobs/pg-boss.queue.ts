import { randomUUID } from 'node:crypto';
import { TransactionContext, type EntityManager } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import type { Logger } from '../core/logger.js';
import type { Database } from '../db/database.js';
import { OwnerLease } from './owner-lease.js';
import { claimJobs, countStates, findOrphans } from './pg-boss.sql.js';
import type {
  JobHandler,
  JobInfo,
  JobMap,
  JobName,
  JobQueue,
  JobState,
  QueueDefinition,
  QueueDefinitions,
  SendOptions,
  StateCounts,
  StopOptions,
  WorkOptions,
} from './queue.port.js';
import {
  inTransaction,
  knexPoolSource,
  pgPoolSource,
  transactionSession,
  type SessionSource,
  type SqlSession,
} from './sql-session.js';
import { Worker, type FetchedJob } from './worker.js';

export interface PgBossQueueOptions<M> {
  queues: QueueDefinitions<M>;
  logger: Logger;
  /** PostgreSQL schema of pg-boss's tables; default `pgboss`. */
  schema?: string;
  /** Default for `work()`; default 2 s. */
  pollIntervalSeconds?: number;
  /** pg-boss maintenance (expiry of stuck jobs, archiving); default 60 s. */
  maintenanceIntervalSeconds?: number;
  /** PostgreSQL: how often this instance looks for jobs of dead instances; default 30 s. */
  recoverIntervalSeconds?: number;
  /** PostgreSQL: connections of the queue's own pool; default 3. */
  poolMax?: number;
}

const JOB_STATES: readonly JobState[] = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'];

/** pg-boss's queue options for a declared queue, and the fields a stored queue is compared on. */
function queueOf(name: string, definition: QueueDefinition): PgBoss.Queue {
  return {
    name,
    policy: definition.policy ?? 'standard',
    retryLimit: definition.retryLimit ?? 3,
    retryDelay: definition.retryDelaySeconds ?? 0,
    retryBackoff: definition.retryBackoff ?? false,
    expireInSeconds: definition.expireInSeconds ?? 900,
    retentionMinutes: (definition.retentionDays ?? 14) * 24 * 60,
  };
}
const QUEUE_FIELDS = [
  'policy',
  'retryLimit',
  'retryDelay',
  'retryBackoff',
  'expireInSeconds',
  'retentionMinutes',
] as const;

/**
 * A job queue on pg-boss 10 in the application's database. Call `start()`, then `work()`.
 *
 * - PostgreSQL: pg-boss statements use a small pool of their own. Each process holds an owner
 *   lease (see OwnerLease) and records itself on every job it fetches, in the fetch's transaction.
 *   At start and every `recoverIntervalSeconds`, active jobs whose owner's lease is gone are failed,
 *   so pg-boss retries them at once. Jobs of a live instance are never touched.
 * - Embedded PGlite: pg-boss statements borrow MikroORM's only connection (see knexPoolSource), so
 *   they never run inside an application transaction. The process owns the database alone, so at
 *   start every active job is an orphan of the previous run and is retried at once.
 *
 * pg-boss's own expiry (maintenance) stays as the last resort for jobs of a hung process.
 * pg-boss's `work()` is not used: this adapter's worker loop claims jobs, awaits completion
 * statements (pg-boss 10 leaves them floating) and can be drained on stop.
 */
export function createJobQueue<M extends JobMap<M>>(database: Database, options: PgBossQueueOptions<M>): JobQueue<M> {
  return new PgBossQueue(database, options);
}

interface Running {
  boss: PgBoss;
  source: SessionSource;
  /** PostgreSQL only: this process's proof of life, which other instances check before redelivering. */
  lease: OwnerLease | null;
  recoverTimer: NodeJS.Timeout | null;
}

class PgBossQueue<M extends JobMap<M>> implements JobQueue<M> {
  readonly #schema: string;
  readonly #names: JobName<M>[];
  readonly #workers: Pick<Worker<unknown>, 'name' | 'notify' | 'stop'>[] = [];
  readonly #inflight = new Set<Promise<unknown>>();
  #running: Running | null = null;
  #starting: Promise<void> | null = null;
  #stopping: Promise<void> | null = null;

  constructor(
    private readonly database: Database,
    private readonly options: PgBossQueueOptions<M>,
  ) {
    this.#schema = options.schema ?? 'pgboss';
    this.#names = Object.keys(options.queues) as JobName<M>[];
  }

  start(): Promise<void> {
    this.#starting ??= this.#start().catch((error: unknown) => {
      this.#starting = null;
      throw error;
    });
    return this.#starting;
  }

  async #start(): Promise<void> {
    const source = this.#openSource();
    let lease: OwnerLease | null = null;
    try {
      if (this.database.kind === 'postgres') {
        lease = new OwnerLease(randomUUID(), this.#connectionString(), (error) => this.#report(error));
        await lease.acquire();
      }
      const boss = new PgBoss({
        db: this.#trackedDb(source),
        schema: this.#schema,
        schedule: false,
        maintenanceIntervalSeconds: this.options.maintenanceIntervalSeconds ?? 60,
      });
      boss.on('error', (error) => this.#report(error));
      await boss.start();
      this.#running = { boss, source, lease, recoverTimer: null };
      await this.#defineQueues(boss);
      await this.#recover();
      if (lease) this.#running.recoverTimer = this.#scheduleRecovery();
    } catch (error) {
      await this.#closeAll(this.#running?.boss ?? null, source, lease);
      this.#running = null;
      throw error;
    }
  }

  stop(options: StopOptions = {}): Promise<void> {
    this.#stopping ??= this.#stop(options).finally(() => (this.#stopping = null));
    return this.#stopping;
  }

  async #stop(options: StopOptions): Promise<void> {
    await this.#starting?.catch(() => {});
    const running = this.#running;
    if (!running) return;
    if (running.recoverTimer) clearInterval(running.recoverTimer);
    const workers = this.#workers.splice(0);
    await Promise.all(workers.map((w) => w.stop(options.graceful ?? true, options.timeoutMs ?? 30_000)));
    this.#running = null;
    this.#starting = null;
    await this.#closeAll(running.boss, running.source, running.lease);
  }

  async send<N extends JobName<M>>(name: N, data: M[N], options: SendOptions = {}): Promise<string | null> {
    const { boss } = this.#require();
    const { transaction, ...rest } = options;
    const sendOptions = toSendOptions(rest);
    if (transaction) {
      const session = await transactionSession(transaction, this.database.kind);
      const id = await boss.send(name, data, { ...sendOptions, db: dbOf(session) });
      if (id) this.#notifyAfterCommit(transaction, name);
      return id;
    }
    assertOutsideTransaction('send() inside em.transactional() must pass { transaction: em }');
    const id = await boss.send(name, data, sendOptions);
    if (id) this.#notify(name);
    return id;
  }

  #notify(name: string): void {
    for (const worker of this.#workers) if (worker.name === name) worker.notify();
  }

  /**
   * Local workers poll as soon as the sending transaction commits (knex settles `executionPromise`
   * then). A nested `em.transactional()` is a savepoint whose promise settles at its release, long
   * before the commit (a mutation's service inside the executor's transaction): a worker woken then
   * would find nothing yet and sleep until its next poll, so wait for the outermost transaction.
   */
  #notifyAfterCommit(transaction: EntityManager, name: string): void {
    let trx = transaction.getTransactionContext() as KnexTransactor | undefined;
    while (trx?.parentTransaction) trx = trx.parentTransaction;
    trx?.executionPromise?.then(
      () => this.#notify(name),
      () => {},
    );
  }

  async work<N extends JobName<M>>(name: N, handler: JobHandler<M[N]>, options: WorkOptions = {}): Promise<void> {
    const { boss } = this.#require();
    if (!this.#names.includes(name)) throw new Error(`Unknown queue ${name}`);
    const concurrency = options.concurrency ?? 1;
    const pollIntervalSeconds = options.pollIntervalSeconds ?? this.options.pollIntervalSeconds ?? 2;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be a positive integer');
    if (!(pollIntervalSeconds >= 0.05)) throw new Error('pollIntervalSeconds must be at least 0.05');
    const worker = new Worker<M[N]>({
      name,
      concurrency,
      pollIntervalMs: pollIntervalSeconds * 1000,
      handler,
      fetch: (limit) => this.#fetch<M[N]>(name, limit),
      complete: (id, output) => (output == null ? boss.complete(name, id) : boss.complete(name, id, toOutput(output))),
      fail: (id, error) => boss.fail(name, id, error),
      onError: (error, context) => this.#report(error, context),
    });
    this.#workers.push(worker);
    worker.start();
  }

  async getJob<N extends JobName<M>>(name: N, id: string): Promise<JobInfo<M[N]> | null> {
    this.#assertCanRead();
    const job = await this.#require().boss.getJobById<M[N]>(name, id);
    if (!job) return null;
    return {
      id: job.id,
      name: job.name,
      data: job.data,
      state: job.state,
      retryCount: job.retryCount,
      retryLimit: job.retryLimit,
      output: job.output,
      createdOn: job.createdOn,
      completedOn: job.completedOn,
    };
  }

  async stats(): Promise<Record<JobName<M>, StateCounts>> {
    this.#assertCanRead();
    const { source } = this.#require();
    const { rows } = await this.#track(source.withSession((s) => s.run(countStates(this.#schema), [this.#names])));
    const stats = Object.fromEntries(this.#names.map((n) => [n, zeroCounts()])) as Record<JobName<M>, StateCounts>;
    for (const row of rows) stats[row.name as JobName<M>][row.state as JobState] = Number(row.count);
    return stats;
  }

  /** On PGlite a read from inside a transaction would wait for that transaction's connection: forever, if awaited. */
  #assertCanRead(): void {
    if (this.database.kind === 'embedded') {
      assertOutsideTransaction('The embedded database cannot serve queue reads from inside a transaction');
    }
  }

  #require(): Running {
    if (!this.#running) throw new Error('The job queue is not started');
    return this.#running;
  }

  #openSource(): SessionSource {
    if (this.database.kind === 'embedded') return knexPoolSource(this.database);
    return pgPoolSource(this.#connectionString(), this.options.poolMax ?? 3, (error) => this.#report(error));
  }

  #connectionString(): string {
    const url = this.database.orm.config.get('clientUrl');
    if (!url) throw new Error('The PostgreSQL database has no connection URL');
    return url;
  }

  /** pg-boss's connection: statements are counted so that `stop()` can wait for the last ones. */
  #trackedDb(source: SessionSource): PgBoss.Db {
    return { executeSql: (text, values) => this.#track(source.withSession((s) => s.run(text, values))) };
  }

  #track<T>(promise: Promise<T>): Promise<T> {
    this.#inflight.add(promise);
    const forget = () => this.#inflight.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  /** Creates the declared queues that are missing and updates those stored otherwise: one statement when all are as declared. */
  async #defineQueues(boss: PgBoss): Promise<void> {
    const stored = new Map((await boss.getQueues()).map((queue) => [queue.name, queue]));
    for (const name of this.#names) {
      const queue = queueOf(name, this.options.queues[name]);
      const current = stored.get(name);
      if (!current) await boss.createQueue(name, queue);
      else if (QUEUE_FIELDS.some((field) => current[field] !== queue[field])) await boss.updateQueue(name, queue);
    }
  }

  /**
   * Marks jobs left active by a dead process as failed, which pg-boss turns into a retry (or a final
   * failure once the retry limit is spent): they are delivered again at once, not after their expiry.
   */
  async #recover(): Promise<void> {
    const { boss, source } = this.#require();
    const message = 'The process running this job stopped before finishing it';
    // Embedded: the data-directory lock makes this process the database's only user since boot.
    const exclusive = this.database.kind === 'embedded';
    const count = await this.#track(
      inTransaction(source, async (session) => {
        const { rows } = await session.run(findOrphans(this.#schema, exclusive), [this.#names]);
        for (const row of rows) await boss.fail(String(row.name), String(row.id), { message }, { db: dbOf(session) });
        return rows.length;
      }),
    );
    if (count) this.options.logger.warn({ jobs: count }, 'redelivering jobs of a stopped process');
  }

  #scheduleRecovery(): NodeJS.Timeout {
    let busy = false;
    return setInterval(
      () => {
        if (busy || !this.#running) return;
        busy = true;
        this.#recover()
          .catch((error: unknown) => this.#report(error))
          .finally(() => (busy = false));
      },
      (this.options.recoverIntervalSeconds ?? 30) * 1000,
    );
  }

  async #fetch<T>(name: string, limit: number): Promise<FetchedJob<T>[]> {
    const { boss, source, lease } = this.#require();
    const options = { batchSize: limit, includeMetadata: true } as const;
    if (!lease) return (await boss.fetch<T>(name, options)).map(fetched);
    if (!lease.held) return [];
    // On a shared database the claim commits with the fetch: no job is ever active without an owner.
    return this.#track(
      inTransaction(source, async (session) => {
        const jobs = await boss.fetch<T>(name, { ...options, db: dbOf(session) });
        if (jobs.length) await session.run(claimJobs(this.#schema), [name, jobs.map((j) => j.id), lease.owner]);
        return jobs.map(fetched);
      }),
    );
  }

  async #closeAll(boss: PgBoss | null, source: SessionSource, lease: OwnerLease | null): Promise<void> {
    await boss?.stop({ graceful: false });
    while (this.#inflight.size) await Promise.allSettled([...this.#inflight]);
    await lease?.release();
    await source.close();
  }

  #report(error: unknown, context: object = {}): void {
    this.options.logger.error({ err: error, ...context }, 'job queue error');
  }
}

function dbOf(session: SqlSession): PgBoss.Db {
  return { executeSql: (text, values) => session.run(text, values) };
}

function fetched<T>(job: PgBoss.JobWithMetadata<T>): FetchedJob<T> {
  return {
    id: job.id,
    name: job.name,
    data: job.data,
    retryCount: job.retryCount,
    // EXTRACT(epoch …) is numeric, which drivers return as a string.
    expireInSeconds: Number(job.expireInSeconds),
  };
}

/** pg-boss rejects present-but-undefined options, so only set ones are passed. */
/** What `#notifyAfterCommit` reads of a knex transaction (a savepoint's names its parent). */
interface KnexTransactor {
  executionPromise?: Promise<unknown>;
  parentTransaction?: KnexTransactor;
}

function toSendOptions(options: Omit<SendOptions, 'transaction'>): PgBoss.SendOptions {
  const result: PgBoss.SendOptions = {};
  if (options.singletonKey !== undefined) result.singletonKey = options.singletonKey;
  if (options.retryLimit !== undefined) result.retryLimit = options.retryLimit;
  if (options.retryDelaySeconds !== undefined) result.retryDelay = options.retryDelaySeconds;
  if (options.startAfter !== undefined) result.startAfter = options.startAfter;
  if (options.priority !== undefined) result.priority = options.priority;
  return result;
}

function toOutput(output: NonNullable<unknown>): object {
  return typeof output === 'object' ? output : { value: output };
}

/**
 * On PGlite a statement outside the open transaction would wait for the single connection that
 * transaction holds (a deadlock when awaited); on PostgreSQL a send would not be atomic with it.
 */
function assertOutsideTransaction(message: string): void {
  if (TransactionContext.getEntityManager()?.isInTransaction()) throw new Error(message);
}

function zeroCounts(): StateCounts {
  return Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as StateCounts;
}
