/**
 * The startup suite (issue 39): cold start to first answer, and seeding and reindexing speed.
 *
 * Cold start: from spawning the built service (`node dist/src/main.js`, what `npm start` runs once
 * built) to the first 200 of GET /healthz and of GET /api/v4/site/ (polled every 10 ms), with the
 * CPU seconds the server's process had used by then (from /proc: on a shared machine wall time
 * follows the neighbours' load, CPU time much less). Cases:
 * - postgres-migrated: a database every migration has already run on (DATABASE_URL's server);
 * - postgres-fresh: an empty database (every migration runs);
 * - embedded-fresh: a new DATA_DIR, the migrated snapshot already made on this machine (the usual
 *   case: made by the first fresh start, see src/db/pglite-template.ts);
 * - embedded-first: a new DATA_DIR with no snapshot yet (initdb, every migration, the snapshot saved);
 * - embedded-restart: an existing DATA_DIR.
 * Each case BENCH_STARTUP_RUNS times (default 3); the median is reported against the target (3 s).
 *
 * Seeding: `catalogue:seed --addons N` into a scratch database (addons_seedbench_N, dropped and
 * made again; never the catalogue suite's databases), then `search:reindex` on it, for each N of
 * BENCH_STARTUP_SEED (default 50000; 0 skips). Seeding rate from the seeder's own time (target
 * >= 2,000 add-ons/s), reindex time (target <= 30 s at 50k).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { fmt, freePort, ROOT, runCli, stopServer } from './lib.js';

export interface StartupRun {
  healthzSeconds: number;
  siteSeconds: number;
  /** CPU seconds (user + system) of the server process at the first answer of /api/v4/site/. */
  cpuSeconds: number | null;
}

export interface StartupCase {
  name: string;
  runs: StartupRun[];
  medianSiteSeconds: number;
  medianHealthzSeconds: number;
  medianCpuSeconds: number | null;
  targetSeconds: number;
  met: boolean;
}

export interface SeedingFigures {
  addons: number;
  seedSeconds: number;
  addonsPerSecond: number;
  reindexSeconds: number;
  /** Wall time of each CLI command, its own start included. */
  seedCommandSeconds: number;
  reindexCommandSeconds: number;
}

export interface StartupReport {
  cases: StartupCase[];
  seeding: SeedingFigures[];
  loadAverage: number[];
}

export interface StartupSettings {
  runs: number;
  seedSizes: number[];
}

export const startupSettings = (): StartupSettings => ({
  runs: Math.max(1, Number(process.env.BENCH_STARTUP_RUNS ?? 3)),
  seedSizes: (process.env.BENCH_STARTUP_SEED ?? '50000')
    .split(',')
    .map(Number)
    .filter((n) => n > 0),
});

const START_TARGET_SECONDS = 3;
const SEED_TARGET_PER_SECOND = 2_000;
const REINDEX_TARGET_SECONDS_50K = 30;
const TIMEOUT_MS = 180_000;
const CLOCK_TICKS = 100;

