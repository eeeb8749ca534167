import type { Registry } from 'prom-client';

/**
 * Metrics on the request path, kept as plain numbers in objects made once per label set: recording
 * a request is a map lookup and a few additions (prom-client's own `observe` hashes its labels into
 * a new string every call). The registry reads them in prom-client's JSON form at scrape time, so
 * `/metrics` and cluster aggregation (AggregatorRegistry) treat them like prom-client's own.
 */

/** A histogram's counts for one label set. */
export class HistogramSeries {
  /** Observations per bucket, not cumulative (made cumulative when read). */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(value: number): void {
    this.sum += value;
    this.count += 1;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]) {
        this.counts[i] += 1;
        return;
      }
    }
  }
}

/** prom-client's runtime names (its typings declare a numeric enum the library never uses). */
export type MetricKind = 'counter' | 'gauge' | 'histogram';

/** One sample: `metricName` for a histogram's `_bucket`, `_sum` and `_count` lines. */
export interface Sample {
  labels: Readonly<Record<string, string>>;
  value: number;
  metricName?: string;
}

interface MetricJson {
  name: string;
  help: string;
  type: MetricKind;
  aggregator: 'sum' | 'max';
  values: Sample[];
}

/** What `Registry.registerMetric` reads of a metric. */
interface CustomMetric {
  name: string;
  help: string;
  type: MetricKind;
  aggregator: 'sum' | 'max';
  get(): Promise<MetricJson>;
}

/** Registers a metric whose values `read` computes at scrape time. */
export function registerCustom(
  registry: Registry,
  name: string,
  help: string,
  type: MetricKind,
  read: () => Sample[] | Promise<Sample[]>,
  aggregator: 'sum' | 'max' = 'sum',
): void {
  const metric: CustomMetric = {
    name,
    help,
    type,
    aggregator,
    get: async () => ({ name, help, type, aggregator, values: await read() }),
  };
  registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
}

/** A histogram over series the caller creates and observes. */
export function registerHistogram(
  registry: Registry,
  name: string,
  help: string,
  bounds: readonly number[],
  series: () => Iterable<HistogramSeries>,
): void {
  const le = [...bounds.map(String), '+Inf'];
  registerCustom(registry, name, help, 'histogram', () => {
    const values: Sample[] = [];
    for (const s of series()) {
      let cumulative = 0;
      for (let i = 0; i <= bounds.length; i++) {
        cumulative += i < bounds.length ? s.counts[i] : 0;
        const value = i < bounds.length ? cumulative : s.count;
        values.push({ labels: { ...s.labels, le: le[i] }, value, metricName: `${name}_bucket` });
      }
      values.push({ labels: s.labels, value: s.sum, metricName: `${name}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${name}_count` });
    }
    return values;
  });
}

/** Prometheus's default latency buckets, finer below 10 ms where cached answers are. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Background work: a linter run or a signature takes seconds, a slow one minutes. */
export const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
