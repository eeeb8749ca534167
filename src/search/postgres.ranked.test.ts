import { AddonType, App } from '../catalogue/catalogue.enums.js';
import { seedCatalogue } from '../catalogue/seed/seed.js';
import { startTestApp, type TestApp } from '../../test/helpers/app.js';
import { PostgresSearchEngine } from './postgres.engine.js';
import { plainWords } from './postgres.ranked.js';
import type { AddonSearchFilters, AddonSearchQuery, AddonSort } from './search.port.js';

/**
 * The ranked text index (RUM, PostgreSQL with the rum extension) against the exact ranking of every
 * match, on a seeded catalogue: same hits, same order, same scores, same totals. Skipped on the
 * embedded database and on a server without rum (the index is then an empty stand-in).
 */
const N = 4_000;
const onServer = process.env.DATABASE_URL ? describe : describe.skip;

onServer('ranked text index (RUM)', () => {
  let t: TestApp;
  let rum = false;
  let ranked: PostgresSearchEngine;
  let exact: PostgresSearchEngine;
  let statements: string[] = [];
  let words: string[] = [];
  let common: string[] = [];
  let categoryId: number;

  beforeAll(async () => {
    t = await startTestApp();
    const em = t.em();
    const [row] = await em.getConnection().execute<{ rum: boolean }[]>(
      `select exists (select 1 from pg_class c join pg_am am on am.oid = c.relam
        where c.relname = 'addons_search_rum' and am.amname = 'rum') as rum`,
    );
    rum = row.rum;
    if (!rum) {
      console.log('ranked text index tests skipped: no rum extension on this PostgreSQL');
      return;
    }
    await seedCatalogue(em, { addons: N, seed: 3 });
    // Every match ranked in one statement (and counted exactly), as for a few matches today.
    exact = new PostgresSearchEngine(t.app.db, {
      rankedIndex: false,
      rankAllLimit: 1e9,
      boundedLimit: -1,
      postings: false,
    });
    ranked = new PostgresSearchEngine(t.app.db, { rankedAbove: 0, rankAllLimit: 1e9, postings: false });
    const execute = (ranked as unknown as { execute: (q: { text: string }) => Promise<unknown> }).execute;
    Object.assign(ranked, {
      execute: (q: { text: string }) => {
        statements.push(q.text);
        return execute(q);
      },
    });
    const where = `status = 4 and not disabled_by_user and current_version_id is not null`;
    const rows = <T>(sql: string) => em.getConnection().execute<T[]>(sql);
    // Name words, as the bench's long tail picks them, and the most frequent terms.
    words = (
      await rows<{ word: string }>(`select word from ts_stat($$select to_tsvector('simple',
        addons_translations_text(name)) from addons where ${where}$$)
        where length(word) > 3 and word ~ '^[a-z]+$' order by md5(word) limit 40`)
    ).map((r) => r.word);
    common = (
      await rows<{ word: string }>(`select word from ts_stat($$select search_vector from addons where ${where}$$)
        where length(word) > 3 and word ~ '^[a-z]+$' order by ndoc desc, word limit 6`)
    ).map((r) => r.word);
    categoryId = (
      await rows<{ id: number }>(`select unnest(category_ids) as id from addons where ${where}
        group by 1 order by count(*) desc limit 1`)
    )[0].id;
  }, 300_000);
  afterAll(() => t?.close());

  const query = (
    q: string,
    filters: AddonSearchFilters = {},
    sort: AddonSort[] = ['relevance'],
    offset = 0,
    limit = 25,
  ): AddonSearchQuery => ({ filters: { q, ...filters }, sort, offset, limit });

  async function same(queries: AddonSearchQuery[]) {
    let usedIndex = 0;
    for (const q of queries) {
      statements = [];
      const [got, want] = [await ranked.search(q), await exact.search(q)];
      if (statements.some((s) => s.includes('<=|'))) usedIndex++;
      expect({ q, hits: got.hits, total: got.total }).toEqual({ q, hits: want.hits, total: want.total });
    }
    return usedIndex;
  }

  it('answers one-word searches as the exact ranking does', async () => {
    if (!rum) return;
    const queries = [...words, ...common].map((w) => query(w));
    expect(words.length).toBeGreaterThanOrEqual(30);
    expect(await same(queries)).toBe(queries.length);
  }, 120_000);

  it('answers two-word searches, and exact names, as the exact ranking does', async () => {
    if (!rum) return;
    const [name] = await t
      .em()
      .getConnection()
      .execute<{ name: string }[]>(`select search_name as name from addons order by average_daily_users desc limit 1`);
    const queries = [
      ...words.slice(0, 20).map((w, i) => query(`${w} ${common[i % common.length]}`)),
      ...common.slice(0, 3).map((w, i) => query(`${w} ${common[i + 1]}`)),
      query(name.name),
    ];
    expect(await same(queries.filter((q) => plainWords(q.filters.q!)))).toBeGreaterThan(0);
  }, 120_000);

  it('answers with filters, later pages and further sorts as the exact ranking does', async () => {
    if (!rum) return;
    const terms = [...words.slice(0, 10), ...common.slice(0, 3)];
    const queries = terms.flatMap((w) => [
      query(w, { types: [AddonType.EXTENSION] }),
      query(w, { categoryId }),
      query(w, { app: App.ANDROID }),
      query(w, {}, ['relevance'], 25, 25),
      query(w, {}, ['relevance', 'users'], 0, 10),
      query(w, {}, ['relevance'], 0, 3),
    ]);
    expect(await same(queries)).toBe(queries.length);
  }, 120_000);
});

describe('plainWords', () => {
  it('accepts words of letters and digits, not query syntax', () => {
    expect(plainWords(' dark  reader ')).toEqual(['dark', 'reader']);
    expect(plainWords('mp3 café')).toEqual(['mp3', 'café']);
    expect(plainWords('"dark reader"')).toBeNull();
    expect(plainWords('dark -reader')).toBeNull();
    expect(plainWords('dark or light')).toBeNull();
    expect(plainWords('e-mail')).toBeNull();
    expect(plainWords('foo.bar')).toBeNull();
  });
});
