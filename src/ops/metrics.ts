import { performance } from 'node:perf_hooks';
import type { AbstractSqlConnection } from '@mikro-orm/postgresql';
import type { Request, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { ResponseCache } from '../core/response-cache.js';
import type { Database } from '../db/database.js';
import type { JobName, JobQueue, JobState } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import {
  MAX_OPERATION_NAMES,
  operationNameOf,
  OperationLabels,
  RouteLabels,
  type RouteTemplateSource,
} from './labels.js';
import {
  HistogramSeries,
  JOB_BUCKETS,
  LATENCY_BUCKETS,
  registerCustom,
  registerHistogram,
  type Sample,
} from './series.js';
import { clusterScrape } from './cluster-metrics.js';
import { withTimeout } from './timeout.js';

export interface MetricsSources {
  db: Database;
  jobs: JobQueue<ServiceJobs>;
  cache: ResponseCache;
  /** The REST route table, for route templates. */
  routes: readonly RouteTemplateSource[];
}

interface CacheCounts {
  hits: number;
  misses: number;
  stored: number;
  storedBytes: number;
}

interface JobSeries {
  completed: HistogramSeries;
  failed: HistogramSeries;
}

/** A scrape waits this long for the job counts; past it they are reported as unknown (`addons_job_queue_up 0`). */
const JOB_STATS_TIMEOUT_MS = 2_000;
const JOB_STATES: readonly JobState[] = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'];

/** A knex (tarn) pool, as far as the gauges read it. */
interface PoolView {
  max: number;
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

/**
 * The service's Prometheus metrics, in a registry of its own (one per app: tests run several in
 * one process). Requests, answer-cache lookups and jobs are counted as they happen, in plain
 * numbers (src/ops/series.ts); job-queue depth, pool use and cache size are read when scraped.
 */
const CACHE_NAMES = ['rest', 'graphql', 'parts'] as const;

let processRegistry: Registry | undefined;

/**
 * Node's own metrics (CPU, memory, GC, event loop) describe the process, so they are collected once
 * per process and shared by every app's registry. prom-client's collector starts a GC observer that
 * is never stopped: one per app kept each app, its database included, alive after it closed.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}
type CacheName = (typeof CACHE_NAMES)[number];

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly routes: RouteLabels;
  private readonly operations: OperationLabels;
  private inFlight = 0;
  private readonly cacheCounts: Record<CacheName, CacheCounts> = {
    rest: { hits: 0, misses: 0, stored: 0, storedBytes: 0 },
    graphql: { hits: 0, misses: 0, stored: 0, storedBytes: 0 },
    parts: { hits: 0, misses: 0, stored: 0, storedBytes: 0 },
  };
  private readonly jobSeries = new Map<string, JobSeries>();
  private readonly jobFailures = new Map<string, number>();

  constructor(private readonly sources: MetricsSources) {
    this.routes = new RouteLabels(sources.routes, LATENCY_BUCKETS);
    this.operations = new OperationLabels(LATENCY_BUCKETS, sources.routes);
    const shared = processMetrics();
    for (const { name } of shared.getMetricsAsArray()) this.registry.registerMetric(shared.getSingleMetric(name)!);
    this.registerRequests();
    this.registerCache();
    this.registerJobs();
    this.registerPool();
    this.observeCache(sources.cache);
    this.clusterScrape = clusterScrape(this.registry);
  }

  /** With WEB_PROCESSES > 1, a scrape of every process (src/ops/cluster-metrics.ts). */
  private readonly clusterScrape: (() => Promise<string>) | null;

  /** The exposition text: this process's metrics, or the whole cluster's. */
  scrape(): Promise<string> {
    return this.clusterScrape ? this.clusterScrape() : this.registry.metrics();
  }

  /** Express middleware: times every request from here to the end of its response. */
  requests(): RequestHandler {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const metrics = this;
    // One listener for every response (`this` is the response): nothing is allocated per request.
    function onClose(this: Response) {
      metrics.finished(this);
    }
    return (_req, res, next) => {
      this.inFlight++;
      (res as TimedResponse)[STARTED] = performance.now();
      res.on('close', onClose);
      next();
    };
  }

  private finished(res: Response): void {
    this.inFlight--;
    const req = res.req as Request;
    const seconds = (performance.now() - (res as TimedResponse)[STARTED]!) / 1000;
    // A response the client gave up on before it was sent: nginx's 499.
    const status = res.writableFinished ? res.statusCode : 499;
    const url = req.originalUrl;
    const query = url.indexOf('?');
    const label = this.routes.of(query === -1 ? url : url.slice(0, query));
    label.seriesOf(req.method, status).observe(seconds);
    if (label.value === '/graphql') {
      const name = operationNameOf(req.method === 'GET' ? req.query : req.body);
      this.operations.of(name, status).seriesOf(req.method, status).observe(seconds);
    }
  }

  /** Runs a job handler, timing it per queue and outcome and counting failures. */
  async timeJob<T>(queue: JobName<ServiceJobs>, run: () => Promise<T>): Promise<T> {
    let series = this.jobSeries.get(queue);
    if (!series) {
      series = {
        completed: new HistogramSeries({ queue, outcome: 'completed' }, JOB_BUCKETS),
        failed: new HistogramSeries({ queue, outcome: 'failed' }, JOB_BUCKETS),
      };
      this.jobSeries.set(queue, series);
    }
    const started = performance.now();
    try {
      const result = await run();
      series.completed.observe((performance.now() - started) / 1000);
      return result;
    } catch (error) {
      series.failed.observe((performance.now() - started) / 1000);
      this.jobFailures.set(queue, (this.jobFailures.get(queue) ?? 0) + 1);
      throw error;
    }
  }

  private registerRequests(): void {
    const { registry } = this;
    const routeSeries = () => [...this.routes.all()].flatMap((label) => [...label.all()]);
    const operationSeries = () => [...this.operations.all()].flatMap((label) => [...label.all()]);
    registerCustom(
      registry,
      'addons_http_requests_total',
      'HTTP requests answered, per route template, method and status (499: the client left first).',
      'counter',
      () => routeSeries().map((s) => ({ labels: s.labels, value: s.count })),
    );
    registerHistogram(
      registry,
      'addons_http_request_duration_seconds',
      'Time from the request reaching the app to the end of its response, per route template, method and status.',
      LATENCY_BUCKETS,
      routeSeries,
    );
    registerCustom(registry, 'addons_http_requests_in_flight', 'Requests being answered now.', 'gauge', () => [
      { labels: {}, value: this.inFlight },
    ]);
    registerCustom(
      registry,
      'addons_graphql_requests_total',
      `GraphQL requests per operation name (the REST route table's operations; up to ${MAX_OPERATION_NAMES} other names answered with 200, a name unused for 15 minutes giving its place to a new one; anonymous and other names: "(other)"), method and status.`,
      'counter',
      () => operationSeries().map((s) => ({ labels: s.labels, value: s.count })),
    );
    registerHistogram(
      registry,
      'addons_graphql_request_duration_seconds',
      'GraphQL request durations per operation name, method and status.',
      LATENCY_BUCKETS,
      operationSeries,
    );
  }

  private registerCache(): void {
    const { registry, cacheCounts } = this;
    const perCache = (read: (c: CacheCounts) => number, extra: Record<string, string> = {}): Sample[] =>
      CACHE_NAMES.map((cache) => ({ labels: { cache, ...extra }, value: read(cacheCounts[cache]) }));
    registerCustom(
      registry,
      'addons_answer_cache_lookups_total',
      'Answer-cache lookups (REST answers, GraphQL answers and the parts pages are assembled from share one cache) per result: hit, or miss (absent or outdated).',
      'counter',
      () => [...perCache((c) => c.hits, { result: 'hit' }), ...perCache((c) => c.misses, { result: 'miss' })],
    );
    registerCustom(registry, 'addons_answer_cache_stores_total', 'Answers stored in the answer cache.', 'counter', () =>
      perCache((c) => c.stored),
    );
    registerCustom(
      registry,
      'addons_answer_cache_stored_bytes_total',
      'Bytes of the answers stored in the answer cache.',
      'counter',
      () => perCache((c) => c.storedBytes),
    );
    registerCustom(
      registry,
      'addons_answer_cache_bytes',
      'Estimated bytes the answer cache holds (bodies, keys and tags; bounded by RESPONSE_CACHE_MB).',
      'gauge',
      () => [{ labels: {}, value: this.sources.cache.bytes }],
    );
    registerCustom(
      registry,
      'addons_answer_cache_entries',
      'Answers the answer cache holds.',
      'gauge',
      () => [{ labels: {}, value: this.sources.cache.size }],
      'sum',
    );
  }

  /** One read of the job counts serves a whole scrape (and scrapes within a second of it); null when it failed. */
  private jobStats(): Promise<Record<string, Record<JobState, number>> | null> {
    const now = performance.now();
    if (!this.jobStatsRead || now - this.jobStatsRead.at > 1_000) {
      const counts = withTimeout(this.sources.jobs.stats(), JOB_STATS_TIMEOUT_MS, 'job counts').catch(() => null);
      this.jobStatsRead = { at: now, counts };
    }
    return this.jobStatsRead.counts;
  }

  private jobStatsRead: { at: number; counts: Promise<Record<string, Record<JobState, number>> | null> } | null = null;

  private registerJobs(): void {
    const { registry } = this;
    registerCustom(
      registry,
      'addons_jobs',
      'Jobs in the queue table per queue and state (depth: created + retry; completed jobs are archived after 12 hours).',
      'gauge',
      async () => {
        const stats = await this.jobStats();
        return Object.entries(stats ?? {}).flatMap(([queue, counts]) =>
          JOB_STATES.map((state) => ({ labels: { queue, state }, value: counts[state] })),
        );
      },
      'max',
    );
    registerCustom(
      registry,
      'addons_job_queue_up',
      'Whether this scrape could read the job counts (1) or not (0, within 2 s).',
      'gauge',
      async () => [{ labels: {}, value: (await this.jobStats()) ? 1 : 0 }],
      'max',
    );
    registerCustom(
      registry,
      'addons_job_failures_total',
      'Job deliveries whose handler failed in this process, per queue (each is retried until its limit).',
      'counter',
      () => [...this.jobFailures].map(([queue, value]) => ({ labels: { queue }, value })),
    );
    registerHistogram(
      registry,
      'addons_job_duration_seconds',
      'Job handler durations per queue and outcome: validate-upload is validation (addons-linter and recording the results), sign-version is signing.',
      JOB_BUCKETS,
      () => [...this.jobSeries.values()].flatMap((s) => [s.completed, s.failed]),
    );
  }

  private registerPool(): void {
    const pool = (): PoolView | undefined => {
      const connection = this.sources.db.orm.em.getConnection() as AbstractSqlConnection;
      return (connection.getKnex().client as { pool?: PoolView }).pool;
    };
    registerCustom(
      this.registry,
      'addons_db_pool_connections',
      "Connections of the application's database pool by state (used, free), and requests waiting for one (pending).",
      'gauge',
      () => {
        const p = pool();
        if (!p) return [];
        return [
          { labels: { state: 'used' }, value: p.numUsed() },
          { labels: { state: 'free' }, value: p.numFree() },
          { labels: { state: 'pending_acquire' }, value: p.numPendingAcquires() },
          { labels: { state: 'pending_create' }, value: p.numPendingCreates() },
        ];
      },
    );
    registerCustom(
      this.registry,
      'addons_db_pool_max',
      "Largest size of the application's database pool (DATABASE_POOL_MAX).",
      'gauge',
      () => {
        const p = pool();
        return p ? [{ labels: {}, value: p.max }] : [];
      },
    );
  }

  /**
   * Counts the answer cache's lookups and stores. ResponseCache knows nothing of metrics; its
   * `get`, `getMany` and `set` are wrapped on this instance. GraphQL's keys start with `graphql `
   * (see graphqlCacheKey), parts' with `part ` (rest-compat/parts.ts), REST's with the origin.
   */
  private observeCache(cache: ResponseCache): void {
    const get = cache.get.bind(cache);
    const getMany = cache.getMany.bind(cache);
    const set = cache.set.bind(cache);
    const counts = (key: string) =>
      key.startsWith('graphql ')
        ? this.cacheCounts.graphql
        : key.startsWith('part ')
          ? this.cacheCounts.parts
          : this.cacheCounts.rest;
    cache.get = async (em, key) => {
      const hit = await get(em, key);
      if (hit) counts(key).hits++;
      else counts(key).misses++;
      return hit;
    };
    cache.getMany = async (em, keys) => {
      const found = await getMany(em, keys);
      found.forEach((hit, i) => (hit ? counts(keys[i]).hits++ : counts(keys[i]).misses++));
      return found;
    };
    cache.set = (key, answer, tags, versions) => {
      set(key, answer, tags, versions);
      const c = counts(key);
      c.stored++;
      c.storedBytes += answer.body.length;
    };
  }
}

const STARTED = Symbol('request started');
type TimedResponse = Response & { [STARTED]?: number };
