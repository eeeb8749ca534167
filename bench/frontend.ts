/**
 * The frontend suite (issue 24, item 5): what users load, on a seeded catalogue per size of
 * BENCH_ADDONS, one server per size, every scenario while the background writer edits ratings and
 * listings (BENCH_WRITES_PER_SEC, default 2): /healthz (the floor), the v4 detail cached, uncached
 * and signed in, the GraphQL query of an add-on page, a long tail of searches (each word once),
 * random recommended add-ons, an add-on's ratings list, and /healthz again (its drift from the first
 * tells how far a shared machine's other load moved the ratios). Beside each figure, the CPU time per
 * request of the Node server (its process tree) and of PostgreSQL, and the targets.
 *
 * CPU is read from /proc (utime + stime, in clock ticks) right before and after the measured run:
 * - Node: the server process and its descendants (web processes with WEB_PROCESSES > 1), each with
 *   its reaped children's time (cutime + cstime), so a worker that exits keeps its CPU.
 * - PG: the backends of the bench database (their process title names it), per process, also read
 *   every 250 ms during the run: a backend that exits meanwhile (the job runner's pool closes idle
 *   connections after 10 s) keeps its CPU up to its last reading (such exits are counted). A
 *   parallel query worker's title names no database: its CPU is only in PG all.
 * - PG all: every `postgres` process of the machine, with the postmaster's reaped children (exited
 *   backends and parallel workers) and the background processes (WAL writer, checkpointer): other
 *   databases' work too (another bench seeding, say), so it is an upper bound.
 * Both are divided by the measured run's requests; the writer's few requests (2/s) add to the work.
 *
 * Two web processes (issue 24's last target: "the CPU per request of each rises by at most 15% over
 * one process"): per size, after the one-process server, a second server with WEB_PROCESSES=2 on
 * the same database runs the repeated scenarios (not the once-only long tail) with the same
 * background writer, and a table compares the Node CPU per request (the whole process tree: the
 * primary, both web processes and their children, over all requests) of one process and of two,
 * with each process's share of the tree's CPU (so that the workers are seen to be counted).
 * BENCH_FRONTEND_TWO=0 skips it. Each server's scenarios start once its tree holds all its processes
 * and is quiet (startup work, such as the signing authority made after /healthz first answers, is
 * not any request's). CPU per request also depends on the machine's other load (contended caches,
 * fewer requests per event-loop turn): the load average after each run is printed beside it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildSchema, parse, validate } from 'graphql';
import { BENCH_SECRET_KEY, benchSession, pickWorkload, prepareDatabase, type Workload } from './catalogue.js';
import {
  fmt,
  ROOT,
  runScenario,
  sleep,
  startServer,
  stopServer,
  type RunningServer,
  type Scenario,
  type ScenarioResult,
  type SuiteOptions,
} from './lib.js';
import { backgroundWriter, prepareWriter, writesPerSecond } from './writer.js';

export interface FrontendSettings {
  sizes: number[];
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  writesPerSecond: number;
}

export function frontendSettings(): FrontendSettings {
  return {
    sizes: (process.env.BENCH_ADDONS ?? '50000,500000').split(',').map(Number),
    connections: 10,
    warmupSeconds: 2,
    durationSeconds: Number(process.env.BENCH_DURATION ?? 10),
    writesPerSecond: writesPerSecond(),
  };
}

export interface FrontendResult extends ScenarioResult {
  /** CPU milliseconds per request of the measured run: the server's process tree. */
  nodeCpuMsPerReq: number | null;
  /** ... of the bench database's PostgreSQL backends. */
  pgCpuMsPerReq: number | null;
  /** ... of every `postgres` process of the machine (with exited backends; other databases too). */
  pgAllCpuMsPerReq: number | null;
  /** Backends of the bench database that exited during the measured run (their CPU is not in pgCpuMsPerReq). */
  pgBackendsExited: number;
  /** Background writes during the scenario (smoke test, warm-up and measured run). */
  writes: number;
  /** The server's process tree during the measured run: each process seen, with its CPU ms. */
  nodeProcesses: TreeProcess[];
  /** The machine's 1-minute load average right after the measured run. */
  loadAvg1: number;
}

