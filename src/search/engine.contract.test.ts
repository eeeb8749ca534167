import { AddonStatus, AddonType, App, Platform, PromotedCategory, versionInt } from '../catalogue/catalogue.enums.js';
import type { Addon } from '../catalogue/addon.entity.js';
import { createAddon } from '../../test/helpers/catalogue.js';
import { startTestApp, type TestApp } from '../../test/helpers/app.js';
import { MeilisearchEngine } from './meilisearch.engine.js';
import { PostgresSearchEngine } from './postgres.engine.js';
import type { AddonSearchFilters, AddonSearchQuery, AddonSort, SearchEngine } from './search.port.js';

/**
 * One contract for every search adapter: the same fixture catalogue, the same expectations.
 * PostgreSQL always runs; Meilisearch runs when MEILI_URL is set (its server cannot be installed
 * on the development machines; docker-compose.yml starts one).
 */
const adapters: [string, (t: TestApp) => SearchEngine][] = [['postgres', (t) => new PostgresSearchEngine(t.app.db)]];
if (process.env.MEILI_URL) {
  adapters.push([
    'meilisearch',
    (t) =>
      new MeilisearchEngine(t.app.db, {
        url: process.env.MEILI_URL!,
        apiKey: process.env.MEILI_MASTER_KEY,
        indexName: `addons_contract_${process.pid}`,
      }),
  ]);
}

