/**
 * Benchmark plumbing: start the service on loopback, run autocannon scenarios (warm-up, then a
 * measured run, recording every response time so that p95 is exact), print tables with ratios.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  /** One path, or several taken in turn (varied queries, ids). */
  path: string | string[];
  headers?: Record<string, string>;
  /** Headers per request, taken in turn alongside the paths (e.g. each path's `If-None-Match`). */
  pathHeaders?: Record<string, string>[];
  /**
   * The status every answer must have (e.g. 304 for revalidations); any other counts in `non2xx`.
   * Default: any 2xx.
   */
  expectStatus?: number;
  /** One body, or several taken in turn (e.g. GraphQL variables), alongside the paths. */
  body?: string | string[];
  /** Concurrent connections (default: the suite's). */
  connections?: number;
  /**
   * Appends a never-repeated `_=<n>` parameter (a cache buster, ignored by the API) so that every
   * request misses the answer cache and runs the whole pipeline.
   */
  uncached?: boolean;
  /**
   * Every path exactly once (for work the server does once and stores, e.g. a first diff): no smoke
   * test and no warm-up, and the measured run sends one request per path, however long that takes.
   */
  once?: boolean;
}

/** /healthz, GET /api/v4/site/ through the REST engine, and the same anonymous GraphQL operation. */
export const FOUNDATION_SCENARIOS: Scenario[] = [
  { name: 'healthz', method: 'GET', path: '/healthz' },
  { name: 'rest-site', method: 'GET', path: '/api/v4/site/' },
  {
    name: 'graphql-site',
    method: 'POST',
    path: '/graphql',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: 'query RestSiteStatus { siteStatus { readOnly notice } }' }),
  },
];

export interface ScenarioResult {
  name: string;
  request: string;
  connections: number;
  reqPerSec: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  meanMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  serverRssMB: number | null;
  /** `once` scenarios: distinct paths requested (each exactly once) and the run's wall time. */
  distinctPaths?: number;
  seconds?: number;
}

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/**
 * The built service, as `npm start` runs it (built once by `buildServer`). BENCH_NODE_ARGS adds
 * Node options to the server only, e.g. `--cpu-prof --cpu-prof-dir=prof` to profile a run.
 */
const SERVER_ARGS = [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), 'dist/src/main.js'];

/** Builds `dist/` when the sources changed (what `npm start` does first). */
export function buildServer(): void {
  const built = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('build failed');
}
const STARTUP_TIMEOUT_MS = 180_000;

// autocannon is CommonJS without bundled types: only what is used here.
interface AutocannonInstance {
  on(
    event: 'response',
    listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void,
  ): void;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { average: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (
  opts: Record<string, unknown>,
  done: (error: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  child: ChildProcess;
  base: string;
  output: string[];
}

/** Starts the built service with `env` and waits until GET /healthz answers 200. */
export async function startServer(env: Record<string, string | undefined>): Promise<RunningServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, SERVER_ARGS, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (chunk: Buffer) => output.push(chunk.toString()) > 200 && output.shift());
  }
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited during startup:\n${output.join('').slice(-3000)}`);
    const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
    if (res?.status === 200) return { child, base, output };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`server not healthy after ${STARTUP_TIMEOUT_MS / 1000} s`);
}

/** SIGTERM, then SIGKILL if the graceful shutdown overruns. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<unknown>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const status = await exited;
  clearTimeout(timer);
  if (status !== 0) console.error(`bench: warning: server exited with ${status} on SIGTERM`);
}

/** Resident memory of the server: the process and its children (the web processes of WEB_PROCESSES > 1). */
function rssMB(pid: number | undefined): number | null {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    let kb = 0;
    for (const p of [String(pid), ...children]) {
      kb += Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    }
    return kb ? Math.round(kb / 102.4) / 10 : null;
  } catch {
    return null;
  }
}

const paths = (s: Scenario) => (Array.isArray(s.path) ? s.path : [s.path]);
const bodies = (s: Scenario) => (Array.isArray(s.body) ? s.body : [s.body]);
/** Distinct requests: paths and bodies are taken in turn, both from the first. */
const variants = (s: Scenario) => Math.max(paths(s).length, bodies(s).length);
const bodyOf = (s: Scenario, i: number) => bodies(s)[i % bodies(s).length];
const headersOf = (s: Scenario, i: number) =>
  s.pathHeaders ? { ...s.headers, ...s.pathHeaders[i % s.pathHeaders.length] } : s.headers;
const expected = (s: Scenario, status: number) =>
  s.expectStatus === undefined ? status >= 200 && status < 300 : status === s.expectStatus;

/** One request per distinct path first, so a broken endpoint fails fast (also a 200 with GraphQL `errors`). */
async function smokeTest(base: string, s: Scenario): Promise<void> {
  for (let i = 0; i < Math.min(20, variants(s)); i++) {
    const path = paths(s)[i % paths(s).length];
    const res = await fetch(base + path, {
      method: s.method,
      headers: headersOf(s, i),
      body: bodyOf(s, i),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    const json = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : null;
    if (!expected(s, res.status) || json?.errors)
      throw new Error(`${s.name}: ${s.method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
  }
}

