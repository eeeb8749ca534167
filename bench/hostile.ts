/**
 * The "hostile neighbour" suite: /healthz p99 alone, then /healthz p99 while a few other
 * connections keep sending the largest allowed texts (src/core/text-limits.ts), shaped like the
 * inputs that made the old link and address patterns back-track, to the endpoints that check
 * them: rating create and edit (link test), account biography edit (link test), collection
 * description edit (link test) and the add-on listing description (GraphQL `updateAddonListing`:
 * REST v3/v4 have no listing edit). The ratio of the two p99s is the figure (target ≤ 2x).
 *
 * Then the server's memory under hostile GraphQL (issue 23, item 6c): BENCH_HOSTILE_GRAPHQL
 * (default 20,000) anonymous requests on 8 connections, each kind in turn: a new document every
 * time (aliases, fields, page sizes), spelling variants of one cacheable query, undeclared
 * variables, new search words (answers the cache keeps, up to RESPONSE_CACHE_MB), list values
 * nested past the parser, a new persisted query registered, and twelve aliased 50-item pages. The
 * figure is the server's RSS after them (and after a rest) over its RSS before them (target ≤ 1.3x).
 * BENCH_NODE_ARGS=--heapsnapshot-signal=SIGUSR2 lets a heap snapshot be taken at any point.
 *
 * Embedded PGlite by default; with DATABASE_URL, a scratch database on that server. The data is
 * set up in-process (the same service code as the CLI) before the server opens the database.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.js';
import { usersCreate } from '../src/cli/commands.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/core/logger.js';
import { createAddon } from '../test/helpers/catalogue.js';
import { BENCH_SECRET_KEY } from './catalogue.js';
import {
  createScratchDatabase,
  dropScratchDatabase,
  processRssMB,
  runScenario,
  sleep,
  startServer,
  stopServer,
  type RunningServer,
  type ScenarioResult,
} from './lib.js';
import { ACCOUNTS_TEXT_LIMITS } from '../src/accounts/text-limits.js';
import { CATALOGUE_TEXT_LIMITS } from '../src/catalogue/text-limits.js';
import { COLLECTIONS_TEXT_LIMITS } from '../src/collections/text-limits.js';
import { RATINGS_TEXT_LIMITS } from '../src/ratings/text-limits.js';

export interface HostileSettings {
  /** Connections measuring /healthz. */
  probeConnections: number;
  /** Connections sending hostile texts. */
  neighbours: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Hostile GraphQL requests of the memory phase. */
  graphqlRequests: number;
}

export interface HostileReport {
  database: 'embedded' | 'postgres';
  settings: HostileSettings;
  alone: ScenarioResult;
  /** Control: the same neighbours with short, plain texts (what the writes cost anyway). */
  benign: ScenarioResult;
  underLoad: ScenarioResult;
  /** p99 under hostile load / p99 alone. */
  p99Ratio: number;
  /** p99 under hostile load / p99 under the same load with plain texts: the share of the texts. */
  p99RatioVsBenign: number;
  /** Neighbour requests by phase and endpoint, with their statuses and mean latency. */
  neighbourRequests: Record<string, Record<string, NeighbourStats>>;
  /** The server's memory under hostile GraphQL requests. */
  memory: MemoryReport;
  /** Unexpected answers of the neighbours and of the GraphQL requests (statuses listed per kind). */
  failures: string[];
}

export interface MemoryReport {
  requests: number;
  /** Server RSS (MB) before the hostile GraphQL requests, after them, and after 5 s of rest. */
  rssBeforeMB: number | null;
  rssAfterMB: number | null;
  rssRestedMB: number | null;
  /** rssRestedMB / rssBeforeMB (target <= 1.3). */
  rssRatio: number;
  /** Statuses by kind of request. */
  statuses: Record<string, Record<string, number>>;
  seconds: number;
}

export interface NeighbourStats {
  count: number;
  statuses: Record<string, number>;
  meanMs: number;
}

export function hostileSettings(): HostileSettings {
  return {
    probeConnections: Number(process.env.BENCH_HOSTILE_PROBES ?? 4),
    neighbours: Number(process.env.BENCH_HOSTILE_NEIGHBOURS ?? 3),
    warmupSeconds: 2,
    durationSeconds: Number(process.env.BENCH_DURATION ?? 10),
    graphqlRequests: Number(process.env.BENCH_HOSTILE_GRAPHQL ?? 20_000),
  };
}

