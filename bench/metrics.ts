/**
 * What the Prometheus metrics cost a request (issue 23, item 9): cached v4 add-on detail req/s
 * with METRICS=on and METRICS=off, measured in one run on one scratch catalogue, in pairs of
 * rounds whose order alternates (on/off, off/on, ...) so that drift of the machine falls on both;
 * reported as each pair's ratio on/off and their median. Each round then sends a fixed number of
 * the same requests (BENCH_CPU_REQUESTS, default 20000) and reads the server's CPU time around
 * them (/proc/<pid>/stat): CPU per request, which the other processes on the machine disturb far
 * less than throughput.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     node --no-warnings --import @swc-node/register/esm-register bench/metrics.ts
 *
 * BENCH_DURATION (default 10) measured seconds per round, BENCH_PAIRS (default 3) pairs of rounds,
 * BENCH_CONNECTIONS (default 10), BENCH_METRICS_ADDONS (default 2000) seeded add-ons.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_SECRET_KEY } from './catalogue.js';
import {
  buildServer,
  createScratchDatabase,
  dropScratchDatabase,
  fmt,
  runCli,
  runScenario,
  startServer,
  stopServer,
  withClient,
  type ScenarioResult,
} from './lib.js';

const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  console.error('bench/metrics.ts needs DATABASE_URL (a PostgreSQL server where a scratch database may be created)');
  process.exit(1);
}
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const addons = Number(process.env.BENCH_METRICS_ADDONS ?? 2000);
const pairs = Number(process.env.BENCH_PAIRS ?? 3);
const cpuRequests = Number(process.env.BENCH_CPU_REQUESTS ?? 20_000);

/** User + system CPU seconds of a process so far. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, fields 14 and 15 of proc(5), in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Server CPU microseconds per request over exactly `total` GETs of `paths`, `concurrency` at a time. */
async function cpuPerRequest(base: string, pid: number, paths: string[], total: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let next = 0;
  const one = (path: string) =>
    new Promise<void>((resolve, reject) => {
      request(`${base}${path}`, { agent }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode}`));
        res.resume();
        res.on('end', resolve);
      })
        .on('error', reject)
        .end();
    });
  const before = cpuSeconds(pid);
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < total) await one(paths[next++ % paths.length]);
    }),
  );
  const used = cpuSeconds(pid) - before;
  agent.destroy();
  return (used / total) * 1e6;
}

async function main(admin: string) {
  const name = `addons_bench_metrics_${process.pid}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'addons-bench-metrics-'));
  const url = await createScratchDatabase(admin, name);
  try {
    console.log(`seeding ${addons} add-ons ...`);
    await runCli({ DATABASE_URL: url, SECRET_KEY: BENCH_SECRET_KEY, DATA_DIR: dataDir }, [
      'catalogue:seed',
      '--addons',
      String(addons),
      '--seed',
      '1',
    ]);
    const slugs = await withClient(url, async (client) => {
      const { rows } = await client.query(
        `select slug from addons where status = 4 and not disabled_by_user and current_version_id is not null
         order by average_daily_users desc, id limit 100`,
      );
      return rows.map((r) => `/api/v4/addons/addon/${encodeURIComponent(r.slug as string)}/`);
    });
    buildServer();
    const round = async (metrics: 'on' | 'off'): Promise<{ result: ScenarioResult; cpuUs: number }> => {
      const server = await startServer({
        DATABASE_URL: url,
        SECRET_KEY: BENCH_SECRET_KEY,
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        METRICS: metrics,
      });
      try {
        const result = await runScenario(
          server.base,
          { name: `detail-v4 metrics=${metrics}`, method: 'GET', path: slugs },
          server.child.pid,
          { connections, warmupSeconds: 3, durationSeconds: duration },
        );
        if (result.non2xx || result.errors) {
          throw new Error(`${result.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        }
        const cpuUs = await cpuPerRequest(server.base, server.child.pid!, slugs, cpuRequests);
        console.log(
          `${result.name}: ${fmt(result.reqPerSec, 0)} req/s, p50 ${fmt(result.p50Ms)} ms, ` +
            `p99 ${fmt(result.p99Ms)} ms, RSS ${fmt(result.serverRssMB, 0)} MB; ${fmt(cpuUs, 0)} us CPU a request`,
        );
        return { result, cpuUs };
      } finally {
        await stopServer(server.child);
      }
    };
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    const all: Record<'on' | 'off', ScenarioResult[]> = { on: [], off: [] };
    for (let pair = 0; pair < pairs; pair++) {
      const order = pair % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
      const got: Partial<Record<'on' | 'off', { result: ScenarioResult; cpuUs: number }>> = {};
      for (const metrics of order) {
        got[metrics] = await round(metrics);
        all[metrics].push(got[metrics].result);
      }
      ratios.push(got.on!.result.reqPerSec / got.off!.result.reqPerSec);
      cpuRatios.push(got.on!.cpuUs / got.off!.cpuUs);
      console.log(
        `pair ${pair + 1}: req/s on/off ${fmt(ratios.at(-1)!, 3)}, CPU a request on/off ${fmt(cpuRatios.at(-1)!, 3)}`,
      );
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    const mean = (list: ScenarioResult[]) => list.reduce((sum, r) => sum + r.reqPerSec, 0) / list.length;
    console.log(
      `\ncached v4 detail, ${connections} connections, ${pairs} pairs of ${duration} s rounds: ` +
        `metrics on ${fmt(mean(all.on), 0)} req/s, off ${fmt(mean(all.off), 0)} req/s (means); ` +
        `req/s on/off per pair ${ratios.map((r) => fmt(r, 3)).join(', ')}, median ${fmt(median(ratios), 3)}; ` +
        `server CPU a request on/off per pair ${cpuRatios.map((r) => fmt(r, 3)).join(', ')}, median ${fmt(median(cpuRatios), 3)}`,
    );
  } finally {
    await dropScratchDatabase(admin, name);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main(adminUrl).catch((error) => {
  console.error(error);
  process.exit(1);
});
