import { User } from '../src/accounts/user.entity.js';
import type { Addon } from '../src/catalogue/addon.entity.js';
import { AddonStatus, AddonType } from '../src/catalogue/catalogue.enums.js';
import { Collection, CollectionAddon } from '../src/collections/collection.entity.js';
import { DiscoveryItem } from '../src/discovery/discovery.entity.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { CATALOGUE_TEXT_LIMITS } from '../src/catalogue/text-limits.js';
import { DISCOVERY_TEXT_LIMITS } from '../src/discovery/text-limits.js';

/**
 * Issue 37: the tag list, replacement add-ons, browser mappings and an add-on page's
 * recommendations (`/api/v5/addons/{tags,replacement-addon,browser-mappings,recommendations}/`),
 * with the curators' operations behind the last three lists.
 */
type Who = 'anonymous' | 'other' | 'editor' | 'curator' | 'owner';
type Json = Record<string, any>;
interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string; fields?: Record<string, string[]> } }[];
}

let t: TestApp;
const tokens = {} as Record<Exclude<Who, 'anonymous'>, string>;
let curatorName: string;
const a = {} as Record<
  'seed' | 'r1' | 'r2' | 'r3' | 'r4' | 'hidden' | 'disabled' | 'lonely' | 'lonelyFriend' | 'curated' | 'promoted',
  Addon
>;

function graphql(who: Who, query: string, variables: Record<string, unknown> = {}) {
  const req = t.http.post('/graphql').send({ query, variables });
  return who === 'anonymous' ? req : req.set('Authorization', tokens[who]);
}

async function ok<T = Json>(who: Who, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const body = (await graphql(who, query, variables)).body as GraphqlBody;
  expect(body.errors).toBeUndefined();
  return Object.values(body.data!)[0] as T;
}

async function failure(who: Who, query: string, variables: Record<string, unknown> = {}) {
  const body = (await graphql(who, query, variables)).body as GraphqlBody;
  expect(body.errors?.length).toBeGreaterThan(0);
  return body.errors![0].extensions ?? {};
}

const get = (path: string, v = 'v5') => t.http.get(`/api/${v}/addons/${path}`);

const SET_REPLACEMENT = `mutation($guid: String!, $path: String!) {
  setReplacementAddon(guid: $guid, path: $path) { guid path replacement } }`;
const DELETE_REPLACEMENT = 'mutation($guid: String!) { deleteReplacementAddon(guid: $guid) }';
const SET_MAPPING = `mutation($input: BrowserMappingInput!) {
  setBrowserMapping(input: $input) { browser extensionId addonGuid } }`;
const DELETE_MAPPING = `mutation($extensionId: String!) { deleteBrowserMapping(browser: CHROME, extensionId: $extensionId) }`;
const chromeId = (letter: string) => letter.repeat(32);
const SITE = 'https://addons.example.test';

