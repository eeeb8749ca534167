import type { Addon } from '../src/catalogue/addon.entity.js';
import { AddonStatus } from '../src/catalogue/catalogue.enums.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';

type Who = 'anonymous' | 'other' | 'curator';
type Vars = Record<string, unknown>;
interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string; fields?: Record<string, string[]> } }[];
}

let t: TestApp;
const tokens = {} as Record<Exclude<Who, 'anonymous'>, string>;
const ids = {} as Record<Exclude<Who, 'anonymous'>, number>;
const addons = {} as Record<'listed' | 'second' | 'nominated' | 'disabled' | 'deleted' | 'homepage' | 'plain', Addon>;

const PRIMARY = `
  id position enabled external featuredImage description ownDescription
  gradient { start end }
  addon { id } externalAddon { id }
`;
const SECONDARY =
  'id position enabled headline description cta { url text } modules { icon description cta { url text } }';

beforeAll(async () => {
  t = await startTestApp();
  for (const [who, permission] of [
    ['other', []],
    ['curator', ['Admin:Curation']],
  ] as const) {
    const user = await t.createUser({ session: true, permission: [...permission] });
    tokens[who] = `Bearer ${user.sessionToken}`;
    ids[who] = user.id;
  }
  const em = t.em();
  addons.listed = await createAddon(em, {
    slug: 'listed',
    name: { 'en-US': 'Listed', fr: 'Listé' },
    summary: { 'en-US': 'Listed summary', fr: 'Résumé' },
    homepage: { 'en-US': 'https://listed.example.com/' },
    promotedCategory: 1,
    promotedApps: [1],
    previews: 1,
  });
  addons.second = await createAddon(em, { slug: 'second' });
  addons.nominated = await createAddon(em, {
    slug: 'nominated',
    status: AddonStatus.NOMINATED,
    homepage: { 'en-US': 'https://nominated.example.com/' },
  });
  addons.disabled = await createAddon(em, {
    slug: 'disabled',
    disabledByUser: true,
    homepage: { 'en-US': 'https://disabled.example.com/' },
  });
  addons.deleted = await createAddon(em, { slug: 'deleted', status: AddonStatus.DELETED });
  addons.homepage = await createAddon(em, {
    slug: 'homepage',
    name: { 'en-US': 'External one' },
    homepage: { 'en-US': 'https://external.example.com/page' },
  });
  addons.plain = await createAddon(em, { slug: 'plain' });
});
afterAll(() => t.close());

function graphql(who: Who, query: string, variables: Vars = {}) {
  const req = t.http.post('/graphql').send({ query, variables });
  return who === 'anonymous' ? req : req.set('Authorization', tokens[who]);
}

async function ok<T = Record<string, unknown>>(who: Who, query: string, variables: Vars = {}): Promise<T> {
  const res = await graphql(who, query, variables);
  const body = res.body as GraphqlBody;
  expect(body.errors).toBeUndefined();
  return Object.values(body.data!)[0] as T;
}

async function failure(who: Who, query: string, variables: Vars = {}) {
  const res = await graphql(who, query, variables);
  const body = res.body as GraphqlBody;
  expect(body.errors?.length).toBeGreaterThan(0);
  return body.errors![0].extensions ?? {};
}

const CREATE_PRIMARY = `mutation($input: PrimaryShelfInput!) { createPrimaryShelf(input: $input) { ${PRIMARY} } }`;
const UPDATE_PRIMARY = `mutation($id: Int!, $input: PrimaryShelfInput!) { updatePrimaryShelf(id: $id, input: $input) { ${PRIMARY} } }`;
const DELETE_PRIMARY = 'mutation($id: Int!) { deletePrimaryShelf(id: $id) }';
const CREATE_SECONDARY = `mutation($input: SecondaryShelfInput!) { createSecondaryShelf(input: $input) { ${SECONDARY} } }`;
const UPDATE_SECONDARY = `mutation($id: Int!, $input: SecondaryShelfInput!) { updateSecondaryShelf(id: $id, input: $input) { ${SECONDARY} } }`;
const DELETE_SECONDARY = 'mutation($id: Int!) { deleteSecondaryShelf(id: $id) }';
const LOG = `query($type: String, $id: Int) { curationLog(subjectType: $type, subjectId: $id) {
  count items { action subjectType subjectId userId addonId details } } }`;

