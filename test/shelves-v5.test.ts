import type { Addon } from '../src/catalogue/addon.entity.js';
import { AddonType } from '../src/catalogue/catalogue.enums.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';

type Who = 'anonymous' | 'other' | 'curator' | 'vendor';
type Vars = Record<string, unknown>;
type Json = Record<string, any>;
interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string; fields?: Record<string, string[]> } }[];
}

let t: TestApp;
const tokens = {} as Record<Exclude<Who, 'anonymous'>, string>;
const addons = {} as Record<'recommended' | 'recommended2' | 'plain' | 'theme' | 'collected', Addon>;

const SHELF = `id title endpoint addonType criteria footerText footerPathname addonCount shownCount
  collectionOwner enabled position`;
const CREATE = `mutation($input: HomeShelfInput!) { createHomeShelf(input: $input) { ${SHELF} } }`;
const UPDATE = `mutation($id: Int!, $input: HomeShelfInput!) { updateHomeShelf(id: $id, input: $input) { ${SHELF} } }`;
const DELETE = 'mutation($id: Int!) { deleteHomeShelf(id: $id) }';

function graphql(who: Who, query: string, variables: Vars = {}) {
  const req = t.http.post('/graphql').send({ query, variables });
  return who === 'anonymous' ? req : req.set('Authorization', tokens[who]);
}

async function ok<T = Json>(who: Who, query: string, variables: Vars = {}): Promise<T> {
  const body = (await graphql(who, query, variables)).body as GraphqlBody;
  expect(body.errors).toBeUndefined();
  return Object.values(body.data!)[0] as T;
}

async function failure(who: Who, query: string, variables: Vars = {}) {
  const body = (await graphql(who, query, variables)).body as GraphqlBody;
  expect(body.errors?.length).toBeGreaterThan(0);
  return body.errors![0].extensions ?? {};
}

const create = (input: Vars) => ok<Json>('curator', CREATE, { input });

beforeAll(async () => {
  t = await startTestApp();
  for (const [who, permission, username] of [
    ['other', [], undefined],
    ['curator', ['Admin:Curation'], undefined],
    ['vendor', [], 'vendor'],
  ] as const) {
    const user = await t.createUser({ session: true, permission: [...permission], username });
    tokens[who] = `Bearer ${user.sessionToken}`;
  }
  const em = t.em();
  addons.recommended = await createAddon(em, {
    slug: 'home-recommended',
    name: { 'en-US': 'Recommended one', fr: 'Recommandé' },
    promotedCategory: 2,
    promotedApps: [1],
  });
  addons.recommended2 = await createAddon(em, { slug: 'home-recommended-2', promotedCategory: 2, promotedApps: [1] });
  addons.plain = await createAddon(em, { slug: 'home-plain' });
  addons.theme = await createAddon(em, { slug: 'home-theme', type: AddonType.STATICTHEME });
  addons.collected = await createAddon(em, { slug: 'home-collected' });
  // The vendor's listed collection, with one add-on.
  await ok(
    'vendor',
    `mutation($input: CollectionInput!) { createCollection(user: "vendor", input: $input) { slug } }`,
    { input: { name: 'Privacy', slug: 'privacy', public: true } },
  );
  await ok(
    'vendor',
    `mutation { addCollectionAddon(user: "vendor", slug: "privacy", addon: "home-collected") { notes } }`,
  );
});
afterAll(() => t.close());