function cpuSecondsOf(pid: number | undefined): number | null {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** One cold start: spawn, poll /healthz then /api/v4/site/ until 200, stop. */
async function coldStart(env: Record<string, string>): Promise<StartupRun> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const args = [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), 'dist/src/main.js'];
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (d: Buffer) => output.push(d.toString()));
  const answered = async (path: string) => {
    for (const deadline = Date.now() + TIMEOUT_MS; Date.now() < deadline;) {
      if (child.exitCode !== null) throw new Error(`server exited during startup:\n${output.join('').slice(-3000)}`);
      const res = await fetch(base + path, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
      if (res) await res.arrayBuffer();
      if (res?.status === 200) return (performance.now() - started) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no answer from ${path} after ${TIMEOUT_MS / 1000} s`);
  };
  try {
    const healthzSeconds = await answered('/healthz');
    const siteSeconds = await answered('/api/v4/site/');
    return { healthzSeconds, siteSeconds, cpuSeconds: cpuSecondsOf(child.pid) };
  } finally {
    await stopServer(child);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

function summarise(name: string, runs: StartupRun[]): StartupCase {
  const cpu = runs.map((r) => r.cpuSeconds).filter((c): c is number => c !== null);
  const medianSiteSeconds = median(runs.map((r) => r.siteSeconds));
  return {
    name,
    runs,
    medianSiteSeconds,
    medianHealthzSeconds: median(runs.map((r) => r.healthzSeconds)),
    medianCpuSeconds: cpu.length ? median(cpu) : null,
    targetSeconds: START_TARGET_SECONDS,
    met: medianSiteSeconds <= START_TARGET_SECONDS,
  };
}

async function admin<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

async function scratchDatabase(adminUrl: string, name: string): Promise<string> {
  await admin(adminUrl, async (client) => {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  });
  return databaseUrl(adminUrl, name);
}

const dropDatabase = (adminUrl: string, name: string) =>
  admin(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));

export async function runStartupSuite(options: {
  adminUrl: string | undefined;
  settings: StartupSettings;
  log: (line: string) => void;
}): Promise<StartupReport> {
  const { adminUrl, settings, log } = options;
  const cases: StartupCase[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'addons-bench-startup-'));
  const measure = async (name: string, run: (i: number) => Promise<StartupRun>) => {
    const runs: StartupRun[] = [];
    for (let i = 0; i < settings.runs; i++) {
      log(`  startup: ${name} (${i + 1}/${settings.runs}) ...`);
      runs.push(await run(i));
    }
    cases.push(summarise(name, runs));
  };
  try {
    // Embedded, with no snapshot yet (a folder of its own for the snapshot), then with it.
    await measure('embedded-first', (i) =>
      coldStart({
        DATABASE_URL: '',
        DATA_DIR: join(scratch, `first-${i}`),
        EMBEDDED_TEMPLATE_DIR: join(scratch, `templates-${i}`),
      }),
    );
    await coldStart({ DATABASE_URL: '', DATA_DIR: join(scratch, 'made') }); // the snapshot, if none yet
    await measure('embedded-fresh', (i) => coldStart({ DATABASE_URL: '', DATA_DIR: join(scratch, `fresh-${i}`) }));
    await measure('embedded-restart', () => coldStart({ DATABASE_URL: '', DATA_DIR: join(scratch, 'fresh-0') }));

    if (adminUrl) {
      const name = `addons_startup_${process.pid}`;
      const migrated = await scratchDatabase(adminUrl, name);
      try {
        await coldStart({ DATABASE_URL: migrated, DATA_DIR: join(scratch, 'pg') }); // migrates it
        await measure('postgres-migrated', () => coldStart({ DATABASE_URL: migrated, DATA_DIR: join(scratch, 'pg') }));
        await measure('postgres-fresh', async () => {
          const url = await scratchDatabase(adminUrl, name);
          return coldStart({ DATABASE_URL: url, DATA_DIR: join(scratch, 'pg') });
        });
      } finally {
        await dropDatabase(adminUrl, name);
      }
    } else {
      log('  startup: PostgreSQL cases skipped (no DATABASE_URL)');
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  const seeding: SeedingFigures[] = [];
  for (const addons of adminUrl ? settings.seedSizes : []) {
    const name = `addons_seedbench_${addons}`;
    const url = await scratchDatabase(adminUrl!, name);
    log(`  startup: seeding ${addons} add-ons into ${name} ...`);
    let started = performance.now();
    const seeded = JSON.parse(await runCli({ DATABASE_URL: url }, ['catalogue:seed', '--addons', String(addons)])) as {
      seconds: number;
    };
    const seedCommandSeconds = (performance.now() - started) / 1000;
    log(`  startup: reindexing ${name} ...`);
    started = performance.now();
    const reindexed = JSON.parse(await runCli({ DATABASE_URL: url }, ['search:reindex'])) as { seconds: number };
    const reindexCommandSeconds = (performance.now() - started) / 1000;
    seeding.push({
      addons,
      seedSeconds: seeded.seconds,
      addonsPerSecond: addons / seeded.seconds,
      reindexSeconds: reindexed.seconds,
      seedCommandSeconds,
      reindexCommandSeconds,
    });
    // Kept: a later run drops and seeds it again; meanwhile it can be looked at.
  }
  return { cases, seeding, loadAverage: loadAverage() };
}

function loadAverage(): number[] {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
  } catch {
    return [];
  }
}

export function printStartupReport(report: StartupReport): void {
  console.log(`\n## startup (load average ${report.loadAverage.join(' ')} on ${cpuCount()} cores)\n`);
  console.log('| case | first /healthz (s) | first /api/v4/site/ (s) | server CPU (s) | runs (site, s) | target |');
  console.log('|---|---|---|---|---|---|');
  for (const c of report.cases) {
    console.log(
      `| ${c.name} | ${fmt(c.medianHealthzSeconds)} | ${fmt(c.medianSiteSeconds)} | ` +
        `${c.medianCpuSeconds === null ? '-' : fmt(c.medianCpuSeconds)} | ` +
        `${c.runs.map((r) => fmt(r.siteSeconds)).join(', ')} | <= ${c.targetSeconds} s ${c.met ? 'met' : 'NOT met'} |`,
    );
  }
  if (!report.seeding.length) return;
  console.log('\n| add-ons | seed (s) | add-ons/s | reindex (s) | seed, reindex commands (s) | targets |');
  console.log('|---|---|---|---|---|---|');
  for (const s of report.seeding) {
    const rateMet = s.addonsPerSecond >= SEED_TARGET_PER_SECOND;
    const reindexTarget = (REINDEX_TARGET_SECONDS_50K * s.addons) / 50_000;
    const reindexMet = s.reindexSeconds <= reindexTarget;
    console.log(
      `| ${s.addons} | ${fmt(s.seedSeconds)} | ${fmt(s.addonsPerSecond, 0)} | ${fmt(s.reindexSeconds)} | ` +
        `${fmt(s.seedCommandSeconds)}, ${fmt(s.reindexCommandSeconds)} | ` +
        `>= ${SEED_TARGET_PER_SECOND}/s ${rateMet ? 'met' : 'NOT met'}; ` +
        `reindex <= ${fmt(reindexTarget, 0)} s ${reindexMet ? 'met' : 'NOT met'} |`,
    );
  }
}

function cpuCount(): number {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8').match(/^processor\s*:/gm)?.length ?? 0;
  } catch {
    return 0;
  }
}