export interface TreeProcess {
  pid: number;
  /** `primary` (WEB_PROCESSES > 1) or `server`, `web <n>` for a cluster worker, else its command. */
  role: string;
  /** CPU ms during the measured run (with its reaped children's). */
  cpuMs: number;
}

/** One scenario with one web process and with two (WEB_PROCESSES=2), same database and writer. */
export interface TwoProcessComparison {
  name: string;
  one: FrontendResult;
  two: FrontendResult;
  /** Node CPU per request, two processes over one. */
  cpuRatio: number | null;
  met: boolean;
  /** Every answer of both runs 2xx (no non-2xx, no connection errors). */
  all2xx: boolean;
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
}

export interface FrontendReport {
  addons: number;
  database: string;
  writesPerSecond: number;
  clockTicksPerSecond: number;
  results: FrontendResult[];
  targets: TargetCheck[];
  /** WEB_PROCESSES=2 on the same database (absent with BENCH_FRONTEND_TWO=0). */
  twoProcesses?: { results: FrontendResult[]; comparisons: TwoProcessComparison[] };
}

/**
 * What an add-on page of a front-end asks for: the add-on (names, texts, icon and links,
 * categories, authors, current version and its files, ratings summary) and its first ratings.
 */
export const ADDON_PAGE_QUERY = `query AddonPage($id: String!) {
  addon(id: $id) {
    id
    slug
    name
    summary
    description
    iconUrl(size: 64)
    url
    ratingsUrl
    homepage
    averageDailyUsers
    weeklyDownloads
    lastUpdated
    categories {
      slug
      name
    }
    authors {
      userSummary {
        name
        url
      }
    }
    currentVersion {
      version
      url
      files {
        size
        url
      }
    }
    ratings {
      average
      count
    }
  }
  ratings(addon: $id, pageSize: 10) {
    count
    items {
      id
      score
      body
      created
      userSummary {
        name
        url
      }
    }
  }
}`;

/**
 * The detail query mirroring REST's keys (issue 39): every field of the v4 detail, authors with
 * their public profile (the `User` type: names, URL, picture), the current version with its
 * compatibility, licence and files, previews and the ratings summary.
 */
export const ADDON_DETAIL_QUERY = `query AddonDetail($id: String!) {
  addon(id: $id) {
    id guid slug type status defaultLocale name summary description developerComments homepage
    supportUrl supportEmail contributionsUrl requiresPayment isExperimental isDisabled publicStats
    averageDailyUsers weeklyDownloads tags created lastUpdated hasEula hasPrivacyPolicy
    icon32: iconUrl(size: 32) icon64: iconUrl(size: 64) icon128: iconUrl(size: 128)
    url editUrl reviewUrl ratingsUrl versionsUrl
    ratings { average bayesianAverage count textCount }
    promoted { category apps }
    categories { slug application }
    authors { user { id name url username pictureUrl } }
    previews { id position caption imageSize imageUrl thumbnailSize thumbnailUrl }
    currentVersion {
      id version channel releaseNotes reviewed url editUrl isStrictCompatibilityEnabled
      compatibility { application min max }
      license { id name url isCustom slug }
      files {
        id created hash platform size status isWebextension isRestartRequired isVendorSigned
        permissions optionalPermissions hostPermissions url
      }
    }
  }
}`;

/** The GraphQL queries against schema.graphql: a wrong field fails the run before any server starts. */
export function checkAddonPageQuery(): void {
  const schema = buildSchema(readFileSync(join(ROOT, 'schema.graphql'), 'utf8'));
  for (const [name, query] of [
    ['graphql-page', ADDON_PAGE_QUERY],
    ['graphql-detail', ADDON_DETAIL_QUERY],
  ]) {
    const problems = validate(schema, parse(query));
    if (problems.length) throw new Error(`${name} query: ${problems.map((p) => p.message).join('; ')}`);
  }
}

