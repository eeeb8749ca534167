import { AddonStatus, AddonType, App, Platform, PromotedCategory } from '../src/catalogue/catalogue.enums.js';
import type { Addon } from '../src/catalogue/addon.entity.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { searchCatalogueBase } from './fixtures/search-catalogue.js';

let t: TestApp;
let queries = 0;
const a: Record<string, Addon> = {};
let alice: number;
let bob: number;

beforeAll(async () => {
  t = await startTestApp({ onQuery: () => queries++ });
  const base = await searchCatalogueBase(t);
  ({ alice, bob } = base);
  const { privacy } = base;
  const em = t.em();
  const day = (n: number) => new Date(Date.UTC(2020, 0, n));
  a.dark = await createAddon(em, {
    slug: 'dark-reader',
    name: { 'en-US': 'Dark Reader' },
    summary: { 'en-US': 'Dark mode for every website' },
    tags: ['privacy', 'appearance'],
    categoryIds: [privacy.id],
    averageDailyUsers: 5000,
    weeklyDownloads: 100,
    hotness: 0.1,
    bayesianRating: 4.5,
    created: day(1),
    promotedCategory: PromotedCategory.RECOMMENDED,
    promotedApps: [App.BROWSER],
    authors: [{ id: alice }],
  });
  a.tabs = await createAddon(em, {
    slug: 'tab-manager',
    name: { 'en-US': 'Tab Manager Plus' },
    summary: { 'en-US': 'Organise tabs' },
    tags: ['tabs'],
    averageDailyUsers: 3000,
    weeklyDownloads: 900,
    hotness: 0.9,
    bayesianRating: 3.0,
    created: day(5),
    authors: [{ id: bob }, { id: alice, listed: false }],
    versions: [{ compat: { [App.BROWSER]: ['57.0', '*'], [App.ANDROID]: ['68.0', '*'] } }],
  });
  a.theme = await createAddon(em, {
    slug: 'dark-night',
    type: AddonType.STATICTHEME,
    name: { 'en-US': 'Dark Night' },
    averageDailyUsers: 100,
    weeklyDownloads: 5,
    created: day(3),
    colors: [{ h: 240, s: 60, l: 20, ratio: 0.8 }],
  });
  a.dict = await createAddon(em, {
    slug: 'english-dictionary',
    type: AddonType.DICTIONARY,
    name: { 'en-US': 'English Dictionary' },
    averageDailyUsers: 50,
    weeklyDownloads: 50,
    created: day(2),
  });
  a.hidden = await createAddon(em, {
    slug: 'dark-hidden',
    name: { 'en-US': 'Dark Hidden' },
    status: AddonStatus.NOMINATED,
  });
  a.disabled = await createAddon(em, {
    slug: 'dark-disabled',
    name: { 'en-US': 'Dark Disabled' },
    disabledByUser: true,
  });
  a.mac = await createAddon(em, {
    slug: 'mac-tool',
    name: { 'en-US': 'Mac Tool' },
    averageDailyUsers: 10,
    versions: [{ platform: Platform.MAC }],
  });
  a.featured = await createAddon(em, {
    slug: 'featured-thing',
    name: { 'en-US': 'Featured Thing' },
    averageDailyUsers: 20,
    featured: [{ app: App.BROWSER }, { app: App.BROWSER, locale: 'fr' }],
  });
  a.frOnly = await createAddon(em, {
    slug: 'french-featured',
    name: { 'en-US': 'Le Truc' },
    averageDailyUsers: 1,
    featured: [{ app: App.BROWSER, locale: 'fr' }],
  });
  a.old = await createAddon(em, {
    slug: 'old-addon',
    name: { 'en-US': 'Old Addon' },
    averageDailyUsers: 5,
    versions: [{ compat: { [App.BROWSER]: ['40.0', '50.*'] } }],
  });
  a.guid = await createAddon(em, {
    slug: 'guid-addon',
    guid: '{11111111-2222-4333-8444-555555555555}',
    name: { 'en-US': 'Guid Addon' },
    averageDailyUsers: 2,
  });
  a.suite = await createAddon(em, {
    slug: 'suite-addon',
    name: { 'en-US': 'Suite Addon' },
    averageDailyUsers: 3,
    promotedCategory: PromotedCategory.LINE,
    promotedApps: [App.ANDROID],
    versions: [{ compat: { [App.SUITE]: ['2.49', '*'] } }],
  });
});
afterAll(() => t.close());

