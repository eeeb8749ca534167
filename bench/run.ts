/**
 * `npm run bench`: HTTP benchmarks against the service on loopback, each suite in its own server.
 *
 * - foundation: /healthz, GET /api/v4/site/ through the REST engine, and the same GraphQL operation
 *   through POST /graphql (embedded database, or DATABASE_URL's).
 * - catalogue (needs DATABASE_URL, a PostgreSQL server where scratch databases may be created): for
 *   each size in BENCH_ADDONS (default 50000,500000), a seeded catalogue (kept between runs) and
 *   /healthz, v4 detail and the same detail as a GraphQL persisted query, search (rare term,
 *   common term, a rotating long tail of 1,000 name words, no q with each sort) and autocomplete,
 *   anonymous (cached answers) and signed in (`cold-…`, uncached); then every scenario again while
 *   a background client edits ratings and listings (BENCH_WRITES_PER_SEC, default 2: `…+writes`).
 *   Each table gives ratios to /healthz measured in the same conditions, and the server's RSS.
 * - frontend (needs DATABASE_URL; the catalogue suite's seeded databases): what users load, for
 *   each size in BENCH_ADDONS in one server, every scenario while the background writer writes
 *   (BENCH_WRITES_PER_SEC): /healthz (the baseline), v4 detail over 1,000 rotating slugs cached,
 *   uncached (cache buster) and signed in, the GraphQL query of an add-on page (add-on, authors,
 *   current version and files, ratings summary and first ratings; checked against schema.graphql,
 *   every variable answered without `errors` first), a long tail of 1,000 name-word searches each
 *   sent once, sort=random&promoted=recommended (also with page_size=10), an add-on's ratings
 *   list, and /healthz again (its drift from the first: how far others' load moved the ratios).
 *   Beside req/s, ratio and p50/p95/p99: CPU ms per request of the server's process tree and of
 *   PostgreSQL (from /proc), RSS, and the issue's target checks (reported, not failing the run).
 *   Then, unless BENCH_FRONTEND_TWO=0, a server with WEB_PROCESSES=2 on the same database runs the
 *   repeated scenarios again with the writer: Node CPU per request of one process vs two (the whole
 *   process tree, target <= 1.15x), every answer 2xx (bench/frontend.ts).
 * - hostile: /healthz p99 alone, then while a few connections keep sending the largest allowed
 *   texts (shaped like the inputs that made the old link patterns back-track) to rating create and
 *   edit, biography, collection description and listing description; the p99 ratio (target <= 2x)
 *   (bench/hostile.ts; embedded database, or a scratch database on DATABASE_URL's server).
 * - signing: upload-to-signed latency of a small unlisted extension through the signing API,
 *   throughput at 10 concurrent uploads and the server's and linter worker's RSS, as ratios against
 *   the same validation and signing done in-process (bench/signing.ts; embedded database, or a
 *   scratch database on DATABASE_URL's server).
 * - browse: reviewer browse and compare of a 500-file, 5 MB unlisted extension uploaded as 1.0 and
 *   as 1.1 (about 10% of its files changed) through the signing API: first browse of each version
 *   (tree computed), browse of the default file and of a large script, first compares (every
 *   request a path never compared: sequentially, and each path once under load) and repeated ones,
 *   small and large, with ratios to a version detail request of the same run, and the server's RSS
 *   (bench/browse.ts; embedded database, or a scratch database on DATABASE_URL's server).
 *
 * - images: one upload's decodes and time in `renderImage` on 40-megapixel PNG and JPEG files, as
 *   an icon, a preview and a picture, as ratios to one plain decode and to one decode per variant
 *   (the previous renderer), and a burst of concurrent icon uploads against the bounded render
 *   queue (bench/images.ts; in-process, no server or database; BENCH_IMAGE_RUNS runs, default 5).
 *
 * - blocklist: the published filter cascade for 500,000 signed versions with 1% blocked: build time
 *   as a ratio to one SHA-256 per key, size as a ratio to the list of blocked keys, a stash of
 *   1,000 changes planned, every key verified (bench/blocklist.ts; in-process).
 *
 * - scanners: the scan of one upload (YARA rules through the CLI, secrets, look-alike names) as a
 *   ratio to addons-linter's validation of the same package in the same run (bench/scanners.ts;
 *   in-process).
 *
 * - webhooks: /healthz, GET /api/v4/site/ and an anonymous GraphQL query with 1,000 webhook
 *   deliveries waiting for a receiver that accepts connections and never answers, as ratios to the
 *   same traffic without them, on the embedded database and (with DATABASE_URL) on a scratch
 *   PostgreSQL database, and the attempts and jobs the backlog cost (bench/webhooks.ts).
 *
 * - updates (needs DATABASE_URL; the catalogue suite's seeded databases): the update service Firefox
 *   asks daily for every installed add-on (GET /update/VersionCheck.php with Firefox's query
 *   string), for each size in BENCH_ADDONS: /healthz, checks rotating over 1,000 add-ons (cached),
 *   the same revalidated with If-None-Match (304), and uncached (each request an add-on never asked
 *   before, BENCH_UPDATES_UNCACHED of them, default 20,000), every answer checked to offer the
 *   add-on's update; ratios to /healthz and the targets (cached >= 0.8x, uncached >= 0.5x)
 *   (bench/updates.ts).
 *
 * - startup: cold start to the first answer of /healthz and GET /api/v4/site/ on PostgreSQL (migrated,
 *   fresh) and embedded (fresh DATA_DIR with and without the migrated snapshot, restart), in seconds
 *   against the 3 s target, with the server's CPU seconds; then seeding rate and reindex time into
 *   scratch databases (addons_seedbench_N for each N of BENCH_STARTUP_SEED, default 50000)
 *   (bench/startup.ts).
 *
 * BENCH_SUITES picks suites (default all), BENCH_DURATION the measured seconds per scenario.
 * Raw numbers go to bench/results/latest.json. A run with any non-2xx answer or error fails, and so
 * does one with an upload that does not end signed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BENCH_SECRET_KEY,
  benchSession,
  catalogueScenarios,
  pickWorkload,
  prepareDatabase,
  registerPersistedQueries,
} from './catalogue.js';
import { backgroundWriter, prepareWriter, writesPerSecond, type BackgroundWriter } from './writer.js';
import {
  buildServer,
  fmt,
  FOUNDATION_SCENARIOS,
  printTable,
  runScenario,
  startServer,
  stopServer,
  type RunningServer,
  type Scenario,
  type ScenarioResult,
} from './lib.js';
import { hostileSettings, printHostileReport, runHostileSuite, type HostileReport } from './hostile.js';
import { printSigningReport, runSigningSuite, signingSettings, type SigningReport } from './signing.js';
import { browseSettings, printBrowseReport, runBrowseSuite, type BrowseReport } from './browse.js';
import { imagesSettings, printImagesReport, runImagesSuite, type ImagesReport } from './images.js';
import { frontendSettings, runFrontendSuite, type FrontendReport } from './frontend.js';
import { blocklistSettings, printBlocklistReport, runBlocklistSuite, type BlocklistReport } from './blocklist.js';
import { printScannersReport, runScannersSuite, scannersSettings, type ScannersReport } from './scanners.js';
import { printWebhooksReport, runWebhooksSuite, webhooksSettings, type WebhooksReport } from './webhooks.js';
import { runUpdatesSuite, updatesSettings, type UpdatesReport } from './updates.js';
import { printStartupReport, runStartupSuite, startupSettings, type StartupReport } from './startup.js';

const SUITES = (
  process.env.BENCH_SUITES ??
  'foundation,catalogue,frontend,updates,hostile,signing,browse,images,blocklist,scanners,webhooks,startup'
)
  .split(',')
  .map((s) => s.trim());
const SIZES = (process.env.BENCH_ADDONS ?? '50000,500000').split(',').map(Number);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const SETTINGS = { connections: 10, warmupSeconds: 2, durationSeconds: DURATION };
const RESULTS_FILE = fileURLToPath(new URL('./results/latest.json', import.meta.url));
const ADMIN_URL = process.env.DATABASE_URL;

const FOUNDATION = FOUNDATION_SCENARIOS;

interface SuiteResult {
  suite: string;
  database: string;
  results: ScenarioResult[];
  /** The signing suite's figures (its `results` stay empty). */
  signing?: SigningReport;
  /** The hostile neighbour suite's figures (`results`: /healthz alone, then under load). */
  hostile?: HostileReport;
  /** The browse suite's figures (`results`: its scenarios under load). */
  browse?: BrowseReport;
  /** The image suite's figures (in-process; `results` stay empty). */
  images?: ImagesReport;
  blocklist?: BlocklistReport;
  /** The scanners suite's figures (in-process; `results` stay empty). */
  scanners?: ScannersReport;
  /** The frontend suite's figures (`results`: its scenarios, with CPU per request). */
  frontend?: FrontendReport;
  /** The webhook backlog suite's figures (`results`: every scenario of every phase). */
  webhooks?: WebhooksReport;
  /** The update service suite's figures (`results`: its scenarios). */
  updates?: UpdatesReport;
  /** Cold start and seeding figures (`results` stay empty). */
  startup?: StartupReport;
}