let busted = 0;
const withBuster = (path: string) => `${path}${path.includes('?') ? '&' : '?'}_=${++busted}`;

function run(
  base: string,
  s: Scenario,
  connections: number,
  duration: number,
  latencies?: number[],
  issued?: (count: number) => void,
  unexpected?: (status: number) => void,
) {
  const list = paths(s);
  const pathOf = (i: number) => (s.uncached ? withBuster(list[i % list.length]) : list[i % list.length]);
  let next = 0;
  return new Promise<AutocannonResult>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections,
        // `once`: one request per path (autocannon builds each request once, in turn), a long timeout.
        ...(s.once ? { amount: variants(s), timeout: 300 } : { duration }),
        requests: [
          {
            method: s.method,
            headers: s.headers,
            body: bodyOf(s, 0),
            setupRequest: (req: Record<string, unknown>) => {
              const i = next++;
              return {
                ...req,
                path: pathOf(i),
                ...(Array.isArray(s.body) ? { body: bodyOf(s, i) } : {}),
                ...(s.pathHeaders ? { headers: headersOf(s, i) } : {}),
              };
            },
          },
        ],
      },
      (error, result) => {
        issued?.(next);
        return error ? reject(error) : resolve(result);
      },
    );
    if (latencies) instance.on('response', (_c, _s, _b, time) => latencies.push(time));
    if (unexpected) instance.on('response', (_c, status) => !expected(s, status) && unexpected(status));
  });
}

/** The p-th percentile (nearest rank) of ascending values; NaN for none. */
export const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory of one process, in MB (one decimal); null when it is gone. */
export function processRssMB(pid: number | null | undefined): number | null {
  if (!pid) return null;
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 102.4) / 10 : null;
  } catch {
    return null;
  }
}

