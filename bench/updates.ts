/**
 * The update service suite: `GET /update/VersionCheck.php` as Firefox asks it
 * once a day for every installed add-on, on the catalogue suite's seeded databases (one server per
 * size of BENCH_ADDONS), as ratios to `/healthz` in the same server and run:
 *
 * - `healthz`: the floor.
 * - `update-cached`: checks rotating over 1,000 public add-ons with Firefox's own query string
 *   (its `extensions.update.url` filled in: Firefox 140.0 on Linux, `compatMode=normal`); each
 *   answer is computed once (smoke test and warm-up), then served from the answer cache (one tag
 *   read per request, batched).
 * - `update-304`: the same checks revalidated with each answer's `If-None-Match` (what a CDN or a
 *   client holding the answer sends): every answer must be 304.
 * - `update-uncached`: each request a different add-on never asked before in this server (every
 *   guid once, no warm-up): the answer cache is keyed by add-on (and application, version, mode),
 *   so only distinct add-ons make it compute every answer; the `_=` cache buster of other suites
 *   is ignored by the update route (an unknown parameter), so it would measure cached answers.
 * - `healthz-again`: the floor once more; its drift from the first tells how far the shared
 *   machine's other load moved during the run.
 *
 * Every answer is checked to carry the add-on's update (`addons.<guid>.updates` non-empty, with
 * `update_link` and `update_hash`): the 1,000 rotating ones before the 304 scenario (which takes
 * their entity tags), and every uncached one after its run (from the cache, where the answer
 * computed during the run stays). Targets (every installed add-on is checked daily, so a check
 * must cost about what a health probe does): cached >= 0.8x /healthz, uncached >= 0.5x.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { versionInt } from '../src/catalogue/catalogue.enums.js';
import { BENCH_SECRET_KEY, prepareDatabase } from './catalogue.js';
import { settle } from './frontend.js';
import {
  fmt,
  printTable,
  runScenario,
  startServer,
  withClient,
  type RunningServer,
  type Scenario,
  type ScenarioResult,
  type SuiteOptions,
  endSuite,
  logServerTail,
} from './lib.js';

export interface UpdatesSettings {
  sizes: number[];
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Add-ons in the rotating (cached) scenario. */
  cachedAddons: number;
  /** Distinct add-ons of the uncached scenario (BENCH_UPDATES_UNCACHED, default 20,000), each asked once. */
  uncachedAddons: number;
}

export function updatesSettings(): UpdatesSettings {
  return {
    sizes: (process.env.BENCH_ADDONS ?? '50000,500000').split(',').map(Number),
    connections: 10,
    warmupSeconds: 2,
    durationSeconds: Number(process.env.BENCH_DURATION ?? 10),
    cachedAddons: 1000,
    uncachedAddons: Number(process.env.BENCH_UPDATES_UNCACHED ?? 20_000),
  };
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
}

export interface UpdatesReport {
  addons: number;
  database: string;
  /** The application version the checks send (`appVersion`). */
  appVersion: string;
  results: ScenarioResult[];
  targets: TargetCheck[];
  /** Answers checked to carry the add-on's update. */
  checkedAnswers: number;
  /** Answers without the add-on's update, or otherwise wrong (any fails the run). */
  failures: string[];
}

const FIREFOX = '{ec8030f7-c20a-464f-9b0e-13a3a9e97384}';
/** Firefox 140 (the ESR of 2025–2026), as the checks' application version. */
const APP_VERSION = '140.0';
const TARGETS = { cached: 0.8, uncached: 0.5 };

interface Installed {
  guid: string;
  /** The oldest listed version: what the user has installed (an update is waiting). */
  version: string;
}

