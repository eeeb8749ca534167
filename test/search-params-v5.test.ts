import { AddonType, App, PromotedCategory } from '../src/catalogue/catalogue.enums.js';
import type { Addon } from '../src/catalogue/addon.entity.js';
import { rangeFilterTags } from '../src/search/search.cache-tags.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { searchCatalogueBase } from './fixtures/search-catalogue.js';

/**
 * Every documented parameter and sort of the v5 add-on search and autocomplete
 * (addons-server `docs/topics/api/addons.rst`, Search and Autocomplete), with data that tells
 * each one apart, and the parameters the catalogue front-end sends (`src/amo/searchUtils.js`).
 */
let t: TestApp;
const a: Record<string, Addon> = {};
let alice: number;
let bob: number;
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  t = await startTestApp();
  const base = await searchCatalogueBase(t);
  ({ alice, bob } = base);
  const { privacy } = base;
  const em = t.em();
  a.alpha = await createAddon(em, {
    slug: 'alpha-tabs',
    name: { 'en-US': 'Alpha Tabs' },
    summary: { 'en-US': 'Group your tabs' },
    tags: ['tabs', 'productivity'],
    categoryIds: [privacy.id],
    averageDailyUsers: 5000,
    weeklyDownloads: 10,
    hotness: 0.5,
    bayesianRating: 4.0,
    created: at('2021-03-01T10:00:00Z'),
    promotedCategory: PromotedCategory.RECOMMENDED,
    promotedApps: [App.BROWSER],
    authors: [{ id: alice }],
  });
  a.beta = await createAddon(em, {
    slug: 'beta-tabs',
    name: { 'en-US': 'Beta Tabs' },
    summary: { 'en-US': 'More tabs' },
    tags: ['tabs'],
    averageDailyUsers: 300,
    weeklyDownloads: 900,
    hotness: 0.9,
    bayesianRating: 3.0,
    created: at('2022-01-01T00:00:00Z'),
    authors: [{ id: bob }],
    versions: [{ compat: { [App.BROWSER]: ['100.0', '*'], [App.ANDROID]: ['120.0', '*'] } }],
  });
  a.gamma = await createAddon(em, {
    slug: 'gamma-theme',
    type: AddonType.STATICTHEME,
    name: { 'en-US': 'Gamma Red Theme' },
    averageDailyUsers: 20,
    weeklyDownloads: 50,
    hotness: 0.1,
    bayesianRating: 4.8,
    created: at('2023-08-08T00:00:00Z'),
    colors: [{ h: 0, s: 60, l: 50, ratio: 0.9 }],
    promotedCategory: PromotedCategory.LINE,
    promotedApps: [App.BROWSER],
  });
  a.delta = await createAddon(em, {
    slug: 'delta-dictionary',
    type: AddonType.DICTIONARY,
    guid: '{0d1e2f3a-4b5c-4d6e-8f70-0123456789ab}',
    name: { 'en-US': 'Delta Dictionary', fr: 'Dictionnaire Delta' },
    averageDailyUsers: 50,
    weeklyDownloads: 50,
    hotness: 0,
    bayesianRating: 2.0,
    created: at('2023-07-07T00:00:00Z'),
  });
  a.epsilon = await createAddon(em, {
    slug: 'epsilon-legacy',
    name: { 'en-US': 'Epsilon Legacy' },
    averageDailyUsers: 1000,
    weeklyDownloads: 100,
    hotness: 0.3,
    bayesianRating: 3.5,
    created: at('2019-01-01T00:00:00Z'),
    versions: [{ compat: { [App.BROWSER]: ['40.0', '50.*'] } }],
  });
  a.android = await createAddon(em, {
    slug: 'android-helper',
    name: { 'en-US': 'Android Helper' },
    averageDailyUsers: 1,
    created: at('2024-02-02T00:00:00Z'),
    versions: [{ compat: { [App.ANDROID]: ['120.0', '*'] } }],
  });
  // Columns the fixtures' refresh computes from ratings and versions, set as the tests need them.
  const set = (addon: Addon, rating: number, updated: string | null) =>
    em
      .getConnection()
      .execute(`update addons set average_rating = ?, last_updated = ? where id = ?`, [rating, updated, addon.id]);
  await set(a.alpha, 4.2, '2024-06-15T12:30:45Z');
  await set(a.beta, 3, '2023-01-01T00:00:00Z');
  await set(a.gamma, 5, null);
  await set(a.delta, 1.5, '2024-01-01T00:00:00Z');
  await set(a.epsilon, 3.5, '2020-01-01T00:00:00Z');
  await set(a.android, 0, '2024-02-02T00:00:00Z');
});
afterAll(() => t.close());