/** Runs `npm run cli -- <args>` with `env` (progress on our stderr); resolves with its stdout. */
export function runCli(env: Record<string, string>, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--no-warnings', '--import', '@swc-node/register/esm-register', 'src/cli.ts', ...args],
      { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args[0]} exited with ${code}`))));
  });
}

/** What the suites that make their own server and scratch database are given by `bench/run.ts`. */
export interface SuiteOptions<Settings> {
  /** A PostgreSQL server where a scratch database may be created; embedded PGlite without one. */
  adminUrl?: string;
  settings: Settings;
  /** Told about the running server (and `undefined` once stopped), so that an abort can kill it. */
  track: (server: RunningServer | undefined) => void;
  log: (line: string) => void;
}

/** After a suite failed: the tail of its server's output, to stderr (the error itself goes on up). */
export function logServerTail(server: RunningServer | undefined): void {
  if (server) console.error(`--- server output (tail) ---\n${server.output.join('').slice(-4000)}`);
}

/**
 * A suite's end, passed or failed: its server stopped (and waited for), `bench/run.ts` told, its
 * data directory removed.
 */
export async function endSuite(
  server: RunningServer | undefined,
  options: Pick<SuiteOptions<unknown>, 'track'>,
  dataDir: string,
): Promise<void> {
  if (server) await stopServer(server.child);
  options.track(undefined);
  rmSync(dataDir, { recursive: true, force: true });
}

export async function runScenario(
  base: string,
  s: Scenario,
  serverPid: number | undefined,
  options: {
    connections: number;
    warmupSeconds: number;
    durationSeconds: number;
    /** Called right before and right after the measured run (not the smoke test and warm-up). */
    onMeasure?: (phase: 'start' | 'end') => void;
  },
): Promise<ScenarioResult> {
  const list = paths(s);
  const connections = Math.min(s.connections ?? options.connections, s.once ? variants(s) : Infinity);
  if (!s.once) {
    await smokeTest(base, s);
    await run(base, s, connections, options.warmupSeconds);
  }
  const latencies: number[] = [];
  let issued = 0;
  // With `expectStatus`, answers are counted against it (autocannon's non2xx would count a 304).
  let unexpected = 0;
  options.onMeasure?.('start');
  const started = performance.now();
  const r = await run(
    base,
    s,
    connections,
    options.durationSeconds,
    latencies,
    (n) => (issued = n),
    s.expectStatus === undefined ? undefined : () => unexpected++,
  );
  const seconds = (performance.now() - started) / 1000;
  options.onMeasure?.('end');
  if (s.once && issued > variants(s)) throw new Error(`${s.name}: ${issued} requests for ${variants(s)} paths`);
  latencies.sort((a, b) => a - b);
  return {
    name: s.name,
    request:
      `${s.method} ${list[0]}${list.length > 1 ? ` (+${list.length - 1} more)` : ''}` +
      `${Array.isArray(s.body) ? ` (${s.body.length} bodies)` : ''}${s.uncached ? ' uncached' : ''}`,
    connections,
    // A `once` run ends part-way through a second: its rate is its requests over its wall time.
    reqPerSec: s.once ? r.requests.total / seconds : r.requests.average,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    p99Ms: percentile(latencies, 99),
    meanMs: r.latency.average,
    requests: r.requests.total,
    non2xx: s.expectStatus === undefined ? r.non2xx : unexpected,
    errors: r.errors,
    serverRssMB: rssMB(serverPid),
    ...(s.once ? { distinctPaths: issued, seconds: Math.round(seconds * 10) / 10 } : {}),
  };
}

export const fmt = (n: number | null, digits = 2) => (n === null || !Number.isFinite(n) ? 'n/a' : n.toFixed(digits));

/** A table of results with each scenario's throughput relative to `baseline`. */
export function printTable(title: string, results: ScenarioResult[], baseline: string): void {
  const base = results.find((r) => r.name === baseline);
  const columns: [string, (r: ScenarioResult) => string][] = [
    ['scenario', (r) => r.name],
    ['conns', (r) => String(r.connections)],
    ['request', (r) => (r.request.length > 60 ? `${r.request.slice(0, 57)}...` : r.request)],
    ['req/s', (r) => fmt(r.reqPerSec, 0)],
    [`vs ${baseline}`, (r) => `${fmt(base ? r.reqPerSec / base.reqPerSec : null)}x`],
    ['p50 ms', (r) => fmt(r.p50Ms, 1)],
    ['p95 ms', (r) => fmt(r.p95Ms, 1)],
    ['p99 ms', (r) => fmt(r.p99Ms, 1)],
    ['RSS MB', (r) => fmt(r.serverRssMB, 0)],
    ['non2xx', (r) => String(r.non2xx)],
    ['errors', (r) => String(r.errors)],
  ];
  const header = columns.map(([t]) => t);
  const body = results.map((r) => columns.map(([, cell]) => cell(r)));
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (row: string[]) =>
    row.map((c, i) => (i !== 1 && i < 3 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n${title}\n`);
  console.log([header, widths.map((w) => '-'.repeat(w)), ...body].map(line).join('\n'));
}

/** Runs `fn` with a PostgreSQL client on `url`, closed afterwards. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database `name` on `adminUrl`'s server; returns its URL. */
export async function createScratchDatabase(adminUrl: string, name: string): Promise<string> {
  await withClient(adminUrl, (client) => client.query(`create database "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/** Drops a scratch database; a failure is reported, not thrown (the suite's own error matters more). */
export async function dropScratchDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`)).catch(
    (error: unknown) => console.error(`bench: could not drop ${name}: ${String(error)}`),
  );
}