const search = async (query = '', version = 'v4') => {
  const res = await t.http.get(`/api/${version}/addons/search/${query}`);
  return { status: res.status, body: res.body, slugs: res.body.results?.map((r: { slug: string }) => r.slug) };
};
const error = async (query: string, version = 'v4') => {
  const res = await t.http.get(`/api/${version}/addons/search/${query}`);
  expect(res.status).toBe(400);
  return res.body;
};

describe('search', () => {
  it('finds public add-ons only, with v4 _score and the search shape', async () => {
    const res = await search('?q=dark');
    expect(res.status).toBe(200);
    expect(res.slugs).toEqual(['dark-reader', 'dark-night']);
    expect(res.body).toMatchObject({ count: 2, page_size: 25, page_count: 1, next: null, previous: null });
    const hit = res.body.results[0];
    expect(typeof hit._score).toBe('number');
    expect(hit.authors[0]).not.toHaveProperty('picture_url');
    expect(hit.current_version).not.toHaveProperty('license');
    expect(hit.current_version).not.toHaveProperty('release_notes');
    const v3 = await search('?q=dark', 'v3');
    expect(v3.slugs).toEqual(['dark-reader', 'dark-night']);
    expect(v3.body.results[0]).not.toHaveProperty('_score');
    expect(v3.body.results[0].authors[0]).toHaveProperty('picture_url');
  });

  it('tolerates typos in short queries and matches case-insensitively', async () => {
    expect((await search('?q=dakr%20reader')).slugs).toContain('dark-reader');
    expect((await search('?q=DARK%20READER')).slugs[0]).toBe('dark-reader');
  });

  it('refuses queries over 100 characters', async () => {
    expect(await error(`?q=${'x'.repeat(101)}`)).toEqual(['Maximum query length exceeded.']);
    expect((await search(`?q=${'x'.repeat(100)}`)).status).toBe(200);
  });

  it('filters by application, per version', async () => {
    expect((await search('?app=android')).slugs).toEqual(['tab-manager']);
    expect((await search('?app=suite', 'v3')).slugs).toEqual(['suite-addon']);
    expect(await error('?app=suite')).toEqual(['Invalid "app" parameter.']);
    expect(await error('?app=netscape', 'v3')).toEqual(['Invalid "app" parameter.']);
    expect((await search('?app=1')).slugs).not.toContain('suite-addon');
  });

  it('filters by application version', async () => {
    expect((await search('?app=browser&appversion=45.0')).slugs).toEqual(['old-addon']);
    expect((await search('?app=browser&appversion=60.0')).slugs).not.toContain('old-addon');
    expect(await error('?app=browser&appversion=abc')).toEqual(['Invalid "appversion" parameter.']);
    expect(await error('?app=browser&appversion=9.0')).toEqual(['Invalid "appversion" parameter.']);
    expect(await error('?appversion=60.0')).toEqual(['Invalid combination of "app" and "appversion" parameters.']);
  });

  it('filters by listed author: usernames in v3, usernames or ids in v4', async () => {
    expect((await search('?author=alice')).slugs).toEqual(['dark-reader']);
    expect((await search(`?author=${bob}`)).slugs).toEqual(['tab-manager']);
    expect((await search(`?author=alice,${bob}`)).slugs).toEqual(['dark-reader', 'tab-manager']);
    expect((await search('?author=alice,bob', 'v3')).slugs).toEqual(['tab-manager', 'dark-reader']);
    expect((await search(`?author=${bob}`, 'v3')).slugs).toEqual([]);
  });

  it('filters by category only with app and type', async () => {
    expect((await search('?app=browser&type=extension&category=privacy-security')).slugs).toEqual(['dark-reader']);
    expect((await search('?category=privacy-security')).body.count).toBe(10);
    expect(await error('?app=browser&type=extension&category=nope')).toEqual(['Invalid "category" parameter.']);
  });

  it('excludes add-ons by id or slug', async () => {
    const res = await search(`?exclude_addons=dark-reader,${a.tabs.id}&type=extension`);
    expect(res.slugs).not.toContain('dark-reader');
    expect(res.slugs).not.toContain('tab-manager');
    expect(res.slugs).toContain('mac-tool');
  });

  it('filters by guid, including the v4 rta: form', async () => {
    const guid = '{11111111-2222-4333-8444-555555555555}';
    expect((await search(`?guid=${encodeURIComponent(guid.toUpperCase())},${a.dark.guid}`)).slugs).toEqual([
      'dark-reader',
      'guid-addon',
    ]);
    expect((await search(`?guid=rta:${Buffer.from(guid).toString('base64url')}`)).slugs).toEqual(['guid-addon']);
    expect(await error('?guid=rta:%%%')).toEqual(['Invalid Return To AMO guid (not in base64url format?)']);
  });

  it('filters by platform in v3 (all-platform files always match)', async () => {
    const mac = await search('?platform=mac&type=extension', 'v3');
    expect(mac.slugs).toContain('mac-tool');
    expect(mac.slugs).toContain('dark-reader');
    expect((await search('?platform=linux&type=extension', 'v3')).slugs).not.toContain('mac-tool');
    expect((await search('?platform=darwin', 'v3')).slugs).toContain('mac-tool');
    expect(await error('?platform=beos', 'v3')).toEqual(['Invalid "platform" parameter.']);
  });

  it('filters by promoted category in v4, badged included, combinable with app', async () => {
    expect((await search('?promoted=recommended')).slugs).toEqual(['dark-reader']);
    expect((await search('?promoted=badged')).slugs).toEqual(['dark-reader', 'suite-addon']);
    expect((await search('?promoted=line,recommended&app=android')).slugs).toEqual([]);
    expect((await search('?promoted=line')).slugs).toEqual(['suite-addon']);
    expect(await error('?promoted=famous')).toEqual(['Invalid "promoted" parameter.']);
  });

  it('filters by tags, all of them required', async () => {
    expect((await search('?tag=privacy')).slugs).toEqual(['dark-reader']);
    expect((await search('?tag=privacy,tabs')).slugs).toEqual([]);
    expect((await search('?tag=privacy,appearance')).slugs).toEqual(['dark-reader']);
  });

  it('filters by type: one in v3 (persona covers static themes), a list in v4', async () => {
    expect((await search('?type=dictionary')).slugs).toEqual(['english-dictionary']);
    expect((await search('?type=dictionary,statictheme')).slugs).toEqual(['dark-night', 'english-dictionary']);
    expect((await search('?type=persona', 'v3')).slugs).toEqual(['dark-night']);
    expect(await error('?type=statictheme', 'v3')).toEqual(['Invalid "type" parameter.']);
    expect(await error('?type=dictionary,nope')).toEqual(['Invalid "type" parameter.']);
  });

  it('filters featured add-ons in v3 (per language with lang)', async () => {
    expect((await search('?featured=true&sort=users', 'v3')).slugs).toEqual(['featured-thing', 'french-featured']);
    expect((await search('?featured=true&lang=de&sort=users', 'v3')).slugs).toEqual(['featured-thing']);
    expect((await search('?featured=true&lang=fr&sort=users', 'v3')).slugs).toEqual([
      'featured-thing',
      'french-featured',
    ]);
    expect((await search('?featured=true&app=android', 'v3')).slugs).toEqual([]);
    expect(await error('?featured=yes', 'v3')).toEqual(['Invalid "featured" parameter.']);
  });

  it('filters static themes by colour in v4', async () => {
    expect((await search('?color=1a1a52')).slugs).toEqual(['dark-night']);
    expect((await search('?color=ff0000')).slugs).toEqual([]);
    expect(await error('?color=blue')).toEqual(['Invalid "color" parameter.']);
  });
});

