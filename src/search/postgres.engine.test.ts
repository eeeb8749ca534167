import { jest } from '@jest/globals';
import type { Addon } from '../catalogue/addon.entity.js';
import {
  AddonStatus,
  AddonType,
  App,
  FileStatus,
  Platform,
  PromotedCategory,
  versionInt,
} from '../catalogue/catalogue.enums.js';
import { startTestApp, type TestApp } from '../../test/helpers/app.js';
import { createAddon } from '../../test/helpers/catalogue.js';
import { PostgresSearchEngine } from './postgres.engine.js';
import type { AddonSearchFilters, AddonSearchQuery, AddonSort } from './search.port.js';
import { typoGroups, typoVariants } from './typos.js';

/**
 * The PostgreSQL adapter on a hand-made catalogue. A second engine with tiny thresholds takes the
 * paths meant for large catalogues (popularity walk, side queries, autocomplete fallback) on the
 * same data and must answer the same.
 */
describe('PostgresSearchEngine', () => {
  let t: TestApp;
  let engine: PostgresSearchEngine;
  let walking: PostgresSearchEngine;
  let bounding: PostgresSearchEngine;
  const a = {} as Record<
    | 'darkReader'
    | 'darkMode'
    | 'dark'
    | 'nightOwl'
    | 'pwSafe'
    | 'pwKeeper'
    | 'giant'
    | 'hidden'
    | 'disabled'
    | 'noVersion',
    Addon
  >;
  const categories: number[] = [];
  const day = (n: number) => new Date(Date.UTC(2021, 0, n));
  /** Distinct made-up words: enough of them make a row too large for the covering indexes. */
  const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}x`).join(' ');

  beforeAll(async () => {
    t = await startTestApp();
    engine = new PostgresSearchEngine(t.app.db);
    walking = new PostgresSearchEngine(t.app.db, { rankAllLimit: -1, walkStart: 1, prefixWalk: 2, postings: false });
    bounding = new PostgresSearchEngine(t.app.db, {
      boundedAbove: -1,
      boundedRank: 1,
      boundedFactor: 1,
      postings: false,
    });
    const em = t.em();
    const ann = (await t.createUser({ username: 'ann' })).id;
    const bob = (await t.createUser({ username: 'bob' })).id;
    const rows: { id: number }[] = await em
      .getConnection()
      .execute('select id from categories where application = 1 and type = 1 order by id limit 2');
    categories.push(...rows.map((r) => r.id));

    a.darkReader = await createAddon(em, {
      name: { 'en-US': 'Dark Reader' },
      summary: { 'en-US': 'Read every page at night' },
      tags: ['dark', 'night'],
      categoryIds: [categories[0]],
      averageDailyUsers: 1_000,
      weeklyDownloads: 300,
      hotness: 0.5,
      bayesianRating: 4.5,
      created: day(3),
      authors: [{ id: ann }],
      promotedCategory: PromotedCategory.RECOMMENDED,
      promotedApps: [App.BROWSER],
      versions: [{ compat: { [App.BROWSER]: ['57.0', '*'], [App.ANDROID]: ['60.0', '*'] } }],
    });
    a.darkMode = await createAddon(em, {
      name: { 'en-US': 'Dark Mode Plus' },
      summary: { 'en-US': 'Darkens every site' },
      tags: ['dark'],
      categoryIds: [categories[1]],
      averageDailyUsers: 5_000,
      weeklyDownloads: 100,
      hotness: 0.1,
      bayesianRating: 3,
      created: day(1),
      authors: [{ id: bob }],
      versions: [{ compat: { [App.BROWSER]: ['45.0', '60.*'] }, platform: Platform.LINUX }],
    });
    a.dark = await createAddon(em, {
      name: { 'en-US': 'Dark' },
      summary: { 'en-US': 'Just shades' },
      averageDailyUsers: 50,
      weeklyDownloads: 50,
      hotness: 0.9,
      bayesianRating: 2,
      created: day(5),
      authors: [{ id: ann, listed: false }],
    });
    a.nightOwl = await createAddon(em, {
      type: AddonType.STATICTHEME,
      name: { 'en-US': 'Night Owl', fr: 'Hibou de nuit' },
      summary: { 'en-US': 'A dark theme for long nights' },
      averageDailyUsers: 100_000,
      weeklyDownloads: 1_000,
      hotness: 0,
      bayesianRating: 4,
      created: day(2),
      colors: [{ h: 355, s: 60, l: 30, ratio: 0.6 }],
      featured: [{ app: App.BROWSER, locale: 'fr' }],
    });
    a.pwSafe = await createAddon(em, {
      guid: 'Safe@Example.com',
      name: { 'en-US': 'Password Safe' },
      summary: { 'en-US': 'Keeps logins' },
      averageDailyUsers: 10_000,
      weeklyDownloads: 50,
      hotness: 0.3,
      bayesianRating: 4.8,
      created: day(4),
      promotedCategory: PromotedCategory.LINE,
      promotedApps: [App.BROWSER, App.ANDROID],
      featured: [{ app: App.ANDROID }],
    });
    a.pwKeeper = await createAddon(em, {
      type: AddonType.DICTIONARY,
      name: { 'en-US': 'Password Keeper' },
      summary: { 'en-US': 'Keeps logins' },
      averageDailyUsers: 10,
      weeklyDownloads: 5,
      hotness: 0.2,
      bayesianRating: 1,
      created: day(6),
      versions: [{ compat: { [App.ANDROID]: ['68.0', '*'] }, platform: Platform.ANDROID }],
    });
    // Too large for both covering indexes (long name, long description): side queries find it.
    a.giant = await createAddon(em, {
      type: AddonType.LANGUAGE,
      name: { 'en-US': `Giant ${words('n', 500)}` },
      summary: { 'en-US': 'Every word' },
      description: { 'en-US': `About dark rooms. ${words('d', 600)}` },
      averageDailyUsers: 1_000_000,
      weeklyDownloads: 2,
      hotness: -0.5,
      bayesianRating: 0.5,
      created: day(7),
      versions: [{ compat: { [App.MAILCLIENT]: ['60.0', '*'] } }],
    });
    // Never found: not public, disabled by the developer, no current version (no approved file).
    const popular = { averageDailyUsers: 9_000_000, summary: { 'en-US': 'dark password' } };
    a.hidden = await createAddon(em, { ...popular, name: { 'en-US': 'Dark' }, status: AddonStatus.NOMINATED });
    a.disabled = await createAddon(em, { ...popular, name: { 'en-US': 'Dark Password' }, disabledByUser: true });
    a.noVersion = await createAddon(em, {
      ...popular,
      name: { 'en-US': 'Dark Password' },
      versions: [{ fileStatus: FileStatus.AWAITING_REVIEW }],
    });
    const updated: [Addon, Date | null][] = [
      [a.darkMode, day(10)],
      [a.dark, day(9)],
      [a.nightOwl, day(8)],
      [a.darkReader, day(7)],
      [a.pwKeeper, day(6)],
      [a.giant, day(5)],
      [a.pwSafe, null],
    ];
    for (const [addon, date] of updated) {
      await em.getConnection().execute('update addons set last_updated = ? where id = ?', [date, addon.id]);
    }
    await em.getConnection().execute('analyze addons');
    const [sizes] = await em.getConnection().execute(
      `select addons_search_walk_size(search_vector, tags, null::text, category_ids) as walk,
        addons_search_walk_size(null::tsvector, tags, search_name, category_ids) as names from addons where id = ?`,
      [a.giant.id],
    );
    expect(sizes.walk).toBeGreaterThan(2300);
    expect(sizes.names).toBeGreaterThan(2300);
  }, 120_000);
  afterAll(() => t?.close());

  const query = (filters: AddonSearchFilters, sort: AddonSort[] = ['users'], offset = 0, limit = 25) =>
    ({ filters, sort, offset, limit }) satisfies AddonSearchQuery;
  const ids = async (filters: AddonSearchFilters, sort?: AddonSort[], offset?: number, limit?: number) => {
    const result = await engine.search(query(filters, sort, offset, limit));
    // The popularity-walk engine must agree on every query.
    const walked = await walking.search(query(filters, sort, offset, limit));
    expect(walked.hits).toEqual(result.hits);
    expect(await bounding.search(query(filters, sort, offset, limit))).toEqual(result);
    return result.hits.map((h) => h.id);
  };
  const names = (list: Addon[]) => list.map((x) => x.id);
  const ac = async (filters: AddonSearchFilters, sort: AddonSort[] = []) => {
    const hits = await engine.autocomplete(query(filters, sort, 0, 10));
    expect(await walking.autocomplete(query(filters, sort, 0, 10))).toEqual(hits);
    return hits.map((h) => h.id);
  };

  it('finds only public, enabled add-ons with a current version', async () => {
    const { darkReader, darkMode, dark, nightOwl, pwSafe, pwKeeper, giant } = a;
    expect(await ids({})).toEqual(names([giant, nightOwl, pwSafe, darkMode, darkReader, dark, pwKeeper]));
    const found = await ids({ q: 'dark' }, ['users']);
    for (const hidden of [a.hidden, a.disabled, a.noVersion]) {
      expect(found).not.toContain(hidden.id);
      expect(await ids({ q: 'password' }, ['relevance'])).not.toContain(hidden.id);
      expect(await ac({ q: 'dar' })).not.toContain(hidden.id);
    }
    expect((await engine.search(query({}))).total).toBe(7);
    expect((await engine.search(query({ q: 'dark' }, ['relevance']))).total).toBe(5);
    expect((await engine.search(query({ q: 'password' }, ['relevance']))).total).toBe(2);
  });

  it('applies every filter', async () => {
    const { darkReader, darkMode, dark, nightOwl, pwSafe, pwKeeper, giant } = a;
    expect(await ids({ types: [AddonType.STATICTHEME] })).toEqual(names([nightOwl]));
    expect(await ids({ types: [AddonType.DICTIONARY, AddonType.LANGUAGE] })).toEqual(names([giant, pwKeeper]));
    expect(await ids({ app: App.ANDROID })).toEqual(names([darkReader, pwKeeper]));
    expect(await ids({ app: App.MAILCLIENT })).toEqual(names([giant]));
    const version = (v: string) => ({ min: versionInt(v)!, max: versionInt(`${v}a`)! });
    expect(await ids({ app: App.BROWSER, appVersion: version('50.0') })).toEqual(names([darkMode]));
    expect(await ids({ app: App.BROWSER, appVersion: version('70.0') })).toEqual(
      names([nightOwl, pwSafe, darkReader, dark]),
    );
    expect(await ids({ app: App.ANDROID, appVersion: version('65.0') })).toEqual(names([darkReader]));
    expect(await ids({ authorUsernames: ['ann'] })).toEqual(names([darkReader]));
    expect(await ids({ authorUsernames: ['bob', 'nobody'] })).toEqual(names([darkMode]));
    const annId = (await t.em().getConnection().execute(`select id from users where username = 'ann'`))[0].id;
    expect(await ids({ authorIds: [annId] })).toEqual(names([darkReader]));
    expect(await ids({ authorIds: [annId], authorUsernames: ['bob'] })).toEqual(names([darkMode, darkReader]));
    expect(await ids({ authorIds: [-1] })).toEqual([]);
    expect(await ids({ categoryId: categories[0] })).toEqual(names([darkReader]));
    expect(await ids({ excludeIds: [giant.id, pwSafe.id], excludeSlugs: [nightOwl.slug, 'no-such-slug'] })).toEqual(
      names([darkMode, darkReader, dark, pwKeeper]),
    );
    expect(await ids({ guids: ['SAFE@EXAMPLE.COM', 'none@example.com'] })).toEqual(names([pwSafe]));
    expect(await ids({ platform: Platform.MAC })).toEqual(names([giant, nightOwl, pwSafe, darkReader, dark]));
    expect(await ids({ platform: Platform.LINUX })).toEqual(
      names([giant, nightOwl, pwSafe, darkMode, darkReader, dark]),
    );
    expect(await ids({ promoted: [PromotedCategory.RECOMMENDED] })).toEqual(names([darkReader]));
    expect(await ids({ promoted: [PromotedCategory.LINE, PromotedCategory.RECOMMENDED] })).toEqual(
      names([pwSafe, darkReader]),
    );
    expect(await ids({ promoted: [PromotedCategory.LINE], app: App.ANDROID })).toEqual([]);
    expect(await ids({ promoted: [PromotedCategory.RECOMMENDED], app: App.ANDROID })).toEqual([]);
    expect(await ids({ promoted: [PromotedCategory.RECOMMENDED], app: App.BROWSER })).toEqual(names([darkReader]));
    expect(await ids({ tags: ['dark'] })).toEqual(names([darkMode, darkReader]));
    expect(await ids({ tags: ['dark', 'night'] })).toEqual(names([darkReader]));
    expect(await ids({ featured: {} })).toEqual(names([nightOwl, pwSafe]));
    expect(await ids({ featured: { app: App.BROWSER } })).toEqual(names([nightOwl]));
    expect(await ids({ featured: { app: App.BROWSER, locale: 'fr' } })).toEqual(names([nightOwl]));
    expect(await ids({ featured: { app: App.BROWSER, locale: 'de' } })).toEqual([]);
    expect(await ids({ featured: { app: App.BROWSER, locale: null } })).toEqual([]);
    expect(await ids({ featured: { app: App.ANDROID, locale: 'de' } })).toEqual(names([pwSafe]));
    // Hue is circular (355 is 10 degrees from 5); saturation and lightness within 20 points.
    expect(await ids({ color: { h: 5, s: 45, l: 45 } })).toEqual(names([nightOwl]));
    expect(await ids({ color: { h: 30, s: 60, l: 30 } })).toEqual([]);
    expect(await ids({ color: { h: 355, s: 90, l: 30 } })).toEqual([]);
    // Filters combine with each other and with the text.
    expect(await ids({ q: 'dark', types: [AddonType.EXTENSION], app: App.BROWSER }, ['relevance'])).toEqual(
      names([dark, darkReader, darkMode]),
    );
    expect(await ids({ q: 'password', app: App.ANDROID }, ['relevance'])).toEqual(names([pwKeeper]));
  });

  it('sorts by every field, descending, ties by the next sort then by id', async () => {
    const { darkReader, darkMode, dark, nightOwl, pwSafe, pwKeeper, giant } = a;
    expect(await ids({}, ['users'])).toEqual(names([giant, nightOwl, pwSafe, darkMode, darkReader, dark, pwKeeper]));
    expect(await ids({}, ['downloads', 'users'])).toEqual(
      names([nightOwl, darkReader, darkMode, pwSafe, dark, pwKeeper, giant]),
    );
    expect(await ids({}, ['downloads', 'created'])).toEqual(
      names([nightOwl, darkReader, darkMode, dark, pwSafe, pwKeeper, giant]),
    );
    expect(await ids({}, ['hotness'])).toEqual(names([dark, darkReader, pwSafe, pwKeeper, darkMode, nightOwl, giant]));
    expect(await ids({}, ['rating'])).toEqual(names([pwSafe, darkReader, nightOwl, darkMode, dark, pwKeeper, giant]));
    expect(await ids({}, ['created'])).toEqual(names([giant, pwKeeper, dark, pwSafe, darkReader, nightOwl, darkMode]));
    expect(await ids({}, ['updated'])).toEqual(names([darkMode, dark, nightOwl, darkReader, pwKeeper, giant, pwSafe]));
    expect(await ids({}, ['recommended', 'users'])).toEqual(
      names([darkReader, giant, nightOwl, pwSafe, darkMode, dark, pwKeeper]),
    );
    expect(await ids({}, ['recommended', 'rating', 'users'], 1, 3)).toEqual(names([pwSafe, nightOwl, darkMode]));
    expect(await ids({ q: 'dark' }, ['users'])).toEqual(names([giant, nightOwl, darkMode, darkReader, dark]));
    const shuffled = await engine.search(
      query({ promoted: [PromotedCategory.LINE, PromotedCategory.RECOMMENDED] }, ['random']),
    );
    expect(shuffled.hits.map((h) => h.id).sort()).toEqual(names([pwSafe, darkReader]).sort());
    expect(shuffled.total).toBe(2);
    // Scores come only with relevance.
    expect((await engine.search(query({ q: 'dark' }, ['users']))).hits.every((h) => h.score === null)).toBe(true);
  });

  it('ranks by relevance: exact name, then name matches by popularity, then summaries and descriptions', async () => {
    const { darkReader, darkMode, dark, nightOwl, pwSafe, pwKeeper, giant } = a;
    const result = await engine.search(query({ q: 'dark' }, ['relevance']));
    // 'Dark' (exact, 50 users) > 'Dark Reader' (name, recommended) > 'Dark Mode Plus' (name, 5k users)
    // > 'Night Owl' (summary, 100k users) > 'Giant' (description, 1M users).
    expect(result.hits.map((h) => h.id)).toEqual(names([dark, darkReader, darkMode, nightOwl, giant]));
    expect(result.hits.every((h) => typeof h.score === 'number' && h.score > 0)).toBe(true);
    const scores = result.hits.map((h) => h.score!);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    // Equal text: the more popular first.
    expect(await ids({ q: 'password' }, ['relevance'])).toEqual(names([pwSafe, pwKeeper]));
    // Every word required; the exact name wins.
    expect(await ids({ q: 'dark reader' }, ['relevance'])).toEqual(names([darkReader]));
    expect(await ids({ q: 'hibou' }, ['relevance'])).toEqual(names([nightOwl]));
    // An exact name in one of several locales counts too.
    const french = await engine.search(query({ q: 'hibou de  nuit' }, ['relevance']));
    expect(french.hits.map((h) => h.id)).toEqual(names([nightOwl]));
    const english = await engine.search(query({ q: 'owl' }, ['relevance']));
    expect(french.hits[0].score!).toBeGreaterThan(4 * english.hits[0].score!);
    // Relevance then another sort, paged.
    expect(await ids({ q: 'dark' }, ['relevance', 'created'], 1, 2)).toEqual(names([darkReader, darkMode]));
    expect(await ids({ q: 'dark' }, ['relevance'], 3, 5)).toEqual(names([nightOwl, giant]));
    // A page of one: the walk stops early and proves it (no unread add-on can score more).
    expect(await ids({ q: 'dark' }, ['relevance'], 0, 1)).toEqual(names([dark]));
    expect(await ids({ q: 'dark' }, ['relevance'], 1, 1)).toEqual(names([darkReader]));
  });

  it('ranks only the best score bounds when they prove the order, and every match when not', async () => {
    const { dark, darkReader } = a;
    const proofs: boolean[] = [];
    const rankBounded = (bounding as unknown as { rankBounded: (...args: unknown[]) => Promise<unknown> }).rankBounded;
    const spy = jest
      .spyOn(bounding as unknown as { rankBounded: typeof rankBounded }, 'rankBounded')
      .mockImplementation(async function (this: unknown, ...args: unknown[]) {
        const result = await rankBounded.apply(this, args);
        proofs.push(result !== null);
        return result;
      });
    try {
      // Page 1 of 1: 'Dark' (exact name, 5 x its popularity) beats every other bound.
      expect(await ids({ q: 'dark' }, ['relevance'], 0, 1)).toEqual(names([dark]));
      // Page 2 of 1: the two best bounds ('Dark', and the very popular 'Giant' whose description
      // matches) leave 'Giant' second with 0.1 x its popularity, below the next bound: all are ranked.
      expect(await ids({ q: 'dark' }, ['relevance'], 1, 1)).toEqual(names([darkReader]));
      expect(proofs).toEqual([true, false]);
    } finally {
      spy.mockRestore();
    }
  });

  it('tolerates typos when the text finds little', async () => {
    const { darkReader, darkMode, dark, nightOwl, pwSafe, pwKeeper, giant } = a;
    // 'dakr' is one transposition from 'dark': the same order as 'dark' by field and popularity,
    // without the exact-name bonus (so the popular summary match passes the unpopular name match).
    expect(await ids({ q: 'dakr' }, ['relevance'])).toEqual(names([darkReader, darkMode, nightOwl, dark, giant]));
    expect(await ids({ q: 'pasword' }, ['relevance'])).toEqual(names([pwSafe, pwKeeper]));
    expect(await ids({ q: 'passwrod safe' }, ['relevance'])).toEqual(names([pwSafe]));
    expect((await engine.search(query({ q: 'dakr' }, ['relevance']))).total).toBeGreaterThanOrEqual(3);
    expect(await ids({ q: 'qqqqzzzz' }, ['relevance'])).toEqual([]);
    expect((await engine.search(query({ q: 'qqqqzzzz' }))).total).toBe(0);
  });

  it('pages with offset and limit and counts the total', async () => {
    const { darkReader, darkMode } = a;
    const page = await engine.search(query({}, ['users'], 3, 2));
    expect(page.hits.map((h) => h.id)).toEqual(names([darkMode, darkReader]));
    expect(page.total).toBe(7);
    const beyond = await engine.search(query({ q: 'dark' }, ['relevance'], 10, 5));
    expect(beyond).toEqual({ hits: [], total: 5 });
    expect((await engine.search(query({ tags: ['dark'] }, ['users'], 0, 1))).total).toBe(2);
    expect(await engine.search(query({ q: 'password' }, ['relevance'], 0, 0))).toEqual({ hits: [], total: 2 });
    expect(await walking.search(query({ q: 'password' }, ['relevance'], 0, 0))).toEqual({ hits: [], total: 2 });
    // Stop words and punctuation only: nothing to match, no error.
    expect(await ids({ q: 'the' }, ['relevance'])).toEqual([]);
    expect(await ids({ q: '"-!' }, ['relevance'])).toEqual([]);
  });

  it('autocompletes names: word prefixes, substrings, exact names first, with the filters', async () => {
    const { darkReader, darkMode, dark, nightOwl, pwSafe, pwKeeper, giant } = a;
    expect(await ac({ q: 'da' })).toEqual(names([darkMode, darkReader, dark]));
    expect(await ac({ q: 'ark' })).toEqual(names([darkMode, darkReader, dark]));
    expect(await ac({ q: 'dark' })).toEqual(names([dark, darkMode, darkReader]));
    expect(await ac({ q: 'pass' })).toEqual(names([pwSafe, pwKeeper]));
    expect(await ac({ q: 'pass', types: [AddonType.DICTIONARY] })).toEqual(names([pwKeeper]));
    expect(await ac({ q: 'hib' })).toEqual(names([nightOwl]));
    expect(await ac({ q: 'gia' })).toEqual(names([giant]));
    expect(await ac({ q: 'zz' })).toEqual([]);
    // LIKE wildcards in the input are literal.
    expect(await ac({ q: 'd_rk' })).toEqual([]);
    expect(await ac({ q: '%' })).toEqual([]);
    // Without q: the query's order, at most the limit.
    expect(await ac({}, ['rating'])).toEqual(names([pwSafe, darkReader, nightOwl, darkMode, dark, pwKeeper, giant]));
    const limited = await engine.autocomplete(query({ q: 'd' }, [], 0, 2));
    expect(limited).toHaveLength(2);
    expect(limited.every((h) => h.score === null)).toBe(true);
  });

  it('has nothing to index: the table is the index', async () => {
    await expect(engine.index([a.dark.id])).resolves.toBeUndefined();
  });
});

describe('typo variants', () => {
  it('keep the first two characters and are one edit away', () => {
    const variants = typoVariants('dakr');
    expect(variants).toContain('dark');
    expect(variants).toContain('dakr');
    expect(variants).toContain('dak');
    expect(variants).toContain('dakrs');
    expect(variants).not.toContain('adkr');
    expect(variants.every((v) => v.startsWith('da'))).toBe(true);
    expect(typoVariants('tab')).toEqual(['tab']);
    expect(typoGroups('a dakr')).toHaveLength(2);
    expect(typoGroups('to be')).toBeNull();
  });
});
