/**
 * Signing benchmark: a small unlisted extension through the signing API as sign-addon sends it
 * (PUT /api/v4/addons/<guid>/versions/<version>/ with an API-key JWT, then the status `url` polled
 * until `files[0].signed`), against a floor measured in the same run on the same machine: the same
 * package through the project's own `Validator` (warm) and `signPackage` (CA and key pool ready)
 * in this process, with no HTTP, queue, database or polling.
 *
 * - latency: BENCH_SIGNING_UPLOADS (default 30) sequential uploads, each with a new guid, timed from
 *   sending the PUT to the first poll that shows the file signed (polls every BENCH_SIGNING_POLL_MS,
 *   default 50). Service and floor alternate upload by upload, each after the previous one's
 *   background work has settled (and the service's after a random 0-2 s pause, so that its periodic
 *   job polling is met at every phase), so that a noisy neighbour slows both alike.
 * - v5: each sequential v4 upload is followed by the same upload through the v5 submission API
 *   (web-ext 8+: POST /api/v5/addons/upload/, poll it, PUT /api/v5/addons/addon/<guid>/, poll the
 *   version until its file is public), over the same pipeline; reported beside v4 as a ratio.
 * - throughput: BENCH_SIGNING_LOAD_UPLOADS (default 50) uploads by BENCH_SIGNING_CONCURRENCY
 *   (default 10) concurrent uploaders (polling every BENCH_SIGNING_LOAD_POLL_MS, default 200: 10
 *   clients polling every 50 ms would be a load of their own), and the floor driven at the same
 *   concurrency just before and just after.
 * - scanners on: BENCH_SIGNING_YARA_RULES (default 20) active YARA rules saved by an admin before
 *   the first upload (matching nothing, so uploads stay automatically signed), beside the secrets and
 *   look-alike scanners; the cold upload's version must show all three scanners' results.
 * - bursts: BENCH_SIGNING_BURSTS (default 5) times, BENCH_SIGNING_BURST_SIZE (default 10) uploads
 *   started at once by one user (the per-user upload slots at their default: an upload past them
 *   waits for one), polling every BENCH_SIGNING_BURST_POLL_MS (default 100); p50/p95 per upload.
 * - /healthz at 10 connections before the first scenario and after the bursts: the figures as
 *   ratios to its latency, and the issue's targets scaled by its rate (bench/signing-burst.ts).
 * - memory: RSS of the server and of its addons-linter worker process (a child of the server),
 *   warm and idle, highest while the throughput run lasts (sampled every 100 ms), and at the end.
 *
 * Embedded PGlite by default; with DATABASE_URL, a scratch database created on that server and
 * dropped afterwards. Any upload that does not end signed is a failure (`failures`).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buffer } from 'node:stream/consumers';
import yazl from 'yazl';
import { signJwt } from '../src/auth/jwt.js';
import { Keyring } from '../src/core/secrets.js';
import { AddonSigner, loadOrCreateAuthority, signPackage } from '../src/signing/crypto/index.js';
import { readZip } from '../src/archive/zip.js';
import { Validator } from '../src/signing/validation/validator.js';
import { BENCH_SECRET_KEY } from './catalogue.js';
import {
  createScratchDatabase,
  dropScratchDatabase,
  fmt,
  percentile,
  processRssMB,
  runCli,
  sleep,
  startServer,
  stopServer,
  type SuiteOptions,
  type RunningServer,
} from './lib.js';
import {
  createYaraRules,
  measureHealthz,
  p50p95,
  runBursts,
  scannersRun,
  SIGNING_TARGETS,
  type HealthzFigures,
} from './signing-burst.js';

const positive = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!(value > 0)) throw new Error(`${name} must be a positive number`);
  return value;
};

export interface SigningSettings {
  /** Sequential uploads in the latency scenario (and floor runs alternating with them). */
  uploads: number;
  /** Uploads of the throughput scenario, and how many uploaders send them at once. */
  loadUploads: number;
  concurrency: number;
  /** Status polling interval, sequential and under load. */
  pollMs: number;
  loadPollMs: number;
  /** Unmeasured uploads after the first (cold) one. */
  warmupUploads: number;
  /** Pause before each measured sequential upload, once this process's key pool is full again. */
  settleMs: number;
  /** A random pause of up to this much before each sequential upload, on top of `settleMs`. */
  arrivalJitterMs: number;
  /** Active YARA rules during the run (scanners on). */
  yaraRules: number;
  /** Bursts of `burstSize` uploads started at once by one user, polling every `burstPollMs`. */
  bursts: number;
  burstSize: number;
  burstPollMs: number;
  /** An upload not signed by then is a failure. */
  timeoutMs: number;
  /** Server settings that shape the figures (the service's defaults, left as they are). */
  server: { validatorWorkers: number; signingKeyPool: number; caKeyBits: number };
}