/** Texts of exactly `n` characters that made the old patterns back-track over the whole text. */
export const hostileTexts = (n: number): string[] => [
  'a-'.repeat(n / 2).slice(0, n),
  `${'-'.repeat(n - 1)}x`,
  'a.'.repeat(n / 2).slice(0, n),
  '<a '.repeat(Math.ceil(n / 3)).slice(0, n),
  ('abcdefghi'.repeat(3) + '.').repeat(Math.ceil(n / 28)).slice(0, n),
];

interface Fixture {
  addonId: number;
  versionIds: number[];
  /** Signed in; author of the add-on, owner of the collection. */
  author: { id: number; token: string };
  /** Fresh users: each creates one rating (the 1/min throttle would refuse a second one). */
  raters: { id: number; token: string }[];
  /** The writer of the rating edited again and again. */
  ratingEditor: { id: number; token: string };
  ratingId: number;
  collectionSlug: string;
}

const RATERS = 121;

async function setUp(
  env: Record<string, string>,
): Promise<Omit<Fixture, 'ratingId' | 'collectionSlug' | 'ratingEditor'>> {
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env });
  const app = await createApp(config, createLogger('warn', 'stderr'));
  try {
    const em = app.db.fork();
    const session = async (username: string) => {
      const user = await usersCreate(app.services, app.db.fork(), {
        email: `${username}@example.com`,
        username,
        session: true,
      });
      return { id: user.id, token: user.sessionToken! };
    };
    const author = await session('hostile-author');
    const raters = [];
    for (let i = 0; i < RATERS; i++) raters.push(await session(`hostile-rater-${i}`));
    const addon = await createAddon(em, {
      slug: 'hostile-neighbour',
      authors: [{ id: author.id }],
      versions: [{ version: '1.0' }, { version: '1.1' }],
    });
    const versions = await em
      .getConnection()
      .execute<{ id: number }[]>('select id from versions where addon_id = ? order by id', [addon.id]);
    return { addonId: addon.id, versionIds: versions.map((v) => v.id), author, raters };
  } finally {
    await app.close();
  }
}

interface Endpoint {
  name: string;
  /** Statuses that are part of the plan (e.g. 429 once a rater's one rating is written). */
  expected: number[];
  request(text: string): { method: string; path: string; token: string; body: unknown } | null;
}

function endpoints(f: Fixture): Endpoint[] {
  let nextRater = 0;
  const gql = (query: string, variables: object) => ({ query, variables });
  return [
    {
      name: 'rating create (POST /api/v4/ratings/rating/)',
      expected: [201],
      request: (text) => {
        // One rating per fresh user; when they are used up, this endpoint rests.
        const rater = f.raters[nextRater++];
        if (!rater) return null;
        const body = { addon: f.addonId, version: f.versionIds[0], score: 3, body: text };
        return { method: 'POST', path: '/api/v4/ratings/rating/', token: rater.token, body };
      },
    },
    {
      name: 'rating edit (PATCH /api/v4/ratings/rating/<id>/)',
      expected: [200],
      request: (text) => ({
        method: 'PATCH',
        path: `/api/v4/ratings/rating/${f.ratingId}/`,
        token: f.ratingEditor.token,
        body: { body: text, score: 4 },
      }),
    },
    {
      name: 'biography (PATCH /api/v4/accounts/account/<id>/)',
      expected: [200],
      request: (text) => ({
        method: 'PATCH',
        path: `/api/v4/accounts/account/${f.author.id}/`,
        token: f.author.token,
        body: { biography: text.slice(0, ACCOUNTS_TEXT_LIMITS.biography) },
      }),
    },
    {
      name: 'collection description (PATCH …/collections/<slug>/)',
      expected: [200],
      request: (text) => ({
        method: 'PATCH',
        path: `/api/v4/accounts/account/${f.author.id}/collections/${f.collectionSlug}/`,
        token: f.author.token,
        body: { description: text.slice(0, COLLECTIONS_TEXT_LIMITS.collectionDescription) },
      }),
    },
    {
      name: 'listing description (GraphQL updateAddonListing)',
      expected: [200],
      request: (text) => ({
        method: 'POST',
        path: '/graphql',
        token: f.author.token,
        body: gql(
          'mutation($addon: String!, $input: UpdateAddonListingInput!) { updateAddonListing(addon: $addon, input: $input) { id } }',
          {
            addon: String(f.addonId),
            input: { description: text.repeat(5).slice(0, CATALOGUE_TEXT_LIMITS.addonDescription) },
          },
        ),
      }),
    },
  ];
}

