import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * Metrics with WEB_PROCESSES > 1 (node:cluster): each web process counts its own requests, and a
 * scrape reaches whichever process takes the connection. That process asks the supervising
 * primary, which collects every process's metrics (prom-client's AggregatorRegistry, over the
 * cluster's IPC channel) and returns them summed (gauges of shared state, like job counts, as
 * their maximum), so every scrape sees the whole service.
 */

const REQUEST = 'addons:metrics-request';
const REPLY = 'addons:metrics-reply';
/** prom-client's primary gives up on a silent process after 5 s. */
const REPLY_TIMEOUT_MS = 6_000;

interface Reply {
  type: typeof REPLY;
  id: number;
  text?: string;
  error?: string;
}

/**
 * In a cluster web process: registers `registry` as this process's share and returns a scrape of
 * the whole cluster's metrics; null outside a cluster (the registry alone is the answer).
 */
export function clusterScrape(registry: Registry): (() => Promise<string>) | null {
  if (!cluster.isWorker || !process.send) return null;
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one makes this process answer the primary's requests for its metrics.
  new AggregatorRegistry();
  const pending = new Map<number, { resolve(text: string): void; reject(error: Error): void }>();
  let nextId = 0;
  process.on('message', (message: Reply) => {
    if (message?.type !== REPLY) return;
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (message.text !== undefined) waiting?.resolve(message.text);
    else waiting?.reject(new Error(`cluster metrics: ${message.error ?? 'no answer'}`));
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('cluster metrics: the primary did not answer'));
      }, REPLY_TIMEOUT_MS);
      pending.set(id, {
        resolve: (text) => (clearTimeout(timer), resolve(text)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      process.send!({ type: REQUEST, id });
    });
}

/** In the supervising primary: answers the web processes' scrapes with every process's metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== REQUEST || typeof message.id !== 'number') return;
    const id = message.id;
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: REPLY, id, text } satisfies Reply),
      (error: Error) => worker.isConnected() && worker.send({ type: REPLY, id, error: error.message } satisfies Reply),
    );
  });
}