describe.each(adapters)('search engine contract: %s', (_name, makeEngine) => {
  let t: TestApp;
  let engine: SearchEngine;
  const a: Record<string, Addon> = {};

  beforeAll(async () => {
    t = await startTestApp();
    engine = makeEngine(t);
    const em = t.em();
    const alice = (await t.createUser({ username: 'carol' })).id;
    const day = (n: number) => new Date(Date.UTC(2021, 0, n));
    a.popular = await createAddon(em, {
      name: { 'en-US': 'Password Vault' },
      summary: { 'en-US': 'Keeps every password safe' },
      tags: ['security', 'passwords'],
      averageDailyUsers: 90_000,
      weeklyDownloads: 50,
      hotness: 0.2,
      bayesianRating: 4.1,
      created: day(1),
      authors: [{ id: alice }],
      promotedCategory: PromotedCategory.RECOMMENDED,
      promotedApps: [App.BROWSER],
    });
    a.niche = await createAddon(em, {
      name: { 'en-US': 'Password Generator' },
      summary: { 'en-US': 'Random strings' },
      tags: ['passwords'],
      averageDailyUsers: 40,
      weeklyDownloads: 400,
      hotness: 0.8,
      bayesianRating: 4.9,
      created: day(4),
      versions: [
        { compat: { [App.BROWSER]: ['45.0', '60.*'], [App.ANDROID]: ['50.0', '*'] }, platform: Platform.LINUX },
      ],
    });
    a.theme = await createAddon(em, {
      type: AddonType.STATICTHEME,
      name: { 'en-US': 'Ocean Blue', de: 'Ozeanblau' },
      averageDailyUsers: 700,
      created: day(2),
      colors: [{ h: 210, s: 80, l: 40, ratio: 0.7 }],
      featured: [{ app: App.BROWSER, locale: 'de' }],
    });
    a.hidden = await createAddon(em, { name: { 'en-US': 'Password Hidden' }, status: AddonStatus.NOMINATED });
    a.disabled = await createAddon(em, { name: { 'en-US': 'Password Disabled' }, disabledByUser: true });
    await engine.index(Object.values(a).map((x) => x.id));
  });
  afterAll(() => t.close());

  const query = (
    filters: AddonSearchFilters,
    sort: AddonSort[] = ['users'],
    offset = 0,
    limit = 25,
  ): AddonSearchQuery => ({
    filters,
    sort,
    offset,
    limit,
  });
  const ids = async (filters: AddonSearchFilters, sort?: AddonSort[]) =>
    (await engine.search(query(filters, sort))).hits.map((h) => h.id);

  it('returns only public, enabled add-ons with a current version', async () => {
    expect(await ids({})).toEqual([a.popular.id, a.theme.id, a.niche.id]);
    expect(await ids({ q: 'password' })).not.toContain(a.hidden.id);
    expect((await engine.search(query({}))).total).toBe(3);
  });

  it('ranks text matches and reports a score for relevance', async () => {
    const result = await engine.search(query({ q: 'password generator' }, ['relevance']));
    expect(result.hits[0].id).toBe(a.niche.id);
    expect(typeof result.hits[0].score).toBe('number');
    expect(await ids({ q: 'ozeanblau' }, ['relevance'])).toEqual([a.theme.id]);
    expect(await ids({ q: 'paswords' }, ['relevance'])).toContain(a.popular.id);
  });

  it('applies every filter', async () => {
    expect(await ids({ types: [AddonType.STATICTHEME] })).toEqual([a.theme.id]);
    expect(await ids({ app: App.ANDROID })).toEqual([a.niche.id]);
    expect(
      await ids({ app: App.BROWSER, appVersion: { min: versionInt('50.0')!, max: versionInt('50.0a')! } }),
    ).toEqual([a.niche.id]);
    expect(
      await ids({ app: App.BROWSER, appVersion: { min: versionInt('70.0')!, max: versionInt('70.0a')! } }),
    ).toEqual([a.popular.id, a.theme.id]);
    expect(await ids({ authorUsernames: ['carol'] })).toEqual([a.popular.id]);
    expect(await ids({ authorIds: [-1] })).toEqual([]);
    expect(await ids({ excludeIds: [a.popular.id], excludeSlugs: [a.theme.slug] })).toEqual([a.niche.id]);
    expect(await ids({ guids: [a.niche.guid!.toUpperCase()] })).toEqual([a.niche.id]);
    expect(await ids({ platform: Platform.LINUX })).toEqual([a.popular.id, a.theme.id, a.niche.id]);
    expect(await ids({ platform: Platform.MAC })).toEqual([a.popular.id, a.theme.id]);
    expect(await ids({ promoted: [PromotedCategory.RECOMMENDED] })).toEqual([a.popular.id]);
    expect(await ids({ promoted: [PromotedCategory.RECOMMENDED], app: App.ANDROID })).toEqual([]);
    expect(await ids({ tags: ['passwords'] })).toEqual([a.popular.id, a.niche.id]);
    expect(await ids({ tags: ['passwords', 'security'] })).toEqual([a.popular.id]);
    expect(await ids({ featured: { app: App.BROWSER } })).toEqual([a.theme.id]);
    expect(await ids({ featured: { app: App.BROWSER, locale: null } })).toEqual([]);
    expect(await ids({ featured: { app: App.BROWSER, locale: 'de' } })).toEqual([a.theme.id]);
    expect(await ids({ color: { h: 215, s: 75, l: 45 } })).toEqual([a.theme.id]);
    expect(await ids({ color: { h: 10, s: 75, l: 45 } })).toEqual([]);
  });

  it('sorts by every field, descending, with multi-field sorts and recommended first', async () => {
    expect(await ids({}, ['downloads'])).toEqual([a.niche.id, a.popular.id, a.theme.id]);
    expect(await ids({}, ['hotness'])).toEqual([a.niche.id, a.popular.id, a.theme.id]);
    expect(await ids({}, ['rating'])).toEqual([a.niche.id, a.popular.id, a.theme.id]);
    expect(await ids({}, ['created'])).toEqual([a.niche.id, a.theme.id, a.popular.id]);
    expect((await ids({}, ['updated'])).sort()).toEqual([a.popular.id, a.theme.id, a.niche.id].sort());
    expect(await ids({}, ['recommended', 'downloads'])).toEqual([a.popular.id, a.niche.id, a.theme.id]);
    const shuffled = await ids({ promoted: [PromotedCategory.RECOMMENDED] }, ['random']);
    expect(shuffled).toEqual([a.popular.id]);
  });

  it('pages with offset and limit and counts the total', async () => {
    const page = await engine.search(query({}, ['users'], 1, 1));
    expect(page.hits.map((h) => h.id)).toEqual([a.theme.id]);
    expect(page.total).toBe(3);
  });

  it('autocompletes names', async () => {
    const hits = await engine.autocomplete(query({ q: 'passw' }, ['users'], 0, 10));
    expect(hits.map((h) => h.id)).toEqual([a.popular.id, a.niche.id]);
    expect((await engine.autocomplete(query({ q: 'oc' }, ['users'], 0, 10))).map((h) => h.id)).toEqual([a.theme.id]);
  });

  it('follows index() after a change', async () => {
    const em = t.em();
    await em.getConnection().execute('update addons set status = ? where id = ?', [AddonStatus.DISABLED, a.niche.id]);
    await engine.index([a.niche.id]);
    expect(await ids({})).toEqual([a.popular.id, a.theme.id]);
    await em.getConnection().execute('update addons set status = ? where id = ?', [AddonStatus.PUBLIC, a.niche.id]);
    await engine.index([a.niche.id]);
    expect(await ids({})).toEqual([a.popular.id, a.theme.id, a.niche.id]);
  });
});
