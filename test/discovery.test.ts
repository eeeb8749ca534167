import type { Addon } from '../src/catalogue/addon.entity.js';
import { AddonStatus, AddonType, PromotedCategory } from '../src/catalogue/catalogue.enums.js';
import { Collection, CollectionAddon } from '../src/collections/collection.entity.js';
import { Rating } from '../src/ratings/rating.entity.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';

type Who = 'anonymous' | 'other' | 'curator';
type Vars = Record<string, unknown>;
interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string; fields?: Record<string, string[]> } }[];
}
interface Item {
  heading?: string;
  description?: string | null;
  description_text?: string | null;
  is_recommendation: boolean;
  addon: Record<string, unknown> & { id: number };
}

let t: TestApp;
const tokens = {} as Record<Exclude<Who, 'anonymous'>, string>;
const ids = {} as Record<Exclude<Who, 'anonymous'>, number>;
type Name =
  | 'ext1'
  | 'ext2'
  | 'ext3'
  | 'ext4'
  | 'chinaOnly'
  | 'theme1'
  | 'theme2'
  | 'theme3'
  | 'hidden'
  | 'rec1'
  | 'rec2'
  | 'rec3'
  | 'rec4'
  | 'rec5'
  | 'unrelated'
  | 'nominatedRec'
  | 'themeRec'
  | 'deleted';
const a = {} as Record<Name, Addon>;
const items = {} as Record<string, number>;

const CLIENT = 'a'.repeat(64);
const clientId = (n: number) => n.toString(16).padStart(64, '0');

const CREATE =
  'mutation($input: DiscoveryItemInput!) { createDiscoveryItem(input: $input) { id position positionChina } }';
const UPDATE =
  'mutation($id: Int!, $input: DiscoveryItemInput!) { updateDiscoveryItem(id: $id, input: $input) { id position customDescription } }';
const DELETE = 'mutation($id: Int!) { deleteDiscoveryItem(id: $id) }';
const LOG = `query($id: Int) { curationLog(subjectType: "discovery_item", subjectId: $id) {
  items { action subjectId userId addonId details } } }`;

function graphql(who: Who, query: string, variables: Vars = {}) {
  const req = t.http.post('/graphql').send({ query, variables });
  return who === 'anonymous' ? req : req.set('Authorization', tokens[who]);
}

async function ok<T = Record<string, unknown>>(who: Who, query: string, variables: Vars = {}): Promise<T> {
  const body = (await graphql(who, query, variables)).body as GraphqlBody;
  expect(body.errors).toBeUndefined();
  return Object.values(body.data!)[0] as T;
}

async function failure(who: Who, query: string, variables: Vars = {}) {
  const body = (await graphql(who, query, variables)).body as GraphqlBody;
  expect(body.errors?.length).toBeGreaterThan(0);
  return body.errors![0].extensions ?? {};
}

const item = (input: Vars) => ok<{ id: number }>('curator', CREATE, { input });

async function discovery(path: string): Promise<{ count: number; results: Item[] }> {
  const res = await t.http.get(path);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/json');
  return res.body as { count: number; results: Item[] };
}
const addonIds = (body: { results: Item[] }) => body.results.map((r) => r.addon.id);
/** What an answer shows, without its absolute URLs (each request has its own port). */
const summary = (body: { count: number; results: Item[] }) => ({
  count: body.count,
  items: body.results.map((r) => [r.addon.id, r.is_recommendation, r.description_text ?? r.description]),
});

