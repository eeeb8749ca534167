import { seedCatalogue } from '../catalogue/seed/seed.js';
import { startTestApp, type TestApp } from '../../test/helpers/app.js';
import { PostgresSearchEngine } from './postgres.engine.js';
import { rebuildPostings } from './postgres.postings.js';
import type { AddonSearchQuery } from './search.port.js';

/**
 * The per-term postings (SearchPostings migration, postgres.postings.ts): one-word searches answer
 * the same hits, order, scores and totals as ranking every match, and the table stays equal to the
 * postings recomputed from `addons` through creates, renames, disabling, deletes and popularity
 * changes (triggers), and after a rebuild (reindex). Both databases.
 */
const N = 600;
const PUBLIC = 'a.status = 4 and not a.disabled_by_user and a.current_version_id is not null';

describe('search postings', () => {
  let t: TestApp;
  let posted: PostgresSearchEngine;
  let exact: PostgresSearchEngine;
  let words: string[] = [];
  const rows = <T>(sql: string, params: unknown[] = []) => t.em().getConnection().execute<T[]>(sql, params);

  beforeAll(async () => {
    t = await startTestApp();
    await seedCatalogue(t.em(), { addons: N, seed: 5 });
    posted = new PostgresSearchEngine(t.app.db, { postings: true });
    exact = new PostgresSearchEngine(t.app.db, {
      rankedIndex: false,
      rankAllLimit: 1e9,
      boundedLimit: -1,
      postings: false,
    });
    words = (
      await rows<{ word: string }>(`select word from ts_stat($$select to_tsvector('simple',
        addons_translations_text(name)) from addons a where ${PUBLIC}$$)
        where length(word) > 3 and word ~ '^[a-z]+$' order by ndoc desc, word limit 30`)
    ).map((r) => r.word);
  }, 300_000);
  afterAll(() => t?.close());

  const query = (q: string, offset = 0, limit = 25): AddonSearchQuery => ({
    filters: { q },
    sort: ['relevance'],
    offset,
    limit,
  });

  /** Postings rows that are not what the rows of `addons` give, and the other way round. */
  async function drift(): Promise<number> {
    const expected = `select s.lexeme, s.score, a.id from addons a,
      lateral addon_search_postings_of(a.search_vector, a.average_daily_users, a.promoted_category) s where ${PUBLIC}`;
    const [row] = await rows<{ n: number }>(`select
      (select count(*) from (select lexeme, score, addon_id from addon_search_postings except all (${expected})) x)
      + (select count(*) from ((${expected}) except all select lexeme, score, addon_id from addon_search_postings) y) as n`);
    return Number(row.n);
  }

  async function same(q: AddonSearchQuery) {
    const [got, want] = [await posted.search(q), await exact.search(q)];
    expect({ q, hits: got.hits, total: got.total }).toEqual({ q, hits: want.hits, total: want.total });
    return got;
  }

  it('answers one-word searches as ranking every match does', async () => {
    expect(words.length).toBeGreaterThan(10);
    for (const word of words) {
      await same(query(word));
      await same(query(word, 0, 1));
      await same(query(word, 25, 25));
    }
    // An exact name (the bonus) and a word that is nobody's.
    const [named] = await rows<{ name: string }>(
      `select search_name as name from addons a where ${PUBLIC} and search_name ~ '^[a-z]+$' limit 1`,
    );
    if (named) expect((await same(query(named.name))).hits.length).toBeGreaterThan(0);
    expect((await same(query('zzzqqqxx'))).total).toBe(0);
    expect(await drift()).toBe(0);
  });

  it('counts a word from its postings up to rankAllLimit, without asking the planner, and estimates above', async () => {
    // Where the ranked index would rank (forced here: the postings come first either way).
    const statements: string[] = [];
    const db = Object.create(t.app.db, {
      fork: {
        value: () => {
          const em = t.app.db.fork();
          const execute = (text: string, params: unknown[]) => (statements.push(text), em.execute(text, params));
          // Outside a transaction, on a connection that is not the server's own: nothing is prepared.
          return { getTransactionContext: () => undefined, execute, getConnection: () => ({ execute }) };
        },
      },
    });
    const totals = await Promise.all(words.map(async (w) => (await exact.search(query(w))).total));
    const few = words[totals.findIndex((n) => n >= 10 && n < totals[0])];
    const limit = totals[words.indexOf(few)];
    const capped = new PostgresSearchEngine(db, { postings: true, rankedIndex: true, rankAllLimit: limit });
    for (const word of [few, words[0]]) {
      statements.length = 0;
      const [got, want] = [await capped.search(query(word)), await exact.search(query(word))];
      expect(got.hits).toEqual(want.hits);
      if (word === few) {
        expect(got.total).toBe(want.total);
        expect(statements).toHaveLength(1);
      } else {
        expect(statements.some((text) => /^\s*explain/i.test(text))).toBe(true);
      }
    }
  });

  it('keeps the postings in step when add-ons change, and rebuilds them', async () => {
    const [target] = await rows<{ id: number }>(
      `select a.id from addons a where ${PUBLIC} order by a.average_daily_users desc, a.id limit 1`,
    );
    const word = 'quixotical';
    const search = async () => (await posted.search(query(word))).hits.map((h) => h.id);
    // Rename: the new word finds it, the postings follow.
    await rows(`update addons set name = jsonb_build_object('en-US', ?::text) where id = ?`, [
      `Zeta ${word}`,
      target.id,
    ]);
    expect(await search()).toEqual([target.id]);
    expect(await drift()).toBe(0);
    // Popularity and promotion change the scores.
    await rows(
      `update addons set average_daily_users = average_daily_users + 1000, promoted_category = 2 where id = ?`,
      [target.id],
    );
    await same(query(word));
    await same(query(words[0]));
    expect(await drift()).toBe(0);
    // Disabled: gone; enabled again: back.
    await rows(`update addons set disabled_by_user = true where id = ?`, [target.id]);
    expect(await search()).toEqual([]);
    expect(await drift()).toBe(0);
    await rows(`update addons set disabled_by_user = false where id = ?`, [target.id]);
    expect(await search()).toEqual([target.id]);
    // A new add-on (a copy of the target under a new guid and slug) is found too.
    const [created] = await rows<{ id: number }>(
      `insert into addons (guid, slug, type, status, disabled_by_user, average_daily_users, name, current_version_id, created, modified)
       select guid || '-copy', slug || '-copy', type, status, false, 5, name, current_version_id, now(), now()
       from addons where id = ? returning id`,
      [target.id],
    );
    expect((await search()).sort()).toEqual([target.id, created.id].sort());
    expect(await drift()).toBe(0);
    // Deleted: gone.
    await rows(`delete from addons where id = ?`, [created.id]);
    expect(await search()).toEqual([target.id]);
    expect(await drift()).toBe(0);
    // Rebuilt from the rows (reindex): the same table.
    await rebuildPostings((q) => rows(q.text, [...q.params]));
    expect(await drift()).toBe(0);
    await same(query(word));
  });
});
