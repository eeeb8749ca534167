/**
 * The webhook backlog suite (issue 35): what 1,000 webhook deliveries waiting for a receiver that
 * never answers (it accepts the TCP connection and says nothing) cost everyone else. Per database
 * (embedded PGlite, then a scratch database on DATABASE_URL's server when it is set): a server
 * with BENCH_WEBHOOK_ENDPOINTS (default 10, one user's limit) endpoints on that receiver and no
 * deliveries measures /healthz, GET /api/v4/site/ and an anonymous GraphQL query (the foundation suite's); then
 * BENCH_WEBHOOK_DELIVERIES (default 1,000) pending deliveries are spread over the endpoints (SQL,
 * as if recorded: test events are limited per hour) and their runners woken, and a second server
 * measures the same traffic while every runner waits on the silent receiver (the default
 * WEBHOOKS_TIMEOUT_MS, 10 s, per attempt; suspension and the pending cap set out of reach so the
 * backlog stays whole). The figures: each scenario's req/s, p50 and p99 with the backlog as a
 * ratio to the mean of the same traffic without it, measured before and after (the deliveries
 * deleted: the second run shows how far a shared machine drifted meanwhile); target about 1x. Also:
 * the server's own CPU over 5 s without traffic in each phase, 10 s after its start (the old design, which re-queued
 * every waiting delivery every 250 ms, kept a core busy), and the attempts and `webhook-deliver`
 * jobs the backlog cost.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../src/app.js';
import { usersCreate } from '../src/cli/commands.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/core/logger.js';
import { BENCH_SECRET_KEY } from './catalogue.js';
import {
  createScratchDatabase,
  dropScratchDatabase,
  fmt,
  FOUNDATION_SCENARIOS,
  printTable,
  runScenario,
  sleep,
  startServer,
  stopServer,
  type RunningServer,
  type ScenarioResult,
  type SuiteOptions,
} from './lib.js';

export interface WebhooksSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  deliveries: number;
  endpoints: number;
}

export interface WebhooksRun {
  database: 'embedded' | 'postgres';
  without: ScenarioResult[];
  withBacklog: ScenarioResult[];
  /** Without a backlog again, after it (deliveries deleted): how far the machine drifted meanwhile. */
  withoutAgain: ScenarioResult[];
  /** The server's CPU (% of a core) over IDLE_SECONDS without traffic: without, with the backlog, again without. */
  idleCpu: [number, number, number];
  /** Per scenario: with the backlog / the mean of the two runs without it. */
  ratios: { scenario: string; reqPerSec: number; p50: number; p99: number }[];
  /** After the measured run: attempts made, deliveries still waiting, `webhook-deliver` jobs ever queued. */
  attempts: number;
  waiting: number;
  jobs: number;
  /** Seconds the backlog server ran. */
  seconds: number;
}

export interface WebhooksReport {
  settings: WebhooksSettings;
  runs: WebhooksRun[];
}

export function webhooksSettings(): WebhooksSettings {
  return {
    connections: 10,
    warmupSeconds: 2,
    durationSeconds: Number(process.env.BENCH_DURATION ?? 10),
    deliveries: Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? 1_000),
    endpoints: Number(process.env.BENCH_WEBHOOK_ENDPOINTS ?? 10),
  };
}

/** Seconds of no traffic over which the server's own CPU is read, in each phase, after its start-up work settles. */
const IDLE_SECONDS = 5;
const SETTLE_SECONDS = 10;

/** The server process's CPU, in % of a core, over `seconds` (utime + stime from /proc). */
async function idleCpu(pid: number | undefined, seconds: number): Promise<number> {
  const ticks = () => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  const before = ticks();
  await sleep(seconds * 1000);
  return ((ticks() - before) / CLK_TCK / seconds) * 100;
}
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

const TRAFFIC = FOUNDATION_SCENARIOS;

/** Accepts connections and never answers (reads and drops what it is sent). */
async function silentReceiver(): Promise<{ server: Server; port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, sockets };
}