beforeAll(async () => {
  t = await startTestApp();
  for (const [who, permission] of [
    ['other', []],
    ['curator', ['Admin:Curation']],
  ] as const) {
    const user = await t.createUser({ session: true, permission: [...permission], name: `The ${who}` });
    tokens[who] = `Bearer ${user.sessionToken}`;
    ids[who] = user.id;
  }
  const author = await t.createUser({ name: 'Ann <Author>' });
  const em = t.em();
  const ext = (slug: string, fields: Record<string, unknown> = {}) =>
    createAddon(em, { slug, authors: [{ id: author.id }], averageDailyUsers: 10, ...fields });
  const theme = (slug: string) =>
    createAddon(em, { slug, type: AddonType.STATICTHEME, summary: { 'en-US': 'A theme' } });
  a.ext1 = await ext('ext1', {
    name: { 'en-US': 'First & best', fr: 'Premier' },
    summary: { 'en-US': 'First summary', fr: 'Premier résumé' },
    promotedCategory: PromotedCategory.RECOMMENDED,
    promotedApps: [1],
  });
  a.ext2 = await ext('ext2');
  a.ext3 = await ext('ext3', { categoryIds: [7] });
  a.ext4 = await ext('ext4');
  a.chinaOnly = await ext('china-only', { categoryIds: [99] });
  a.theme1 = await theme('theme1');
  a.theme2 = await theme('theme2');
  a.theme3 = await theme('theme3');
  a.hidden = await ext('hidden', { status: AddonStatus.NOMINATED });
  a.rec1 = await ext('rec1', { averageDailyUsers: 1 });
  a.rec2 = await ext('rec2', { averageDailyUsers: 2 });
  a.rec3 = await ext('rec3', { averageDailyUsers: 3 });
  a.rec4 = await ext('rec4', { categoryIds: [7, 8], averageDailyUsers: 500 });
  a.rec5 = await ext('rec5', { categoryIds: [7], averageDailyUsers: 400 });
  a.unrelated = await ext('unrelated', { categoryIds: [50], averageDailyUsers: 100_000 });
  a.nominatedRec = await ext('nominated-rec', { status: AddonStatus.NOMINATED, categoryIds: [7] });
  a.themeRec = await createAddon(em, { slug: 'theme-rec', type: AddonType.STATICTHEME, categoryIds: [7] });
  a.deleted = await ext('deleted', { status: AddonStatus.DELETED });

  // Co-occurrence: a collection holds ext1 with rec1, rec2 and two that may never be recommended;
  // a user rated ext2 and rec3 4+ (and unrelated only 2).
  const owner = await t.createUser({});
  const collection = em.create(Collection, {
    author: owner.id,
    slug: 'together',
    name: { 'en-US': 'Together' },
    description: null,
  });
  await em.flush();
  for (const addon of [a.ext1, a.rec1, a.rec2, a.nominatedRec, a.themeRec]) {
    em.create(CollectionAddon, { collection, addon: addon.id, notes: null });
  }
  const rater = await t.createUser({});
  em.create(Rating, { addon: a.ext2.id, user: rater.id, score: 5 });
  em.create(Rating, { addon: a.rec3.id, user: rater.id, score: 4 });
  em.create(Rating, { addon: a.unrelated.id, user: rater.id, score: 2 });
  await em.flush();
});
afterAll(() => t.close());