beforeAll(async () => {
  t = await startTestApp({ env: { SITE_URL: SITE } });
  for (const [who, permission] of [
    ['other', []],
    ['editor', ['Addons:Edit']],
    ['curator', ['Admin:Curation']],
    ['owner', []],
  ] as const) {
    const user = await t.createUser({ session: true, permission: [...permission] });
    tokens[who] = `Bearer ${user.sessionToken}`;
    if (who === 'curator') curatorName = user.username;
    if (who === 'owner') (tokens as Json).ownerId = user.id;
  }
  const em = t.em();
  const category = (await em.getConnection().execute(`select id from categories where type = 1 limit 1`))[0].id;
  const ext = (slug: string, extra: Json = {}) =>
    createAddon(em, { slug, guid: `${slug}@example.com`, categoryIds: [category], ...extra } as never);
  a.seed = await ext('recs-seed', { authors: [{ id: (tokens as Json).ownerId }] });
  a.r1 = await ext('recs-related-1', { averageDailyUsers: 40 });
  a.r2 = await ext('recs-related-2', { averageDailyUsers: 30 });
  a.r3 = await ext('recs-related-3', { averageDailyUsers: 20 });
  a.r4 = await ext('recs-related-4', { averageDailyUsers: 10 });
  a.hidden = await ext('recs-hidden', { disabledByUser: true, averageDailyUsers: 1000 });
  a.disabled = await ext('recs-disabled', { status: AddonStatus.DISABLED, averageDailyUsers: 1000 });
  // An add-on of its own category, with one related extension only.
  a.lonely = await ext('recs-lonely', { categoryIds: [] });
  a.lonelyFriend = await ext('recs-lonely-friend', { categoryIds: [] });
  a.curated = await ext('recs-curated', { categoryIds: [] });
  a.promoted = await ext('recs-promoted', { categoryIds: [], promotedCategory: 2, promotedApps: [1] });
  await createAddon(em, { slug: 'recs-theme', type: AddonType.STATICTHEME });

  const curator = await em.findOneOrFail(User, { username: curatorName });
  const together = em.create(Collection, {
    author: curator,
    slug: 'together',
    name: { 'en-US': 'Together' },
    description: null,
  });
  for (const addon of [a.seed, a.r1, a.r2, a.r3, a.r4, a.hidden, a.disabled]) {
    em.create(CollectionAddon, { collection: together, addon, notes: null });
  }
  const pair = em.create(Collection, { author: curator, slug: 'pair', name: { 'en-US': 'Pair' }, description: null });
  for (const addon of [a.lonely, a.lonelyFriend]) em.create(CollectionAddon, { collection: pair, addon, notes: null });
  const secret = em.create(Collection, {
    author: curator,
    slug: 'secret',
    name: { 'en-US': 'Secret' },
    description: null,
    listed: false,
  });
  em.create(CollectionAddon, { collection: secret, addon: a.r1, notes: null });
  em.create(DiscoveryItem, { addon: a.curated, position: 1 } as never);
  em.create(DiscoveryItem, { addon: a.hidden, position: 2 } as never);
  await em.flush();
}, 120_000);
afterAll(() => t.close());

describe('GET addons/tags/', () => {
  it('lists the tag list, alphabetically and not paginated, as GraphQL does', async () => {
    const res = await get('tags/');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toEqual(expect.arrayContaining(['privacy', 'tab manager', 'video downloader']));
    expect(res.body).toEqual([...res.body].sort());
    expect(res.body).toHaveLength(40);
    expect(await ok('anonymous', '{ addonTags }')).toEqual(res.body);
    expect((await get('tags/', 'v4')).body).toEqual(res.body);
  });

  it('is the list the listing edit accepts and the search filter finds', async () => {
    const UPDATE = `mutation($input: UpdateAddonListingInput!) {
      updateAddonListing(addon: "recs-seed", input: $input) { tags } }`;
    expect(await ok('owner', UPDATE, { input: { tags: ['Privacy', 'tab manager'] } })).toEqual({
      tags: ['privacy', 'tab manager'],
    });
    const refused = await failure('owner', UPDATE, { input: { tags: ['privacy', 'not-a-tag', 'x'.repeat(200)] } });
    expect(refused.code).toBe('VALIDATION_FAILED');
    expect(refused.fields).toEqual({
      tags: [
        `Ensure this field has no more than ${CATALOGUE_TEXT_LIMITS.tag} characters.`,
        '"not-a-tag" is not a valid choice.',
      ],
    });
    expect((await get('addon/recs-seed/')).body.tags).toEqual(['privacy', 'tab manager']);
    const found = await get('search/?tag=tab%20manager');
    expect(found.body.results.map((r: Json) => r.slug)).toEqual(['recs-seed']);
  });

  it('follows the list: a tag added to it is listed and accepted', async () => {
    await t.em().getConnection().execute(`insert into tags (tag_text) values ('knitting')`);
    expect((await get('tags/')).body).toContain('knitting');
    const UPDATE = `mutation { updateAddonListing(addon: "recs-seed", input: { tags: ["knitting"] }) { tags } }`;
    expect(await ok('owner', UPDATE)).toEqual({ tags: ['knitting'] });
  });
});