/** The service in this process, without job workers (the server's database must be closed first on PGlite). */
async function withApp<T>(env: Record<string, string>, fn: (app: App) => Promise<T>): Promise<T> {
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env, JOB_WORKERS: 'false' });
  const app = await createApp(config, createLogger('warn', 'stderr'));
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

async function graphql(base: string, token: string, query: string, variables: object): Promise<any> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: any; errors?: unknown[] };
  if (res.status !== 200 || body.errors)
    throw new Error(`GraphQL ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.data;
}

async function runOne(
  database: WebhooksRun['database'],
  adminUrl: string | undefined,
  options: SuiteOptions<WebhooksSettings>,
): Promise<WebhooksRun> {
  const { settings, log } = options;
  const dataDir = mkdtempSync(join(tmpdir(), 'addons-bench-webhooks-'));
  const scratch = adminUrl ? `addons_webhooks_scratch_${randomBytes(4).toString('hex')}` : null;
  const receiver = await silentReceiver();
  let server: RunningServer | undefined;
  const serve = async (env: Record<string, string>) => {
    server = await startServer(env);
    options.track(server);
    return server;
  };
  const stop = async () => {
    if (server) await stopServer(server.child);
    server = undefined;
    options.track(undefined);
  };
  try {
    const env = {
      DATA_DIR: dataDir,
      SECRET_KEY: BENCH_SECRET_KEY,
      DATABASE_URL: adminUrl && scratch ? await createScratchDatabase(adminUrl, scratch) : '',
      WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOKS_REQUIRE_HTTPS: 'false',
      WEBHOOKS_MAX_PENDING: '1000000',
      WEBHOOKS_SUSPEND_AFTER_FAILURES: '100000',
    };
    const user = await withApp(env, (app) =>
      usersCreate(app.services, app.db.fork(), { email: 'hooks@example.com', username: 'hooks', session: true }),
    );
    const cpu: number[] = [];
    const measure = async (phase: string, base: string, pid: number | undefined) => {
      log(`  webhooks (${database}): the server's CPU over ${IDLE_SECONDS} s without traffic, ${phase} ...`);
      await sleep(SETTLE_SECONDS * 1000);
      cpu.push(await idleCpu(pid, IDLE_SECONDS));
      const results: ScenarioResult[] = [];
      for (const scenario of TRAFFIC) {
        log(`  webhooks (${database}): ${scenario.name} ${phase} ...`);
        results.push(await runScenario(base, scenario, pid, settings));
      }
      return results;
    };

    // Without a backlog: the endpoints exist (registered through the API), no delivery waits.
    const first = await serve(env);
    for (let i = 0; i < settings.endpoints; i++) {
      await graphql(
        first.base,
        user.sessionToken!,
        'mutation($input: WebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }',
        { input: { url: `http://127.0.0.1:${receiver.port}/hook/${i}`, events: ['version.approved'] } },
      );
    }
    const without = await measure('without a backlog', first.base, first.child.pid);
    await stop();

    // The backlog: pending deliveries spread over the endpoints, each endpoint's runner woken.
    log(`  webhooks (${database}): ${settings.deliveries} deliveries to a receiver that never answers ...`);
    await withApp(env, async (app) => {
      const em = app.db.fork();
      const endpoints = await em.getConnection().execute<{ id: number }[]>('select id from webhook_endpoints');
      const per = Math.ceil(settings.deliveries / endpoints.length);
      await em.getConnection().execute(
        `insert into webhook_deliveries (endpoint_id, event_id, type, occurred_at, payload)
          select e.id, 'bench-' || e.id || '-' || g, 'webhook.test', now() + g * interval '1 millisecond',
            jsonb_build_object('type', 'webhook.test', 'timestamp', now(), 'data', jsonb_build_object('endpoint', e.id))
          from webhook_endpoints e, generate_series(1, ?) g`,
        [per],
      );
      for (const e of endpoints) await app.services.webhookDeliveries.runner.wake(e.id);
    });
    const started = Date.now();
    const second = await serve(env);
    // Every runner reaches the receiver (one connection per endpoint) before the measurement.
    for (let waited = 0; receiver.sockets.size < settings.endpoints && waited < 30_000; waited += 100) {
      await sleep(100);
    }
    const withBacklog = await measure('with the backlog', second.base, second.child.pid);
    await stop();
    const seconds = (Date.now() - started) / 1000;

    // What the backlog cost; then it is deleted, and the traffic measured again without it.
    const counts = await withApp(env, async (app) => {
      const conn = app.db.fork().getConnection();
      const [row] = await conn.execute<{ attempts: number; waiting: number }[]>(
        `select coalesce(sum(attempts), 0)::int as attempts,
            count(*) filter (where status in ('pending', 'failed'))::int as waiting from webhook_deliveries`,
      );
      const jobs = Object.values((await app.services.jobs.stats())['webhook-deliver']).reduce((a, n) => a + n, 0);
      await conn.execute('delete from webhook_deliveries');
      return { ...row!, jobs };
    });
    const third = await serve(env);
    const withoutAgain = await measure('without a backlog, again', third.base, third.child.pid);
    await stop();

    const ratios = TRAFFIC.map((s) => {
      const [a, c] = [without, withoutAgain].map((list) => list.find((r) => r.name === s.name)!);
      const b = withBacklog.find((r) => r.name === s.name)!;
      const mean = (f: (r: ScenarioResult) => number) => (f(a!) + f(c!)) / 2;
      return {
        scenario: s.name,
        reqPerSec: b.reqPerSec / mean((r) => r.reqPerSec),
        p50: b.p50Ms / mean((r) => r.p50Ms),
        p99: b.p99Ms / mean((r) => r.p99Ms),
      };
    });
    const idle = cpu as WebhooksRun['idleCpu'];
    return { database, without, withBacklog, withoutAgain, idleCpu: idle, ratios, ...counts, seconds };
  } catch (error) {
    if (server) console.error(`--- server output (tail) ---\n${server.output.join('').slice(-4000)}`);
    throw error;
  } finally {
    await stop();
    for (const socket of receiver.sockets) socket.destroy();
    receiver.server.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (adminUrl && scratch) await dropScratchDatabase(adminUrl, scratch);
  }
}