/** Firefox's `extensions.update.url` with its placeholders filled in, as a daily background check sends it. */
export function firefoxCheckPath(addon: Installed): string {
  const query = new URLSearchParams({
    reqVersion: '2',
    id: addon.guid,
    version: addon.version,
    maxAppVersion: '*',
    status: 'userEnabled',
    appID: FIREFOX,
    appVersion: APP_VERSION,
    appOS: 'Linux',
    appABI: 'x86_64-gcc3',
    locale: 'en-US',
    currentAppVersion: APP_VERSION,
    updateType: '112',
    compatMode: 'normal',
  });
  return `/update/VersionCheck.php?${query.toString()}`;
}

/**
 * Public add-ons with an update for Firefox 140 in normal compatibility mode (a listed, signed,
 * approved version whose minimum allows it, not blocked), in a stable pseudo-random order: the
 * first `cached` for the rotating scenarios, the next `uncached` for the uncached one.
 */
async function pickAddons(url: string, cached: number, uncached: number): Promise<Installed[]> {
  const app = versionInt(APP_VERSION)!;
  return withClient(url, async (client) => {
    const { rows } = await client.query<Installed>(
      `select a.guid,
              (select v.version from versions v where v.addon_id = a.id and v.channel = 2 and not v.deleted
                order by v.id limit 1) as version
         from addons a
        where a.status = 4 and not a.disabled_by_user and a.current_version_id is not null and a.guid is not null
          and exists (select 1 from versions v join files f on f.version_id = v.id
                        join version_compat vc on vc.version_id = v.id and vc.application = 1
                       where v.addon_id = a.id and v.channel = 2 and not v.deleted and f.status = 4 and f.is_signed
                         and vc.min_int <= $1 and (not f.strict_compatibility or vc.max_int >= $1))
          and not exists (select 1 from blocks b where lower(b.guid) = lower(a.guid))
        order by md5(a.guid)
        limit $2`,
      [app, cached + uncached],
    );
    if (rows.length < cached + 100)
      throw new Error(`only ${rows.length} add-ons with an update for Firefox ${APP_VERSION}`);
    return rows;
  });
}

/** The update an answer offers for `guid`, or why it is not one. */
function offeredUpdate(status: number, body: string, guid: string): string | null {
  if (status !== 200) return `status ${status}`;
  const manifest = JSON.parse(body) as { addons?: Record<string, { updates?: Record<string, unknown>[] }> };
  const updates = manifest.addons?.[guid]?.updates;
  if (!updates?.length) return `no update in ${body.slice(0, 200)}`;
  const [update] = updates;
  if (typeof update.update_link !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(String(update.update_hash))) {
    return `an update without link or hash: ${JSON.stringify(update).slice(0, 200)}`;
  }
  return null;
}