describe('search sorts', () => {
  const order = async (query: string, version = 'v4') => (await search(`?type=extension${query}`, version)).slugs;

  it('defaults to recommended then users in v4, downloads in v3, relevance with q', async () => {
    expect((await order(''))[0]).toBe('dark-reader');
    expect((await order('')).slice(0, 3)).toEqual(['dark-reader', 'tab-manager', 'featured-thing']);
    expect((await order('', 'v3')).slice(0, 2)).toEqual(['tab-manager', 'dark-reader']);
    expect((await search('?q=tab%20manager')).slugs[0]).toBe('tab-manager');
  });

  it('sorts by each field, descending', async () => {
    expect((await order('&sort=downloads')).slice(0, 2)).toEqual(['tab-manager', 'dark-reader']);
    expect((await order('&sort=users')).slice(0, 2)).toEqual(['dark-reader', 'tab-manager']);
    expect((await order('&sort=hotness')).slice(0, 2)).toEqual(['tab-manager', 'dark-reader']);
    expect((await order('&sort=rating')).slice(0, 2)).toEqual(['dark-reader', 'tab-manager']);
    expect((await order('&sort=created'))[0]).toBe(
      [...Object.values(a)]
        .filter((x) => x.type === AddonType.EXTENSION && x.status === AddonStatus.PUBLIC && !x.disabledByUser)
        .sort((x, y) => y.created.getTime() - x.created.getTime() || y.id - x.id)[0].slug,
    );
    const updated = await order('&sort=updated');
    expect(updated).toHaveLength(8);
  });

  it('combines sorts and treats recommended as a prefix', async () => {
    expect((await order('&sort=recommended,downloads')).slice(0, 2)).toEqual(['dark-reader', 'tab-manager']);
    expect((await order('&sort=recommended')).slice(0, 2)).toEqual(['dark-reader', 'tab-manager']);
    expect((await order('&sort=downloads,created')).slice(0, 2)).toEqual(['tab-manager', 'dark-reader']);
    expect((await order('&sort=relevance'))[0]).toBe('dark-reader');
  });

  it('refuses unknown sorts and misplaced random', async () => {
    expect(await error('?sort=size')).toEqual(['Invalid "sort" parameter.']);
    expect(await error('?sort=recommended', 'v3')).toEqual(['Invalid "sort" parameter.']);
    expect(await error('?sort=random,users&promoted=recommended')).toEqual([
      'The "random" "sort" parameter can not be combined.',
    ]);
    const context = [
      'The "sort" parameter "random" can only be specified when the "featured" or "recommended" parameter is also present, and the "q" parameter absent.',
    ];
    expect(await error('?sort=random')).toEqual(context);
    expect(await error('?sort=random&promoted=recommended&q=dark')).toEqual(context);
    expect((await search('?sort=random&promoted=badged')).slugs.sort()).toEqual(['dark-reader', 'suite-addon']);
    expect((await search('?sort=random&featured=true', 'v3')).slugs.sort()).toEqual([
      'featured-thing',
      'french-featured',
    ]);
  });
});