async function send(base: string, r: { method: string; path: string; token: string; body: unknown }) {
  const res = await fetch(base + r.path, {
    method: r.method,
    headers: { Authorization: `Bearer ${r.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(r.body),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  const errors = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text).errors : null;
  return { status: res.status, text, graphqlErrors: Boolean(errors) };
}

const ADDON_FIELDS = ['id', 'slug', 'name', 'summary', 'guid', 'type', 'status', 'averageDailyUsers', 'hotness'];
const HIT_FIELDS =
  'items { addon { id slug name summary guid type status averageDailyUsers weeklyDownloads hotness ' +
  'authors { position userSummary { username name } } previews { id imageUrl thumbnailUrl } ' +
  'currentVersion { id version files { id } } } }';

/** The kinds of hostile GraphQL requests, each with the statuses it should get. */
const GRAPHQL_KINDS: { name: string; expected: number[]; body(i: number): object }[] = [
  {
    name: 'new document',
    expected: [200],
    body: (i) => {
      const fields = ADDON_FIELDS.filter((_, j) => (i >> j) & 1).join(' ') || 'id';
      return {
        query: `query Q${i} { a${i}: searchAddons(pageSize: ${1 + (i % 50)}) { count items { addon { ${fields} } } } categories { id } }`,
      };
    },
  },
  {
    name: 'spelling variant',
    expected: [200],
    body: (i) => ({ query: `{ searchAddons { count items { addon { id name } } } }${' '.repeat(i % 2000)}# ${i}` }),
  },
  {
    name: 'undeclared variables',
    expected: [400],
    body: (i) => ({ query: '{ searchAddons { count } }', variables: { [`junk${i}`]: i } }),
  },
  {
    name: 'new search words',
    expected: [200],
    body: (i) => ({
      query: 'query Words($q: String!) { searchAddons(filters: { q: $q }) { count items { addon { id name } } } }',
      variables: { q: `hostile${i}` },
    }),
  },
  {
    name: 'nested list values',
    expected: [400],
    body: (i) => ({ query: `{ __typename(arg: ${'['.repeat(1_000 + (i % 999))}${']'.repeat(1_000 + (i % 999))}) }` }),
  },
  {
    name: 'new persisted query',
    expected: [200],
    body: (i) => {
      const query = `query P${i} { c${i}: categories { id name } }`;
      const sha256Hash = createHash('sha256').update(query).digest('hex');
      return { query, extensions: { persistedQuery: { version: 1, sha256Hash } } };
    },
  },
  {
    name: 'twelve 50-item pages',
    expected: [400],
    body: (i) => ({
      query: `query Pages${i} { ${Array.from({ length: 12 }, (_, j) => `s${j}: searchAddons(pageSize: 50) { count ${HIT_FIELDS} }`).join(' ')} }`,
    }),
  },
];

/** The server's RSS before and after `total` hostile anonymous GraphQL requests on 8 connections. */
async function graphqlMemoryPhase(
  base: string,
  pid: number | undefined,
  total: number,
  failures: string[],
): Promise<MemoryReport> {
  const statuses: Record<string, Record<string, number>> = {};
  let next = 0;
  const send = async (i: number) => {
    const kind = GRAPHQL_KINDS[i % GRAPHQL_KINDS.length];
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(kind.body(Math.floor(i / GRAPHQL_KINDS.length))),
      signal: AbortSignal.timeout(120_000),
    }).catch((error: unknown) => ({ status: 0, text: async () => String(error) }));
    const text = await res.text();
    const counts = (statuses[kind.name] ??= {});
    counts[res.status] = (counts[res.status] ?? 0) + 1;
    const errors = res.status === 200 && text.includes('"errors"');
    if ((!kind.expected.includes(res.status) || errors) && failures.length < 40) {
      failures.push(`memory ${kind.name}: ${res.status} ${text.slice(0, 200)}`);
    }
  };
  const run = async (count: number) => {
    const end = next + count;
    const connection = async () => {
      while (next < end) await send(next++);
    };
    await Promise.all(Array.from({ length: 8 }, connection));
  };
  // A first round of each kind (code paths warmed, first allocations made), then the baseline.
  await run(GRAPHQL_KINDS.length * 20);
  await sleep(2_000);
  const rssBeforeMB = processRssMB(pid);
  const started = performance.now();
  await run(total);
  const seconds = (performance.now() - started) / 1000;
  const rssAfterMB = processRssMB(pid);
  await sleep(5_000);
  const rssRestedMB = processRssMB(pid);
  const rssRatio = rssRestedMB && rssBeforeMB ? rssRestedMB / rssBeforeMB : NaN;
  return { requests: total, rssBeforeMB, rssAfterMB, rssRestedMB, rssRatio, statuses, seconds };
}