export function signingSettings(): SigningSettings {
  return {
    uploads: Math.round(positive('BENCH_SIGNING_UPLOADS', 30)),
    loadUploads: Math.round(positive('BENCH_SIGNING_LOAD_UPLOADS', 50)),
    concurrency: Math.round(positive('BENCH_SIGNING_CONCURRENCY', 10)),
    pollMs: positive('BENCH_SIGNING_POLL_MS', 50),
    loadPollMs: positive('BENCH_SIGNING_LOAD_POLL_MS', 200),
    warmupUploads: 3,
    settleMs: 300,
    arrivalJitterMs: 2000,
    yaraRules: Math.round(Number(process.env.BENCH_SIGNING_YARA_RULES ?? 20)),
    bursts: Math.round(positive('BENCH_SIGNING_BURSTS', 5)),
    burstSize: Math.round(positive('BENCH_SIGNING_BURST_SIZE', 10)),
    burstPollMs: positive('BENCH_SIGNING_BURST_POLL_MS', 100),
    timeoutMs: 120_000,
    // The configuration defaults (src/config.ts); the bench does not override them.
    server: { validatorWorkers: 1, signingKeyPool: 4, caKeyBits: 4096 },
  };
}

export interface LatencyStats {
  n: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  meanMs: number;
  minMs: number;
  maxMs: number;
}

export interface ThroughputResult {
  uploads: number;
  concurrency: number;
  seconds: number;
  perSec: number;
  latency: LatencyStats;
}

export interface RssFigures {
  /** Warm and idle, before the measured scenarios. */
  idleMB: number | null;
  /** Highest sample while the throughput scenario ran. */
  maxUnderLoadMB: number | null;
  /** After the last scenario, once idle again. */
  endMB: number | null;
}

export interface SigningReport {
  database: 'embedded' | 'postgres';
  settings: SigningSettings;
  packageBytes: number;
  /** The first upload after start: linter worker start-up, CA generation and key pool included. */
  coldFirstUploadMs: number;
  baseline: LatencyStats & { validateP50Ms: number; signP50Ms: number };
  latency: LatencyStats & {
    /** The PUT's own response time. */
    putP50Ms: number;
    putP95Ms: number;
    /** From the PUT to the first poll showing `processed` (validation recorded), then on to signed. */
    processedP50Ms: number;
    processedP95Ms: number;
    processedToSignedP50Ms: number;
    processedToSignedP95Ms: number;
    pollsPerUpload: number;
    /** The same uploads as sign-addon would see them, polling once right after the PUT and then every 1 s (estimate). */
    signAddonP50Ms: number;
    signAddonP95Ms: number;
  };
  /** The same uploads through the v5 submission API, alternating with v4's; `processed` = upload validated. */
  v5: LatencyStats & { processedP50Ms: number; processedP95Ms: number; vsV4P50: number; vsV4P95: number };
  /** Two runs, before and after the service's (`runsPerSec`); the figures are of both together. */
  baselineThroughput: ThroughputResult & { runsPerSec: number[] };
  throughput: ThroughputResult & { pollsPerUpload: number };
  /** Every measured time in ms, in the order taken. */
  samples: { baseline: number[]; latency: number[]; baselineUnderLoad: number[]; underLoad: number[] };
  ratios: {
    /** Service latency over the floor's, same percentile. */
    latencyP50: number;
    latencyP95: number;
    /** Service uploads/s over the floor's at the same concurrency. */
    throughput: number;
    /** Service p50 under load over the floor's p50 under load. */
    loadLatencyP50: number;
  };
  memory: {
    server: RssFigures;
    linterWorker: RssFigures;
    /** Linter worker processes of the server seen during the run (a replaced worker is a new pid). */
    linterWorkerPids: number[];
    /** The floor's own linter worker, at the end (same addons-linter, same package). */
    baselineLinterWorkerMB: number | null;
  };
  /** Bursts of concurrent uploads by one user (default upload slots). */
  burst: LatencyStats & { bursts: number; size: number; wallP50Ms: number };
  /** /healthz (10 connections) before the scenarios and after the bursts. */
  healthz: { before: HealthzFigures; after: HealthzFigures };
  /** The scanners whose results the cold upload's version shows; the active YARA rules. */
  scanners: { yaraRules: number; ranOnColdUpload: string[] };
  /** The targets: absolute, and scaled by this run's /healthz rate against the reference machine's. */
  targets: {
    sequentialP50Ms: number;
    burstP95Ms: number;
    /** This machine's /healthz rate (mean of before and after) over the reference's: < 1 is slower. */
    machineSpeed: number;
    sequentialP50ScaledMs: number;
    burstP95ScaledMs: number;
    sequentialMet: boolean;
    sequentialMetScaled: boolean;
    burstMet: boolean;
    burstMetScaled: boolean;
  };
  failures: string[];
}

const MAX_FAILURES = 5;

// --- measuring -------------------------------------------------------------------------------

function stats(values: number[]): LatencyStats {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    n: sorted.length,
    p50Ms: round(percentile(sorted, 50)),
    p95Ms: round(percentile(sorted, 95)),
    p99Ms: round(percentile(sorted, 99)),
    meanMs: round(sorted.reduce((sum, v) => sum + v, 0) / Math.max(1, sorted.length)),
    minMs: round(sorted[0] ?? NaN),
    maxMs: round(sorted[sorted.length - 1] ?? NaN),
  };
}