const get = (path: string, query: string, headers: Record<string, string> = {}) =>
  t.http.get(`/api/v5/addons/${path}/${query}`).set(headers);
const search = async (query: string, headers: Record<string, string> = {}) => {
  const res = await get('search', query, headers);
  expect(res.status).toBe(200);
  return res.body.results.map((r: { slug: string }) => r.slug) as string[];
};
/** Sorted, for filters whose order is not what the test is about. */
const found = async (query: string) => (await search(query)).sort();
const refused = async (query: string, path = 'search') => {
  const res = await get(path, query);
  expect(res.status).toBe(400);
  return res.body;
};
const FIREFOX = '?app=firefox';

describe('v5 search: sorts', () => {
  it.each([
    ['created', ['gamma-theme', 'delta-dictionary', 'beta-tabs', 'alpha-tabs', 'epsilon-legacy']],
    ['downloads', ['beta-tabs', 'epsilon-legacy', 'delta-dictionary', 'gamma-theme', 'alpha-tabs']],
    ['hotness', ['beta-tabs', 'alpha-tabs', 'epsilon-legacy', 'gamma-theme', 'delta-dictionary']],
    ['ratings', ['gamma-theme', 'alpha-tabs', 'epsilon-legacy', 'beta-tabs', 'delta-dictionary']],
    ['rating', ['gamma-theme', 'alpha-tabs', 'epsilon-legacy', 'beta-tabs', 'delta-dictionary']],
    ['updated', ['alpha-tabs', 'delta-dictionary', 'beta-tabs', 'epsilon-legacy', 'gamma-theme']],
    ['users', ['alpha-tabs', 'epsilon-legacy', 'beta-tabs', 'delta-dictionary', 'gamma-theme']],
  ])('sort=%s', async (sort, expected) => {
    expect(await search(`${FIREFOX}&sort=${sort}`)).toEqual(expected);
  });

  it('combines sorts: ties of the first are ordered by the next', async () => {
    // delta and gamma both have 50 weekly downloads: by creation, gamma (2023-08) before delta (2023-07).
    expect(await search(`${FIREFOX}&sort=downloads,created`)).toEqual([
      'beta-tabs',
      'epsilon-legacy',
      'gamma-theme',
      'delta-dictionary',
      'alpha-tabs',
    ]);
  });

  it('recommended: recommended add-ons first, then the next sort; alone it is the default', async () => {
    expect(await search(`${FIREFOX}&sort=recommended,downloads`)).toEqual([
      'alpha-tabs',
      'beta-tabs',
      'epsilon-legacy',
      'delta-dictionary',
      'gamma-theme',
    ]);
    const byDefault = await search(FIREFOX);
    expect(byDefault).toEqual(['alpha-tabs', 'epsilon-legacy', 'beta-tabs', 'delta-dictionary', 'gamma-theme']);
    expect(await search(`${FIREFOX}&sort=recommended`)).toEqual(byDefault);
  });

  it('relevance: by query relevance with q (the default then), ignored without', async () => {
    const relevance = await get('search', `${FIREFOX}&q=tabs&sort=relevance`);
    expect(relevance.body.results.map((r: { slug: string }) => r.slug)).toEqual(['alpha-tabs', 'beta-tabs']);
    expect(relevance.body.results[0]._score).toBeGreaterThan(relevance.body.results[1]._score);
    expect(await search(`${FIREFOX}&q=tabs`)).toEqual(['alpha-tabs', 'beta-tabs']);
    expect(await search(`${FIREFOX}&q=tabs&sort=downloads`)).toEqual(['beta-tabs', 'alpha-tabs']);
    expect(await search(`${FIREFOX}&q=tabs&sort=recommended,relevance`)).toEqual(['alpha-tabs', 'beta-tabs']);
    expect(await search(`${FIREFOX}&sort=relevance`)).toEqual(await search(FIREFOX));
  });

  it('random: only alone, without q, with promoted', async () => {
    expect((await search(`${FIREFOX}&promoted=recommended,line&sort=random`)).sort()).toEqual([
      'alpha-tabs',
      'gamma-theme',
    ]);
    expect(await refused(`${FIREFOX}&sort=random`)).toEqual([
      'The "sort" parameter "random" can only be specified when the "featured" or "recommended" parameter is also present, and the "q" parameter absent.',
    ]);
    await refused(`${FIREFOX}&promoted=line&q=gamma&sort=random`);
    expect(await refused(`${FIREFOX}&promoted=line&sort=random,users`)).toEqual([
      'The "random" "sort" parameter can not be combined.',
    ]);
  });

  it('refuses an unknown sort', async () => {
    expect(await refused(`${FIREFOX}&sort=name`)).toEqual(['Invalid "sort" parameter.']);
    expect(await refused(`${FIREFOX}&sort=users,bogus`)).toEqual(['Invalid "sort" parameter.']);
  });
});

