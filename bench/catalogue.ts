/**
 * Catalogue benchmark data: a scratch database per size on the PostgreSQL server of DATABASE_URL,
 * seeded once with `catalogue:seed` and reused by later runs (marked by a database comment), plus
 * the slugs, terms and prefixes the scenarios use, picked from the data itself.
 */
import { createHash, randomBytes } from 'node:crypto';
import { catalogueRoutes } from '../rest-compat/routes/catalogue.js';
import { runCli, sleep, withClient, type Scenario } from './lib.js';

/** One key for the CLI that signs the bench session and for the servers that check it. */
export const BENCH_SECRET_KEY = randomBytes(32).toString('hex');

/** The seeder's generation in the marker: a database seeded by an older seeder is reseeded (2: signed files). */
const SEEDER_GENERATION = 2;
const marker = (addons: number, seed: number) =>
  `addons-bench seeded ${addons} add-ons, seed ${seed}, seeder ${SEEDER_GENERATION}`;

/** The URL of a database holding exactly `addons` seeded add-ons (seeding it if needed). */
export async function prepareDatabase(adminUrl: string, addons: number, seed: number): Promise<string> {
  const name = `addons_bench_${addons}_s${seed}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await waitForOtherSeeding(adminUrl, name, marker(addons, seed));
  const ready = await withClient(adminUrl, async (client) => {
    const { rows } = await client.query(
      `select shobj_description(oid, 'pg_database') as comment from pg_database where datname = $1`,
      [name],
    );
    if (rows[0]?.comment === marker(addons, seed)) return true;
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
    return false;
  });
  if (ready) {
    console.log(`reusing ${name}`);
    return url.href;
  }
  console.log(`seeding ${name} (${addons} add-ons) ...`);
  const started = Date.now();
  await cliOn(url.href, ['catalogue:seed', '--addons', String(addons), '--seed', String(seed)]);
  console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  await withClient(adminUrl, (client) => client.query(`comment on database "${name}" is '${marker(addons, seed)}'`));
  return url.href;
}

/**
 * While another process seeds `name` (sessions on it, no marker yet), waits for its marker instead
 * of dropping its work; an unmarked database with no session, twice 10 s apart, is left to reseed.
 */
async function waitForOtherSeeding(adminUrl: string, name: string, done: string): Promise<void> {
  let idle = 0;
  for (let logged = false; idle < 2;) {
    const { rows } = await withClient(adminUrl, (client) =>
      client.query(
        `select shobj_description(d.oid, 'pg_database') as comment,
                (select count(*) from pg_stat_activity a where a.datname = d.datname)::int as sessions
           from pg_database d where d.datname = $1`,
        [name],
      ),
    );
    if (!rows[0] || rows[0].comment === done) return;
    idle = rows[0].sessions === 0 ? idle + 1 : 0;
    if (!idle && !logged) {
      console.log(`waiting for another process seeding ${name} (its marker comment) ...`);
      logged = true;
    }
    if (idle < 2) await sleep(idle ? 10_000 : 15_000);
  }
}

/** A signed-in user on the bench database: its requests bypass the anonymous answer cache. */
export async function benchSession(url: string): Promise<{ id: number; token: string }> {
  const output = await cliOn(url, ['users:create', '--email', `bench-${Date.now()}@example.com`, '--session']);
  const created = JSON.parse(output) as { id: number; sessionToken: string };
  return { id: created.id, token: created.sessionToken };
}

/** The CLI against a bench database, signing with the bench's key. */
const cliOn = (databaseUrl: string, args: string[]) =>
  runCli({ DATABASE_URL: databaseUrl, SECRET_KEY: BENCH_SECRET_KEY }, args);

export interface Workload {
  /** 1000 public add-ons in no particular order. */
  slugs: string[];
  /** The 100 most used (detail traffic follows popularity). */
  popularSlugs: string[];
  rareTerms: string[];
  commonTerms: string[];
  prefixes: string[];
  /** 1,000 distinct words of names, for a rotating long tail of searches (as users really search). */
  nameWords: string[];
}

/** Public slugs, rare terms (5–100 matches), common terms (15–40% of the catalogue), name prefixes. */
export async function pickWorkload(url: string): Promise<Workload> {
  return withClient(url, async (client) => {
    const where = `status = 4 and not disabled_by_user and current_version_id is not null`;
    const total = Number((await client.query(`select count(*) from addons where ${where}`)).rows[0].count);
    const slugs = (await client.query(`select slug from addons where ${where} order by md5(slug) limit 1000`)).rows.map(
      (r) => r.slug as string,
    );
    const popularSlugs = (
      await client.query(`select slug from addons where ${where} order by average_daily_users desc, id limit 100`)
    ).rows.map((r) => r.slug as string);
    const sample = await client.query(
      `select word, ndoc from ts_stat($$select search_vector from addons tablesample system (5) repeatable (7) where ${where}$$)
        where length(word) > 3 order by ndoc desc`,
    );
    const sampleSize = Number(
      (await client.query(`select count(*) from addons tablesample system (5) repeatable (7) where ${where}`)).rows[0]
        .count,
    );
    const share = (ndoc: number) => ndoc / Math.max(1, sampleSize);
    const commonTerms = sample.rows
      .filter((r) => share(r.ndoc) >= 0.15 && share(r.ndoc) <= 0.4)
      .slice(0, 5)
      .map((r) => r.word as string);
    const rareTerms: string[] = [];
    for (const row of sample.rows.filter((r) => r.ndoc === 1).slice(0, 400)) {
      const count = Number(
        (
          await client.query(
            `select count(*) from addons where ${where} and search_vector @@ to_tsquery('english', $1)`,
            [row.word],
          )
        ).rows[0].count,
      );
      if (count >= 5 && count <= 100) rareTerms.push(row.word);
      if (rareTerms.length >= 50) break;
    }
    const names = (
      await client.query(
        `select name->>'en-US' as name from addons where ${where} and name ? 'en-US' order by md5(slug) limit 200`,
      )
    ).rows;
    const prefixes = names
      .map((r, i) =>
        String(r.name)
          .toLowerCase()
          .slice(0, 2 + (i % 5)),
      )
      .filter((p) => p.trim().length >= 2);
    const nameWords = (
      await client.query(
        `select word from ts_stat($$select to_tsvector('simple', addons_translations_text(name)) from addons
                                   tablesample system (5) repeatable (11) where ${where}$$)
          where length(word) > 3 and word ~ '^[a-z]+$' order by md5(word) limit 1000`,
      )
    ).rows.map((r) => r.word as string);
    if (!commonTerms.length || !rareTerms.length) throw new Error(`could not pick terms (catalogue of ${total})`);
    return { slugs, popularSlugs, rareTerms, commonTerms, prefixes, nameWords };
  });
}

const SORTS = ['users', 'downloads', 'created', 'updated', 'rating', 'hotness'];

/**
 * Anonymous requests (answers cached under the catalogue generation, as most traffic is), the same
 * searches signed in (search answers are the same for every viewer: cached too, after the session
 * check), detail signed in (`cold-…`: viewer-dependent, never cached), and cache misses
 * (`miss-…`: a cache buster on every request, so engine, loaders, GraphQL and shaping all run)
 * at 1 connection (a miss's own latency) and at 10 (misses only, the worst case).
 */
/** The REST v4 detail's GraphQL document, registered once as an automatic persisted query. */
const detailDocument = catalogueRoutes.find((r) => r.path === '/addons/addon/<addon>/')!.document;
export const PERSISTED_DETAIL = {
  document: detailDocument,
  extensions: JSON.stringify({
    persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(detailDocument).digest('hex') },
  }),
};

/** Registers the persisted detail query on a running server. */
export async function registerPersistedQueries(base: string): Promise<void> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      query: PERSISTED_DETAIL.document,
      variables: { id: '1' },
      extensions: JSON.parse(PERSISTED_DETAIL.extensions),
    }),
  });
  if (res.status !== 200) throw new Error(`persisted query registration answered ${res.status}`);
}

export function catalogueScenarios(w: Workload, sessionToken: string): Scenario[] {
  const get = (name: string, path: string | string[]): Scenario => ({ name, method: 'GET', path });
  const signedIn = (name: string, path: string | string[]): Scenario => ({
    ...get(name, path),
    headers: { Authorization: `Bearer ${sessionToken}` },
  });
  const miss = (name: string, path: string | string[], connections: number): Scenario => ({
    ...get(`miss-${name}${connections === 1 ? '-c1' : ''}`, path),
    uncached: true,
    connections,
  });
  const search = '/api/v4/addons/search/';
  const rare = w.rareTerms.map((t) => `${search}?q=${encodeURIComponent(t)}`);
  const common = w.commonTerms.map((t) => `${search}?q=${encodeURIComponent(t)}`);
  const autocomplete = w.prefixes.map((p) => `/api/v4/addons/autocomplete/?q=${encodeURIComponent(p)}`);
  const detail = (slugs: string[]) => slugs.map((s) => `/api/v4/addons/addon/${encodeURIComponent(s)}/`);
  const longTail = w.nameWords.map((word) => `${search}?q=${encodeURIComponent(word)}`);
  // The REST detail's own document as a persisted query (APQ over GET): what a front-end would send.
  const graphqlDetail = (slugs: string[]) =>
    slugs.map(
      (s) =>
        `/graphql?extensions=${encodeURIComponent(PERSISTED_DETAIL.extensions)}` +
        `&variables=${encodeURIComponent(JSON.stringify({ id: s }))}`,
    );
  const preflight = { 'apollo-require-preflight': 'true' };
  return [
    get('healthz', '/healthz'),
    get('detail-v4', detail(w.popularSlugs)),
    { ...get('graphql-detail', graphqlDetail(w.popularSlugs)), headers: preflight },
    get('search-longtail', longTail),
    get('search-rare', rare),
    get('search-common', common),
    get(
      'search-common+filter',
      w.commonTerms.map((t) => `${search}?q=${encodeURIComponent(t)}&app=browser&type=extension`),
    ),
    get('search-noq-default', search),
    ...SORTS.map((sort) => get(`search-noq-${sort}`, `${search}?sort=${sort}`)),
    get('autocomplete', autocomplete),
    signedIn('signed-in-search-rare', rare),
    signedIn('cold-detail-v4', detail(w.slugs)),
    // Signed-in GraphQL is never answered from the cache: the uncached GraphQL detail.
    {
      ...signedIn('cold-graphql-detail', graphqlDetail(w.slugs)),
      headers: { ...preflight, Authorization: `Bearer ${sessionToken}` },
    },
    ...[1, 10].flatMap((c) => [
      miss('detail-v4', detail(w.slugs), c),
      miss('search-rare', rare, c),
      miss('search-common', common, c),
      miss('search-noq-default', search, c),
      miss('autocomplete', autocomplete, c),
    ]),
  ];
}