describe('search pagination', () => {
  it('pages with absolute links and refuses pages past the end', async () => {
    const first = await search('?page_size=2&type=extension');
    expect(first.body).toMatchObject({ page_size: 2, page_count: 4, count: 8 });
    expect(first.body.next).toMatch(/\/api\/v4\/addons\/search\/\?page=2&page_size=2&type=extension$/);
    expect((await search('?page_size=2&page=4&type=extension')).status).toBe(200);
    expect((await search('?page_size=2&page=5&type=extension')).status).toBe(404);
  });

  it('loads a 25-item page with authors, versions, files and previews in a constant number of queries', async () => {
    await search('?page_size=3&sort=downloads'); // the first search of a process also reads the categories
    queries = 0;
    const one = await search('?page_size=1&sort=users');
    const forOne = queries;
    queries = 0;
    const many = await search('?page_size=25&sort=users');
    expect(one.body.results).toHaveLength(1);
    expect(many.body.results).toHaveLength(10);
    expect(queries).toBe(forOne);
    // Cache tags, the count's estimate, the count, the hits, and the add-ons with everything shown of
    // them (flags, featured applications, authors, previews, current versions with their licences,
    // files and compatibility): one statement each, whatever the page size.
    expect(queries).toBe(5);
  });
});

describe('autocomplete', () => {
  const complete = async (query: string, version = 'v4') => {
    const res = await t.http.get(`/api/${version}/addons/autocomplete/${query}`);
    return { status: res.status, body: res.body };
  };

  it('suggests by name with the v4 fields, at most 10, no pagination', async () => {
    const res = await complete('?q=dark');
    expect(Object.keys(res.body)).toEqual(['results']);
    expect(res.body.results.map((r: { id: number }) => r.id)).toEqual([a.dark.id, a.theme.id]);
    expect(Object.keys(res.body.results[0]).sort()).toEqual(['icon_url', 'id', 'name', 'promoted', 'type', 'url']);
    expect(res.body.results[0].promoted).toEqual({ category: 'recommended', apps: ['browser'] });
    expect((await complete('?q=da&page_size=1')).body.results.length).toBeGreaterThanOrEqual(2);
    expect((await complete('')).body.results).toHaveLength(10);
  });

  it('has the v3 fields and honours sort in v3 only', async () => {
    const v3 = await complete('?type=extension&sort=downloads', 'v3');
    expect(Object.keys(v3.body.results[0]).sort()).toEqual(['icon_url', 'id', 'name', 'url']);
    expect(v3.body.results[0].id).toBe(a.tabs.id);
    const v4 = await complete('?type=extension&sort=downloads');
    expect(v4.body.results[0].id).toBe(a.dark.id);
    expect((await complete('?q=dark&lang=fr')).body.results[0].name).toBe('Dark Reader');
  });

  it('applies the search filters and their errors', async () => {
    expect((await complete('?q=dark&type=statictheme')).body.results.map((r: { id: number }) => r.id)).toEqual([
      a.theme.id,
    ]);
    expect((await complete('?app=nope')).body).toEqual(['Invalid "app" parameter.']);
  });
});