describe('curation of discovery items (Admin:Curation)', () => {
  it('refuses anonymous callers (401) and others (403)', async () => {
    for (const [query, variables] of [
      [CREATE, { input: { addon: 'ext1' } }],
      [UPDATE, { id: 1, input: {} }],
      [DELETE, { id: 1 }],
    ] as const) {
      expect((await failure('anonymous', query, variables)).code).toBe('UNAUTHENTICATED');
      expect((await failure('other', query, variables)).code).toBe('FORBIDDEN');
    }
  });

  it('checks lengths first, then the add-on and positions', async () => {
    const ext = await failure('curator', CREATE, {
      input: {
        addon: 'no-such',
        customHeading: 'h'.repeat(256),
        customDescription: { fr: 'd'.repeat(1001) },
        position: -1,
      },
    });
    expect(ext.code).toBe('VALIDATION_FAILED');
    expect(ext.fields).toEqual({
      custom_heading: ['Ensure this field has no more than 255 characters.'],
      custom_description: ['Ensure this field has no more than 1000 characters.'],
      position: ['Ensure this value is between 0 and 32767.'],
      addon: ['Invalid pk or slug "no-such" - object does not exist.'],
    });
    expect((await failure('curator', CREATE, { input: {} })).fields).toEqual({ addon: ['This field is required.'] });
    expect((await failure('curator', CREATE, { input: { addon: 'deleted' } })).fields).toEqual({
      addon: ['Invalid pk or slug "deleted" - object does not exist.'],
    });
    expect((await failure('curator', CREATE, { input: { addon: 'ext1', customHeading: { xx: 'y' } } })).fields).toEqual(
      {
        custom_heading: ["The language code 'xx' is invalid."],
      },
    );
  });

  it('creates the pane (default and China positions), one item per add-on', async () => {
    items.ext1 = (
      await item({
        addon: 'ext1',
        position: 1,
        positionChina: 2,
        customHeading: 'Try {start_sub_heading}{addon_name}{end_sub_heading} <now>',
        customDescription: { 'en-US': 'Editorial words', fr: 'Mots' },
      })
    ).id;
    items.theme1 = (await item({ addon: 'theme1', position: 2 })).id;
    items.ext2 = (await item({ addon: String(a.ext2.id), position: 3 })).id;
    items.theme2 = (await item({ addon: 'theme2', position: 4 })).id;
    items.ext3 = (await item({ addon: a.ext3.guid!, position: 5 })).id;
    items.theme3 = (await item({ addon: 'theme3', position: 6 })).id;
    items.ext4 = (await item({ addon: 'ext4', position: 7 })).id;
    items.hidden = (await item({ addon: 'hidden', position: 8, customDescription: 'Not public' })).id;
    items.chinaOnly = (await item({ addon: 'china-only', positionChina: 1 })).id;
    expect((await failure('curator', CREATE, { input: { addon: 'ext1' } })).fields).toEqual({
      addon: ['Discovery item with this Addon already exists.'],
    });
  });

  it('edits texts and positions, deletes; every change in the curation log', async () => {
    const extra = await item({ addon: 'rec5' });
    const edited = await ok<{ position: number; customDescription: unknown }>('curator', UPDATE, {
      id: extra.id,
      input: { position: 9, customDescription: 'Soon' },
    });
    expect(edited).toMatchObject({ position: 9, customDescription: { 'en-US': 'Soon' } });
    expect(await ok('curator', DELETE, { id: extra.id })).toBe(true);
    expect((await failure('curator', DELETE, { id: extra.id })).code).toBe('NOT_FOUND');
    const log = await ok<{ items: Record<string, unknown>[] }>('curator', LOG, { id: extra.id });
    expect(log.items.map((i) => i.action)).toEqual(['deleted', 'updated', 'created']);
    expect(log.items.every((i) => i.addonId === a.rec5.id && i.userId === ids.curator)).toBe(true);
    expect(JSON.parse(log.items[1].details as string)).toEqual({
      customDescription: [null, { 'en-US': 'Soon' }],
      position: [0, 9],
    });
  });
});

