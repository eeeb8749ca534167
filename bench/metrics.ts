/**
 * What the Prometheus metrics cost a request (issue 23, item 9): cached v4 add-on detail req/s
 * with METRICS=on and METRICS=off, measured in one run on one scratch catalogue, alternated
 * on/off/off/on so that drift of the machine falls on both, and reported as the ratio on/off.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
 *     node --no-warnings --import @swc-node/register/esm-register bench/metrics.ts
 *
 * BENCH_DURATION (default 10) measured seconds per round, BENCH_CONNECTIONS (default 10),
 * BENCH_METRICS_ADDONS (default 2000) seeded add-ons.
 */
import { mkdtempSync, rmSync } from 'node:fs';
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
    const results: Record<'on' | 'off', ScenarioResult[]> = { on: [], off: [] };
    for (const metrics of ['on', 'off', 'off', 'on'] as const) {
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
        if (result.non2xx || result.errors)
          throw new Error(`${result.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        results[metrics].push(result);
        console.log(
          `${result.name}: ${fmt(result.reqPerSec, 0)} req/s, p50 ${fmt(result.p50Ms)} ms, p99 ${fmt(result.p99Ms)} ms, RSS ${fmt(result.serverRssMB, 0)} MB`,
        );
      } finally {
        await stopServer(server.child);
      }
    }
    const mean = (list: ScenarioResult[], pick: (r: ScenarioResult) => number) =>
      list.reduce((sum, r) => sum + pick(r), 0) / list.length;
    const on = mean(results.on, (r) => r.reqPerSec);
    const off = mean(results.off, (r) => r.reqPerSec);
    console.log(
      `\ncached v4 detail, ${connections} connections, ${duration} s x 2 rounds each: ` +
        `metrics on ${fmt(on, 0)} req/s, off ${fmt(off, 0)} req/s, ratio on/off ${fmt(on / off, 3)}; ` +
        `p99 on/off ${fmt(mean(results.on, (r) => r.p99Ms) / mean(results.off, (r) => r.p99Ms), 3)}`,
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