describe('featured (v3)', () => {
  it('lists featured add-ons for an application in random order', async () => {
    const res = await t.http.get('/api/v3/addons/featured/?app=browser');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['results']);
    expect(res.body.results.map((r: { slug: string }) => r.slug)).toEqual(['featured-thing']);
    const fr = await t.http.get('/api/v3/addons/featured/?app=browser&lang=fr&page_size=1');
    expect(fr.body.results).toHaveLength(1);
  });

  it('refuses a missing or bad app, type or category, and a bad page_size', async () => {
    for (const query of ['', '?app=nope', '?app=browser&type=nope', '?app=browser&type=extension&category=nope']) {
      const res = await t.http.get(`/api/v3/addons/featured/${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'Invalid app, category and/or type parameter(s).' });
    }
    expect((await t.http.get('/api/v3/addons/featured/?app=browser&page_size=x')).body).toEqual({
      detail: 'Invalid page_size parameter',
    });
    expect((await t.http.get('/api/v4/addons/featured/?app=browser')).status).toBe(404);
  });
});

describe('cached anonymous search', () => {
  it('follows writes at once', async () => {
    expect((await search('?q=zebra')).slugs).toEqual([]);
    expect((await search('?q=zebra')).slugs).toEqual([]);
    await t.em().getConnection().execute(`update addons set name = '{"en-US": "Zebra Tool"}' where id = ?`, [a.mac.id]);
    expect((await search('?q=zebra')).slugs).toEqual(['mac-tool']);
    const ac = await t.http.get('/api/v4/addons/autocomplete/?q=zebr');
    expect(ac.body.results.map((r: { id: number }) => r.id)).toEqual([a.mac.id]);
    await t.em().getConnection().execute(`update addons set name = '{"en-US": "Mac Tool"}' where id = ?`, [a.mac.id]);
    expect((await search('?q=zebra')).slugs).toEqual([]);
  });

  it('serves signed-in viewers from the same answers, after checking their credentials', async () => {
    const { sessionToken } = await t.createUser({ session: true });
    // One host for every request (answers are cached per host).
    const get = (path: string) => t.http.get(path).set('Host', 'addons.test');
    const anonymous = await get('/api/v4/addons/search/?q=tab&page_size=3');
    queries = 0;
    const signedIn = await get('/api/v4/addons/search/?q=tab&page_size=3').set(
      'Authorization',
      `Bearer ${sessionToken}`,
    );
    expect(signedIn.status).toBe(200);
    expect(signedIn.text).toBe(anonymous.text);
    // The credentials (session, user, groups) and the catalogue generation: no search.
    expect(queries).toBeLessThanOrEqual(4);
    const bad = await get('/api/v4/addons/search/?q=tab&page_size=3').set('Authorization', 'Bearer nonsense');
    expect(bad.status).toBe(401);
  });
});