describe('GET /api/{v3,v4}/discovery/', () => {
  const standard = () => [a.ext1, a.theme1, a.ext2, a.theme2, a.ext3, a.theme3, a.ext4].map((x) => x.id);

  it('lists public add-ons in editorial order with the v4 item shape', async () => {
    const body = await discovery('/api/v4/discovery/');
    expect(Object.keys(body)).toEqual(['count', 'results']);
    expect(body.count).toBe(7);
    expect(addonIds(body)).toEqual(standard());
    const [first, theme] = body.results;
    expect(Object.keys(first).sort()).toEqual(['addon', 'description_text', 'is_recommendation']);
    expect(first.is_recommendation).toBe(false);
    expect(first.description_text).toBe('Editorial words');
    expect(theme.description_text).toBeNull();
    expect(body.results[2].description_text).toBe(a.ext2.summary!['en-US']);
    expect(Object.keys(first.addon).sort()).toEqual(
      [
        'id',
        'authors',
        'average_daily_users',
        'current_version',
        'guid',
        'icon_url',
        'name',
        'ratings',
        'previews',
        'slug',
        'theme_data',
        'type',
        'url',
      ].sort(),
    );
    expect(Object.keys(first.addon.current_version as object).sort()).toEqual(
      ['compatibility', 'files', 'id', 'is_strict_compatibility_enabled'].sort(),
    );
    expect(theme.addon.type).toBe('statictheme');
  });

  it('keeps the v3 heading and HTML description, and the v3 add-on subset', async () => {
    const body = await discovery('/api/v3/discovery/');
    expect(addonIds(body)).toEqual(standard());
    const [first, theme, second] = body.results;
    expect(Object.keys(first).sort()).toEqual(['addon', 'description', 'heading', 'is_recommendation']);
    const url = first.addon.url as string;
    expect(first.heading).toBe(
      `Try <span><a href="${url}">First &amp; best by Ann &lt;Author&gt;</a></span> &lt;now&gt;`,
    );
    expect(first.description).toBe('<blockquote>Editorial words</blockquote>');
    expect(second.heading).toBe(
      `${a.ext2.name!['en-US']} <span>by <a href="${second.addon.url as string}">Ann &lt;Author&gt;</a></span>`,
    );
    expect(theme.description).toBeNull();
    expect(theme.addon.type).toBe('persona');
    expect(Object.keys(first.addon).sort()).toEqual(
      ['id', 'current_version', 'guid', 'icon_url', 'name', 'slug', 'theme_data', 'type', 'url'].sort(),
    );
    expect(Object.keys(first.addon.current_version as object).sort()).toEqual(['compatibility', 'files']);
  });

  it('localises with lang', async () => {
    const v4 = await discovery('/api/v4/discovery/?lang=fr');
    expect(v4.results[0].description_text).toBe('Mots');
    expect(v4.results[0].addon.name).toBe('Premier');
    const v3 = await discovery('/api/v3/discovery/?lang=fr');
    expect(v3.results[0].heading).toContain('Premier by');
    const de = await discovery('/api/v4/discovery/?lang=de');
    expect(de.results[0].description_text).toBe('Editorial words');
  });

  it('serves the China edition (and its v4 alias) in its own order, never with recommendations', async () => {
    const china = [a.chinaOnly.id, a.ext1.id];
    expect(addonIds(await discovery('/api/v4/discovery/?edition=china'))).toEqual(china);
    expect(addonIds(await discovery('/api/v4/discovery/?edition=MozillaOnline'))).toEqual(china);
    expect(addonIds(await discovery('/api/v3/discovery/?edition=china'))).toEqual(china);
    expect(addonIds(await discovery('/api/v3/discovery/?edition=mozillaonline'))).toEqual(standard());
    const withId = await discovery(`/api/v4/discovery/?edition=china&telemetry-client-id=${CLIENT}`);
    expect(addonIds(withId)).toEqual(china);
    expect(withId.results.every((r) => !r.is_recommendation)).toBe(true);
  });

  it('replaces up to 4 extensions with recommendations for a valid client id; themes and the count stay', async () => {
    const body = await discovery(`/api/v4/discovery/?telemetry-client-id=${CLIENT}`);
    expect(body.count).toBe(7);
    const themes = new Set([a.theme1.id, a.theme2.id, a.theme3.id]);
    body.results.forEach((r, i) => {
      if (i % 2 === 1) {
        expect(r.addon.id).toBe(standard()[i]);
        expect(r.is_recommendation).toBe(false);
      } else {
        expect(r.is_recommendation).toBe(true);
        expect(themes.has(r.addon.id)).toBe(false);
        expect(r.addon.type).toBe('extension');
      }
    });
    const recommended = body.results.filter((r) => r.is_recommendation);
    expect(recommended).toHaveLength(4);
    expect(new Set(recommended.map((r) => r.addon.id)).size).toBe(4);
    expect(recommended[0].description_text).toMatch(/^Summary of add-on/);
    expect(Object.keys(recommended[0]).sort()).toEqual(['addon', 'description_text', 'is_recommendation']);
    // Deterministic per client id; upper-case hex is the same id.
    expect(summary(await discovery(`/api/v4/discovery/?telemetry-client-id=${CLIENT}`))).toEqual(summary(body));
    expect(summary(await discovery(`/api/v4/discovery/?telemetry-client-id=${CLIENT.toUpperCase()}`))).toEqual(
      summary(body),
    );
  });

  it('recommends from collections and ratings, then popular add-ons of the same categories; only public extensions', async () => {
    const seen = new Set<number>();
    const answers = new Set<string>();
    for (let n = 1; n <= 25; n++) {
      const body = await discovery(`/api/v4/discovery/?telemetry-client-id=${clientId(n)}`);
      const recs = body.results.filter((r) => r.is_recommendation).map((r) => r.addon.id);
      expect(recs).toHaveLength(4);
      recs.forEach((id) => seen.add(id));
      answers.add(recs.join(','));
    }
    expect([...seen].sort((x, y) => x - y)).toEqual(
      [a.rec1, a.rec2, a.rec3, a.rec4, a.rec5].map((x) => x.id).sort((x, y) => x - y),
    );
    expect(answers.size).toBeGreaterThan(1);
  });

  it('ignores client ids that are not a sha256 in hex', async () => {
    const plain = await discovery('/api/v4/discovery/');
    for (const bad of ['abc', 'g'.repeat(64), 'a'.repeat(63), 'a'.repeat(65), '']) {
      expect(summary(await discovery(`/api/v4/discovery/?telemetry-client-id=${bad}`))).toEqual(summary(plain));
    }
  });

  it('v3: recommendations with platform, branch and study; none once edition is given', async () => {
    const v3 = await discovery(
      `/api/v3/discovery/?telemetry-client-id=${CLIENT}&platform=WINNT&branch=release&study=x&lang=en-US`,
    );
    expect(v3.results.filter((r) => r.is_recommendation)).toHaveLength(4);
    expect(Object.keys(v3.results[0]).sort()).toEqual(['addon', 'description', 'heading', 'is_recommendation']);
    const v3Edition = await discovery(`/api/v3/discovery/?telemetry-client-id=${CLIENT}&edition=default`);
    expect(v3Edition.results.every((r) => !r.is_recommendation)).toBe(true);
    expect(addonIds(v3Edition)).toEqual(standard());
  });

  it('replaces only as many extensions as there are recommendations, never a non-public add-on', async () => {
    await t.em().nativeUpdate(
      'Addon',
      { id: { $in: [a.rec1.id, a.rec2.id, a.rec3.id, a.rec4.id] } },
      {
        status: AddonStatus.DISABLED,
      },
    );
    const body = await discovery(`/api/v4/discovery/?telemetry-client-id=${CLIENT}`);
    expect(body.count).toBe(7);
    const recs = body.results.filter((r) => r.is_recommendation);
    expect(recs.map((r) => r.addon.id)).toEqual([a.rec5.id]);
    expect(body.results[0].addon.id).toBe(a.rec5.id);
    expect(addonIds(body).slice(1)).toEqual(standard().slice(1));
    await t.em().nativeUpdate(
      'Addon',
      { id: { $in: [a.rec1.id, a.rec2.id, a.rec3.id, a.rec4.id] } },
      {
        status: AddonStatus.PUBLIC,
      },
    );
  });
});