describe('home shelves curation (GraphQL)', () => {
  const input = {
    title: { 'en-US': 'Recommended extensions', fr: 'Extensions recommandées' },
    endpoint: 'search',
    addonType: 'extension',
    criteria: '?promoted=recommended&sort=random',
    footerText: 'See more recommended extensions',
    footerPathname: '/search/?promoted=recommended&type=extension',
    enabled: true,
    position: 2,
  };

  it('is for Admin:Curation holders only', async () => {
    expect((await failure('anonymous', CREATE, { input })).code).toBe('UNAUTHENTICATED');
    expect((await failure('other', CREATE, { input })).code).toBe('FORBIDDEN');
    expect((await failure('other', 'query { homeShelves(all: true) { id } }')).code).toBe('FORBIDDEN');
  });

  it('creates, edits and deletes a shelf, logged in the curation log', async () => {
    const shelf = await create(input);
    expect(shelf).toMatchObject({
      title: { 'en-US': 'Recommended extensions', fr: 'Extensions recommandées' },
      endpoint: 'search',
      addonType: 'EXTENSION',
      criteria: '?promoted=recommended&sort=random',
      footerText: { 'en-US': 'See more recommended extensions' },
      addonCount: 0,
      shownCount: 4,
      collectionOwner: null,
      enabled: true,
      position: 2,
    });
    const edited = await ok('curator', UPDATE, { id: shelf.id, input: { addonCount: 1, enabled: false } });
    expect(edited).toMatchObject({ addonCount: 1, shownCount: 1, enabled: false, title: shelf.title });
    const log = await ok<Json>(
      'curator',
      'query($id: Int) { curationLog(subjectType: "home_shelf", subjectId: $id) { items { action } } }',
      { id: shelf.id },
    );
    expect(log.items.map((i: Json) => i.action).sort()).toEqual(['created', 'updated']);
    expect(await ok('curator', DELETE, { id: shelf.id })).toBe(true);
    expect((await failure('curator', DELETE, { id: shelf.id })).code).toBe('NOT_FOUND');
  });

  it('refuses bad input field by field', async () => {
    const fields = async (values: Vars) => (await failure('curator', CREATE, { input: values })).fields;
    expect(await fields({})).toEqual({
      title: ['This field is required.'],
      endpoint: ['This field is required.'],
      addon_type: ['This field is required.'],
      criteria: ['This field is required.'],
    });
    expect(await fields({ ...input, endpoint: 'random-tag', addonType: 'persona' })).toEqual({
      endpoint: ['"random-tag" is not a valid choice.'],
      addon_type: ['"persona" is not a valid choice.'],
    });
    expect(await fields({ ...input, title: 'x'.repeat(71), criteria: `?q=${'x'.repeat(200)}` })).toEqual({
      title: ['Ensure this field has no more than 70 characters.'],
      criteria: ['Ensure this field has no more than 200 characters.'],
    });
    expect(await fields({ ...input, criteria: 'promoted=recommended' })).toEqual({
      criteria: ['Search criteria must start with "?".'],
    });
    expect(await fields({ ...input, criteria: '?sort=bogus' })).toEqual({ criteria: ['Invalid "sort" parameter.'] });
    // The search service's own rules: random needs promoted (or featured).
    expect((await fields({ ...input, criteria: '?sort=random' }))?.criteria).toHaveLength(1);
    expect(await fields({ ...input, endpoint: 'collections', criteria: 'missing' })).toEqual({
      criteria: ['No collection "missing" of the vendor\'s account is listed.'],
    });
    expect(await fields({ ...input, footerPathname: 'javascript:alert(1)', addonCount: 101, position: -1 })).toEqual({
      footer_pathname: ['Enter a site pathname (starting with "/") or an http(s) URL.'],
      addon_count: ['Ensure this value is between 0 and 100.'],
      position: ['Ensure this value is between 0 and 32767.'],
    });
    expect(await fields({ ...input, title: '   ' })).toEqual({ title: ['This field may not be blank.'] });
  });
});