export async function runWebhooksSuite(options: SuiteOptions<WebhooksSettings>): Promise<WebhooksReport> {
  const runs = [await runOne('embedded', undefined, options)];
  if (options.adminUrl) runs.push(await runOne('postgres', options.adminUrl, options));
  return { settings: options.settings, runs };
}

export function printWebhooksReport(report: WebhooksReport): void {
  const { deliveries, endpoints } = report.settings;
  for (const run of report.runs) {
    printTable(`webhooks (${run.database}): without a backlog`, run.without, 'healthz');
    printTable(
      `webhooks (${run.database}): ${deliveries} deliveries waiting on ${endpoints} endpoints, receiver silent`,
      run.withBacklog,
      'healthz',
    );
    printTable(`webhooks (${run.database}): without a backlog, again`, run.withoutAgain, 'healthz');
    console.log(`\nwith the backlog / the mean of the two runs without it (${run.database}; target about 1x):`);
    for (const r of run.ratios) {
      console.log(`  ${r.scenario.padEnd(18)} req/s ${fmt(r.reqPerSec)}x  p50 ${fmt(r.p50)}x  p99 ${fmt(r.p99)}x`);
    }
    console.log(
      `  the backlog's cost over ${fmt(run.seconds, 0)} s: ${run.attempts} attempts, ` +
        `${run.jobs} webhook-deliver jobs queued in all, ${run.waiting} deliveries still waiting`,
    );
    const [a, b, c] = run.idleCpu.map((n) => `${fmt(n, 1)}%`);
    console.log(
      `  the server's CPU with no traffic (of a core): without ${a}, with the backlog ${b}, again without ${c}`,
    );
  }
}