const SEARCH = '/api/v4/addons/search/';

export function frontendScenarios(w: Workload, sessionToken: string): Scenario[] {
  const detail = w.slugs.map((s) => `/api/v4/addons/addon/${encodeURIComponent(s)}/`);
  return [
    { name: 'healthz', method: 'GET', path: '/healthz' },
    { name: 'detail-v4', method: 'GET', path: detail },
    { name: 'detail-v4-uncached', method: 'GET', path: detail, uncached: true },
    { name: 'signed-in-detail', method: 'GET', path: detail, headers: { Authorization: `Bearer ${sessionToken}` } },
    {
      name: 'graphql-page',
      method: 'POST',
      path: '/graphql',
      headers: { 'Content-Type': 'application/json' },
      body: w.slugs.map((id) => JSON.stringify({ query: ADDON_PAGE_QUERY, variables: { id } })),
    },
    {
      name: 'graphql-detail',
      method: 'POST',
      path: '/graphql',
      headers: { 'Content-Type': 'application/json' },
      body: w.slugs.map((id) => JSON.stringify({ query: ADDON_DETAIL_QUERY, variables: { id } })),
    },
    {
      name: 'search-longtail',
      method: 'GET',
      path: w.nameWords.map((word) => `${SEARCH}?q=${encodeURIComponent(word)}`),
      once: true,
    },
    { name: 'search-random', method: 'GET', path: `${SEARCH}?sort=random&promoted=recommended` },
    { name: 'search-random-10', method: 'GET', path: `${SEARCH}?sort=random&promoted=recommended&page_size=10` },
    {
      name: 'ratings-list',
      method: 'GET',
      path: w.slugs.map((s) => `/api/v4/ratings/rating/?addon=${encodeURIComponent(s)}`),
    },
    // The floor again: on a shared machine, a drift from the first shows how far to trust the ratios.
    { name: 'healthz-end', method: 'GET', path: '/healthz' },
  ];
}

/** The scenarios run again with two web processes (the repeated ones, not the once-only long tail). */
export const TWO_PROCESS_SCENARIOS = [
  'healthz',
  'detail-v4',
  'detail-v4-uncached',
  'signed-in-detail',
  'graphql-page',
  'ratings-list',
  'search-random',
];
/** Issue 24: the CPU per request with two web processes at most this many times that with one. */
export const TWO_PROCESS_MAX_CPU_RATIO = 1.15;
const twoProcessesOn = () => process.env.BENCH_FRONTEND_TWO !== '0';

/**
 * Every body of a POST /graphql scenario twice (10 at a time), before its run and before the
 * writer starts: the load run cannot see a 200 with `errors`, and the smoke test tries only the
 * first 20. The second answer (from the answer cache, for a shared query) must be byte for byte
 * the first (computed, or kept by an earlier scenario's check or run).
 */