describe('GET /api/v4/discovery/editorial/', () => {
  it('lists every item with its guid and custom description, unpaginated', async () => {
    const res = await t.http.get('/api/v4/discovery/editorial/?page=2&page_size=1');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['results']);
    const results = res.body.results as { addon: { guid: string }; custom_description: string | null }[];
    expect(results).toHaveLength(9);
    expect(results[0]).toEqual({ addon: { guid: a.chinaOnly.guid }, custom_description: null });
    const first = results.find((r) => r.addon.guid === a.ext1.guid);
    expect(first).toEqual({ addon: { guid: a.ext1.guid }, custom_description: 'Editorial words' });
    expect(Object.keys(results[1])).toEqual(['addon', 'custom_description']);
  });

  it('recommended=true keeps add-ons promoted as recommended', async () => {
    const res = await t.http.get('/api/v4/discovery/editorial/?recommended=true');
    expect(res.body).toEqual({ results: [{ addon: { guid: a.ext1.guid }, custom_description: 'Editorial words' }] });
    const other = await t.http.get('/api/v4/discovery/editorial/?recommended=yes');
    expect(other.body.results).toHaveLength(9);
  });

  it('has no v3 path', async () => {
    expect((await t.http.get('/api/v3/discovery/editorial/')).status).toBe(404);
  });
});