describe('GET /api/v5/shelves/', () => {
  const ids: number[] = [];
  beforeAll(async () => {
    const shelves = [
      {
        title: { 'en-US': 'Recommended extensions', fr: 'Extensions recommandées' },
        endpoint: 'search',
        addonType: 'extension',
        criteria: '?promoted=recommended&sort=random',
        footerText: 'See more recommended extensions',
        footerPathname: '/search/?promoted=recommended&type=extension',
        enabled: true,
        position: 1,
      },
      {
        title: 'Privacy matters',
        endpoint: 'collections',
        addonType: 'extension',
        criteria: 'privacy',
        footerText: 'See more privacy extensions',
        footerPathname: 'https://blog.example.org/privacy',
        enabled: true,
        position: 2,
      },
      { title: 'Popular themes', endpoint: 'search', addonType: 'statictheme', criteria: '?sort=users', enabled: true },
      { title: 'Hidden', endpoint: 'search', addonType: 'extension', criteria: '?sort=users', enabled: false },
    ];
    for (const shelf of shelves) ids.push((await create(shelf)).id);
  });
  afterAll(async () => {
    for (const id of ids) await ok('curator', DELETE, { id });
  });

  it('answers the enabled shelves in position order with their add-ons, and a hero shelf of each kind', async () => {
    const res = await t.http.get('/api/v5/shelves/');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['primary', 'results', 'secondary']);
    const [themes, recommended, privacy] = res.body.results as Json[];
    expect(res.body.results).toHaveLength(3);
    expect(recommended).toMatchObject({
      title: { 'en-US': 'Recommended extensions', fr: 'Extensions recommandées' },
      endpoint: 'search',
      addon_type: 'extension',
      criteria: '?promoted=recommended&sort=random',
      footer: {
        url: expect.stringMatching(/^http:\/\/[^/]+\/search\/\?promoted=recommended&type=extension$/),
        outgoing: expect.stringMatching(/^http:\/\/[^/]+\/search\/\?promoted=recommended&type=extension$/),
        text: { 'en-US': 'See more recommended extensions' },
      },
    });
    expect(recommended.url).toMatch(/\/api\/v5\/addons\/search\/\?promoted=recommended&sort=random&type=extension$/);
    expect(recommended.addons.map((a: Json) => a.slug).sort()).toEqual(['home-recommended', 'home-recommended-2']);
    // The search result shape: the add-on object as search answers it.
    const [first] = recommended.addons as Json[];
    for (const key of ['id', 'guid', 'slug', 'name', 'type', 'url', 'icon_url', 'authors', 'ratings', 'promoted']) {
      expect(first).toHaveProperty(key);
    }
    expect(first.current_version).toHaveProperty('file');
    expect(privacy).toMatchObject({
      title: { 'en-US': 'Privacy matters' },
      endpoint: 'collections',
      addon_type: 'extension',
      footer: { url: 'https://blog.example.org/privacy', text: { 'en-US': 'See more privacy extensions' } },
    });
    expect(privacy.footer.outgoing).not.toBe('https://blog.example.org/privacy');
    expect(privacy.url).toMatch(/\/api\/v5\/accounts\/account\/vendor\/collections\/privacy\/addons\/$/);
    expect(privacy.addons.map((a: Json) => a.slug)).toEqual(['home-collected']);
    expect(themes).toMatchObject({ title: { 'en-US': 'Popular themes' }, addon_type: 'statictheme' });
    expect(themes.url).toMatch(/\/api\/v5\/addons\/search\/\?sort=users&type=statictheme$/);
    expect(themes.addons.map((a: Json) => a.slug)).toEqual(['home-theme']);
    expect(themes.footer).toEqual({ url: null, outgoing: null, text: null });
  });

  it('localises with lang, and shows at most the count', async () => {
    await ok('curator', UPDATE, { id: ids[0], input: { addonCount: 1 } });
    const res = await t.http.get('/api/v5/shelves/?lang=fr');
    const recommended = (res.body.results as Json[]).find(
      (s) => s.endpoint === 'search' && s.addon_type === 'extension',
    )!;
    expect(recommended.title).toEqual({ fr: 'Extensions recommandées' });
    expect(recommended.addons).toHaveLength(1);
    await ok('curator', UPDATE, { id: ids[0], input: { addonCount: 0 } });
  });

  it('shows none of a collection that went away, without failing the page', async () => {
    await ok(
      'vendor',
      'mutation { updateCollection(user: "vendor", slug: "privacy", input: { public: false }) { slug } }',
    );
    const res = await t.http.get('/api/v5/shelves/');
    expect(res.status).toBe(200);
    expect((res.body.results as Json[]).find((s) => s.endpoint === 'collections')!.addons).toEqual([]);
    await ok(
      'vendor',
      'mutation { updateCollection(user: "vendor", slug: "privacy", input: { public: true }) { slug } }',
    );
  });

  it('serves the editorial texts at shelves/editorial/', async () => {
    const res = await t.http.get('/api/v5/shelves/editorial/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      results: [
        { title: 'Popular themes', footer_text: null },
        { title: 'Recommended extensions', footer_text: 'See more recommended extensions' },
        { title: 'Privacy matters', footer_text: 'See more privacy extensions' },
      ],
    });
  });

  it('is v5 only', async () => {
    expect((await t.http.get('/api/v4/shelves/')).status).toBe(404);
    expect((await t.http.get('/api/v4/shelves/editorial/')).status).toBe(404);
  });
});