async function checkEveryBody(base: string, s: Scenario): Promise<void> {
  const list = Array.isArray(s.body) ? s.body : [s.body];
  let next = 0;
  const send = async (body: string) => {
    const res = await fetch(`${base}${String(s.path)}`, {
      method: s.method,
      headers: s.headers,
      body,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    const json = JSON.parse(text) as { errors?: unknown; data?: { addon?: unknown } };
    if (res.status !== 200 || json.errors || !json.data?.addon) {
      throw new Error(
        `${s.name}: POST ${String(s.path)} ${body.slice(-80)} answered ${res.status}: ${text.slice(0, 500)}`,
      );
    }
    return text;
  };
  const one = async (): Promise<void> => {
    for (let i = next++; i < list.length; i = next++) {
      const [first, second] = [await send(list[i]!), await send(list[i]!)];
      if (first !== second) {
        throw new Error(`${s.name}: ${list[i]!.slice(-80)} answered differently the second time (cached)`);
      }
    }
  };
  await Promise.all(Array.from({ length: 10 }, one));
}

// --- CPU from /proc ---------------------------------------------------------------------------

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`, 100 on Linux). */
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

interface Stat {
  comm: string;
  /** utime + stime. */
  own: number;
  /** cutime + cstime: children that exited and were reaped. */
  reaped: number;
}

function readStat(pid: string | number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command may hold spaces and parentheses: it ends at the last ')'.
    const close = text.lastIndexOf(')');
    const fields = text.slice(close + 2).split(' '); // fields[0] is field 3 (state)
    const at = (n: number) => Number(fields[n - 3]);
    return { comm: text.slice(text.indexOf('(') + 1, close), own: at(14) + at(15), reaped: at(16) + at(17) };
  } catch {
    return null; // exited meanwhile
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** Ticks of a process and of each of its descendants, each with the time of its reaped children. */
function treeTicks(pid: number, into = new Map<number, number>()): Map<number, number> {
  const stat = readStat(pid);
  if (!stat) return into;
  into.set(pid, stat.own + stat.reaped);
  for (const child of childrenOf(pid)) treeTicks(child, into);
  return into;
}

const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

const processTitle = (pid: string) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};

/** Ticks of PostgreSQL: each backend of `database`, and every `postgres` process (with reaped ones). */
function postgresTicks(database: string): { backends: Map<string, number>; all: number } {
  const backends = new Map<string, number>();
  let all = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const stat = readStat(pid);
    if (stat?.comm !== 'postgres') continue;
    all += stat.own + stat.reaped;
    // "postgres: 15/main: <user> <database> <host> <activity>"
    if (processTitle(pid).split(' ').includes(database)) backends.set(pid, stat.own);
  }
  return { backends, all };
}

interface CpuSample {
  /** Ticks per process of the server's tree. */
  node: Map<number, number>;
  pg: { backends: Map<string, number>; all: number };
}

/**
 * The bench database's backends' ticks between two samples, per process (a backend that started
 * meanwhile counts from zero; one that exited, up to its last reading in `latest`), and how many
 * exited meanwhile.
 */
function backendTicks(
  before: CpuSample,
  after: CpuSample,
  latest: Map<string, number>,
): { ticks: number; exited: number } {
  let ticks = 0;
  for (const [pid, t] of latest) ticks += (after.pg.backends.get(pid) ?? t) - (before.pg.backends.get(pid) ?? 0);
  const exited = [...latest.keys()].filter((pid) => !after.pg.backends.has(pid)).length;
  return { ticks, exited };
}

const sampleCpu = (serverPid: number, database: string): CpuSample => ({
  node: treeTicks(serverPid),
  pg: postgresTicks(database),
});

const msPerRequest = (ticks: number, requests: number) =>
  requests > 0 ? Math.round(((ticks * 1000) / CLK_TCK / requests) * 1000) / 1000 : null;

/**
 * Each process of the server's tree seen before or after the run, with its ticks between the two
 * (one that started meanwhile counts from zero; one that exited is in its parent's reaped time).
 */
function treeProcesses(root: number, before: Map<number, number>, after: Map<number, number>): TreeProcess[] {
  const pids = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => a - b);
  return pids.map((pid) => ({
    pid,
    role: roleOf(root, pid),
    cpuMs: Math.round((((after.get(pid) ?? before.get(pid) ?? 0) - (before.get(pid) ?? 0)) * 1000) / CLK_TCK),
  }));
}

function roleOf(root: number, pid: number): string {
  let environ = '';
  try {
    environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    // exited, or not readable
  }
  const index = /(?:^|\0)WEB_PROCESS_INDEX=(\d+)/.exec(environ)?.[1];
  if (pid === root) return /(?:^|\0)WEB_PROCESSES=([2-9]|\d\d)/.test(environ) ? 'primary' : 'server';
  if (index !== undefined) return `web ${index}`;
  const args = processTitle(String(pid)).trim().split(' ');
  return (
    args
      .find((a) => /\.[cm]?js$/.test(a))
      ?.split('/')
      .at(-1) ??
    args[0] ??
    `pid ${pid}`
  );
}

// --- the suite --------------------------------------------------------------------------------

/**
 * One server per size, every scenario with the background writer; then, unless BENCH_FRONTEND_TWO=0,
 * a server with two web processes on the same database for TWO_PROCESS_SCENARIOS. Each size's
 * tables printed when done.
 */
export async function runFrontendSuite(
  options: SuiteOptions<FrontendSettings> & { adminUrl: string },
): Promise<FrontendReport[]> {
  const { adminUrl, settings } = options;
  checkAddonPageQuery();
  const reports: FrontendReport[] = [];
  for (const addons of settings.sizes) {
    const url = await prepareDatabase(adminUrl, addons, 1);
    const database = new URL(url).pathname.slice(1);
    const workload = await pickWorkload(url);
    const reader = await benchSession(url);
    const writerAccount = await benchSession(url);
    const scenarios = frontendScenarios(workload, reader.token);
    const env = { DATABASE_URL: url, SECRET_KEY: BENCH_SECRET_KEY };
    // The writer's ratings are created once (a second POST for the same add-on would be refused).
    let targets: Awaited<ReturnType<typeof prepareWriter>> | undefined;
    const writerFor = async (base: string) => {
      targets ??= await prepareWriter(url, base, writerAccount);
      return backgroundWriter(base, writerAccount, targets, settings.writesPerSecond);
    };
    const run = { ...options, database, label: `frontend ${addons}` };
    const results = await runOnServer(run, env, scenarios, writerFor);
    const report: FrontendReport = {
      addons,
      database,
      writesPerSecond: settings.writesPerSecond,
      clockTicksPerSecond: CLK_TCK,
      results,
      targets: checkTargets(results),
    };
    printFrontendReport(report);
    if (twoProcessesOn()) {
      const two = await runOnServer(
        { ...run, label: `frontend ${addons}, 2 web processes` },
        { ...env, WEB_PROCESSES: '2' },
        scenarios.filter((s) => TWO_PROCESS_SCENARIOS.includes(s.name)),
        writerFor,
      );
      report.twoProcesses = { results: two, comparisons: compareTwoProcesses(results, two) };
      printTwoProcessReport(report);
    }
    reports.push(report);
  }
  return reports;
}

/** Starts a server with `env`, runs `scenarios` with the background writer, always stops it. */
async function runOnServer(
  options: SuiteOptions<FrontendSettings> & { database: string; label: string },
  env: Record<string, string>,
  scenarios: Scenario[],
  writerFor: (base: string) => Promise<ReturnType<typeof backgroundWriter>>,
): Promise<FrontendResult[]> {
  const { settings, log, database, label } = options;
  const dataDir = mkdtempSync(join(tmpdir(), 'addons-bench-frontend-'));
  let server: RunningServer | undefined;
  try {
    server = await startServer({ DATA_DIR: dataDir, ...env });
    options.track(server);
    const { base } = server;
    const pid = server.child.pid!;
    const processes = 1 + (Number(env.WEB_PROCESSES ?? 1) > 1 ? Number(env.WEB_PROCESSES) : 0);
    const settled = await settle(pid, processes);
    log(`  ${label}: ${settled}`);
    const writer = await writerFor(base);
    const results: FrontendResult[] = [];
    for (const scenario of scenarios) {
      log(`  ${label}: ${scenario.name} with ${settings.writesPerSecond} writes/s ...`);
      let before: CpuSample | undefined;
      let after: CpuSample | undefined;
      // Backends' latest readings during the run, so that one that exits keeps its CPU.
      const latest = new Map<string, number>();
      const read = () => postgresTicks(database).backends.forEach((t, p) => latest.set(p, t));
      let poll: NodeJS.Timeout | undefined;
      const measure = (phase: 'start' | 'end') => {
        if (phase === 'start') {
          before = sampleCpu(pid, database);
          before.pg.backends.forEach((t, p) => latest.set(p, t));
          poll = setInterval(read, 250);
        } else {
          clearInterval(poll);
          after = sampleCpu(pid, database);
          after.pg.backends.forEach((t, p) => latest.set(p, t));
        }
      };
      if (Array.isArray(scenario.body)) await checkEveryBody(base, scenario);
      writer.start();
      let result: ScenarioResult;
      try {
        result = await runScenario(base, scenario, pid, { ...settings, onMeasure: measure });
      } catch (error) {
        clearInterval(poll);
        await writer.stop();
        throw error;
      }
      const { writes, failures } = await writer.stop();
      if (failures.length) throw new Error(`background writes failed: ${failures.slice(0, 3).join('; ')}`);
      const pg = backendTicks(before!, after!, latest);
      const nodeProcesses = treeProcesses(pid, before!.node, after!.node);
      results.push({
        ...result,
        nodeCpuMsPerReq: msPerRequest(sum(after!.node.values()) - sum(before!.node.values()), result.requests),
        pgCpuMsPerReq: msPerRequest(pg.ticks, result.requests),
        pgAllCpuMsPerReq: msPerRequest(after!.pg.all - before!.pg.all, result.requests),
        pgBackendsExited: pg.exited,
        writes,
        nodeProcesses,
        loadAvg1: Math.round(loadavg()[0] * 100) / 100,
      });
    }
    return results;
  } catch (error) {
    if (server) log(`--- server output (tail) ---\n${server.output.join('').slice(-4000)}`);
    throw error;
  } finally {
    if (server) await stopServer(server.child);
    options.track(undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Waits until the server's tree holds `processes` processes and has been quiet (at most 5% of a
 * core over each of two consecutive seconds), at most 90 s. /healthz answers as soon as the first
 * web process listens: the others are still starting then, and the first still makes its signing
 * authority (seconds of CPU), which would otherwise be counted as the first scenarios' requests'.
 */
export async function settle(pid: number, processes: number): Promise<string> {
  const started = performance.now();
  let last = sum(treeTicks(pid).values());
  let quiet = 0;
  while (performance.now() - started < 90_000) {
    await sleep(1000);
    const tree = treeTicks(pid);
    const now = sum(tree.values());
    quiet = tree.size >= processes && now - last <= CLK_TCK * 0.05 ? quiet + 1 : 0;
    last = now;
    const seconds = fmt((performance.now() - started) / 1000, 1);
    if (quiet >= 2) return `settled after ${seconds} s (${tree.size} processes in the tree, quiet for 2 s)`;
  }
  return `WARNING: not settled after 90 s (${treeTicks(pid).size} processes, wanted ${processes} and a quiet tree)`;
}

/** Node CPU per request with two web processes against one, per scenario run by both. */
export function compareTwoProcesses(one: FrontendResult[], two: FrontendResult[]): TwoProcessComparison[] {
  return two.flatMap((b) => {
    const a = one.find((r) => r.name === b.name);
    if (!a) return [];
    const cpuRatio =
      a.nodeCpuMsPerReq && b.nodeCpuMsPerReq !== null
        ? Math.round((b.nodeCpuMsPerReq / a.nodeCpuMsPerReq) * 1000) / 1000
        : null;
    return [
      {
        name: b.name,
        one: a,
        two: b,
        cpuRatio,
        met: cpuRatio !== null && cpuRatio <= TWO_PROCESS_MAX_CPU_RATIO,
        all2xx: [a, b].every((r) => r.non2xx === 0 && r.errors === 0),
      },
    ];
  });
}

export function printTwoProcessReport(report: FrontendReport): void {
  const comparisons = report.twoProcesses?.comparisons ?? [];
  const count = (r: FrontendResult) => String(r.nodeProcesses.length);
  const columns: [string, (c: TwoProcessComparison) => string][] = [
    ['scenario', (c) => c.name],
    ['req/s 1', (c) => fmt(c.one.reqPerSec, 0)],
    ['req/s 2', (c) => fmt(c.two.reqPerSec, 0)],
    ['Node ms CPU/req 1', (c) => fmt(c.one.nodeCpuMsPerReq, 3)],
    ['Node ms CPU/req 2', (c) => fmt(c.two.nodeCpuMsPerReq, 3)],
    ['2 / 1', (c) => `${fmt(c.cpuRatio)}x`],
    [`target <= ${TWO_PROCESS_MAX_CPU_RATIO}x`, (c) => (c.met ? 'met' : 'not met')],
    ['PG ms CPU/req 1', (c) => fmt(c.one.pgCpuMsPerReq, 2)],
    ['PG ms CPU/req 2', (c) => fmt(c.two.pgCpuMsPerReq, 2)],
    ['p95 ms 1', (c) => fmt(c.one.p95Ms, 1)],
    ['p95 ms 2', (c) => fmt(c.two.p95Ms, 1)],
    ['procs 1', (c) => count(c.one)],
    ['procs 2', (c) => count(c.two)],
    ['load 1', (c) => fmt(c.one.loadAvg1)],
    ['load 2', (c) => fmt(c.two.loadAvg1)],
    ['requests 1', (c) => String(c.one.requests)],
    ['requests 2', (c) => String(c.two.requests)],
    [
      'all 2xx',
      (c) => (c.all2xx ? 'yes' : `no (${c.one.non2xx + c.two.non2xx} non2xx, ${c.one.errors + c.two.errors} errors)`),
    ],
  ];
  const header = columns.map(([t]) => t);
  const body = comparisons.map((c) => columns.map(([, cell]) => cell(c)));
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(
    `\nfrontend, ${report.addons} add-ons, one web process (1) vs WEB_PROCESSES=2 (2), same database, ` +
      `${report.writesPerSecond} writes/s in the background; Node: CPU of the server's whole process tree ` +
      `over all requests; procs: processes seen in the tree; load: 1-minute load average after the run\n`,
  );
  console.log([header, widths.map((w) => '-'.repeat(w)), ...body].map(line).join('\n'));
  // Who used the tree's CPU: the workers must be there, else the two-process figure is too low.
  console.log('\nCPU share of each process of the tree during the measured run:');
  for (const c of comparisons) {
    for (const [n, r] of [
      [1, c.one],
      [2, c.two],
    ] as const) {
      const total = sum(r.nodeProcesses.map((p) => p.cpuMs)) || 1;
      const shares = r.nodeProcesses.map((p) => `${p.role} (${p.pid}) ${fmt((100 * p.cpuMs) / total, 0)}%`);
      console.log(`  ${c.name.padEnd(20)} ${n}: ${shares.join(', ')}`);
    }
  }
  const web = (r: FrontendResult) => r.nodeProcesses.filter((p) => p.role.startsWith('web ')).length;
  const missing = comparisons.filter((c) => web(c.two) < 2);
  if (missing.length) {
    console.log(`\nWARNING: fewer than 2 web processes seen in the tree for ${missing.map((c) => c.name).join(', ')}`);
  }
  console.log('');
  for (const c of comparisons) {
    console.log(
      `target ${c.name} Node CPU/req with 2 web processes <= ${TWO_PROCESS_MAX_CPU_RATIO}x one: ` +
        `${fmt(c.cpuRatio)}x (${c.met ? 'met' : 'not met'}), every answer 2xx: ${c.all2xx ? 'yes' : 'no'}`,
    );
  }
}