const primary = (input: Vars) => ok<{ id: number }>('curator', CREATE_PRIMARY, { input });
/** A REST read as the curator (`all=true` is theirs alone). */
const asCurator = (path: string) => t.http.get(path).set('Authorization', tokens.curator);
const secondary = (input: Vars) => ok<{ id: number }>('curator', CREATE_SECONDARY, { input });

const module = (n: number, cta = true) => ({
  icon: `https://cdn.example.com/icon-${n}.svg`,
  description: `Module ${n}`,
  ...(cta ? { cta: { url: `https://example.org/module-${n}`, text: `Go ${n}` } } : {}),
});
const MODULES = [module(1), module(2, false), module(3)];

describe('GET /api/v4/hero/ with nothing curated', () => {
  it('answers null for both', async () => {
    const res = await t.http.get('/api/v4/hero/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ primary: null, secondary: null });
  });

  it('answers empty results for the lists', async () => {
    expect((await t.http.get('/api/v4/hero/primary/')).body).toEqual({ results: [] });
    expect((await t.http.get('/api/v4/hero/secondary/')).body).toEqual({ results: [] });
  });

  it('has no v3 paths', async () => {
    for (const path of ['/hero/', '/hero/primary/', '/hero/secondary/']) {
      expect((await t.http.get(`/api/v3${path}`)).status).toBe(404);
    }
  });
});

describe('curation permissions (Admin:Curation)', () => {
  const input = { addon: 'listed', gradient: 'color-blue-70' };
  it('refuses anonymous callers (401) and others (403) on every operation', async () => {
    const operations: [string, Vars][] = [
      [CREATE_PRIMARY, { input }],
      [UPDATE_PRIMARY, { id: 1, input }],
      [DELETE_PRIMARY, { id: 1 }],
      [CREATE_SECONDARY, { input: { headline: 'h', description: 'd', modules: MODULES } }],
      [UPDATE_SECONDARY, { id: 1, input: { enabled: true } }],
      [DELETE_SECONDARY, { id: 1 }],
      [LOG, {}],
    ];
    for (const [query, variables] of operations) {
      expect((await failure('anonymous', query, variables)).code).toBe('UNAUTHENTICATED');
      expect((await failure('other', query, variables)).code).toBe('FORBIDDEN');
    }
  });

  it('answers NOT_FOUND for unknown shelves', async () => {
    expect((await failure('curator', UPDATE_PRIMARY, { id: 999_999, input: {} })).code).toBe('NOT_FOUND');
    expect((await failure('curator', DELETE_SECONDARY, { id: 999_999 })).code).toBe('NOT_FOUND');
  });
});

describe('primary shelf validation', () => {
  it('checks lengths before anything else', async () => {
    const ext = await failure('curator', CREATE_PRIMARY, {
      input: {
        addon: 'no-such-addon',
        description: 'x'.repeat(251),
        featuredImage: `https://a.example/${'x'.repeat(255)}`,
        gradient: 'red',
      },
    });
    expect(ext.code).toBe('VALIDATION_FAILED');
    expect(ext.fields).toEqual({
      description: ['Ensure this field has no more than 250 characters.'],
      featured_image: ['Ensure this field has no more than 255 characters.'],
      gradient: ['"red" is not a valid choice.'],
      addon: ['Invalid pk or slug "no-such-addon" - object does not exist.'],
    });
  });

  it('takes gradients from the fixed list only', async () => {
    const ext = await failure('curator', CREATE_PRIMARY, { input: { addon: 'listed', gradient: '#054096' } });
    expect(ext.fields).toEqual({ gradient: ['"#054096" is not a valid choice.'] });
  });

  it('needs an add-on that exists and is not deleted', async () => {
    expect((await failure('curator', CREATE_PRIMARY, { input: {} })).fields).toEqual({
      addon: ['This field is required.'],
    });
    expect((await failure('curator', CREATE_PRIMARY, { input: { addon: 'deleted' } })).fields).toEqual({
      addon: ['Invalid pk or slug "deleted" - object does not exist.'],
    });
  });

  it('needs http(s) image URLs, a gradient once enabled, a homepage for external shelves', async () => {
    const ext = await failure('curator', CREATE_PRIMARY, {
      input: { addon: 'plain', featuredImage: 'javascript:alert(1)', enabled: true, external: true },
    });
    expect(ext.fields).toEqual({
      featured_image: ['Enter a valid URL.'],
      gradient: ['Gradient color is required for enabled shelves'],
      external: ['External primary shelves need a homepage defined in addon details.'],
    });
  });

  it('refuses unknown locales in translated texts', async () => {
    const ext = await failure('curator', CREATE_PRIMARY, { input: { addon: 'listed', description: { xx: 'hi' } } });
    expect(ext.fields).toEqual({ description: ["The language code 'xx' is invalid."] });
  });

  it('changes nothing when refused', async () => {
    expect((await asCurator('/api/v4/hero/primary/?all=true')).body).toEqual({ results: [] });
  });
});

describe('secondary shelf validation', () => {
  it('checks lengths before anything else, modules included', async () => {
    const ext = await failure('curator', CREATE_SECONDARY, {
      input: {
        headline: 'h'.repeat(51),
        description: 'd'.repeat(101),
        cta: { url: `ftp://${'x'.repeat(255)}`, text: 't'.repeat(21) },
        modules: [{ icon: 'not a url', description: 'm'.repeat(51) }, module(2)],
      },
    });
    expect(ext.fields).toEqual({
      headline: ['Ensure this field has no more than 50 characters.'],
      description: ['Ensure this field has no more than 100 characters.'],
      'cta.url': ['Ensure this field has no more than 255 characters.'],
      'cta.text': ['Ensure this field has no more than 20 characters.'],
      'modules.0.description': ['Ensure this field has no more than 50 characters.'],
      'modules.0.icon': ['Enter a valid URL.'],
      modules: ['Exactly 3 modules are required.'],
    });
  });

  it('needs exactly 3 modules, http(s) CTA URLs, CTA URL and text together', async () => {
    expect((await failure('curator', CREATE_SECONDARY, { input: { headline: 'h', description: 'd' } })).fields).toEqual(
      {
        modules: ['This field is required.'],
      },
    );
    const four = [...MODULES, module(4)];
    expect(
      (await failure('curator', CREATE_SECONDARY, { input: { headline: 'h', description: 'd', modules: four } }))
        .fields,
    ).toEqual({ modules: ['Exactly 3 modules are required.'] });
    const ext = await failure('curator', CREATE_SECONDARY, {
      input: {
        headline: ' ',
        description: 'd',
        enabled: true,
        cta: { url: 'mailto:a@example.com', text: 'Mail' },
        modules: [module(1), { ...module(2), cta: { url: 'https://example.org/' } }, module(3)],
      },
    });
    expect(ext.fields).toEqual({
      'cta.url': ['Enter a valid URL.'],
      'modules.1.cta': ['Both the call to action URL and text must be defined, or neither, for enabled shelves.'],
      headline: ['This field may not be blank.'],
    });
    const noText = await failure('curator', CREATE_SECONDARY, {
      input: { headline: 'h', description: 'd', enabled: true, cta: { url: 'https://example.org/' }, modules: MODULES },
    });
    expect(noText.fields).toEqual({
      cta: ['Both the call to action URL and text must be defined, or neither, for enabled shelves.'],
    });
  });
});

describe('hero shelves, curated', () => {
  const shelves = {} as Record<string, number>;

  beforeAll(async () => {
    shelves.listed = (
      await primary({
        addon: 'listed',
        gradient: 'color-blue-70',
        featuredImage: 'https://cdn.example.com/featured.png',
        description: { 'en-US': 'Curated words', fr: 'Mots choisis' },
        enabled: true,
        position: 2,
      })
    ).id;
    shelves.fallback = (
      await primary({ addon: String(addons.second.id), gradient: 'color-pink-70', enabled: true, position: 1 })
    ).id;
    shelves.external = (
      await primary({
        addon: addons.nominated.guid!,
        gradient: 'color-green-70',
        external: true,
        enabled: true,
        position: 3,
      })
    ).id;
    shelves.hidden = (await primary({ addon: 'plain', gradient: 'color-violet-70', position: 0 })).id;
    // Shelves that are not shown: a non-public add-on, a disabled one (external too).
    shelves.nominated = (await primary({ addon: 'nominated', gradient: 'color-blue-70', enabled: true })).id;
    shelves.disabledExternal = (
      await primary({ addon: 'disabled', gradient: 'color-blue-70', enabled: true, external: true })
    ).id;
    shelves.secondary = (
      await secondary({
        headline: { 'en-US': 'Headline', de: 'Schlagzeile' },
        description: 'Secondary description',
        cta: { url: 'https://example.org/more', text: 'More' },
        modules: MODULES,
        enabled: true,
        position: 5,
      })
    ).id;
    shelves.secondaryFirst = (
      await secondary({
        headline: 'First',
        description: 'No call to action',
        modules: MODULES,
        enabled: true,
        position: 1,
      })
    ).id;
    shelves.secondaryHidden = (await secondary({ headline: 'Hidden', description: 'Off', modules: MODULES })).id;
  });

  it('lists enabled primary shelves in position order, with the v4 item shape', async () => {
    const res = await t.http.get('/api/v4/hero/primary/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(Object.keys(res.body)).toEqual(['results']);
    const results = res.body.results as Record<string, unknown>[];
    expect(results.map((r) => (r.addon ?? r.external) as { id: number }).map((a) => a.id)).toEqual([
      addons.second.id,
      addons.listed.id,
      addons.nominated.id,
    ]);
    const [, listed] = results;
    expect(Object.keys(listed).sort()).toEqual(['addon', 'description', 'featured_image', 'gradient']);
    expect(listed.gradient).toEqual({ start: 'color-ink-80', end: 'color-blue-70' });
    expect(listed.featured_image).toBe('https://cdn.example.com/featured.png');
    expect(listed.description).toBe('Curated words');
    const addon = listed.addon as Record<string, unknown>;
    expect(Object.keys(addon).sort()).toEqual(
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
        'promoted',
        'slug',
        'theme_data',
        'type',
        'url',
      ].sort(),
    );
    expect(Object.keys(addon.current_version as object).sort()).toEqual(
      ['compatibility', 'files', 'id', 'is_strict_compatibility_enabled'].sort(),
    );
    expect(addon.name).toEqual({ 'en-US': 'Listed', fr: 'Listé' });
    expect(addon.promoted).toEqual({ category: 'line', apps: ['browser'] });
    expect((addon.previews as unknown[]).length).toBe(1);
    expect(addon.theme_data).toBeNull();
  });

  it("falls back to the add-on's summary; raw gives the shelf's own text or an empty string", async () => {
    const plain = (await t.http.get('/api/v4/hero/primary/')).body.results as Record<string, unknown>[];
    expect(plain[0].description).toBe(addons.second.summary!['en-US']);
    const raw = (await t.http.get('/api/v4/hero/primary/?raw')).body.results as Record<string, unknown>[];
    expect(raw.map((r) => r.description)).toEqual(['', 'Curated words', '']);
  });

  it('localises with lang (the shelf text, else the add-on summary in that language)', async () => {
    const fr = (await t.http.get('/api/v4/hero/primary/?lang=fr')).body.results as Record<string, unknown>[];
    expect(fr[1].description).toBe('Mots choisis');
    expect((fr[1].addon as { name: unknown }).name).toBe('Listé');
    const de = (await t.http.get('/api/v4/hero/primary/?lang=de')).body.results as Record<string, unknown>[];
    expect(de[1].description).toBe('Curated words');
    const rawFr = (await t.http.get('/api/v4/hero/primary/?lang=fr&raw=1')).body.results as Record<string, unknown>[];
    expect(rawFr[1].description).toBe('Curated words');
  });

  it('shows external shelves as `external` (not public but not disabled is enough)', async () => {
    const results = (await t.http.get('/api/v4/hero/primary/')).body.results as Record<string, unknown>[];
    const external = results[2];
    expect(Object.keys(external).sort()).toEqual(['description', 'external', 'featured_image', 'gradient']);
    expect(external.external).toEqual({
      id: addons.nominated.id,
      guid: addons.nominated.guid,
      homepage: { 'en-US': 'https://nominated.example.com/' },
      name: addons.nominated.name,
      type: 'extension',
    });
    expect(external.featured_image).toBeNull();
  });

  it('wraps external homepages and CTA URLs with wrap_outgoing_links', async () => {
    const primaryRes = (await t.http.get('/api/v4/hero/primary/?wrap_outgoing_links&lang=en-US')).body.results;
    const homepage = (primaryRes[2] as { external: { homepage: string } }).external.homepage;
    expect(homepage).toMatch(/^https?:\/\/.+\/[^/]+\/https%3A\/\/nominated\.example\.com\/$/);
    const secondaryRes = (await t.http.get('/api/v4/hero/secondary/?wrap_outgoing_links')).body.results;
    const cta = (secondaryRes[1] as { cta: { url: string } }).cta.url;
    expect(cta).toMatch(/\/https%3A\/\/example\.org\/more$/);
    expect(cta).not.toBe('https://example.org/more');
    const plain = (await t.http.get('/api/v4/hero/secondary/')).body.results;
    expect((plain[1] as { cta: { url: string } }).cta.url).toBe('https://example.org/more');
  });

  it('includes disabled shelves with all=true, never those whose add-on may not be shown', async () => {
    const all = (await asCurator('/api/v4/hero/primary/?all=true')).body.results as { addon?: { id: number } }[];
    expect(all.map((r) => r.addon?.id ?? null)).toEqual([addons.plain.id, addons.second.id, addons.listed.id, null]);
    const notAll = (await t.http.get('/api/v4/hero/primary/?all=false')).body.results as unknown[];
    expect(notAll).toHaveLength(3);
  });

  it('lists enabled secondary shelves with 3 modules, CTAs or null', async () => {
    const res = await t.http.get('/api/v4/hero/secondary/');
    expect(res.status).toBe(200);
    const results = res.body.results as Record<string, unknown>[];
    expect(results.map((r) => r.headline)).toEqual(['First', 'Headline']);
    expect(results[0].cta).toBeNull();
    expect(results[1]).toEqual({
      headline: 'Headline',
      description: 'Secondary description',
      cta: { url: 'https://example.org/more', text: 'More' },
      modules: [
        {
          icon: 'https://cdn.example.com/icon-1.svg',
          description: 'Module 1',
          cta: { url: 'https://example.org/module-1', text: 'Go 1' },
        },
        { icon: 'https://cdn.example.com/icon-2.svg', description: 'Module 2', cta: null },
        {
          icon: 'https://cdn.example.com/icon-3.svg',
          description: 'Module 3',
          cta: { url: 'https://example.org/module-3', text: 'Go 3' },
        },
      ],
    });
    const de = (await t.http.get('/api/v4/hero/secondary/?lang=de')).body.results as Record<string, unknown>[];
    expect(de[1].headline).toBe('Schlagzeile');
    const all = (await asCurator('/api/v4/hero/secondary/?all=true')).body.results as Record<string, unknown>[];
    expect(all.map((r) => r.headline)).toEqual(['Hidden', 'First', 'Headline']);
  });

  it('keeps disabled shelves (all) to Admin:Curation: 401 anonymous, 403 others, REST and GraphQL', async () => {
    for (const kind of ['primary', 'secondary']) {
      const path = `/api/v4/hero/${kind}/?all=true`;
      const anonymous = await t.http.get(path);
      expect([path, anonymous.status, anonymous.body]).toEqual([
        path,
        401,
        { detail: 'Authentication credentials were not provided.' },
      ]);
      const other = await t.http.get(path).set('Authorization', tokens.other);
      expect([path, other.status, other.body]).toEqual([
        path,
        403,
        { detail: 'You do not have permission to perform this action.' },
      ]);
      // all=false (or no all) stays public.
      expect((await t.http.get(`/api/v4/hero/${kind}/?all=false`)).status).toBe(200);
      const query = `{ ${kind}Shelves(all: true) { id } }`;
      expect(await failure('anonymous', query)).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(await failure('other', query)).toMatchObject({ code: 'FORBIDDEN' });
      expect(await ok<unknown[]>('curator', query)).toHaveLength(kind === 'primary' ? 4 : 3);
      expect(await ok<unknown[]>('anonymous', `{ ${kind}Shelves { id } }`)).toHaveLength(kind === 'primary' ? 3 : 2);
    }
  });

  it('ignores page parameters (unpaginated)', async () => {
    const res = await t.http.get('/api/v4/hero/primary/?page=2&page_size=1');
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(3);
    expect((await t.http.get('/api/v4/hero/secondary/?page=9')).body.results).toHaveLength(2);
  });

  it('GET /hero/ gives one random enabled shelf of each kind', async () => {
    const seen = new Set<number>();
    const headlines = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const res = await t.http.get('/api/v4/hero/');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['primary', 'secondary']);
      const shelf = res.body.primary as { addon?: { id: number }; external?: { id: number } };
      seen.add((shelf.addon ?? shelf.external)!.id);
      headlines.add(res.body.secondary.headline as string);
    }
    expect([...seen].sort()).toEqual([addons.second.id, addons.listed.id, addons.nominated.id].sort());
    expect([...headlines].sort()).toEqual(['First', 'Headline']);
  });

  it('edits, orders, enables and disables, each logged in the curation log', async () => {
    const moved = await ok<{ position: number; enabled: boolean }>('curator', UPDATE_PRIMARY, {
      id: shelves.listed,
      input: { position: 0 },
    });
    expect(moved.position).toBe(0);
    await ok('curator', UPDATE_PRIMARY, { id: shelves.fallback, input: { enabled: false } });
    let results = (await t.http.get('/api/v4/hero/primary/')).body.results as { addon?: { id: number } }[];
    expect(results.map((r) => r.addon?.id ?? null)).toEqual([addons.listed.id, null]);
    await ok('curator', UPDATE_PRIMARY, { id: shelves.fallback, input: { enabled: true } });
    await ok('curator', UPDATE_PRIMARY, { id: shelves.listed, input: { position: 2 } });
    results = (await t.http.get('/api/v4/hero/primary/')).body.results as { addon?: { id: number } }[];
    expect(results).toHaveLength(3);

    const log = await ok<{ count: number; items: Record<string, unknown>[] }>('curator', LOG, {
      type: 'primary_shelf',
      id: shelves.fallback,
    });
    expect(log.items.map((i) => i.action)).toEqual(['enabled', 'disabled', 'created']);
    expect(log.items[0]).toMatchObject({
      userId: ids.curator,
      addonId: addons.second.id,
      subjectType: 'primary_shelf',
    });
    expect(JSON.parse(log.items[0].details as string)).toEqual({ enabled: [false, true] });
    const listedLog = await ok<{ items: Record<string, unknown>[] }>('curator', LOG, {
      type: 'primary_shelf',
      id: shelves.listed,
    });
    expect(listedLog.items.map((i) => i.action)).toEqual(['updated', 'updated', 'created']);
    expect(JSON.parse(listedLog.items[1].details as string)).toEqual({ position: [2, 0] });
  });

  it('edits a secondary shelf: modules replaced, CTA removed, logged; no-op edits not logged', async () => {
    const edited = await ok<{ cta: unknown; modules: { description: Record<string, string> }[] }>(
      'curator',
      UPDATE_SECONDARY,
      {
        id: shelves.secondary,
        input: { cta: null, modules: [module(7), module(8), module(9)] },
      },
    );
    expect(edited.cta).toBeNull();
    expect(edited.modules.map((m) => m.description['en-US'])).toEqual(['Module 7', 'Module 8', 'Module 9']);
    await ok('curator', UPDATE_SECONDARY, { id: shelves.secondary, input: { position: 5 } });
    const log = await ok<{ items: Record<string, unknown>[] }>('curator', LOG, {
      type: 'secondary_shelf',
      id: shelves.secondary,
    });
    expect(log.items.map((i) => i.action)).toEqual(['updated', 'created']);
    expect(Object.keys(JSON.parse(log.items[0].details as string)).sort()).toEqual(['cta', 'modules']);
    const res = (await t.http.get('/api/v4/hero/secondary/')).body.results as Record<string, unknown>[];
    expect((res[1].modules as { description: string }[]).map((m) => m.description)).toEqual([
      'Module 7',
      'Module 8',
      'Module 9',
    ]);
  });

  it('deletes shelves (logged) and drops shelves whose add-on stops being public', async () => {
    expect(await ok('curator', DELETE_SECONDARY, { id: shelves.secondaryHidden })).toBe(true);
    expect(await ok('curator', DELETE_PRIMARY, { id: shelves.hidden })).toBe(true);
    const log = await ok<{ items: Record<string, unknown>[] }>('curator', LOG, {
      type: 'primary_shelf',
      id: shelves.hidden,
    });
    expect(log.items[0]).toMatchObject({ action: 'deleted', addonId: addons.plain.id });
    await t.em().nativeUpdate('Addon', { id: addons.second.id }, { status: AddonStatus.DISABLED });
    const results = (await t.http.get('/api/v4/hero/primary/')).body.results as { addon?: { id: number } }[];
    expect(results.map((r) => r.addon?.id ?? null)).toEqual([addons.listed.id, null]);
  });

  it('serves the same shelves through GraphQL', async () => {
    const shelvesList = await ok<Record<string, unknown>[]>('anonymous', `{ primaryShelves { ${PRIMARY} } }`);
    expect(shelvesList.map((s) => s.id)).toEqual([shelves.listed, shelves.external]);
    expect(shelvesList[1]).toMatchObject({ external: true, addon: null, externalAddon: { id: addons.nominated.id } });
    expect(shelvesList[0]).toMatchObject({
      description: { 'en-US': 'Curated words', fr: 'Mots choisis' },
      gradient: { start: 'color-ink-80', end: 'color-blue-70' },
    });
    const hero = await ok<{ primary: unknown; secondary: unknown }>(
      'anonymous',
      `{ heroShelves { primary { id } secondary { id } } }`,
    );
    expect(hero.primary).not.toBeNull();
    expect(hero.secondary).not.toBeNull();
  });
});