describe('GET /api/v5/hero/: translated objects and links with outgoing', () => {
  let primaryId: number;
  let secondaryId: number;
  beforeAll(async () => {
    primaryId = (
      await ok<Json>('curator', 'mutation($input: PrimaryShelfInput!) { createPrimaryShelf(input: $input) { id } }', {
        input: { addon: 'home-recommended', gradient: 'color-blue-70', enabled: true },
      })
    ).id;
    const module = (n: number) => ({
      icon: `https://cdn.example.com/icon-${n}.svg`,
      description: { 'en-US': `Module ${n}`, fr: `Module ${n} fr` },
      cta: { url: `https://example.org/module-${n}`, text: `Go ${n}` },
    });
    secondaryId = (
      await ok<Json>(
        'curator',
        'mutation($input: SecondaryShelfInput!) { createSecondaryShelf(input: $input) { id } }',
        {
          input: {
            headline: { 'en-US': 'Headline', fr: 'Titre' },
            description: 'Description',
            cta: { url: 'https://example.org/cta', text: 'Click' },
            modules: [module(1), module(2), module(3)],
            enabled: true,
          },
        },
      )
    ).id;
  });
  afterAll(async () => {
    await ok('curator', `mutation { deletePrimaryShelf(id: ${primaryId}) }`);
    await ok('curator', `mutation { deleteSecondaryShelf(id: ${secondaryId}) }`);
  });

  it('v5 sends translated objects and {url, outgoing, text}', async () => {
    const { body } = await t.http.get('/api/v5/hero/');
    expect(body.secondary).toMatchObject({
      headline: { 'en-US': 'Headline', fr: 'Titre' },
      description: { 'en-US': 'Description' },
      cta: { url: 'https://example.org/cta', text: { 'en-US': 'Click' } },
    });
    expect(body.secondary.cta.outgoing).toMatch(/^http.*example\.org.*cta/);
    expect(body.secondary.cta.outgoing).not.toBe('https://example.org/cta');
    expect(body.secondary.modules[0]).toMatchObject({
      icon: 'https://cdn.example.com/icon-1.svg',
      description: { 'en-US': 'Module 1', fr: 'Module 1 fr' },
      cta: { url: 'https://example.org/module-1', text: { 'en-US': 'Go 1' } },
    });
    expect(typeof body.primary.description).toBe('object');
    expect(body.primary.addon.slug).toBe('home-recommended');
    const fr = (await t.http.get('/api/v5/hero/?lang=fr')).body;
    expect(fr.secondary.headline).toEqual({ fr: 'Titre' });
    expect(fr.secondary.modules[0].description).toEqual({ fr: 'Module 1 fr' });
  });

  it('the home page carries the same hero shapes', async () => {
    const { body } = await t.http.get('/api/v5/shelves/');
    expect(body.secondary.headline).toEqual({ 'en-US': 'Headline', fr: 'Titre' });
    expect(body.primary.addon.slug).toBe('home-recommended');
  });

  it('v4 keeps strings and {url, text}', async () => {
    const { body } = await t.http.get('/api/v4/hero/');
    expect(body.secondary).toMatchObject({
      headline: 'Headline',
      description: 'Description',
      cta: { url: 'https://example.org/cta', text: 'Click' },
    });
    expect(body.secondary.cta).not.toHaveProperty('outgoing');
    expect(body.secondary.modules[0].description).toBe('Module 1');
    expect(typeof body.primary.description).toBe('string');
  });
});