/** The targets, measured (a missed target is reported, not a failure). */
export function checkTargets(results: FrontendResult[]): TargetCheck[] {
  const by = (name: string) => results.find((r) => r.name === name);
  const checks: TargetCheck[] = [];
  const ratio = (name: string, baseline: string, min: number) => {
    const [r, b] = [by(name), by(baseline)];
    if (!r || !b) return;
    const x = r.reqPerSec / b.reqPerSec;
    checks.push({ target: `${name} req/s >= ${min}x ${baseline}`, measured: `${fmt(x)}x`, met: x >= min });
  };
  const p95 = (name: string, max: number) => {
    const r = by(name);
    if (r) checks.push({ target: `${name} p95 <= ${max} ms`, measured: `${fmt(r.p95Ms, 1)} ms`, met: r.p95Ms <= max });
  };
  ratio('graphql-page', 'detail-v4', 0.5);
  ratio('graphql-detail', 'detail-v4', 0.5);
  for (const name of ['detail-v4-uncached', 'signed-in-detail', 'ratings-list']) ratio(name, 'healthz', 0.5);
  p95('search-longtail', 30);
  p95('search-random', 15);
  p95('search-random-10', 15);
  const rss = Math.max(...results.map((r) => r.serverRssMB ?? NaN));
  checks.push({
    target: 'server RSS <= 400 MB (largest after a scenario)',
    measured: `${fmt(rss, 0)} MB`,
    met: rss <= 400,
  });
  return checks;
}

