/**
 * HTTP benchmark (`BENCH_DURATION=3 npm run -s bench`): starts the service on loopback, runs each scenario with
 * autocannon (a warm-up run, then a measured one), prints a side-by-side table with ratios and writes the raw
 * numbers to bench/results/latest.json. Exits non-zero if any response was non-2xx or any request failed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const SCENARIOS: Scenario[] = [
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
/** Every scenario's req/s is compared with this one's. */
const BASELINE = 'healthz';
/** Head-to-head comparisons, [a, b]: a's req/s and latencies divided by b's. */
const COMPARISONS: [string, string][] = [['rest-site', 'graphql-site']];

const CONNECTIONS = 10;
const WARMUP_SECONDS = 2;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const STARTUP_TIMEOUT_MS = 120_000;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_FILE = fileURLToPath(new URL('./results/latest.json', import.meta.url));
const SERVER_ARGS = ['--no-warnings', '--import', '@swc-node/register/esm-register', 'src/main.ts'];
// DATABASE_URL, when set, reaches the server through the inherited environment.
const DATABASE = process.env.DATABASE_URL ? 'postgres' : 'embedded (PGlite)';

// autocannon is CommonJS without bundled types (and @types/autocannon is not installed): only what is used here.
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { average: number; p50: number; p99: number };
  non2xx: number;
  errors: number; // includes timeouts
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (
  opts: { url: string; connections: number; duration: number } & Omit<Scenario, 'name' | 'path'>,
) => PromiseLike<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** A port that was free a moment ago (the server cannot report the one PORT=0 gives it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the service and waits until GET /healthz answers 200. */
async function startServer(dataDir: string, output: string[]): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // DATA_DIR is set even with DATABASE_URL: the generated SECRET_KEY lands there, not in the checkout.
  const env = { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', DATA_DIR: dataDir };
  const child = spawn(process.execPath, SERVER_ARGS, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Keep the last chunks of the server's output (logs, boot errors) to show if something goes wrong.
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (chunk: Buffer) => output.push(chunk.toString()) > 200 && output.shift());
  }

  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited during startup (code ${child.exitCode})`);
    const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
    if (res?.status === 200) return { child, base };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server not healthy after ${STARTUP_TIMEOUT_MS / 1000} s`);
}

/** SIGTERM, then SIGKILL if the graceful shutdown (15 s server-side) overruns. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<unknown>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const status = await exited;
  clearTimeout(timer);
  if (status !== 0) console.error(`bench: warning: server exited with ${status} on SIGTERM`);
}

function rssMB(pid: number | undefined): number | null {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 102.4) / 10 : null;
  } catch {
    return null;
  }
}

/** One request first, so a broken endpoint (including a 200 carrying GraphQL `errors`) fails fast. */
async function smokeTest(base: string, s: Scenario): Promise<void> {
  const { method, headers, body } = s;
  const res = await fetch(base + s.path, { method, headers, body, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  const json = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : null;
  if (!res.ok || json?.errors) {
    throw new Error(`${s.name}: ${s.method} ${s.path} answered ${res.status}: ${text.slice(0, 500)}`);
  }
}

/** Smoke test, warm-up run, measured run, then the server's RSS. */
async function runScenario(base: string, s: Scenario, serverPid: number | undefined) {
  await smokeTest(base, s);
  const opts = { url: base + s.path, method: s.method, headers: s.headers, body: s.body, connections: CONNECTIONS };
  await autocannon({ ...opts, duration: WARMUP_SECONDS });
  const r = await autocannon({ ...opts, duration: DURATION_SECONDS });
  return {
    name: s.name,
    method: s.method,
    path: s.path,
    reqPerSec: r.requests.average,
    latencyMeanMs: r.latency.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, { count }]) => [code, count])),
    serverRssMB: rssMB(serverPid),
  };
}
type ScenarioResult = Awaited<ReturnType<typeof runScenario>>;

const fmt = (n: number | null, digits = 2) => (n === null || !Number.isFinite(n) ? 'n/a' : n.toFixed(digits));