describe('replacement add-ons', () => {
  it('starts empty, in the paginated shape', async () => {
    const res = await get('replacement-addon/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ page_size: 25, page_count: 1, count: 0, next: null, previous: null, results: [] });
  });

  it('only curators set and remove replacements', async () => {
    const vars = { guid: 'old@example.com', path: '/addon/recs-related-1/' };
    expect((await failure('anonymous', SET_REPLACEMENT, vars)).code).toBe('UNAUTHENTICATED');
    expect((await failure('other', SET_REPLACEMENT, vars)).code).toBe('FORBIDDEN');
    expect((await failure('editor', SET_REPLACEMENT, vars)).code).toBe('FORBIDDEN');
    expect((await failure('editor', DELETE_REPLACEMENT, { guid: 'x' })).code).toBe('FORBIDDEN');
    expect((await get('replacement-addon/')).body.count).toBe(0);
  });

  it('resolves add-on and collection paths to public add-ons, URLs elsewhere to none', async () => {
    const set = (guid: string, path: string) => ok('curator', SET_REPLACEMENT, { guid, path });
    expect(await set('legacy-1@example.com', '/addon/recs-related-1/')).toEqual({
      guid: 'legacy-1@example.com',
      path: '/addon/recs-related-1/',
      replacement: ['recs-related-1@example.com'],
    });
    await set('legacy-2@example.com', `en-US/firefox/collections/${curatorName}/together/`);
    await set('legacy-3@example.com', 'https://example.org/elsewhere');
    await set('legacy-4@example.com', '/addon/recs-hidden/');
    await set('legacy-5@example.com', `/addon/${a.r2.id}/`);
    await set('legacy-6@example.com', `/collections/${curatorName}/secret/`);
    await set('legacy-7@example.com', '/search/');
    const res = await get('replacement-addon/');
    expect(res.body.count).toBe(7);
    expect(res.body.results).toEqual([
      { guid: 'legacy-1@example.com', replacement: ['recs-related-1@example.com'] },
      {
        guid: 'legacy-2@example.com',
        replacement: ['recs-seed', 'recs-related-1', 'recs-related-2', 'recs-related-3', 'recs-related-4'].map(
          (slug) => `${slug}@example.com`,
        ),
      },
      { guid: 'legacy-3@example.com', replacement: [] },
      { guid: 'legacy-4@example.com', replacement: [] },
      { guid: 'legacy-5@example.com', replacement: ['recs-related-2@example.com'] },
      { guid: 'legacy-6@example.com', replacement: [] },
      { guid: 'legacy-7@example.com', replacement: [] },
    ]);
    const page = await get('replacement-addon/?page_size=3&page=2');
    expect(page.body).toMatchObject({ page_size: 3, page_count: 3, count: 7 });
    expect(page.body.results.map((r: Json) => r.guid)).toEqual([4, 5, 6].map((n) => `legacy-${n}@example.com`));
    expect(page.body.next).toContain('page=3');
    expect((await get('replacement-addon/?page=9')).status).toBe(404);
    expect((await get('replacement-addon/', 'v3')).body.count).toBe(7);
  });

  it('changes a path, refuses bad input, removes, and logs each change', async () => {
    const changed = await ok('curator', SET_REPLACEMENT, {
      guid: 'legacy-3@example.com',
      path: '/addon/recs-related-3/',
    });
    expect(changed.replacement).toEqual(['recs-related-3@example.com']);
    const site = SITE;
    for (const [path, message] of [
      [`${site}/addon/recs-seed/`, `Paths for [${site}] should be relative, not full URLs including the domain name`],
      ['javascript://alert(1)', 'Path [javascript://alert(1)] is not valid'],
      ['/addon/<b>/', 'Path [/addon/<b>/] is not valid'],
      ['x'.repeat(DISCOVERY_TEXT_LIMITS.replacementPath + 1), `Ensure this field has no more than 255 characters.`],
      // The leading slash a site path gets counts too.
      ['x'.repeat(DISCOVERY_TEXT_LIMITS.replacementPath), `Ensure this field has no more than 255 characters.`],
    ]) {
      const refused = await failure('curator', SET_REPLACEMENT, { guid: 'new@example.com', path });
      expect(refused).toMatchObject({ code: 'VALIDATION_FAILED', fields: { path: [message] } });
    }
    expect((await failure('curator', SET_REPLACEMENT, { guid: 'g'.repeat(256), path: '/addon/x/' })).fields).toEqual({
      guid: ['Ensure this field has no more than 255 characters.'],
    });
    expect(await ok('curator', DELETE_REPLACEMENT, { guid: 'legacy-7@example.com' })).toBe(true);
    expect((await failure('curator', DELETE_REPLACEMENT, { guid: 'legacy-7@example.com' })).code).toBe('NOT_FOUND');
    expect((await get('replacement-addon/')).body.count).toBe(6);
    const log = await ok<Json>(
      'curator',
      `{ curationLog(subjectType: "replacement_addon") { count items { action } } }`,
    );
    expect(log.items.map((e: Json) => e.action)).toEqual(['deleted', 'updated', ...Array(7).fill('created')]);
  });
});

describe('browser mappings', () => {
  it('requires a known browser', async () => {
    for (const query of ['', '?browser=', '?browser=firefox', '?browser=Chrome']) {
      const res = await get(`browser-mappings/${query}`);
      expect([query, res.status, res.body]).toEqual([query, 400, { detail: 'Invalid browser parameter' }]);
    }
  });

  it('only curators map extensions', async () => {
    const input = { browser: 'CHROME', extensionId: chromeId('a'), addon: 'recs-related-1' };
    expect((await failure('anonymous', SET_MAPPING, { input })).code).toBe('UNAUTHENTICATED');
    expect((await failure('other', SET_MAPPING, { input })).code).toBe('FORBIDDEN');
    expect((await failure('editor', SET_MAPPING, { input })).code).toBe('FORBIDDEN');
    expect((await failure('other', DELETE_MAPPING, { extensionId: chromeId('a') })).code).toBe('FORBIDDEN');
    expect((await get('browser-mappings/?browser=chrome')).body.count).toBe(0);
  });

  it('lists mappings to public add-ons alone, in pages of 100 by default', async () => {
    const map = (letter: string, addon: string) =>
      ok('curator', SET_MAPPING, { input: { browser: 'CHROME', extensionId: chromeId(letter), addon } });
    expect(await map('a', 'recs-related-1')).toEqual({
      browser: 'CHROME',
      extensionId: chromeId('a'),
      addonGuid: 'recs-related-1@example.com',
    });
    await map('b', String(a.r2.id));
    await map('c', 'recs-hidden');
    await map('d', 'recs-disabled@example.com');
    await map('e', 'recs-related-3');
    const res = await get('browser-mappings/?browser=chrome');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      page_size: 100,
      page_count: 1,
      count: 3,
      next: null,
      previous: null,
      results: [
        { extension_id: chromeId('a'), addon_guid: 'recs-related-1@example.com' },
        { extension_id: chromeId('b'), addon_guid: 'recs-related-2@example.com' },
        { extension_id: chromeId('e'), addon_guid: 'recs-related-3@example.com' },
      ],
    });
    expect((await get('browser-mappings/?browser=chrome&page_size=500')).body.page_size).toBe(100);
    const second = await get('browser-mappings/?browser=chrome&page_size=2&page=2');
    expect(second.body).toMatchObject({ page_size: 2, page_count: 2, count: 3, next: null });
    expect(second.body.results).toEqual([{ extension_id: chromeId('e'), addon_guid: 'recs-related-3@example.com' }]);
  });

  it('shows each change at once, cached answers included', async () => {
    const url = 'browser-mappings/?browser=chrome';
    expect((await get(url)).body.count).toBe(3);
    // Pointed at another add-on, then removed.
    await ok('curator', SET_MAPPING, {
      input: { browser: 'CHROME', extensionId: chromeId('e'), addon: 'recs-related-4' },
    });
    expect((await get(url)).body.results[2]).toEqual({
      extension_id: chromeId('e'),
      addon_guid: 'recs-related-4@example.com',
    });
    expect(await ok('curator', DELETE_MAPPING, { extensionId: chromeId('e') })).toBe(true);
    expect((await failure('curator', DELETE_MAPPING, { extensionId: chromeId('e') })).code).toBe('NOT_FOUND');
    expect((await get(url)).body.count).toBe(2);
    // An add-on that leaves the public ones leaves the list.
    const em = t.em();
    await em.getConnection().execute(`update addons set disabled_by_user = true where id = ?`, [a.r2.id]);
    expect((await get(url)).body.results.map((r: Json) => r.addon_guid)).toEqual(['recs-related-1@example.com']);
    await em.getConnection().execute(`update addons set disabled_by_user = false where id = ?`, [a.r2.id]);
    expect((await get(url)).body.count).toBe(2);
  });

  it('refuses unknown add-ons and bad extension ids', async () => {
    const refused = await failure('curator', SET_MAPPING, {
      input: { browser: 'CHROME', extensionId: ' ', addon: 'no-such-addon' },
    });
    expect(refused.fields).toEqual({
      extension_id: ['This field may not be blank.'],
      addon: ['Invalid pk or slug "no-such-addon" - object does not exist.'],
    });
    const long = await failure('curator', SET_MAPPING, {
      input: { browser: 'CHROME', extensionId: 'x'.repeat(256), addon: 'recs-related-1' },
    });
    expect(long.fields).toEqual({ extension_id: ['Ensure this field has no more than 255 characters.'] });
    const log = await ok<Json>('curator', `{ curationLog(subjectType: "browser_mapping") { count } }`);
    // Five created, one changed, one removed.
    expect(log.count).toBe(7);
  });
});