/** The server's addons-linter workers: its child processes running validation/worker. */
function linterWorkers(serverPid: number): number[] {
  const pids: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${serverPid}/task`)) {
      const children = readFileSync(`/proc/${serverPid}/task/${task}/children`, 'utf8').trim();
      for (const pid of children ? children.split(/\s+/).map(Number) : []) {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        if (/validation[/\\]worker\.[jt]s/.test(cmdline)) pids.push(pid);
      }
    }
  } catch {
    // A process gone between two reads: the next sample sees the new one.
  }
  return pids;
}

function sumRss(pids: number[]): number | null {
  const values = pids.map((pid) => processRssMB(pid)).filter((v): v is number => v !== null);
  return values.length ? Math.round(values.reduce((a, b) => a + b, 0) * 10) / 10 : null;
}

class MemoryWatch {
  readonly workerPids = new Set<number>();
  private maxServer: number | null = null;
  private maxWorker: number | null = null;
  private timer?: NodeJS.Timeout;

  constructor(private readonly serverPid: number) {}

  sample(): { server: number | null; worker: number | null } {
    const pids = linterWorkers(this.serverPid);
    pids.forEach((pid) => this.workerPids.add(pid));
    return { server: processRssMB(this.serverPid), worker: sumRss(pids) };
  }

  start(everyMs: number): void {
    const take = () => {
      const { server, worker } = this.sample();
      if (server !== null) this.maxServer = Math.max(this.maxServer ?? 0, server);
      if (worker !== null) this.maxWorker = Math.max(this.maxWorker ?? 0, worker);
    };
    take();
    this.timer = setInterval(take, everyMs);
  }

  stop(): { server: number | null; worker: number | null } {
    clearInterval(this.timer);
    return { server: this.maxServer, worker: this.maxWorker };
  }
}

// --- the package ---------------------------------------------------------------------------

/**
 * A small MV2 extension the linter accepts without errors (as the signing tests upload), named
 * after its guid's number: concurrent first uploads of add-ons with the same name can collide on the
 * slug (BENCH_SIGNING_SAME_NAME=1 gives them all one name).
 */
async function extensionPackage(guid: string, version: string): Promise<Buffer> {
  const manifest = {
    manifest_version: 2,
    name: SAME_NAME ? 'Signing Bench' : `Signing Bench ${/-(\d+)@/.exec(guid)?.[1] ?? ''}`.trim(),
    description: 'A small extension uploaded by the signing benchmark.',
    version,
    browser_specific_settings: { gecko: { id: guid, data_collection_permissions: { required: ['none'] } } },
    background: { scripts: ['background.js'] },
  };
  const zip = new yazl.ZipFile();
  const files: Record<string, string> = {
    'manifest.json': JSON.stringify(manifest, null, 2),
    'background.js': 'browser.runtime.onInstalled.addListener(() => console.log("installed"));\n',
    'lib/util.js': 'export const answer = 42;\n',
  };
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  return buffer(zip.outputStream);
}

const SAME_NAME = ['1', 'true', 'yes'].includes(process.env.BENCH_SIGNING_SAME_NAME ?? '');
const RUN = `${process.pid.toString(36)}${Date.now().toString(36)}`;
let guids = 0;
const nextGuid = () => `bench-${RUN}-${++guids}@signing-bench.example.com`;
const VERSION = '1.0.0';

// --- the service ---------------------------------------------------------------------------

interface ApiKey {
  key: string;
  secret: string;
}

/** As sign-addon signs them: iss, iat, exp 300 s later, no jti; a new token for every request. */
function authorization(apiKey: ApiKey): string {
  const iat = Math.floor(Date.now() / 1000);
  return `JWT ${signJwt({ iss: apiKey.key, iat, exp: iat + 300 }, apiKey.secret)}`;
}

type UploadOutcome =
  | { ok: true; totalMs: number; putMs: number; processedMs: number; polls: number }
  | { ok: false; error: string; totalMs: number };

interface StatusBody {
  url?: string;
  processed?: boolean;
  valid?: boolean;
  files?: { signed?: boolean }[];
  validation_results?: { messages?: { message?: string }[] } | null;
  error?: string;
}

/** PUT a new add-on, then poll its status every `pollMs` until its file is signed (or it fails). */
async function uploadUntilSigned(
  base: string,
  apiKey: ApiKey,
  guid: string,
  pollMs: number,
  timeoutMs: number,
): Promise<UploadOutcome> {
  const bytes = await extensionPackage(guid, VERSION);
  const form = new FormData();
  form.append('upload', new Blob([bytes], { type: 'application/x-xpinstall' }), 'addon.xpi');
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const failed = (error: string): UploadOutcome => ({ ok: false, error: `${guid}: ${error}`, totalMs: elapsed() });
  try {
    const path = `/api/v4/addons/${encodeURIComponent(guid)}/versions/${VERSION}/`;
    const put = await fetch(base + path, {
      method: 'PUT',
      headers: { Authorization: authorization(apiKey), Accept: 'application/json' },
      body: form,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const created = (await put.json().catch(() => ({}))) as StatusBody;
    const putMs = elapsed();
    if ((put.status !== 201 && put.status !== 202) || !created.url) {
      return failed(`PUT answered ${put.status}: ${JSON.stringify(created).slice(0, 300)}`);
    }
    const statusPath = new URL(created.url).pathname;
    let processedMs: number | null = null;
    for (let polls = 1; ; polls++) {
      const res = await fetch(base + statusPath, {
        headers: { Authorization: authorization(apiKey), Accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      const status = (await res.json().catch(() => ({}))) as StatusBody;
      if (res.status !== 200) return failed(`status answered ${res.status}: ${JSON.stringify(status).slice(0, 300)}`);
      if (status.processed) processedMs ??= elapsed();
      if (status.files?.[0]?.signed === true) {
        const totalMs = elapsed();
        return { ok: true, totalMs, putMs, processedMs: processedMs ?? totalMs, polls };
      }
      if (status.processed && !status.valid) {
        const messages = status.validation_results?.messages?.map((m) => m.message).slice(0, 3);
        return failed(`not valid: ${JSON.stringify(messages)}`);
      }
      if (elapsed() > timeoutMs) return failed(`not signed after ${timeoutMs / 1000} s`);
      await sleep(pollMs);
    }
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return failed(error instanceof Error ? `${error.message}${cause}` : String(error));
  }
}

interface V5Upload {
  uuid?: string;
  processed?: boolean;
  valid?: boolean;
  validation?: { messages?: { message?: string }[] } | null;
}

/**
 * The same package through the v5 submission API as web-ext 8+ sends it: POST the upload, poll it
 * until validated, PUT the add-on with the upload's uuid, then poll the version until its file is
 * public (signed and approved). Timed from the first request to the poll that shows it public.
 */
async function uploadUntilSignedV5(
  base: string,
  apiKey: ApiKey,
  guid: string,
  pollMs: number,
  timeoutMs: number,
): Promise<UploadOutcome> {
  const bytes = await extensionPackage(guid, VERSION);
  const form = new FormData();
  form.append('upload', new Blob([bytes], { type: 'application/x-xpinstall' }), 'addon.xpi');
  form.append('channel', 'unlisted');
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const failed = (error: string): UploadOutcome => ({ ok: false, error: `${guid} (v5): ${error}`, totalMs: elapsed() });
  const call = async (method: string, path: string, body?: FormData | string) => {
    const res = await fetch(base + path, {
      method,
      headers: {
        Authorization: authorization(apiKey),
        Accept: 'application/json',
        ...(typeof body === 'string' ? { 'Content-Type': 'application/json' } : {}),
      },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
  };
  try {
    const created = await call('POST', '/api/v5/addons/upload/', form);
    const putMs = elapsed();
    const uuid = (created.body as V5Upload).uuid;
    if (created.status !== 201 || !uuid) return failed(`upload answered ${created.status}`);
    let polls = 0;
    let upload: V5Upload = {};
    while (!upload.processed) {
      if (elapsed() > timeoutMs) return failed(`not validated after ${timeoutMs / 1000} s`);
      if (polls++) await sleep(pollMs);
      const res = await call('GET', `/api/v5/addons/upload/${uuid}/`);
      if (res.status !== 200) return failed(`upload status answered ${res.status}`);
      upload = res.body as V5Upload;
    }
    const processedMs = elapsed();
    if (!upload.valid) {
      return failed(`not valid: ${JSON.stringify(upload.validation?.messages?.map((m) => m.message).slice(0, 3))}`);
    }
    const addon = await call(
      'PUT',
      `/api/v5/addons/addon/${encodeURIComponent(guid)}/`,
      JSON.stringify({ version: { upload: uuid } }),
    );
    const versionId = (addon.body.version as { id?: number } | undefined)?.id;
    if ((addon.status !== 201 && addon.status !== 200) || !versionId) {
      return failed(`PUT addon answered ${addon.status}: ${JSON.stringify(addon.body).slice(0, 300)}`);
    }
    for (;;) {
      polls++;
      const res = await call('GET', `/api/v5/addons/addon/${encodeURIComponent(guid)}/versions/${versionId}/`);
      if (res.status !== 200) return failed(`version answered ${res.status}`);
      if ((res.body.file as { status?: string } | null)?.status === 'public') {
        return { ok: true, totalMs: elapsed(), putMs, processedMs, polls };
      }
      if (elapsed() > timeoutMs) return failed(`not signed after ${timeoutMs / 1000} s`);
      await sleep(pollMs);
    }
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  }
}

/** sign-addon checks right after the PUT answers, then every 1 s: the first check at or after the signing. */
const signAddonView = (o: { totalMs: number; putMs: number }) =>
  o.putMs + Math.ceil(Math.max(0, o.totalMs - o.putMs) / 1000) * 1000;

// --- the floor: the same work in this process --------------------------------------------------

interface Floor {
  validator: Validator;
  signer: AddonSigner;
  dir: string;
  close(): Promise<void>;
}

async function startFloor(dir: string, settings: SigningSettings): Promise<Floor> {
  const validator = new Validator({ poolSize: settings.server.validatorWorkers });
  const [, authority] = await Promise.all([
    validator.start(),
    loadOrCreateAuthority({
      dataDir: dir,
      commonName: 'Bench Add-ons Root CA',
      box: new Keyring(BENCH_SECRET_KEY).box('signing-ca'),
      keyBits: settings.server.caKeyBits,
    }),
  ]);
  const signer = AddonSigner.start(authority, { poolSize: settings.server.signingKeyPool });
  await signer.ready();
  return {
    validator,
    signer,
    dir,
    close: async () => {
      await validator.close();
      await signer.close();
    },
  };
}

interface FloorOutcome {
  totalMs: number;
  validateMs: number;
  signMs: number;
}

/** Lint (as the `validate-upload` job does), then read and sign the package (as `sign-version` does). */
async function floorOnce(floor: Floor, guid: string): Promise<FloorOutcome> {
  const file = join(floor.dir, `${guid}.xpi`);
  writeFileSync(file, await extensionPackage(guid, VERSION));
  try {
    const started = performance.now();
    const results = await floor.validator.validate(file, { listed: false, detectedType: 'extension', injected: [] });
    const validated = performance.now();
    if (results.errors > 0) {
      throw new Error(`the floor's package does not validate: ${JSON.stringify(results.messages.slice(0, 3))}`);
    }
    const signed = await signPackage(await readZip(file), { guid, signer: floor.signer });
    if (signed.length === 0) throw new Error('empty signed package');
    const done = performance.now();
    return { totalMs: done - started, validateMs: validated - started, signMs: done - validated };
  } finally {
    rmSync(file, { force: true });
  }
}