/** The table's columns: title, then the cell for a scenario (given the baseline scenario's result). */
const COLUMNS: [string, (r: ScenarioResult, baseline?: ScenarioResult) => string][] = [
  ['scenario', (r) => r.name],
  ['request', (r) => `${r.method} ${r.path}`],
  ['req/s', (r) => fmt(r.reqPerSec, 0)],
  [`vs ${BASELINE}`, (r, baseline) => `${fmt(baseline ? r.reqPerSec / baseline.reqPerSec : null)}x`],
  ['p50 ms', (r) => fmt(r.p50Ms, 0)], // autocannon's latency histogram has 1 ms resolution
  ['p99 ms', (r) => fmt(r.p99Ms, 0)],
  ['mean ms', (r) => fmt(r.latencyMeanMs)],
  ['RSS MB', (r) => fmt(r.serverRssMB, 1)],
  ['non2xx', (r) => String(r.non2xx)],
  ['errors', (r) => String(r.errors)],
];

function report(results: ScenarioResult[]) {
  const byName = new Map(results.map((r) => [r.name, r]));
  const header = COLUMNS.map(([title]) => title);
  const body = results.map((r) => COLUMNS.map(([, cell]) => cell(r, byName.get(BASELINE))));
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n${CONNECTIONS} connections, ${DURATION_SECONDS} s per scenario (after ${WARMUP_SECONDS} s warm-up)\n`);
  console.log([header, widths.map((w) => '-'.repeat(w)), ...body].map(line).join('\n'));

  const ratios = COMPARISONS.flatMap(([a, b]) => {
    const [ra, rb] = [byName.get(a), byName.get(b)];
    if (!ra || !rb) return [];
    const q = (key: 'reqPerSec' | 'p50Ms' | 'p99Ms' | 'latencyMeanMs') => ra[key] / rb[key];
    return [{ a, b, reqPerSec: q('reqPerSec'), p50: q('p50Ms'), p99: q('p99Ms'), mean: q('latencyMeanMs') }];
  });
  console.log('');
  for (const { a, b, reqPerSec, p50, p99, mean } of ratios) {
    console.log(`${a} vs ${b}: req/s ${fmt(reqPerSec)}x, latency p50 ${fmt(p50)}x p99 ${fmt(p99)}x mean ${fmt(mean)}x`);
  }
  return ratios;
}

async function main() {
  if (!(DURATION_SECONDS > 0)) throw new Error(`BENCH_DURATION must be a positive number of seconds`);
  const dataDir = mkdtempSync(join(tmpdir(), 'addons-bench-'));
  const output: string[] = [];
  let child: ChildProcess | undefined;
  // Never leave the server behind: not on errors, not on Ctrl-C, not if something hangs.
  const abort = (why: string) => {
    console.error(`bench: ${why}`);
    child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(1);
  };
  process.once('SIGINT', () => abort('interrupted'));
  process.once('SIGTERM', () => abort('terminated'));
  const budgetMs = STARTUP_TIMEOUT_MS + SCENARIOS.length * (WARMUP_SECONDS + DURATION_SECONDS + 30) * 1000;
  setTimeout(() => abort(`overall time budget of ${budgetMs / 1000} s exceeded`), budgetMs).unref();

  const results: ScenarioResult[] = [];
  try {
    const started = Date.now();
    const server = await startServer(dataDir, output);
    child = server.child;
    const bootSeconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`server pid ${child.pid} on ${server.base}, database: ${DATABASE}, healthy after ${bootSeconds} s`);
    for (const scenario of SCENARIOS) {
      process.stdout.write(`running ${scenario.name} ...\n`);
      results.push(await runScenario(server.base, scenario, child.pid));
    }
  } catch (error) {
    console.error(`bench failed: ${error instanceof Error ? error.message : error}`);
    if (output.length) console.error(`--- server output (tail) ---\n${output.join('').slice(-4000)}`);
    process.exitCode = 1;
    return;
  } finally {
    if (child) await stopServer(child);
    rmSync(dataDir, { recursive: true, force: true });
  }

  const ratios = report(results);
  const failed = results.filter((r) => r.non2xx > 0 || r.errors > 0);
  if (failed.length) {
    for (const r of failed) console.error(`FAILED ${r.name}: ${JSON.stringify(r.statusCodes)}, ${r.errors} errors`);
    process.exitCode = 1;
    return; // no latest.json for a run whose numbers are not valid
  }
  mkdirSync(join(RESULTS_FILE, '..'), { recursive: true });
  const run = { date: new Date().toISOString(), node: process.version, database: DATABASE };
  const settings = { connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, durationSeconds: DURATION_SECONDS };
  const json = { ...run, ...settings, scenarios: results, ratios };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`\nraw results: ${RESULTS_FILE}`);
}

await main();