describe('v5 search: filters', () => {
  it('app: compatible with the application', async () => {
    expect(await found('?app=android')).toEqual(['android-helper', 'beta-tabs']);
    expect(await found(FIREFOX)).not.toContain('android-helper');
    expect(await found('')).toContain('android-helper');
    expect(await refused('?app=netscape')).toEqual(['Invalid "app" parameter.']);
  });

  it('appversion: compatible with that version of app (any major version, e.g. 128.0)', async () => {
    expect(await found(`${FIREFOX}&appversion=128.0`)).toEqual([
      'alpha-tabs',
      'beta-tabs',
      'delta-dictionary',
      'gamma-theme',
    ]);
    expect(await found(`${FIREFOX}&appversion=60.0`)).toEqual(['alpha-tabs', 'delta-dictionary', 'gamma-theme']);
    expect(await found(`${FIREFOX}&appversion=45.0`)).toEqual(['epsilon-legacy']);
    expect(await refused('?appversion=128.0')).toEqual(['Invalid combination of "app" and "appversion" parameters.']);
    expect(await refused(`${FIREFOX}&appversion=5.0`)).toEqual(['Invalid "appversion" parameter.']);
  });

  it('appversion from a Firefox 128 visitor, as the front-end sends it', async () => {
    const ua = { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0' };
    expect(await search(`${FIREFOX}&appversion=128.0&type=extension&sort=recommended,users`, ua)).toEqual([
      'alpha-tabs',
      'beta-tabs',
    ]);
  });

  it('author: listed author usernames or ids, any of them', async () => {
    expect(await found('?author=alice')).toEqual(['alpha-tabs']);
    expect(await found(`?author=${bob}`)).toEqual(['beta-tabs']);
    expect(await found(`?author=alice,${bob}`)).toEqual(['alpha-tabs', 'beta-tabs']);
    expect(await found('?author=nobody')).toEqual([]);
  });

  it('category: with app and type; ignored without them', async () => {
    expect(await found(`${FIREFOX}&type=extension&category=privacy-security`)).toEqual(['alpha-tabs']);
    expect((await found(`${FIREFOX}&category=privacy-security`)).length).toBe(5);
    expect(await refused(`${FIREFOX}&type=extension&category=no-such-category`)).toEqual([
      'Invalid "category" parameter.',
    ]);
  });

  it('color: static themes close to the colour', async () => {
    expect(await found('?color=cc3333')).toEqual(['gamma-theme']);
    expect(await found('?color=3333cc')).toEqual([]);
    expect(await refused('?color=notacolour')).toEqual(['Invalid "color" parameter.']);
  });

  it('exclude_addons: by id or slug', async () => {
    expect(await found(`${FIREFOX}&exclude_addons=${a.alpha.id},beta-tabs`)).toEqual([
      'delta-dictionary',
      'epsilon-legacy',
      'gamma-theme',
    ]);
  });

  it('guid: any of several, or one base64url guid behind rta:', async () => {
    expect(await found(`?guid=${encodeURIComponent(`${a.delta.guid},${a.alpha.guid}`)}`)).toEqual([
      'alpha-tabs',
      'delta-dictionary',
    ]);
    const rta = Buffer.from(a.delta.guid!).toString('base64url');
    expect(await found(`?guid=rta:${rta}`)).toEqual(['delta-dictionary']);
    expect(await refused('?guid=rta:%25%25%25')).toEqual(['Invalid Return To AMO guid (not in base64url format?)']);
  });

  it('lang: translations in that language, and matched in it', async () => {
    const res = await get('search', '?q=dictionnaire&lang=fr');
    expect(res.body.results.map((r: { slug: string }) => r.slug)).toEqual(['delta-dictionary']);
    expect(res.body.results[0].name).toEqual({ fr: 'Dictionnaire Delta' });
  });

  it('page and page_size: 25 by default, at most 50; past the end is a 404', async () => {
    const first = await get('search', `${FIREFOX}&sort=users&page_size=2`);
    expect(first.body).toMatchObject({ count: 5, page_size: 2, page_count: 3, previous: null });
    expect(first.body.next).toContain('page=2');
    expect(first.body.results.map((r: { slug: string }) => r.slug)).toEqual(['alpha-tabs', 'epsilon-legacy']);
    const third = await get('search', `${FIREFOX}&sort=users&page_size=2&page=3`);
    expect(third.body.results.map((r: { slug: string }) => r.slug)).toEqual(['gamma-theme']);
    expect(third.body.next).toBeNull();
    expect((await get('search', `${FIREFOX}&page_size=100`)).body.page_size).toBe(50);
    expect((await get('search', FIREFOX)).body.page_size).toBe(25);
    const past = await get('search', `${FIREFOX}&page_size=2&page=4`);
    expect(past.status).toBe(404);
    expect(past.body).toEqual({ detail: 'Invalid page.' });
  });

  it('promoted: any of several categories, for app when given', async () => {
    expect(await found('?promoted=recommended')).toEqual(['alpha-tabs']);
    expect(await found('?promoted=line')).toEqual(['gamma-theme']);
    expect(await found('?promoted=recommended,line')).toEqual(['alpha-tabs', 'gamma-theme']);
    expect(await found('?promoted=recommended&app=android')).toEqual([]);
    expect(await refused('?promoted=bogus')).toEqual(['Invalid "promoted" parameter.']);
  });

  it('q: the query, at most 100 characters', async () => {
    expect(await found('?q=tabs')).toEqual(['alpha-tabs', 'beta-tabs']);
    expect(await found(`?q=${'x'.repeat(100)}`)).toEqual([]);
    expect(await refused(`?q=${'x'.repeat(101)}`)).toEqual(['Maximum query length exceeded.']);
  });

  it('tag: every one of the tags', async () => {
    expect(await found('?tag=tabs')).toEqual(['alpha-tabs', 'beta-tabs']);
    expect(await found('?tag=tabs,productivity')).toEqual(['alpha-tabs']);
  });

  it('type: any of several types', async () => {
    expect(await found('?type=statictheme')).toEqual(['gamma-theme']);
    expect(await found(`${FIREFOX}&type=extension,dictionary`)).toEqual([
      'alpha-tabs',
      'beta-tabs',
      'delta-dictionary',
      'epsilon-legacy',
    ]);
    expect(await refused('?type=plugin')).toEqual(['Invalid "type" parameter.']);
  });

  it('users: average daily users thresholds', async () => {
    expect(await found(`${FIREFOX}&users__gte=1000`)).toEqual(['alpha-tabs', 'epsilon-legacy']);
    expect(await found(`${FIREFOX}&users=300`)).toEqual(['beta-tabs']);
    expect(await found(`${FIREFOX}&users__lt=100`)).toEqual(['delta-dictionary', 'gamma-theme']);
    expect(await found(`${FIREFOX}&users__gt=50&users__lte=1000`)).toEqual(['beta-tabs', 'epsilon-legacy']);
    expect(await refused('?users__gt=many')).toEqual(['Invalid "users__gt" parameter.']);
  });

  it('ratings: average rating thresholds', async () => {
    expect(await found(`${FIREFOX}&ratings__gte=4`)).toEqual(['alpha-tabs', 'gamma-theme']);
    expect(await found(`${FIREFOX}&ratings=4.2`)).toEqual(['alpha-tabs']);
    expect(await found(`${FIREFOX}&ratings=3.5`)).toEqual(['epsilon-legacy']);
    expect(await found(`${FIREFOX}&ratings__lt=2`)).toEqual(['delta-dictionary']);
    expect(await found(`${FIREFOX}&ratings__gt=3&ratings__lte=4.2`)).toEqual(['alpha-tabs', 'epsilon-legacy']);
    expect(await refused('?ratings=NaN')).toEqual(['Invalid "ratings" parameter.']);
  });

  it('created: date thresholds, a date being its whole day (minute, second, millisecond)', async () => {
    expect(await found(`${FIREFOX}&created__gte=2023-01-01`)).toEqual(['delta-dictionary', 'gamma-theme']);
    expect(await found(`${FIREFOX}&created=2022-01-01`)).toEqual(['beta-tabs']);
    expect(await found(`${FIREFOX}&created=2021-03-01`)).toEqual(['alpha-tabs']);
    expect(await found(`${FIREFOX}&created__gt=2023-07-07`)).toEqual(['gamma-theme']);
    expect(await found(`${FIREFOX}&created__lte=2021-03-01`)).toEqual(['alpha-tabs', 'epsilon-legacy']);
    expect(await found(`${FIREFOX}&created__lt=2021-03-01T10:00`)).toEqual(['epsilon-legacy']);
    expect(await found(`${FIREFOX}&created=2021-03-01T10:00:00`)).toEqual(['alpha-tabs']);
    expect(await found(`${FIREFOX}&created=${Date.parse('2021-03-01T10:00:00Z')}`)).toEqual(['alpha-tabs']);
    expect(await found(`${FIREFOX}&created=${Date.parse('2021-03-01T10:00:00Z') + 1}`)).toEqual([]);
    expect(await refused('?created=2021-02-30')).toEqual(['Invalid "created" parameter.']);
    expect(await refused('?created__gt=yesterday')).toEqual(['Invalid "created__gt" parameter.']);
  });

  it('updated: last update thresholds; never updated matches none', async () => {
    expect(await found(`${FIREFOX}&updated__gte=2024-01-01`)).toEqual(['alpha-tabs', 'delta-dictionary']);
    expect(await found(`${FIREFOX}&updated=2024-06-15T12:30`)).toEqual(['alpha-tabs']);
    expect(await found(`${FIREFOX}&updated=2024-06-15T12:30:45`)).toEqual(['alpha-tabs']);
    expect(await found(`${FIREFOX}&updated__lt=2021-01-01`)).toEqual(['epsilon-legacy']);
    expect(await refused('?updated__lte=2024-13-01')).toEqual(['Invalid "updated__lte" parameter.']);
  });

  it('combines filters and sorts, as the front-end pages do', async () => {
    expect(
      await search(`${FIREFOX}&appversion=128.0&type=extension,statictheme&users__gte=10&sort=recommended,users`),
    ).toEqual(['alpha-tabs', 'beta-tabs', 'gamma-theme']);
    expect(await search(`${FIREFOX}&q=tabs&tag=tabs&exclude_addons=alpha-tabs&sort=created`)).toEqual(['beta-tabs']);
    // The front-end still sends `platform`; v5 has no such filter and ignores it, as unknown parameters.
    expect(await found(`${FIREFOX}&platform=windows&featured=true`)).toEqual(await found(FIREFOX));
  });

  it('threshold-filtered answers follow changes of the column they filter on', async () => {
    // Sorted by creation: the order itself depends on no column these filters read.
    const sql = (text: string, params: unknown[]) => t.em().getConnection().execute(text, params);
    const users = `${FIREFOX}&sort=created&users__gte=1000`;
    expect(await search(users)).toEqual(['alpha-tabs', 'epsilon-legacy']);
    await sql(`update addons set average_daily_users = 2000 where id = ?`, [a.beta.id]);
    expect(await search(users)).toEqual(['beta-tabs', 'alpha-tabs', 'epsilon-legacy']);
    await sql(`update addons set average_daily_users = 300 where id = ?`, [a.beta.id]);
    expect(await search(users)).toEqual(['alpha-tabs', 'epsilon-legacy']);

    const ratings = `${FIREFOX}&sort=created&ratings__gte=4`;
    expect(await search(ratings)).toEqual(['gamma-theme', 'alpha-tabs']);
    await sql(`update addons set average_rating = 4.5 where id = ?`, [a.beta.id]);
    expect(await search(ratings)).toEqual(['gamma-theme', 'beta-tabs', 'alpha-tabs']);
    await sql(`update addons set average_rating = 3 where id = ?`, [a.beta.id]);

    const updated = `${FIREFOX}&sort=created&updated__gte=2024-01-01`;
    expect(await search(updated)).toEqual(['delta-dictionary', 'alpha-tabs']);
    await sql(`update addons set last_updated = '2025-01-01T00:00:00Z' where id = ?`, [a.beta.id]);
    expect(await search(updated)).toEqual(['delta-dictionary', 'beta-tabs', 'alpha-tabs']);
    await sql(`update addons set last_updated = '2023-01-01T00:00:00Z' where id = ?`, [a.beta.id]);
  });
});

describe('cache tags of threshold filters', () => {
  it('depend on their column; the average rating has no tag, so those answers are not cached', () => {
    expect(rangeFilterTags({ users: { gte: 1 }, created: { lt: 'x' }, updated: { gte: 'x' } })).toEqual([
      'l:users',
      'l:created',
      'l:updated',
    ]);
    expect(rangeFilterTags({ ratings: { gte: 4 } })).toBeNull();
    expect(rangeFilterTags(null)).toEqual([]);
  });
});

describe('v5 autocomplete', () => {
  const suggest = async (query: string) => {
    const res = await get('autocomplete', query);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('count');
    return res.body.results as { id: number; name: unknown; type: string; promoted: unknown; url: string }[];
  };
  const names = async (query: string) => (await suggest(query)).map((r) => r.id);

  it('q: name matches; the documented fields', async () => {
    const results = await suggest(`${FIREFOX}&q=tab`);
    expect(results.map((r) => r.id)).toEqual([a.alpha.id, a.beta.id]);
    expect(Object.keys(results[0]).sort()).toEqual(['icon_url', 'id', 'name', 'promoted', 'type', 'url']);
  });

  it('app, appversion (128.0), author, category, tag, type filter; lang translates', async () => {
    expect(await names('?app=android&q=tab')).toEqual([a.beta.id]);
    expect(await names(`${FIREFOX}&appversion=128.0&q=epsilon`)).toEqual([]);
    expect(await names(`${FIREFOX}&appversion=45.0&q=epsilon`)).toEqual([a.epsilon.id]);
    expect(await refused('?appversion=128.0&q=tab', 'autocomplete')).toEqual([
      'Invalid combination of "app" and "appversion" parameters.',
    ]);
    expect(await names('?author=bob&q=tab')).toEqual([a.beta.id]);
    expect(await names(`${FIREFOX}&type=extension&category=privacy-security&q=tab`)).toEqual([a.alpha.id]);
    expect(await names('?tag=productivity&q=tab')).toEqual([a.alpha.id]);
    expect(await names('?type=dictionary&q=d')).toEqual([a.delta.id]);
    const [fr] = await suggest('?q=dictionnaire&lang=fr');
    expect(fr.name).toEqual({ fr: 'Dictionnaire Delta' });
  });

  it('no sort (an unknown one is not even read), no pagination, at most 10', async () => {
    expect(await names(`${FIREFOX}&q=tab&sort=downloads`)).toEqual([a.alpha.id, a.beta.id]);
    expect(await names(`${FIREFOX}&q=tab&sort=bogus&page_size=1&page=2`)).toEqual([a.alpha.id, a.beta.id]);
    // Without q: the search default (recommended, then users).
    expect(await names(FIREFOX)).toEqual([a.alpha.id, a.epsilon.id, a.beta.id, a.delta.id, a.gamma.id]);
    const em = t.em();
    for (let i = 0; i < 11; i++) await createAddon(em, { slug: `zeta-${i}`, name: { 'en-US': `Zeta Tool ${i}` } });
    expect(await suggest('?q=zeta')).toHaveLength(10);
  });

  it('takes the threshold filters too; q is limited to 100 characters', async () => {
    expect(await names(`${FIREFOX}&q=tab&users__lt=1000`)).toEqual([a.beta.id]);
    expect(await refused(`?q=${'x'.repeat(101)}`, 'autocomplete')).toEqual(['Maximum query length exceeded.']);
  });
});