/** `total` jobs run by `concurrency` loops; returns the wall time in ms. */
async function concurrently(total: number, concurrency: number, job: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async () => {
      while (next < total) await job(next++);
    }),
  );
  return performance.now() - started;
}

// --- database and API key --------------------------------------------------------------------

/** Runs `src/cli.ts <args>` with the server's environment; resolves with its stdout. */

// --- the suite -------------------------------------------------------------------------------

export type SigningSuiteOptions = SuiteOptions<SigningSettings>;

export async function runSigningSuite(options: SigningSuiteOptions): Promise<SigningReport> {
  const { adminUrl, settings, log } = options;
  const dataDir = mkdtempSync(join(tmpdir(), 'addons-bench-signing-'));
  const floorDir = mkdtempSync(join(tmpdir(), 'addons-bench-floor-'));
  const scratch = adminUrl ? `addons_signing_scratch_${RUN}` : null;
  let server: RunningServer | undefined;
  let floor: Floor | undefined;
  try {
    let databaseUrl = '';
    if (adminUrl && scratch) {
      databaseUrl = await createScratchDatabase(adminUrl, scratch);
      log(`scratch database ${scratch}`);
    }
    // An empty DATABASE_URL counts as unset: embedded PGlite in DATA_DIR, which the CLI has to
    // release before the server opens it.
    const env = { DATA_DIR: dataDir, SECRET_KEY: BENCH_SECRET_KEY, DATABASE_URL: databaseUrl };
    const created = await runCli(env, ['users:create', '--email', `signing-bench-${RUN}@example.com`, '--api-key']);
    const apiKey = (JSON.parse(created) as { apiKey: ApiKey }).apiKey;
    const adminCreated = await runCli(env, [
      'users:create',
      '--email',
      `signing-bench-admin-${RUN}@example.com`,
      '--session',
      ...['Admin:ScannersRulesEdit', 'Addons:ReviewUnlisted', 'Reviews:Admin'].flatMap((p) => ['--permission', p]),
    ]);
    const adminSession = `Bearer ${(JSON.parse(adminCreated) as { sessionToken: string }).sessionToken}`;

    const floorStarted = startFloor(floorDir, settings);
    floorStarted.catch(() => undefined);
    // One API key drives every uploader, with the default per-user upload slots (past them an upload waits).
    server = await startServer(env);
    options.track(server);
    const { base } = server;
    const serverPid = server.child.pid!;
    floor = await floorStarted;

    const failures: string[] = [];
    const record = (outcome: UploadOutcome) => {
      if (outcome.ok) return outcome;
      failures.push(outcome.error);
      console.error(`  signing: FAILED ${outcome.error}`);
      if (failures.length > MAX_FAILURES) throw new Error(`more than ${MAX_FAILURES} uploads failed`);
      return null;
    };
    const mustSign = async (what: string) => {
      const outcome = await uploadUntilSigned(base, apiKey, nextGuid(), settings.pollMs, settings.timeoutMs);
      if (!outcome.ok) throw new Error(`${what} upload failed: ${outcome.error}`);
      return outcome;
    };

    await createYaraRules(base, adminSession, settings.yaraRules);
    log(
      `  signing: ${settings.yaraRules} YARA rules active; cold first upload (linter worker start, CA generation) ...`,
    );
    const coldGuid = nextGuid();
    const cold = await uploadUntilSigned(base, apiKey, coldGuid, settings.pollMs, settings.timeoutMs);
    if (!cold.ok) throw new Error(`first upload failed: ${cold.error}`);
    const ranOnColdUpload = await scannersRun(base, adminSession, coldGuid);
    if (ranOnColdUpload.join() !== 'lookalike,secrets,yara') {
      failures.push(`the scanners that ran on the first upload: ${ranOnColdUpload.join(', ') || 'none'}`);
    }
    for (let i = 0; i < settings.warmupUploads; i++) await mustSign('warm-up');
    for (let i = 0; i < settings.warmupUploads; i++) await floorOnce(floor, nextGuid());
    const memory = new MemoryWatch(serverPid);
    await sleep(1000);
    const idle = memory.sample();
    log('  signing: /healthz (10 connections) ...');
    const healthzBefore = await measureHealthz(base, serverPid);

    // Alternating, each after the previous one's background work (key pool refills) has settled.
    const activeFloor = floor;
    const settle = async () => {
      await activeFloor.signer.ready();
      await sleep(settings.settleMs);
    };
    log(
      `  signing: latency, ${settings.uploads} sequential uploads (v4, then v5) alternating with the in-process floor ...`,
    );
    const floorRuns: FloorOutcome[] = [];
    const serviceRuns: Extract<UploadOutcome, { ok: true }>[] = [];
    const v5Runs: Extract<UploadOutcome, { ok: true }>[] = [];
    for (let i = 0; i < settings.uploads; i++) {
      await settle();
      floorRuns.push(await floorOnce(activeFloor, nextGuid()));
      await settle();
      // Uploads arrive at random moments, so that periodic work in the service (job polling) is
      // met at every phase rather than locked to one.
      await sleep(Math.random() * settings.arrivalJitterMs);
      const outcome = record(await uploadUntilSigned(base, apiKey, nextGuid(), settings.pollMs, settings.timeoutMs));
      if (outcome) serviceRuns.push(outcome);
      // The same upload through the v5 submission API (web-ext 8+), same pipeline: the figures
      // should match v4's within noise.
      await settle();
      await sleep(Math.random() * settings.arrivalJitterMs);
      const v5 = record(await uploadUntilSignedV5(base, apiKey, nextGuid(), settings.pollMs, settings.timeoutMs));
      if (v5) v5Runs.push(v5);
    }

    log(`  signing: ${settings.bursts} bursts of ${settings.burstSize} uploads started at once by one user ...`);
    const bursts = await runBursts(
      settings.bursts,
      settings.burstSize,
      async () => {
        const outcome = await uploadUntilSigned(base, apiKey, nextGuid(), settings.burstPollMs, settings.timeoutMs);
        return outcome.ok
          ? { ok: true, totalMs: outcome.totalMs }
          : { ok: false, totalMs: outcome.totalMs, error: outcome.error };
      },
      // A burst arrives at a server at rest (its key pool refilled after the previous one).
      async () => {
        await settle();
        await sleep(3000);
      },
    );
    for (const failure of bursts.failures) record({ ok: false, error: failure, totalMs: 0 });
    const healthzAfter = await measureHealthz(base, serverPid);

    log(`  signing: throughput, ${settings.loadUploads} uploads by ${settings.concurrency} uploaders ...`);
    // The floor runs just before and just after the service, so that a change of the machine's
    // load during the run weighs on both sides alike.
    const floorLoad: number[] = [];
    const floorWalls: number[] = [];
    const floorUnderLoad = async () => {
      await settle();
      floorWalls.push(
        await concurrently(settings.loadUploads, settings.concurrency, async () => {
          floorLoad.push((await floorOnce(activeFloor, nextGuid())).totalMs);
        }),
      );
      await settle();
    };
    await floorUnderLoad();
    const load: Extract<UploadOutcome, { ok: true }>[] = [];
    memory.start(100);
    const loadWall = await concurrently(settings.loadUploads, settings.concurrency, async () => {
      const outcome = record(
        await uploadUntilSigned(base, apiKey, nextGuid(), settings.loadPollMs, settings.timeoutMs),
      );
      if (outcome) load.push(outcome);
    });
    const peak = memory.stop();
    await sleep(2000);
    const end = memory.sample();
    await floorUnderLoad();
    const baselineWorkerPid = activeFloor.validator.stats().workers[0]?.pid;

    const baseline = stats(floorRuns.map((r) => r.totalMs));
    const latency = stats(serviceRuns.map((r) => r.totalMs));
    const v5Latency = stats(v5Runs.map((r) => r.totalMs));
    const puts = stats(serviceRuns.map((r) => r.putMs));
    const processed = stats(serviceRuns.map((r) => r.processedMs));
    const processedToSigned = stats(serviceRuns.map((r) => r.totalMs - r.processedMs));
    const signAddon = stats(serviceRuns.map(signAddonView));
    const floorWall = floorWalls.reduce((a, b) => a + b, 0);
    const baselineThroughput: ThroughputResult & { runsPerSec: number[] } = {
      uploads: floorLoad.length,
      concurrency: settings.concurrency,
      seconds: Math.round(floorWall) / 1000,
      perSec: floorLoad.length / (floorWall / 1000),
      latency: stats(floorLoad),
      runsPerSec: floorWalls.map((ms) => Math.round((settings.loadUploads / (ms / 1000)) * 100) / 100),
    };
    const throughput = {
      uploads: load.length,
      concurrency: settings.concurrency,
      seconds: Math.round(loadWall) / 1000,
      perSec: load.length / (loadWall / 1000),
      latency: stats(load.map((r) => r.totalMs)),
      pollsPerUpload: load.reduce((sum, r) => sum + r.polls, 0) / Math.max(1, load.length),
    };
    const burst = stats(bursts.samples);
    const machineSpeed =
      (healthzBefore.reqPerSec + healthzAfter.reqPerSec) / 2 / SIGNING_TARGETS.referenceHealthzPerSec;
    const scaled = (ms: number) => Math.round(ms / Math.min(1, machineSpeed));
    return {
      database: adminUrl ? 'postgres' : 'embedded',
      burst: {
        ...burst,
        bursts: settings.bursts,
        size: settings.burstSize,
        wallP50Ms: p50p95(bursts.wallMs).p50Ms,
      },
      healthz: { before: healthzBefore, after: healthzAfter },
      scanners: { yaraRules: settings.yaraRules, ranOnColdUpload },
      targets: {
        sequentialP50Ms: SIGNING_TARGETS.sequentialP50Ms,
        burstP95Ms: SIGNING_TARGETS.burstP95Ms,
        machineSpeed: Math.round(machineSpeed * 100) / 100,
        sequentialP50ScaledMs: scaled(SIGNING_TARGETS.sequentialP50Ms),
        burstP95ScaledMs: scaled(SIGNING_TARGETS.burstP95Ms),
        sequentialMet: latency.p50Ms <= SIGNING_TARGETS.sequentialP50Ms,
        sequentialMetScaled: latency.p50Ms <= scaled(SIGNING_TARGETS.sequentialP50Ms),
        burstMet: burst.p95Ms <= SIGNING_TARGETS.burstP95Ms,
        burstMetScaled: burst.p95Ms <= scaled(SIGNING_TARGETS.burstP95Ms),
      },
      settings,
      packageBytes: (await extensionPackage(nextGuid(), VERSION)).length,
      coldFirstUploadMs: Math.round(cold.totalMs),
      baseline: {
        ...baseline,
        validateP50Ms: stats(floorRuns.map((r) => r.validateMs)).p50Ms,
        signP50Ms: stats(floorRuns.map((r) => r.signMs)).p50Ms,
      },
      latency: {
        ...latency,
        putP50Ms: puts.p50Ms,
        putP95Ms: puts.p95Ms,
        processedP50Ms: processed.p50Ms,
        processedP95Ms: processed.p95Ms,
        processedToSignedP50Ms: processedToSigned.p50Ms,
        processedToSignedP95Ms: processedToSigned.p95Ms,
        pollsPerUpload: serviceRuns.reduce((sum, r) => sum + r.polls, 0) / Math.max(1, serviceRuns.length),
        signAddonP50Ms: signAddon.p50Ms,
        signAddonP95Ms: signAddon.p95Ms,
      },
      v5: {
        ...v5Latency,
        processedP50Ms: stats(v5Runs.map((r) => r.processedMs)).p50Ms,
        processedP95Ms: stats(v5Runs.map((r) => r.processedMs)).p95Ms,
        vsV4P50: v5Latency.p50Ms / latency.p50Ms,
        vsV4P95: v5Latency.p95Ms / latency.p95Ms,
      },
      baselineThroughput,
      throughput,
      samples: {
        baseline: floorRuns.map((r) => Math.round(r.totalMs * 10) / 10),
        latency: serviceRuns.map((r) => Math.round(r.totalMs * 10) / 10),
        baselineUnderLoad: floorLoad.map((ms) => Math.round(ms * 10) / 10),
        underLoad: load.map((r) => Math.round(r.totalMs * 10) / 10),
      },
      ratios: {
        latencyP50: latency.p50Ms / baseline.p50Ms,
        latencyP95: latency.p95Ms / baseline.p95Ms,
        throughput: throughput.perSec / baselineThroughput.perSec,
        loadLatencyP50: throughput.latency.p50Ms / baselineThroughput.latency.p50Ms,
      },
      memory: {
        server: { idleMB: idle.server, maxUnderLoadMB: peak.server, endMB: end.server },
        linterWorker: { idleMB: idle.worker, maxUnderLoadMB: peak.worker, endMB: end.worker },
        linterWorkerPids: [...memory.workerPids],
        baselineLinterWorkerMB: processRssMB(baselineWorkerPid),
      },
      failures,
    };
  } catch (error) {
    if (server) console.error(`--- server output (tail) ---\n${server.output.join('').slice(-4000)}`);
    throw error;
  } finally {
    if (server) await stopServer(server.child);
    options.track(undefined);
    await floor?.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(floorDir, { recursive: true, force: true });
    if (adminUrl && scratch) await dropScratchDatabase(adminUrl, scratch);
  }
}