/** Fetches every path (a few at a time), checks it offers its add-on's update; returns the entity tags. */
async function checkAnswers(base: string, addons: Installed[], failures: string[]): Promise<string[]> {
  const etags: string[] = new Array(addons.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < addons.length; i = next++) {
      const res = await fetch(base + firefoxCheckPath(addons[i]), { signal: AbortSignal.timeout(30_000) });
      const problem = offeredUpdate(res.status, await res.text(), addons[i].guid);
      if (problem) failures.push(`${addons[i].guid}: ${problem}`);
      etags[i] = res.headers.get('etag') ?? '';
      if (!etags[i]) failures.push(`${addons[i].guid}: no ETag`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return etags;
}

export async function runUpdatesSuite(
  options: SuiteOptions<UpdatesSettings> & { adminUrl: string },
): Promise<UpdatesReport[]> {
  const { adminUrl, settings, log } = options;
  const reports: UpdatesReport[] = [];
  for (const addons of settings.sizes) {
    const url = await prepareDatabase(adminUrl, addons, 1);
    const database = new URL(url).pathname.slice(1);
    const picked = await pickAddons(url, settings.cachedAddons, settings.uncachedAddons);
    const rotating = picked.slice(0, settings.cachedAddons);
    const fresh = picked.slice(settings.cachedAddons);
    if (fresh.length < settings.uncachedAddons) {
      log(
        `  updates ${addons}: ${fresh.length} add-ons left for the uncached scenario (asked for ${settings.uncachedAddons})`,
      );
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'addons-bench-updates-'));
    let server: RunningServer | undefined;
    const failures: string[] = [];
    const results: ScenarioResult[] = [];
    try {
      server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: url, SECRET_KEY: BENCH_SECRET_KEY });
      options.track(server);
      const { base } = server;
      // Startup work (the signing authority, made after /healthz first answers) is no request's.
      log(`  updates ${addons}: ${await settle(server.child.pid!, 1)}`);
      const measure = async (scenario: Scenario) => {
        log(`  updates ${addons}: ${scenario.name} ...`);
        results.push(await runScenario(base, scenario, server!.child.pid, settings));
      };
      const rotatingPaths = rotating.map(firefoxCheckPath);
      await measure({ name: 'healthz', method: 'GET', path: '/healthz' });
      await measure({ name: 'update-cached', method: 'GET', path: rotatingPaths });
      const etags = await checkAnswers(base, rotating, failures);
      await measure({
        name: 'update-304',
        method: 'GET',
        path: rotatingPaths,
        pathHeaders: etags.map((etag) => ({ 'If-None-Match': etag })),
        expectStatus: 304,
      });
      await measure({ name: 'update-uncached', method: 'GET', path: fresh.map(firefoxCheckPath), once: true });
      await checkAnswers(base, fresh, failures);
      await measure({ name: 'healthz-again', method: 'GET', path: '/healthz' });
    } catch (error) {
      logServerTail(server);
      throw error;
    } finally {
      await endSuite(server, options, dataDir);
    }
    const report: UpdatesReport = {
      addons,
      database,
      appVersion: APP_VERSION,
      results,
      targets: checkTargets(results),
      checkedAnswers: rotating.length + fresh.length,
      failures,
    };
    printUpdatesReport(report);
    reports.push(report);
  }
  return reports;
}

/**
 * Each target against the mean of the two /healthz runs (before and after: on a shared machine
 * either alone moves with the others' load), with the ratios to each beside it.
 */
function checkTargets(results: ScenarioResult[]): TargetCheck[] {
  const rate = (name: string) => results.find((r) => r.name === name)?.reqPerSec ?? NaN;
  const [first, last] = [rate('healthz'), rate('healthz-again')];
  const healthz = (first + last) / 2;
  const check = (scenario: string, target: number): TargetCheck => {
    const ratio = rate(scenario) / healthz;
    return {
      target: `${scenario} >= ${target}x /healthz`,
      measured:
        `${fmt(ratio)}x the mean /healthz (${fmt(rate(scenario) / first)}x the first, ` +
        `${fmt(rate(scenario) / last)}x the last)`,
      met: ratio >= target,
    };
  };
  return [check('update-cached', TARGETS.cached), check('update-uncached', TARGETS.uncached)];
}

export function printUpdatesReport(report: UpdatesReport): void {
  printTable(
    `update service, ${report.addons} add-ons (Firefox ${report.appVersion}, compatMode=normal; PostgreSQL)`,
    report.results,
    'healthz',
  );
  const rate = (name: string) => report.results.find((r) => r.name === name)?.reqPerSec ?? NaN;
  console.log(
    `\n/healthz drift over the run: ${fmt(rate('healthz-again') / rate('healthz'))}x ` +
      `(the machine's other load; the table's ratios are to the first /healthz, the targets' to the mean)`,
  );
  const uncached = report.results.find((r) => r.name === 'update-uncached');
  if (uncached?.distinctPaths !== undefined) {
    console.log(
      `update-uncached: ${uncached.distinctPaths} distinct add-ons, each asked once, in ${uncached.seconds} s`,
    );
  }
  console.log(
    `answers checked to offer their add-on's update: ${report.checkedAnswers - report.failures.length}` +
      `/${report.checkedAnswers}`,
  );
  for (const f of report.failures.slice(0, 5)) console.log(`  wrong answer: ${f}`);
  for (const t of report.targets) console.log(`target ${t.target}: ${t.measured} ${t.met ? 'met' : 'NOT met'}`);
}