export function printFrontendReport(report: FrontendReport): void {
  const healthz = report.results.find((r) => r.name === 'healthz');
  const columns: [string, (r: FrontendResult) => string][] = [
    ['scenario', (r) => r.name],
    ['conns', (r) => String(r.connections)],
    ['req/s', (r) => fmt(r.reqPerSec, 0)],
    ['vs healthz', (r) => `${fmt(healthz ? r.reqPerSec / healthz.reqPerSec : null)}x`],
    ['p50 ms', (r) => fmt(r.p50Ms, 1)],
    ['p95 ms', (r) => fmt(r.p95Ms, 1)],
    ['p99 ms', (r) => fmt(r.p99Ms, 1)],
    ['Node ms CPU/req', (r) => fmt(r.nodeCpuMsPerReq, 2)],
    ['PG ms CPU/req', (r) => fmt(r.pgCpuMsPerReq, 2)],
    ['PG all ms CPU/req', (r) => fmt(r.pgAllCpuMsPerReq, 2)],
    ['RSS MB', (r) => fmt(r.serverRssMB, 0)],
    ['requests', (r) => String(r.requests)],
    ['non2xx', (r) => String(r.non2xx)],
    ['errors', (r) => String(r.errors)],
  ];
  const header = columns.map(([t]) => t);
  const body = report.results.map((r) => columns.map(([, cell]) => cell(r)));
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(
    `\nfrontend, ${report.addons} add-ons (${report.database}), ${report.writesPerSecond} writes/s in the background, ` +
      `CPU per request from /proc (${report.clockTicksPerSecond} ticks/s; PG: the bench database's backends, ` +
      `PG all: every postgres process, other databases too)\n`,
  );
  console.log([header, widths.map((w) => '-'.repeat(w)), ...body].map(line).join('\n'));
  const longtail = report.results.find((r) => r.name === 'search-longtail');
  if (longtail?.distinctPaths) {
    console.log(`\nsearch-longtail: ${longtail.distinctPaths} distinct words, each once, in ${longtail.seconds} s`);
  }
  const end = report.results.find((r) => r.name === 'healthz-end');
  if (healthz && end) {
    const drift = end.reqPerSec / healthz.reqPerSec;
    console.log(
      `healthz at the end: ${fmt(end.reqPerSec, 0)} req/s, ${fmt(drift)}x the first` +
        `${Math.abs(drift - 1) > 0.2 ? ' (other load on the machine changed during the run: ratios to healthz are rough)' : ''}`,
    );
  }
  for (const r of report.results.filter((x) => x.pgBackendsExited > 0)) {
    console.log(
      `${r.name}: ${r.pgBackendsExited} backend(s) of the bench database exited during the run (PG: their CPU up to the last 250 ms reading)`,
    );
  }
  console.log('');
  for (const t of report.targets) console.log(`target ${t.target}: ${t.measured} (${t.met ? 'met' : 'not met'})`);
}