describe('recommendations', () => {
  const recs = (query: string, v = 'v5') => get(`recommendations/${query}`, v);
  const slugs = (body: Json) => body.results.map((r: Json) => r.slug);

  it("recommended: the recommender's four public extensions, as search shows add-ons", async () => {
    const res = await recs('?guid=recs-seed@example.com&recommended=true');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([
      'outcome',
      'fallback_reason',
      'page_size',
      'page_count',
      'count',
      'next',
      'previous',
      'results',
    ]);
    expect(res.body).toMatchObject({ outcome: 'recommended', fallback_reason: null, count: 4, next: null });
    expect(slugs(res.body)).toEqual(['recs-related-1', 'recs-related-2', 'recs-related-3', 'recs-related-4']);
    const search = (await get('search/?guid=recs-related-1@example.com')).body.results[0];
    expect(res.body.results[0]).toEqual(search);
    expect(res.body.results[0].current_version).not.toHaveProperty('license');
    // The same in GraphQL; the guid's case does not matter.
    const gql = await ok<Json>(
      'anonymous',
      `{ addonRecommendations(guid: "RECS-SEED@example.com", recommended: true) { outcome fallbackReason addons { slug } } }`,
    );
    expect(gql).toEqual({
      outcome: 'RECOMMENDED',
      fallbackReason: null,
      addons: ['recs-related-1', 'recs-related-2', 'recs-related-3', 'recs-related-4'].map((slug) => ({ slug })),
    });
  });

  it('not recommended: the curated list (the discovery pane, then promoted as recommended)', async () => {
    const res = await recs('?guid=recs-seed@example.com');
    expect(res.body).toMatchObject({ outcome: 'curated', fallback_reason: null, count: 2 });
    expect(slugs(res.body)).toEqual(['recs-curated', 'recs-promoted']);
    expect((await recs('?guid=recs-seed@example.com&recommended=false')).body.outcome).toBe('curated');
    // The add-on itself is never suggested.
    expect(slugs((await recs('?guid=recs-curated@example.com')).body)).toEqual(['recs-promoted']);
  });

  it('falls back with the reason: no results, or fewer than four', async () => {
    for (const query of [
      '?guid=nobody@example.com&recommended=true',
      '?recommended=True',
      '?guid=recs-hidden@example.com&recommended=true',
    ]) {
      const res = await recs(query);
      expect([query, res.body.outcome, res.body.fallback_reason]).toEqual([
        query,
        'recommended_fallback',
        'no_results',
      ]);
      expect(slugs(res.body)).toEqual(['recs-curated', 'recs-promoted']);
    }
    const few = await recs('?guid=recs-lonely@example.com&recommended=true');
    expect(few.body).toMatchObject({ outcome: 'recommended_fallback', fallback_reason: 'invalid_results', count: 2 });
    expect(slugs(few.body)).toEqual(['recs-curated', 'recs-promoted']);
    expect((await recs('?guid=recs-seed@example.com&recommended=true', 'v4')).body.outcome).toBe('recommended');
  });

  it('refuses an over-long guid', async () => {
    const res = await recs(`?guid=${'g'.repeat(DISCOVERY_TEXT_LIMITS.replacementGuid + 1)}&recommended=true`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'Invalid "guid" parameter.' });
  });
});