export async function runHostileSuite(options: {
  adminUrl?: string;
  settings: HostileSettings;
  track: (server: RunningServer | undefined) => void;
  log: (line: string) => void;
}): Promise<HostileReport> {
  const { adminUrl, settings, log } = options;
  const dataDir = mkdtempSync(join(tmpdir(), 'addons-bench-hostile-'));
  const scratch = adminUrl ? `addons_hostile_scratch_${randomBytes(4).toString('hex')}` : null;
  let server: RunningServer | undefined;
  try {
    let databaseUrl = '';
    if (adminUrl && scratch) {
      databaseUrl = await createScratchDatabase(adminUrl, scratch);
    }
    const env = { DATA_DIR: dataDir, SECRET_KEY: BENCH_SECRET_KEY, DATABASE_URL: databaseUrl };
    log('  hostile: setting up users, an add-on, a rating and a collection ...');
    const setup = await setUp(env);
    server = await startServer(env);
    options.track(server);
    const { base } = server;

    // A rating to edit (by one of the raters: authors may not rate their add-on) and a collection
    // to describe, through the API.
    const ratingEditor = setup.raters.pop()!;
    const rating = await send(base, {
      method: 'POST',
      path: '/api/v4/ratings/rating/',
      token: ratingEditor.token,
      body: { addon: setup.addonId, version: setup.versionIds[1], score: 5, body: 'Fine.' },
    });
    if (rating.status !== 201) throw new Error(`rating to edit: ${rating.status} ${rating.text.slice(0, 300)}`);
    const collection = await send(base, {
      method: 'POST',
      path: `/api/v4/accounts/account/${setup.author.id}/collections/`,
      token: setup.author.token,
      body: { name: 'Hostile', slug: 'hostile' },
    });
    if (collection.status !== 201) throw new Error(`collection: ${collection.status} ${collection.text.slice(0, 300)}`);
    const fixture: Fixture = {
      ...setup,
      ratingEditor,
      ratingId: JSON.parse(rating.text).id as number,
      collectionSlug: 'hostile',
    };

    const probe = { name: 'healthz', method: 'GET' as const, path: '/healthz', connections: settings.probeConnections };
    const runSettings = { connections: settings.probeConnections, ...settings };
    log('  hostile: /healthz alone ...');
    const alone = await runScenario(base, probe, server.child.pid, runSettings);

    const failures: string[] = [];
    const half = Math.floor(fixture.raters.length / 2);
    /** /healthz measured while `settings.neighbours` connections send `texts` to the endpoints in turn. */
    const withNeighbours = async (phase: string, texts: string[], raters: Fixture['raters']) => {
      const list = endpoints({ ...fixture, raters });
      const stats = new Map<string, { count: number; statuses: Record<string, number>; totalMs: number }>();
      let stop = false;
      let turn = 0;
      const neighbour = async () => {
        while (!stop) {
          const endpoint = list[turn % list.length];
          const text = texts[Math.floor(turn / list.length) % texts.length];
          turn++;
          const request = endpoint.request(text);
          if (!request) continue;
          const started = performance.now();
          const res = await send(base, request).catch((error: unknown) => ({
            status: 0,
            text: String(error),
            graphqlErrors: false,
          }));
          const entry = stats.get(endpoint.name) ?? { count: 0, statuses: {}, totalMs: 0 };
          entry.count++;
          entry.totalMs += performance.now() - started;
          entry.statuses[res.status] = (entry.statuses[res.status] ?? 0) + 1;
          stats.set(endpoint.name, entry);
          if ((!endpoint.expected.includes(res.status) || res.graphqlErrors) && failures.length < 20) {
            failures.push(`${phase} ${endpoint.name}: ${res.status} ${res.text.slice(0, 200)}`);
          }
        }
      };
      log(`  hostile: /healthz with ${settings.neighbours} ${phase} neighbours ...`);
      const neighbours = Array.from({ length: settings.neighbours }, () => neighbour());
      let result: ScenarioResult;
      try {
        result = await runScenario(base, probe, server!.child.pid, runSettings);
      } finally {
        stop = true;
        await Promise.all(neighbours);
      }
      const byEndpoint = [...stats].map(([name, e]) => [
        name,
        { count: e.count, statuses: e.statuses, meanMs: e.totalMs / e.count },
      ]);
      return { result, stats: Object.fromEntries(byEndpoint) as Record<string, NeighbourStats> };
    };
    const plain = ['Fine, works as described.', 'Does what it says.'];
    const benign = await withNeighbours('benign', plain, fixture.raters.slice(0, half));
    const hostile = await withNeighbours(
      'hostile',
      hostileTexts(RATINGS_TEXT_LIMITS.ratingBody),
      fixture.raters.slice(half),
    );
    log(`  hostile: server memory over ${settings.graphqlRequests} hostile GraphQL requests ...`);
    const memory = await graphqlMemoryPhase(base, server.child.pid, settings.graphqlRequests, failures);
    return {
      database: adminUrl ? 'postgres' : 'embedded',
      settings,
      alone,
      benign: benign.result,
      underLoad: hostile.result,
      p99Ratio: hostile.result.p99Ms / alone.p99Ms,
      p99RatioVsBenign: hostile.result.p99Ms / benign.result.p99Ms,
      neighbourRequests: { benign: benign.stats, hostile: hostile.stats },
      memory,
      failures,
    };
  } finally {
    if (server) await stopServer(server.child);
    options.track(undefined);
    rmSync(dataDir, { recursive: true, force: true });
    if (adminUrl && scratch) await dropScratchDatabase(adminUrl, scratch);
  }
}

