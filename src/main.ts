import 'reflect-metadata';
import cluster from 'node:cluster';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './core/logger.js';
import { serveClusterMetrics } from './ops/cluster-metrics.js';
import { IdleCollector } from './ops/idle-gc.js';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);
  // Read by V8 at each full collection, so setting it now applies to the whole life of the process.
  if (config.HEAP_GROWING_PERCENT > 0) v8.setFlagsFromString(`--heap-growing-percent=${config.HEAP_GROWING_PERCENT}`);
  if (config.WEB_PROCESSES > 1 && cluster.isPrimary) {
    // A scrape reaching any web process answers for all of them (summed by this primary).
    if (config.METRICS === 'on') serveClusterMetrics();
    return supervise(config.WEB_PROCESSES, logger);
  }
  const first = (process.env.WEB_PROCESS_INDEX ?? '0') === '0';
  const app = await createApp(config, logger);
  const server = await app.listen(config.PORT, config.HOST);
  if (config.IDLE_GC_SECONDS > 0) {
    const idle = new IdleCollector({
      idleMs: config.IDLE_GC_SECONDS * 1000,
      slackBytes: 16 * 1024 * 1024,
      onCollect: (before, after) => logger.debug({ heapBefore: before, heapAfter: after }, 'idle garbage collection'),
    }).start();
    server.on('request', () => idle.touch());
  }
  const { port } = server.address() as AddressInfo;
  const base = config.SITE_URL ?? `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
  logger.info({ database: app.db.kind, location: app.db.location }, 'ready');
  // The signing CA starts now rather than with the first upload (the linter worker with it).
  if (config.JOB_WORKERS) app.services.signingTools.warmUp();
  // The two addresses a person starting the service needs, also in plain text.
  if (first) {
    process.stderr.write(`\nGraphQL:  ${base}/graphql\nREST:     ${base}/api/v4/  (and ${base}/api/v3/)\n`);
    process.stderr.write(`Database: ${app.db.kind} (${app.db.location})\n`);
    if (config.WEB_PROCESSES > 1) process.stderr.write(`Web processes: ${config.WEB_PROCESSES}\n`);
    process.stderr.write('\n');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('graceful shutdown timed out');
      process.exit(1);
    }, 15_000);
    force.unref();
    // Readiness turns 503 at once. No new connections are accepted; requests already in flight are
    // answered (with the database, the job queue and the GraphQL server still open), and each
    // keep-alive connection is closed once it is idle. Only then does the app close.
    app.ops.readiness.drain();
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const closeIdle = setInterval(() => server.closeIdleConnections(), 100);
    try {
      await drained;
      clearInterval(closeIdle);
      await app.close();
      logger.info('stopped');
      clearTimeout(force);
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/**
 * WEB_PROCESSES > 1: this process only supervises. The first web process starts alone (it applies
 * migrations and runs the jobs), the others once it listens; they share the port (node:cluster
 * hands out connections). One that dies is replaced; one that dies before it ever listened stops
 * the service (a configuration or database problem a restart would only repeat). SIGTERM/SIGINT
 * stop every process gracefully.
 */
async function supervise(count: number, logger: ReturnType<typeof createLogger>) {
  let stopping = false;
  const start = (index: number) => {
    // The first process keeps the configured JOB_WORKERS; the others serve requests only.
    const worker = cluster.fork({ WEB_PROCESS_INDEX: String(index), ...(index > 0 ? { JOB_WORKERS: 'false' } : {}) });
    let listened = false;
    worker.once('listening', () => (listened = true));
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      if (!listened) {
        logger.error({ index, code, signal }, 'web process failed to start; stopping');
        void stop('startup failure', 1);
        return;
      }
      logger.error({ index, code, signal }, 'web process exited; starting another');
      setTimeout(() => !stopping && start(index), 1_000).unref();
    });
    return worker;
  };
  const stop = async (reason: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, 'stopping web processes');
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w && !w.isDead());
    for (const worker of workers) worker!.process.kill('SIGTERM');
    await Promise.all(workers.map((w) => once(w!, 'exit')));
    process.exit(exitCode);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  const first = start(0);
  await once(first, 'listening');
  for (let index = 1; index < count && !stopping; index++) start(index);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
