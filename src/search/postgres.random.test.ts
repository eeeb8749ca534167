import { AddonStatus, AddonType, App, PromotedCategory } from '../catalogue/catalogue.enums.js';
import { startTestApp, type TestApp } from '../../test/helpers/app.js';
import { createAddon } from '../../test/helpers/catalogue.js';
import { PostgresSearchEngine } from './postgres.engine.js';
import { randomWindow } from './postgres.random.js';
import type { AddonSearchFilters, AddonSearchQuery, AddonSort } from './search.port.js';

/**
 * `sort=random` on PostgreSQL (postgres.random.ts): a random start in the add-ons' fixed key, the
 * next matches in key order (wrapping around), a random choice of them, shuffled.
 */
describe('PostgresSearchEngine, sort=random', () => {
  let t: TestApp;
  let engine: PostgresSearchEngine;
  /** Ids by role; `keys` maps every add-on id to its random key. */
  const recommended: number[] = [];
  const recommendedAndroid: number[] = [];
  const line: number[] = [];
  const plain: number[] = [];
  const featured: number[] = [];
  const hidden: number[] = [];
  const keys = new Map<number, number>();

  beforeAll(async () => {
    t = await startTestApp();
    engine = new PostgresSearchEngine(t.app.db);
    const em = t.em();
    for (let i = 0; i < 14; i++) {
      const theme = i % 4 === 3;
      const addon = await createAddon(em, {
        type: theme ? AddonType.STATICTHEME : AddonType.EXTENSION,
        promotedCategory: PromotedCategory.RECOMMENDED,
        promotedApps: [App.BROWSER],
        averageDailyUsers: 100 + i,
        featured: i < 3 ? [{ app: App.BROWSER }] : [],
      });
      recommended.push(addon.id);
      if (i < 3) featured.push(addon.id);
    }
    for (let i = 0; i < 3; i++) {
      const addon = await createAddon(em, {
        promotedCategory: PromotedCategory.RECOMMENDED,
        promotedApps: [App.ANDROID],
        versions: [{ compat: { [App.ANDROID]: ['68.0', '*'] } }],
      });
      recommendedAndroid.push(addon.id);
    }
    for (let i = 0; i < 5; i++) {
      const addon = await createAddon(em, { promotedCategory: PromotedCategory.LINE, promotedApps: [App.BROWSER] });
      line.push(addon.id);
    }
    for (let i = 0; i < 4; i++) plain.push((await createAddon(em, { averageDailyUsers: 5 })).id);
    // Promoted, featured, but never found: not public, disabled by the developer.
    const promoted = { promotedCategory: PromotedCategory.RECOMMENDED, promotedApps: [App.BROWSER] };
    const notPublic = { ...promoted, featured: [{ app: App.BROWSER }] };
    hidden.push((await createAddon(em, { ...notPublic, status: AddonStatus.NOMINATED })).id);
    hidden.push((await createAddon(em, { ...notPublic, disabledByUser: true })).id);
    const rows: { id: number; k: number }[] = await em
      .getConnection()
      .execute('select id, hashint4(id) as k from addons');
    for (const r of rows) keys.set(r.id, r.k);
    await em.getConnection().execute('analyze addons');
  }, 120_000);
  afterAll(() => t?.close());

  const query = (filters: AddonSearchFilters, limit = 25, offset = 0, sort: AddonSort[] = ['random']) =>
    ({ filters, sort, offset, limit }) satisfies AddonSearchQuery;
  const RECOMMENDED = { promoted: [PromotedCategory.RECOMMENDED] };
  const BROWSER_EXTENSIONS = { ...RECOMMENDED, app: App.BROWSER, types: [AddonType.EXTENSION] };
  const browserExtensions = () => recommended.filter((_, i) => i % 4 !== 3);
  /** Filters and the add-ons they match (ids known once the catalogue is made). */
  const cases: [string, () => AddonSearchFilters, () => number[]][] = [
    ['recommended', () => RECOMMENDED, () => [...recommended, ...recommendedAndroid]],
    ['recommended, browser', () => ({ ...RECOMMENDED, app: App.BROWSER }), () => recommended],
    ['recommended browser extensions', () => BROWSER_EXTENSIONS, browserExtensions],
    [
      'recommended or line',
      () => ({ promoted: [PromotedCategory.LINE, PromotedCategory.RECOMMENDED] }),
      () => [...recommended, ...recommendedAndroid, ...line],
    ],
    ['featured, browser', () => ({ featured: { app: App.BROWSER }, app: App.BROWSER }), () => featured],
    [
      'recommended, excluding two',
      () => ({ ...RECOMMENDED, excludeIds: recommended.slice(0, 2) }),
      () => [...recommended.slice(2), ...recommendedAndroid],
    ],
    ['nothing', () => ({ promoted: [PromotedCategory.SPOTLIGHT] }), () => []],
  ];

  it.each(cases)('answers only matching add-ons, each once, %s', async (_, filtersOf, expected) => {
    const filters = filtersOf();
    const matching = new Set(expected());
    for (let i = 0; i < 20; i++) {
      const result = await engine.search(query(filters, 5));
      const ids = result.hits.map((h) => h.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(matching.has(id)).toBe(true);
      expect(ids).toHaveLength(Math.min(5, matching.size));
      expect(result.total).toBe(matching.size);
      expect(result.hits.every((h) => h.score === null)).toBe(true);
    }
    // Every match shows up, in every position.
    if (matching.size) {
      const all = await engine.search(query(filters, 50));
      expect(all.hits.map((h) => h.id).sort()).toEqual([...matching].sort());
    }
    for (const id of hidden) expect(matching.has(id)).toBe(false);
  });

  it('varies between calls: pages and their order', async () => {
    const pages = new Set<string>();
    const sets = new Set<string>();
    const firsts = new Set<number>();
    for (let i = 0; i < 40; i++) {
      const ids = (await engine.search(query(RECOMMENDED, 4))).hits.map((h) => h.id);
      pages.add(ids.join());
      sets.add([...ids].sort().join());
      firsts.add(ids[0]);
    }
    // 17 matches, pages of 4: 40 pages agreeing would be a broken draw.
    expect(sets.size).toBeGreaterThan(10);
    expect(pages.size).toBeGreaterThan(10);
    expect(firsts.size).toBeGreaterThan(5);
  });

  it.each([
    ['one promoted category', () => BROWSER_EXTENSIONS, browserExtensions],
    [
      'two',
      () => ({ promoted: [PromotedCategory.LINE, PromotedCategory.RECOMMENDED], app: App.BROWSER }),
      () => [...recommended, ...line],
    ],
  ])('returns `limit` hits from any start point, across the wrap-around, %s', async (_, filtersOf, expected) => {
    const filters = filtersOf();
    const matches = expected();
    const sorted = matches.map((id) => keys.get(id)!).sort((x, y) => x - y);
    // Each match's own key, just after it, and both ends of the key range.
    const starts = [...sorted, ...sorted.map((k) => k + 1), -(2 ** 31), 2 ** 31 - 1];
    for (const start of starts) {
      const fixed = new PostgresSearchEngine(t.app.db, { randomStart: () => start });
      for (const limit of [1, 3, matches.length - 1, matches.length, 30]) {
        const result = await fixed.search(query(filters, limit));
        const ids = result.hits.map((h) => h.id);
        expect(ids).toHaveLength(Math.min(limit, matches.length));
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.every((id) => matches.includes(id))).toBe(true);
        expect(result.total).toBe(matches.length);
        // The window is the next matches in key order from the start, wrapping around.
        const following = [...sorted.filter((k) => k >= start), ...sorted.filter((k) => k < start)];
        const window = new Set(following.slice(0, randomWindow(limit)));
        expect(ids.every((id) => window.has(keys.get(id)!))).toBe(true);
      }
    }
  });

  it('pages: offsets within the window, past the matches, limit 0', async () => {
    const n = recommended.length + recommendedAndroid.length;
    const second = await engine.search(query(RECOMMENDED, 10, 10));
    expect(second.hits).toHaveLength(n - 10);
    expect(second.total).toBe(n);
    const past = await engine.search(query(RECOMMENDED, 10, 30));
    expect(past).toEqual({ hits: [], total: n });
    expect(await engine.search(query(RECOMMENDED, 0))).toEqual({ hits: [], total: n });
    expect(await engine.search(query({ promoted: [PromotedCategory.SPOTLIGHT] }, 0))).toEqual({ hits: [], total: 0 });
  });

  it('keeps `total` as other orders count it: exact, or the estimate above exactCountLimit', async () => {
    const estimating = new PostgresSearchEngine(t.app.db, { exactCountLimit: 4 });
    for (const [, filtersOf] of cases) {
      const filters = filtersOf();
      for (const e of [engine, estimating]) {
        const random = await e.search(query(filters, 5));
        const users = await e.search(query(filters, 5, 0, ['users']));
        expect(random.total).toBe(users.total);
      }
    }
  });

  it('other engine-level combinations keep the simple order by random(): q, further sorts', async () => {
    const withQuery = await engine.search(query({ ...RECOMMENDED, q: 'add-on' }, 50));
    const matching = new Set([...recommended, ...recommendedAndroid]);
    expect(withQuery.hits.length).toBeGreaterThan(0);
    expect(withQuery.hits.every((h) => matching.has(h.id))).toBe(true);
    const further = await engine.search(query(RECOMMENDED, 50, 0, ['random', 'users']));
    expect(further.hits.map((h) => h.id).sort()).toEqual([...matching].sort());
    expect(further.total).toBe(matching.size);
  });
});