let current: RunningServer | undefined;
const abort = (why: string) => {
  console.error(`bench: ${why}`);
  current?.child.kill('SIGKILL');
  process.exit(1);
};
process.once('SIGINT', () => abort('interrupted'));
process.once('SIGTERM', () => abort('terminated'));

/**
 * Runs scenarios against one server, always stopping it. With `background`, every scenario runs a
 * second time while its writer writes (results named `<scenario>+writes`).
 */
async function suite(
  name: string,
  env: Record<string, string>,
  scenarios: Scenario[],
  background?: (base: string) => Promise<{ writer: BackgroundWriter; rate: number }>,
): Promise<ScenarioResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'addons-bench-'));
  try {
    current = await startServer({ DATA_DIR: dataDir, ...env });
    const prepared = background ? await background(current.base) : null;
    const results: ScenarioResult[] = [];
    for (const scenario of scenarios) {
      process.stdout.write(`  ${name}: ${scenario.name} ...\n`);
      results.push(await runScenario(current.base, scenario, current.child.pid, SETTINGS));
    }
    if (prepared) {
      const { writer, rate } = prepared;
      for (const scenario of scenarios) {
        process.stdout.write(`  ${name}: ${scenario.name} with ${rate} writes/s ...\n`);
        writer.start();
        const result = await runScenario(current.base, scenario, current.child.pid, SETTINGS);
        const { writes, failures } = await writer.stop();
        if (failures.length) throw new Error(`background writes failed: ${failures.slice(0, 3).join('; ')}`);
        results.push({ ...result, name: `${scenario.name}+writes`, request: `${result.request} (${writes} writes)` });
      }
    }
    return results;
  } catch (error) {
    if (current) console.error(`--- server output (tail) ---\n${current.output.join('').slice(-4000)}`);
    throw error;
  } finally {
    if (current) await stopServer(current.child);
    current = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (!(DURATION > 0)) throw new Error('BENCH_DURATION must be a positive number of seconds');
  buildServer();
  // Per size: about 30 scenarios, each alone and with the background writer.
  const budget = (60 + SIZES.length * 70 * (DURATION + 10) + 1800) * 1000;
  setTimeout(() => abort(`time budget of ${budget / 1000} s exceeded`), budget).unref();
  const runs: SuiteResult[] = [];

  if (SUITES.includes('foundation')) {
    const database = ADMIN_URL ? 'postgres' : 'embedded';
    // An empty DATABASE_URL counts as unset: the embedded default.
    const results = await suite('foundation', { DATABASE_URL: ADMIN_URL ?? '' }, FOUNDATION);
    printTable(`foundation (${database})`, results, 'healthz');
    const [rest, graphql] = ['rest-site', 'graphql-site'].map((n) => results.find((r) => r.name === n)!);
    console.log(
      `\nREST engine vs POST /graphql, same document: req/s ${fmt(rest.reqPerSec / graphql.reqPerSec)}x, ` +
        `p50 ${fmt(rest.p50Ms / graphql.p50Ms)}x, p99 ${fmt(rest.p99Ms / graphql.p99Ms)}x`,
    );
    runs.push({ suite: 'foundation', database, results });
  }

  if (SUITES.includes('catalogue')) {
    if (!ADMIN_URL) {
      console.log(
        '\ncatalogue suite skipped: set DATABASE_URL to a PostgreSQL server where scratch databases can be created',
      );
    } else {
      for (const size of SIZES) {
        const url = await prepareDatabase(ADMIN_URL, size, 1);
        const workload = await pickWorkload(url);
        const reader = await benchSession(url);
        const writerAccount = await benchSession(url);
        const rate = writesPerSecond();
        const scenarios = catalogueScenarios(workload, reader.token);
        let targets: Awaited<ReturnType<typeof prepareWriter>> | undefined;
        const background = async (base: string) => {
          await registerPersistedQueries(base);
          targets ??= await prepareWriter(url, base, writerAccount);
          return { writer: backgroundWriter(base, writerAccount, targets, rate), rate };
        };
        // Each scenario twice in the same server: alone, then with the background writer.
        const results = await suite(
          `catalogue ${size}`,
          { DATABASE_URL: url, SECRET_KEY: BENCH_SECRET_KEY },
          scenarios,
          background,
        );
        printTable(
          `catalogue, ${size} add-ons, no writes (PostgreSQL full-text search)`,
          results.filter((r) => !r.name.endsWith('+writes')),
          'healthz',
        );
        printTable(
          `catalogue, ${size} add-ons, ${rate} writes/s in the background`,
          results.filter((r) => r.name.endsWith('+writes')),
          'healthz+writes',
        );
        runs.push({ suite: `catalogue-${size}`, database: 'postgres', results });

        // The same detail with two web processes on the machine's cores (WEB_PROCESSES=2), same writes.
        const pick = scenarios.filter((s) => ['healthz', 'detail-v4', 'miss-detail-v4'].includes(s.name));
        const two = await suite(
          `catalogue ${size}, 2 web processes`,
          { DATABASE_URL: url, SECRET_KEY: BENCH_SECRET_KEY, WEB_PROCESSES: '2' },
          pick,
          background,
        );
        printTable(
          `catalogue, ${size} add-ons, 2 web processes, ${rate} writes/s in the background`,
          two.filter((r) => r.name.endsWith('+writes')),
          'healthz+writes',
        );
        for (const name of ['detail-v4+writes', 'miss-detail-v4+writes']) {
          const [one, both] = [results, two].map((list) => list.find((r) => r.name === name)!);
          console.log(`${name}: 2 web processes ${fmt(both.reqPerSec / one.reqPerSec)}x the req/s of one`);
        }
        runs.push({ suite: `catalogue-${size}-2-processes`, database: 'postgres', results: two });
      }
    }
  }

  if (SUITES.includes('frontend')) {
    if (!ADMIN_URL) {
      console.log(
        '\nfrontend suite skipped: set DATABASE_URL to a PostgreSQL server where scratch databases can be created',
      );
    } else {
      const reports = await runFrontendSuite({
        adminUrl: ADMIN_URL,
        settings: frontendSettings(),
        track: (server) => (current = server),
        log: (line) => process.stdout.write(`${line}\n`),
      });
      for (const report of reports) {
        runs.push({
          suite: `frontend-${report.addons}`,
          database: 'postgres',
          results: report.results,
          frontend: report,
        });
        // The WEB_PROCESSES=2 runs (figures in `frontend.twoProcesses`): listed so that a non-2xx fails the run.
        if (report.twoProcesses) {
          runs.push({
            suite: `frontend-${report.addons}-2-processes`,
            database: 'postgres',
            results: report.twoProcesses.results,
          });
        }
      }
    }
  }

  if (SUITES.includes('updates')) {
    if (!ADMIN_URL) {
      console.log(
        '\nupdates suite skipped: set DATABASE_URL to a PostgreSQL server where scratch databases can be created',
      );
    } else {
      const reports = await runUpdatesSuite({
        adminUrl: ADMIN_URL,
        settings: updatesSettings(),
        track: (server) => (current = server),
        log: (line) => process.stdout.write(`${line}\n`),
      });
      for (const report of reports) {
        runs.push({
          suite: `updates-${report.addons}`,
          database: 'postgres',
          results: report.results,
          updates: report,
        });
      }
    }
  }

  if (SUITES.includes('hostile')) {
    const hostile = await runHostileSuite({
      adminUrl: ADMIN_URL,
      settings: hostileSettings(),
      track: (server) => (current = server),
      log: (line) => process.stdout.write(`${line}\n`),
    });
    printHostileReport(hostile);
    runs.push({
      suite: 'hostile',
      database: hostile.database,
      results: [
        hostile.alone,
        { ...hostile.benign, name: 'healthz-with-plain-neighbours' },
        { ...hostile.underLoad, name: 'healthz-with-hostile-neighbours' },
      ],
      hostile,
    });
  }

  if (SUITES.includes('startup')) {
    const startup = await runStartupSuite({
      adminUrl: ADMIN_URL,
      settings: startupSettings(),
      log: (line) => process.stdout.write(`${line}\n`),
    });
    printStartupReport(startup);
    runs.push({ suite: 'startup', database: ADMIN_URL ? 'both' : 'embedded', results: [], startup });
  }

  if (SUITES.includes('signing')) {
    const signing = await runSigningSuite({
      adminUrl: ADMIN_URL,
      settings: signingSettings(),
      track: (server) => (current = server),
      log: (line) => process.stdout.write(`${line}\n`),
    });
    printSigningReport(signing);
    runs.push({ suite: 'signing', database: signing.database, results: [], signing });
  }

  if (SUITES.includes('browse')) {
    const browse = await runBrowseSuite({
      adminUrl: ADMIN_URL,
      settings: browseSettings(),
      track: (server) => (current = server),
      log: (line) => process.stdout.write(`${line}\n`),
    });
    printBrowseReport(browse);
    runs.push({ suite: 'browse', database: browse.database, results: browse.load, browse });
  }

  if (SUITES.includes('images')) {
    const images = await runImagesSuite({
      settings: imagesSettings(),
      log: (line) => process.stdout.write(`${line}\n`),
    });
    printImagesReport(images);
    runs.push({ suite: 'images', database: 'none', results: [], images });
  }

  if (SUITES.includes('blocklist')) {
    const blocklist = await runBlocklistSuite({
      settings: blocklistSettings(),
      log: (line) => process.stdout.write(`${line}\n`),
    });
    printBlocklistReport(blocklist);
    runs.push({ suite: 'blocklist', database: 'none', results: [], blocklist });
  }

  if (SUITES.includes('scanners')) {
    const scanners = await runScannersSuite({
      settings: scannersSettings(),
      log: (line) => process.stdout.write(`${line}\n`),
    });
    printScannersReport(scanners);
    runs.push({ suite: 'scanners', database: 'none', results: [], scanners });
  }

  if (SUITES.includes('webhooks')) {
    const webhooks = await runWebhooksSuite({
      adminUrl: ADMIN_URL,
      settings: webhooksSettings(),
      track: (server) => (current = server),
      log: (line) => process.stdout.write(`${line}\n`),
    });
    printWebhooksReport(webhooks);
    const results = webhooks.runs.flatMap((run) => [...run.without, ...run.withBacklog, ...run.withoutAgain]);
    runs.push({ suite: 'webhooks', database: webhooks.runs.map((run) => run.database).join('+'), results, webhooks });
  }

  const failed = runs.flatMap((r) => r.results).filter((r) => r.non2xx > 0 || r.errors > 0);
  for (const r of failed) console.error(`FAILED ${r.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  const unsigned = runs.flatMap((r) => r.signing?.failures ?? []);
  for (const f of unsigned) console.error(`FAILED signing: ${f}`);
  const hostileFailures = runs.flatMap((r) => r.hostile?.failures ?? []);
  for (const f of hostileFailures) console.error(`FAILED hostile neighbour: ${f}`);
  const browseFailures = runs.flatMap((r) => r.browse?.failures ?? []);
  for (const f of browseFailures) console.error(`FAILED browse: ${f}`);
  const imageFailures = runs.flatMap((r) => r.images?.failures ?? []);
  for (const f of imageFailures) console.error(`FAILED images: ${f}`);
  const blocklistFailures = runs.flatMap((r) => r.blocklist?.failures ?? []);
  for (const f of blocklistFailures) console.error(`FAILED blocklist: ${f}`);
  const scannerFailures = runs.flatMap((r) => r.scanners?.failures ?? []);
  for (const f of scannerFailures) console.error(`FAILED scanners: ${f}`);
  const updateFailures = runs.flatMap((r) => r.updates?.failures ?? []);
  for (const f of updateFailures.slice(0, 20)) console.error(`FAILED updates: ${f}`);
  if (
    failed.length ||
    unsigned.length ||
    hostileFailures.length ||
    browseFailures.length ||
    imageFailures.length ||
    blocklistFailures.length ||
    scannerFailures.length ||
    updateFailures.length
  ) {
    process.exit(1);
  }
  mkdirSync(join(RESULTS_FILE, '..'), { recursive: true });
  writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, settings: SETTINGS, runs }, null, 2)}\n`,
  );
  console.log(`\nraw results: ${RESULTS_FILE}`);
  process.exit(0);
}

await main().catch((error) => abort(error instanceof Error ? error.message : String(error)));