export function printHostileReport(report: HostileReport): void {
  const f = (n: number) => n.toFixed(2);
  const line = (label: string, r: ScenarioResult) =>
    `${label.padEnd(30)} p50 ${f(r.p50Ms).padStart(8)} ms  p99 ${f(r.p99Ms).padStart(8)} ms  ${r.reqPerSec.toFixed(0).padStart(6)} req/s`;
  console.log(
    `\nhostile neighbour (${report.database}; /healthz on ${report.settings.probeConnections} connections)\n`,
  );
  console.log(line('/healthz alone', report.alone));
  console.log(line(`+ ${report.settings.neighbours} neighbours, plain texts`, report.benign));
  console.log(line(`+ ${report.settings.neighbours} neighbours, hostile texts`, report.underLoad));
  console.log(`\np99 ratio, hostile vs alone: ${f(report.p99Ratio)}x (target <= 2x)`);
  console.log(`p99 ratio, hostile vs plain texts (the texts' own share): ${f(report.p99RatioVsBenign)}x`);
  for (const [phase, endpoints] of Object.entries(report.neighbourRequests)) {
    console.log(`\n${phase} neighbour requests:`);
    for (const [name, s] of Object.entries(endpoints)) {
      console.log(`  ${name}: ${s.count} requests, statuses ${JSON.stringify(s.statuses)}, mean ${f(s.meanMs)} ms`);
    }
  }
  const m = report.memory;
  console.log(
    `\nserver RSS over ${m.requests} hostile GraphQL requests (${m.seconds.toFixed(0)} s): ` +
      `${f(m.rssBeforeMB ?? NaN)} MB before, ${f(m.rssAfterMB ?? NaN)} MB after, ${f(m.rssRestedMB ?? NaN)} MB after 5 s; ` +
      `ratio ${f(m.rssRatio)}x (target <= 1.3x)`,
  );
  for (const [kind, counts] of Object.entries(m.statuses)) console.log(`  ${kind}: statuses ${JSON.stringify(counts)}`);
  for (const failure of report.failures) console.error(`  unexpected: ${failure}`);
}