/** The suite's table: floor and service side by side, ratios against the floor. */
export function printSigningReport(r: SigningReport): void {
  const s = r.settings;
  type Row = [string, string, string, LatencyStats, number | null, number | null, number | null];
  const rows: Row[] = [
    ['floor: validate+sign', 'in-process', '1', r.baseline, null, null, null],
    ['service: upload→signed', `poll ${s.pollMs} ms`, '1', r.latency, r.ratios.latencyP50, r.ratios.latencyP95, null],
    [
      'service v5: upload→public',
      `poll ${s.pollMs} ms`,
      '1',
      r.v5,
      r.v5.p50Ms / r.baseline.p50Ms,
      r.v5.p95Ms / r.baseline.p95Ms,
      null,
    ],
    [
      'floor: validate+sign',
      'in-process',
      String(r.baselineThroughput.concurrency),
      r.baselineThroughput.latency,
      null,
      null,
      r.baselineThroughput.perSec,
    ],
    [
      'service: upload→signed',
      `poll ${s.loadPollMs} ms`,
      String(r.throughput.concurrency),
      r.throughput.latency,
      r.ratios.loadLatencyP50,
      null,
      r.throughput.perSec,
    ],
  ];
  const header = [
    'scenario',
    'how',
    'conc',
    'n',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'mean ms',
    'p50 vs floor',
    'p95 vs floor',
    'uploads/s',
  ];
  const body = rows.map(([name, how, conc, l, p50x, p95x, perSec]) => [
    name,
    how,
    conc,
    String(l.n),
    fmt(l.p50Ms, 1),
    fmt(l.p95Ms, 1),
    fmt(l.p99Ms, 1),
    fmt(l.meanMs, 1),
    p50x === null ? '' : `${fmt(p50x)}x`,
    p95x === null ? '' : `${fmt(p95x)}x`,
    perSec === null ? '' : fmt(perSec),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(
    `\nsigning (${r.database}): a ${r.packageBytes}-byte unlisted extension, new guid per upload, ` +
      `timed from sending the PUT to the first poll showing files[0].signed\n`,
  );
  console.log([header, widths.map((w) => '-'.repeat(w)), ...body].map(line).join('\n'));
  printTargets(r);
  const m = r.memory;
  const rss = (f: RssFigures) =>
    `idle ${fmt(f.idleMB, 0)}, max under load ${fmt(f.maxUnderLoadMB, 0)}, end ${fmt(f.endMB, 0)} MB`;
  console.log(
    [
      '',
      `throughput: service ${fmt(r.throughput.perSec)} uploads/s vs floor ${fmt(r.baselineThroughput.perSec)}/s ` +
        `at ${r.throughput.concurrency} concurrent: ${fmt(r.ratios.throughput)}x ` +
        `(floor run before and after: ${r.baselineThroughput.runsPerSec.map((n) => fmt(n)).join(' and ')}/s)`,
      `floor p50 split: validate ${fmt(r.baseline.validateP50Ms, 1)} ms, read+sign ${fmt(r.baseline.signP50Ms, 1)} ms; ` +
        `service PUT answered in p50 ${fmt(r.latency.putP50Ms, 1)} / p95 ${fmt(r.latency.putP95Ms, 1)} ms, ` +
        `${fmt(r.latency.pollsPerUpload, 1)} polls per upload`,
      `service split (sequential): PUT to processed p50 ${fmt(r.latency.processedP50Ms, 0)} / p95 ` +
        `${fmt(r.latency.processedP95Ms, 0)} ms, processed to signed p50 ${fmt(r.latency.processedToSignedP50Ms, 0)} / ` +
        `p95 ${fmt(r.latency.processedToSignedP95Ms, 0)} ms`,
      `as sign-addon sees it (checks right after the PUT, then every 1 s; estimate): ` +
        `p50 ${fmt(r.latency.signAddonP50Ms, 0)} ms, p95 ${fmt(r.latency.signAddonP95Ms, 0)} ms`,
      `v5 submission API (upload, poll, PUT addon, poll version) vs v4 (PUT, poll) in the same run: ` +
        `p50 ${fmt(r.v5.vsV4P50)}x, p95 ${fmt(r.v5.vsV4P95)}x; v5 upload validated after p50 ${fmt(r.v5.processedP50Ms, 0)} ms`,
      `cold first upload after start (linter worker start-up, ${s.server.caKeyBits}-bit CA generation): ${r.coldFirstUploadMs} ms`,
      `server RSS: ${rss(m.server)}`,
      `linter worker RSS: ${rss(m.linterWorker)} (pids ${m.linterWorkerPids.join(', ') || 'none found'}); ` +
        `the floor's own worker ${fmt(m.baselineLinterWorkerMB, 0)} MB`,
      ...(r.failures.length ? [`FAILED uploads: ${r.failures.length}`] : []),
    ].join('\n'),
  );
}

/** The rows: upload to signed one at a time and in bursts, as ratios to /healthz and absolute, with the targets. */
function printTargets(r: SigningReport): void {
  const h = r.healthz;
  const hz = (h.before.p50Ms + h.after.p50Ms) / 2;
  const t = r.targets;
  const verdict = (met: boolean, metScaled: boolean) => (met ? 'met' : metScaled ? 'met when scaled' : 'NOT met');
  const rows = [
    ['upload→signed, one at a time (scanners on)', r.latency.p50Ms, r.latency.p95Ms, `p50 <= ${t.sequentialP50Ms} ms`],
    [
      `${r.burst.size} concurrent uploads by one user (x${r.burst.bursts})`,
      r.burst.p50Ms,
      r.burst.p95Ms,
      `p95 <= ${t.burstP95Ms} ms`,
    ],
  ] as const;
  console.log(
    `\n/healthz (10 connections): ${fmt(h.before.reqPerSec, 0)} req/s, p50 ${fmt(h.before.p50Ms, 1)} ms before; ` +
      `${fmt(h.after.reqPerSec, 0)} req/s, p50 ${fmt(h.after.p50Ms, 1)} ms after ` +
      `(reference machine ${SIGNING_TARGETS.referenceHealthzPerSec} req/s: this one at ${fmt(t.machineSpeed)}x)`,
  );
  for (const [name, p50, p95, target] of rows) {
    console.log(
      `${name}: p50 ${fmt(p50, 0)} ms (${fmt(p50 / hz, 0)}x /healthz p50), p95 ${fmt(p95, 0)} ms (${fmt(p95 / hz, 0)}x); target ${target}`,
    );
  }
  console.log(
    `targets: one at a time ${verdict(t.sequentialMet, t.sequentialMetScaled)} (scaled target ${t.sequentialP50ScaledMs} ms), ` +
      `bursts ${verdict(t.burstMet, t.burstMetScaled)} (scaled target ${t.burstP95ScaledMs} ms); ` +
      `scanners on the first upload: ${r.scanners.ranOnColdUpload.join(', ')} with ${r.scanners.yaraRules} YARA rules`,
  );
}
