import type { Addon } from '../src/catalogue/addon.entity.js';
import { AddonStatus } from '../src/catalogue/catalogue.enums.js';
import { CollectionAddon } from '../src/collections/collection.entity.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';

type ApiVersion = 'v3' | 'v4' | 'v5';
type Method = 'get' | 'post' | 'patch' | 'delete' | 'put';
type Actor = 'anonymous' | 'other' | 'owner' | 'editor' | 'curator' | 'contributor' | 'admin';
type Account = Exclude<Actor, 'anonymous'> | 'vendor';
type Body = Record<string, unknown>;

const ACTORS: Actor[] = ['anonymous', 'other', 'owner', 'editor', 'curator', 'contributor', 'admin'];
const VERSIONS: ApiVersion[] = ['v3', 'v4'];

let t: TestApp;
let queries = 0;
const tokens = {} as Record<Account, string>;
const ids = {} as Record<Account, number>;
/** Popularity (weekly downloads): banana 30 > apple 20 > cherry 10. */
const addons = {} as Record<'apple' | 'banana' | 'cherry' | 'nominated' | 'deleted' | 'invisible', Addon>;
let slugs = 0;

beforeAll(async () => {
  t = await startTestApp({ onQuery: () => queries++ });
  const users: [Account, Parameters<TestApp['createUser']>[0]][] = [
    ['owner', { username: 'collector' }],
    ['other', {}],
    ['editor', { permission: ['Collections:Edit'] }],
    ['curator', { permission: ['Admin:Curation'] }],
    ['contributor', { permission: ['Collections:Contribute'] }],
    ['admin', { group: ['Admins'] }],
    ['vendor', { username: 'vendor', name: 'The Vendor' }],
  ];
  for (const [account, args] of users) {
    const user = await t.createUser({ session: true, ...args });
    tokens[account] = `Bearer ${user.sessionToken}`;
    ids[account] = user.id;
  }
  const em = t.em();
  addons.apple = await createAddon(em, {
    slug: 'apple',
    name: { 'en-US': 'apple', fr: 'Zpomme' },
    weeklyDownloads: 20,
  });
  addons.banana = await createAddon(em, {
    slug: 'banana',
    name: { 'en-US': 'Banana', fr: 'Xbanane' },
    weeklyDownloads: 30,
  });
  addons.cherry = await createAddon(em, {
    slug: 'cherry',
    name: { 'en-US': 'cherry', fr: 'Ycerise' },
    weeklyDownloads: 10,
  });
  addons.nominated = await createAddon(em, { slug: 'nominated', status: AddonStatus.NOMINATED, weeklyDownloads: 5 });
  addons.deleted = await createAddon(em, { slug: 'gone', status: AddonStatus.DELETED, weeklyDownloads: 4 });
  addons.invisible = await createAddon(em, { slug: 'invisible', disabledByUser: true, weeklyDownloads: 3 });
});
afterAll(() => t.close());

const base = (v: ApiVersion, user: string | number) => `/api/${v}/accounts/account/${user}/collections/`;

function call(method: Method, path: string, who: Actor | Account = 'anonymous', body?: Body) {
  const req = t.http[method](path);
  if (who !== 'anonymous') req.set('Authorization', tokens[who]);
  return body === undefined ? req : req.send(body);
}

/**
 * A new collection (public unless told otherwise) holding these add-ons, added one second apart in
 * this order (written directly: add-ons may stop being public once in a collection).
 */
async function collection(author: Account = 'owner', fields: Body = {}, items: Addon[] = []) {
  const res = await call('post', base('v4', ids[author]), author, {
    name: `Collection ${++slugs}`,
    slug: `coll-${slugs}`,
    ...fields,
  });
  expect(res.status).toBe(201);
  const id = res.body.id as number;
  const slug = res.body.slug as string;
  const em = t.em();
  const start = Date.now() - 60_000;
  items.forEach((addon, i) =>
    em.create(CollectionAddon, { collection: id, addon: addon.id, notes: null, created: new Date(start + i * 1000) }),
  );
  await em.flush();
  return { slug, id, path: `${base('v4', ids[author])}${slug}/` };
}

/** Status per version and actor: `common` for all, then the versions' own differences. */
function expected(
  common: Record<Actor, number>,
  v3: Partial<Record<Actor, number>>,
  v4: Partial<Record<Actor, number>>,
) {
  return { v3: { ...common, ...v3 }, v4: { ...common, ...v4 } };
}

async function matrix(run: (v: ApiVersion, actor: Actor) => Promise<{ status: number }>) {
  const result = { v3: {}, v4: {} } as Record<ApiVersion, Record<Actor, number>>;
  for (const v of VERSIONS) for (const actor of ACTORS) result[v][actor] = (await run(v, actor)).status;
  return result;
}

const DENIED = { anonymous: 401, other: 403, editor: 403, curator: 403, contributor: 403, admin: 403 };
const FORBIDDEN = { detail: 'You do not have permission to perform this action.' };
const UNAUTHENTICATED = { detail: 'Authentication credentials were not provided.' };
const NOT_FOUND = { detail: 'Not found.' };

describe('create a collection (POST)', () => {
  it('creates a public collection for its owner, with the v4 object', async () => {
    const res = await call('post', base('v4', 'collector'), 'owner', {
      name: 'My favourites',
      slug: 'favourites',
      description: 'Things I like',
      id: 5,
      uuid: 'x',
      addon_count: 10,
      author: ids.other,
    });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(Object.keys(res.body)).toEqual([
      'id',
      'uuid',
      'url',
      'addon_count',
      'author',
      'description',
      'modified',
      'name',
      'slug',
      'public',
      'default_locale',
    ]);
    expect(res.body).toMatchObject({
      addon_count: 0,
      author: { id: ids.owner, name: `Browser user ${ids.owner}`, username: 'collector' },
      description: { 'en-US': 'Things I like' },
      name: { 'en-US': 'My favourites' },
      slug: 'favourites',
      public: true,
      default_locale: 'en-US',
    });
    expect(res.body.id).not.toBe(5);
    expect(res.body.uuid).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/collections/${ids.owner}/favourites/$`));
    expect(res.body.author.url).toMatch(new RegExp(`/user/${ids.owner}/$`));
    expect(res.body.modified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('names the author by username in v3', async () => {
    const res = await call('post', base('v3', ids.owner), 'owner', { name: 'v3 one', slug: 'v3-one' });
    expect(res.status).toBe(201);
    expect(res.body.author).toMatchObject({ id: ids.owner, name: 'collector', username: 'collector' });
  });

  it('takes public, default_locale, translations and numeric slugs', async () => {
    const res = await call('post', base('v4', ids.owner), 'owner', {
      name: { 'en-US': 'Reading', fr: 'Lecture' },
      slug: '2024',
      public: 'false',
      default_locale: 'fr',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: { 'en-US': 'Reading', fr: 'Lecture' },
      slug: '2024',
      public: false,
      default_locale: 'fr',
    });
    const fr = await call('post', `${base('v4', ids.owner)}?lang=fr`, 'owner', { name: 'Mes outils', slug: 'outils' });
    expect(fr.body.name).toBe('Mes outils');
    expect((await call('get', `${base('v4', ids.owner)}outils/`)).body.name).toEqual({ fr: 'Mes outils' });
  });

  it('takes translated texts as objects only in v5 (l10n_flat_input_output)', async () => {
    const flat = await call('post', base('v5', ids.owner), 'owner', { name: 'Flat', slug: 'v5-flat' });
    expect(flat.status).toBe(400);
    expect(flat.body).toEqual({ name: ['You must provide an object of {lang-code:value}.'] });
    const res = await call('post', `${base('v5', ids.owner)}?lang=fr`, 'owner', {
      name: { 'en-US': 'Objects' },
      description: { fr: 'Des objets' },
      slug: 'v5-objects',
    });
    expect(res.status).toBe(201);
    expect(res.body.name).toEqual({ 'en-US': 'Objects', fr: null, _default: 'en-US' });
    expect(res.body.description).toEqual({ fr: 'Des objets' });
  });

  it('keeps texts holding semicolons', async () => {
    const res = await call('post', base('v4', ids.owner), 'owner', {
      name: 'Tabs; windows',
      slug: 'semi',
      description: "It's; fine",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: { 'en-US': 'Tabs; windows' }, description: { 'en-US': "It's; fine" } });
    expect(typeof res.body.id).toBe('number');
    const item = await call('post', `${base('v4', ids.owner)}semi/addons/`, 'owner', { addon: 'apple', notes: 'a; b' });
    expect(item.status).toBe(201);
    expect(item.body.notes).toEqual({ 'en-US': 'a; b' });
    const renamed = await call('patch', `${base('v4', ids.owner)}semi/`, 'owner', { name: 'Tabs; more' });
    expect(renamed.body.name).toEqual({ 'en-US': 'Tabs; more' });
    const notes = await call('patch', `${base('v4', ids.owner)}semi/addons/apple/`, 'owner', { notes: 'c; d' });
    expect(notes.body.notes).toEqual({ 'en-US': 'c; d' });
  });

  it.each([
    [{}, { name: ['This field is required.'], slug: ['This field is required.'] }],
    [{ name: '   ', slug: 'blank' }, { name: ['Name cannot be empty.'] }],
    [{ name: { 'en-US': 'ok', fr: '' }, slug: 'blank2' }, { name: ['Name cannot be empty.'] }],
    [
      { name: null, slug: null },
      { name: ['This field may not be null.'], slug: ['This field may not be null.'] },
    ],
    [{ name: { xx: 'Hi' }, slug: 'unknown-locale' }, { name: ["The language code 'xx' is invalid."] }],
    [
      { name: 'n', slug: 'Has space' },
      { slug: ['The custom URL must consist of letters, numbers, underscores or hyphens.'] },
    ],
    [
      { name: 'n', slug: 'UPPER' },
      { slug: ['The custom URL must consist of letters, numbers, underscores or hyphens.'] },
    ],
    [
      { name: 'n', slug: 'a--b' },
      { slug: ['The custom URL must consist of letters, numbers, underscores or hyphens.'] },
    ],
    [
      { name: 'n', slug: 'a/b' },
      { slug: ['The custom URL must consist of letters, numbers, underscores or hyphens.'] },
    ],
    [{ name: 'n', slug: 'x'.repeat(31) }, { slug: ['Ensure this field has no more than 30 characters.'] }],
    [{ name: 'n', slug: 'l1', description: 'See https://example.com/x' }, { description: ['No links are allowed.'] }],
    [{ name: 'n', slug: 'l2', description: 'visit example.com today' }, { description: ['No links are allowed.'] }],
    [
      { name: 'n', slug: 'l3', description: { fr: '<a href="/x">ici</a>' } },
      { description: ['No links are allowed.'] },
    ],
    [{ name: 'n', slug: 'b', public: 'maybe' }, { public: ['Must be a valid boolean.'] }],
    [{ name: 'n', slug: 'dl', default_locale: 'xx' }, { default_locale: ['"xx" is not a valid choice.'] }],
  ])('refuses %j with %j', async (body, fields) => {
    const res = await call('post', base('v4', ids.owner), 'owner', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fields);
  });

  it('accepts descriptions that only look a bit like links', async () => {
    const res = await call('post', base('v4', ids.owner), 'owner', {
      name: 'n',
      slug: 'no-links',
      description: 'Works with node.js, e.g. v1.2; mail me@example.com; localhost',
    });
    expect(res.status).toBe(201);
  });

  it('refuses a slug already used by the same author only', async () => {
    const first = await collection('owner');
    for (const v of VERSIONS) {
      const res = await call('post', base(v, ids.owner), 'owner', { name: 'Again', slug: first.slug });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        non_field_errors: ['This custom URL is already in use by another one of your collections.'],
      });
    }
    const other = await call('post', base('v4', ids.other), 'other', { name: 'Mine', slug: first.slug });
    expect(other.status).toBe(201);
  });

  it('is for the owner only: 401 anonymous, 403 anyone else (even admins), 404 unknown user', async () => {
    const result = await matrix((v, actor) =>
      call('post', base(v, ids.owner), actor, { name: 'x', slug: `create-${v}-${actor}` }),
    );
    expect(result).toEqual(expected({ ...DENIED, owner: 201 }, {}, {}));
    expect((await call('post', base('v4', ids.owner), 'other', { name: 'x', slug: 'y' })).body).toEqual(FORBIDDEN);
    expect((await call('post', base('v4', ids.owner), 'anonymous', {})).body).toEqual(UNAUTHENTICATED);
    expect((await call('post', base('v4', 'nobody-here'), 'other', {})).status).toBe(404);
    expect((await call('post', base('v4', 'nobody-here'), 'anonymous', {})).status).toBe(401);
  });
});

describe("list a user's collections (GET)", () => {
  it("lists the owner's collections, private ones too, most recently updated first", async () => {
    const lister = await t.createUser({ session: true, username: 'lister' });
    const token = `Bearer ${lister.sessionToken}`;
    const create = (slug: string, extra: Body = {}) =>
      t.http
        .post(base('v4', 'lister'))
        .set('Authorization', token)
        .send({ name: slug, slug, ...extra });
    await create('first');
    await create('second', { public: false });
    await create('third');
    await t.http
      .patch(`${base('v4', 'lister')}first/`)
      .set('Authorization', token)
      .send({ name: 'First!' });
    for (const user of ['lister', String(lister.id)]) {
      const res = await t.http.get(base('v4', user)).set('Authorization', token);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['page_size', 'page_count', 'count', 'next', 'previous', 'results']);
      expect(res.body).toMatchObject({ count: 3, page_size: 25, page_count: 1, next: null, previous: null });
      expect(res.body.results.map((c: { slug: string }) => c.slug)).toEqual(['first', 'third', 'second']);
    }
    const paged = await t.http.get(`${base('v4', 'lister')}?page_size=2&page=2`).set('Authorization', token);
    expect(paged.body).toMatchObject({ count: 3, page_size: 2, page_count: 2, next: null });
    expect(paged.body.previous).toMatch(/\?page_size=2$/);
    expect((await t.http.get(`${base('v4', 'lister')}?page=3`).set('Authorization', token)).status).toBe(404);
  });

  it('is for the owner only (v3: also Collections:Edit); admins get 403 in v4', async () => {
    const result = await matrix((v, actor) => call('get', base(v, ids.owner), actor));
    expect(result).toEqual(expected({ ...DENIED, owner: 200 }, { editor: 200, admin: 200 }, {}));
    expect((await call('get', base('v4', ids.owner), 'admin')).body).toEqual(FORBIDDEN);
    expect((await call('get', base('v4', ids.owner))).body).toEqual(UNAUTHENTICATED);
  });

  it('answers 404 for unknown or deleted users, 401 to anonymous callers', async () => {
    expect((await call('get', base('v4', 'nobody-here'), 'owner')).body).toEqual(NOT_FOUND);
    expect((await call('get', base('v4', 999999), 'owner')).status).toBe(404);
    expect((await call('get', base('v4', 'nobody-here'))).status).toBe(401);
    const gone = await t.createUser({ session: false, username: 'gone-user' });
    await t.em().getConnection().execute('update users set deleted = true where id = ?', [gone.id]);
    expect((await call('get', base('v3', 'gone-user'), 'admin')).status).toBe(404);
  });
});

describe('collection detail (GET)', () => {
  it('shows public collections to anyone; private ones to the owner (v3: also Collections:Edit)', async () => {
    const open = await collection('owner');
    const closed = await collection('owner', { public: false });
    const everyone = {
      anonymous: 200,
      other: 200,
      owner: 200,
      editor: 200,
      curator: 200,
      contributor: 200,
      admin: 200,
    };
    expect(await matrix((v, actor) => call('get', `${base(v, ids.owner)}${open.slug}/`, actor))).toEqual(
      expected(everyone, {}, {}),
    );
    expect(await matrix((v, actor) => call('get', `${base(v, ids.owner)}${closed.slug}/`, actor))).toEqual(
      expected({ ...DENIED, owner: 200 }, { editor: 200, admin: 200 }, {}),
    );
    expect((await call('get', `${closed.path}`)).body).toEqual(UNAUTHENTICATED);
    expect((await call('get', `${closed.path}`, 'other')).body).toEqual(FORBIDDEN);
  });

  it("finds collections by slug only, by the author's id or username", async () => {
    const c = await collection('owner');
    expect((await call('get', `${base('v4', 'collector')}${c.slug}/`)).body.id).toBe(c.id);
    expect((await call('get', `${base('v4', ids.owner)}${c.id}/`)).body).toEqual(NOT_FOUND);
    expect((await call('get', `${base('v4', ids.other)}${c.slug}/`)).status).toBe(404);
    expect((await call('get', `${base('v4', 'nobody-here')}${c.slug}/`)).status).toBe(404);
    expect((await call('get', `${base('v4', ids.owner)}${encodeURIComponent('semi;colon')}/`)).status).toBe(404);
    expect((await call('get', `${base('v4', ids.owner)}a%00b/`)).status).toBe(400); // NUL: refused before lookup
  });

  it('gives translated fields as one string with lang', async () => {
    const c = await collection('owner', { name: { 'en-US': 'Tools', de: 'Werkzeuge' }, default_locale: 'de' });
    expect((await call('get', `${c.path}?lang=de`)).body.name).toBe('Werkzeuge');
    expect((await call('get', `${c.path}?lang=ja`)).body.name).toBe('Werkzeuge');
    expect((await call('get', `${c.path}?lang=en-US`)).body.name).toBe('Tools');
  });

  it('holds the first 25 add-ons with with_addons, in popularity order, public ones unless filtered', async () => {
    const c = await collection('owner', {}, [
      addons.cherry,
      addons.apple,
      addons.nominated,
      addons.deleted,
      addons.banana,
      addons.invisible,
    ]);
    const plain = await call('get', c.path);
    expect(plain.body).not.toHaveProperty('addons');
    expect(plain.body.addon_count).toBe(6);
    const v4 = await call('get', `${c.path}?with_addons`);
    expect(v4.body.addons.map((i: { addon: { slug: string } }) => i.addon.slug)).toEqual(['banana', 'apple', 'cherry']);
    expect(v4.body.addons[0]).toEqual({ addon: expect.objectContaining({ id: addons.banana.id }), notes: null });
    expect(v4.body.addons[0].addon.current_version).toMatchObject({ channel: 'listed' });
    const all = await call('get', `${c.path}?with_addons&filter=all&sort=name`);
    expect(all.body.addons.map((i: { addon: { slug: string } }) => i.addon.slug)).toEqual([
      'banana',
      'apple',
      'cherry',
      'nominated',
      'invisible',
    ]);
    const v3 = await call('get', `${base('v3', ids.owner)}${c.slug}/?with_addons=1`);
    expect(v3.body.addons[0]).toMatchObject({ downloads: 0, addon: { is_featured: false } });
    expect(v3.body.addons[0].addon).not.toHaveProperty('created');

    const many = await collection('owner');
    for (let i = 0; i < 27; i++) {
      const addon = await createAddon(t.em(), { weeklyDownloads: 100 + i });
      await call('post', `${many.path}addons/`, 'owner', { addon: addon.id });
    }
    const limited = await call('get', `${many.path}?with_addons`);
    expect(limited.body.addon_count).toBe(27);
    expect(limited.body.addons).toHaveLength(25);
    expect(limited.body.addons[0].addon.weekly_downloads).toBe(126);
  });
});

describe('edit a collection (PATCH)', () => {
  it('changes the given fields only and ignores read-only ones', async () => {
    const c = await collection('owner', { description: 'Before' });
    const res = await call('patch', c.path, 'owner', { name: 'Renamed', public: false, id: 1, uuid: 'u' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, name: { 'en-US': 'Renamed' }, description: { 'en-US': 'Before' } });
    expect(res.body.public).toBe(false);
    const fr = await call('patch', `${c.path}?lang=fr`, 'owner', { name: 'Renommée', default_locale: 'fr' });
    expect(fr.body.name).toBe('Renommée');
    expect((await call('get', c.path, 'owner')).body.name).toEqual({ 'en-US': 'Renamed', fr: 'Renommée' });
    const moved = await call('patch', c.path, 'owner', { slug: `${c.slug}-moved`, description: null });
    expect(moved.body).toMatchObject({ slug: `${c.slug}-moved`, description: null });
    expect((await call('get', c.path, 'owner')).status).toBe(404);
    expect((await call('get', `${c.path.slice(0, -1)}-moved/`, 'owner')).status).toBe(200);
  });

  it('validates like creation, and keeps the slug unique per author', async () => {
    const c = await collection('owner');
    const taken = await collection('owner');
    for (const v of VERSIONS) {
      const path = `${base(v, ids.owner)}${c.slug}/`;
      expect((await call('patch', path, 'owner', { name: '' })).body).toEqual({ name: ['Name cannot be empty.'] });
      expect((await call('patch', path, 'owner', { slug: 'No!', description: 'www.example.org' })).body).toEqual({
        slug: ['The custom URL must consist of letters, numbers, underscores or hyphens.'],
        description: ['No links are allowed.'],
      });
      expect((await call('patch', path, 'owner', { slug: taken.slug })).body).toEqual({
        non_field_errors: ['This custom URL is already in use by another one of your collections.'],
      });
      expect((await call('patch', path, 'owner', { slug: c.slug })).status).toBe(200);
    }
    expect((await call('get', c.path)).body.name).toEqual({ 'en-US': `Collection ${slugs - 1}` });
  });

  it('is for the owner (v3: also Collections:Edit)', async () => {
    const c = await collection('owner');
    const result = await matrix((v, actor) =>
      call('patch', `${base(v, ids.owner)}${c.slug}/`, actor, { description: `by ${actor}` }),
    );
    expect(result).toEqual(expected({ ...DENIED, owner: 200 }, { editor: 200, admin: 200 }, {}));
    expect((await call('patch', c.path, 'other', {})).body).toEqual(FORBIDDEN);
  });

  it('decides permission before looking for the slug, and has no PUT', async () => {
    expect((await call('patch', `${base('v4', ids.owner)}no-such/`, 'other', {})).status).toBe(403);
    expect((await call('patch', `${base('v4', ids.owner)}no-such/`, 'owner', {})).status).toBe(404);
    expect((await call('patch', `${base('v4', ids.owner)}no-such/`, 'anonymous', {})).status).toBe(401);
    // Curators may edit some collections: the slug is looked up before the vendor's ownership is checked.
    expect((await call('patch', `${base('v4', ids.owner)}no-such/`, 'curator', {})).status).toBe(404);
    expect((await call('delete', `${base('v4', ids.owner)}no-such/`, 'curator')).status).toBe(403);
    const c = await collection('owner');
    const put = await call('put', c.path, 'owner', { name: 'x', slug: 'x' });
    expect(put.status).toBe(405);
    expect(put.body).toEqual({ detail: 'Method "PUT" not allowed.' });
  });
});

describe('delete a collection (DELETE)', () => {
  it('removes it and its add-on list', async () => {
    const c = await collection('owner', {}, [addons.apple]);
    const res = await call('delete', c.path, 'owner');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await call('get', c.path, 'owner')).status).toBe(404);
    const [{ count }] = await t
      .em()
      .getConnection()
      .execute<{ count: number }[]>('select count(*)::int as count from collection_addons where collection_id = ?', [
        c.id,
      ]);
    expect(count).toBe(0);
  });

  it('is for the owner (v3: also Collections:Edit)', async () => {
    const result = await matrix(async (v, actor) => {
      const c = await collection('owner');
      return call('delete', `${base(v, ids.owner)}${c.slug}/`, actor);
    });
    expect(result).toEqual(expected({ ...DENIED, owner: 204 }, { editor: 204, admin: 204 }, {}));
  });
});

describe("the vendor's collections (v4)", () => {
  it('lets curators see and edit them, but not list or delete them', async () => {
    const picks = await collection('vendor', { public: false }, [addons.apple]);
    const path = (v: ApiVersion) => `${base(v, 'vendor')}${picks.slug}/`;
    for (const who of ['curator', 'admin'] as const) {
      expect((await call('get', path('v4'), who)).status).toBe(200);
      expect((await call('get', `${path('v4')}addons/`, who)).status).toBe(200);
      expect((await call('patch', path('v4'), who, { description: `By ${who}` })).status).toBe(200);
      expect((await call('delete', path('v4'), who)).status).toBe(403);
      expect((await call('get', base('v4', 'vendor'), who)).status).toBe(403);
      expect((await call('post', base('v4', 'vendor'), who, { name: 'n', slug: `by-${who}` })).status).toBe(403);
    }
    for (const who of ['other', 'contributor', 'editor'] as const) {
      expect((await call('get', path('v4'), who)).status).toBe(403);
      expect((await call('patch', path('v4'), who, {})).status).toBe(403);
    }
    // v3 knows only Collections:Edit.
    expect((await call('get', path('v3'), 'curator')).status).toBe(403);
    expect((await call('patch', path('v3'), 'curator', {})).status).toBe(403);
    expect((await call('get', path('v3'), 'editor')).status).toBe(200);
  });

  it("lets curators manage the add-ons of the vendor's collections", async () => {
    const picks = await collection('vendor', { public: false });
    const items = `${base('v4', 'vendor')}${picks.slug}/addons/`;
    expect((await call('post', items, 'curator', { addon: 'apple', notes: 'Pick' })).status).toBe(201);
    expect((await call('patch', `${items}apple/`, 'curator', { notes: 'Top pick' })).status).toBe(200);
    expect((await call('delete', `${items}apple/`, 'curator')).status).toBe(204);
    expect((await call('post', items, 'contributor', { addon: 'apple' })).status).toBe(403);
    expect(
      (await call('post', `${base('v3', 'vendor')}${picks.slug}/addons/`, 'curator', { addon: 'apple' })).status,
    ).toBe(403);
  });

  it('lets contributors see the featured-themes collection and manage its add-ons, not its details', async () => {
    await call('post', base('v4', 'vendor'), 'vendor', {
      name: 'Featured themes',
      slug: 'featured-themes',
      public: false,
    });
    const path = `${base('v4', 'vendor')}featured-themes/`;
    expect((await call('get', path, 'contributor')).status).toBe(200);
    expect((await call('get', `${path}addons/`, 'contributor')).status).toBe(200);
    expect((await call('post', `${path}addons/`, 'contributor', { addon: 'cherry' })).status).toBe(201);
    expect((await call('patch', `${path}addons/cherry/`, 'contributor', { notes: 'Nice' })).status).toBe(200);
    expect((await call('delete', `${path}addons/cherry/`, 'contributor')).status).toBe(204);
    expect((await call('patch', path, 'contributor', { name: 'Mine now' })).status).toBe(403);
    expect((await call('delete', path, 'contributor')).status).toBe(403);
    expect((await call('get', `${base('v3', 'vendor')}featured-themes/`, 'contributor')).status).toBe(403);
    // Someone else's collection of that name is not the vendor's.
    const lookalike = await collection('other', { slug: 'featured-themes', public: false });
    expect((await call('get', lookalike.path, 'contributor')).status).toBe(403);
  });
});

describe("a collection's add-ons", () => {
  const slugsOf = (res: { body: { results: { addon: { slug: string } }[] } }) =>
    res.body.results.map((i) => i.addon.slug);

  it('lists public add-ons by default; filter=all adds non-public ones, all_with_deleted deleted ones', async () => {
    const c = await collection('owner', {}, [addons.apple, addons.nominated, addons.deleted, addons.invisible]);
    const list = await call('get', `${c.path}addons/`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, page_size: 25, page_count: 1 });
    expect(slugsOf(list)).toEqual(['apple']);
    expect(slugsOf(await call('get', `${c.path}addons/?filter=all`))).toEqual(['apple', 'nominated', 'invisible']);
    expect(slugsOf(await call('get', `${c.path}addons/?filter=all_with_deleted`))).toEqual([
      'apple',
      'nominated',
      'gone',
      'invisible',
    ]);
    expect(slugsOf(await call('get', `${c.path}addons/?filter=bogus`))).toEqual(['apple']);
  });

  it('sorts by one of added, popularity, name (request language), descending with -', async () => {
    const c = await collection('owner', {}, [addons.cherry, addons.apple, addons.banana]);
    const sorted = async (query: string) => slugsOf(await call('get', `${c.path}addons/${query}`));
    expect(await sorted('')).toEqual(['banana', 'apple', 'cherry']);
    expect(await sorted('?sort=popularity')).toEqual(['cherry', 'apple', 'banana']);
    expect(await sorted('?sort=added')).toEqual(['cherry', 'apple', 'banana']);
    expect(await sorted('?sort=-added')).toEqual(['banana', 'apple', 'cherry']);
    expect(await sorted('?sort=name')).toEqual(['apple', 'banana', 'cherry']);
    expect(await sorted('?sort=-name')).toEqual(['cherry', 'banana', 'apple']);
    expect(await sorted('?sort=name&lang=fr')).toEqual(['banana', 'cherry', 'apple']);
    expect(await sorted('?sort=bogus')).toEqual(['banana', 'apple', 'cherry']);
    expect(await sorted('?sort=constructor')).toEqual(['banana', 'apple', 'cherry']);
    expect(await sorted('?sort=bogus,added')).toEqual(['cherry', 'apple', 'banana']);
    for (const v of VERSIONS) {
      const res = await call('get', `${base(v, ids.owner)}${c.slug}/addons/?sort=added,-name`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(['You can only specify one "sort" argument. Multiple orderings are not supported']);
    }
  });

  it('shows one add-on by id or slug, whatever its status, with the v3 downloads', async () => {
    const c = await collection('owner', {}, [addons.nominated]);
    await call('patch', `${c.path}addons/nominated/`, 'owner', { notes: { 'en-US': 'Soon', de: 'Bald' } });
    for (const key of ['nominated', String(addons.nominated.id)]) {
      const res = await call('get', `${c.path}addons/${key}/`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['addon', 'notes']);
      expect(res.body).toMatchObject({ addon: { id: addons.nominated.id, status: 'nominated' } });
      expect(res.body.notes).toEqual({ 'en-US': 'Soon', de: 'Bald' });
    }
    const v3 = await call('get', `${base('v3', ids.owner)}${c.slug}/addons/nominated/?lang=de`);
    expect(v3.body).toMatchObject({ notes: 'Bald', downloads: 0 });
    expect((await call('get', `${c.path}addons/apple/`)).body).toEqual(NOT_FOUND);
    expect((await call('get', `${c.path}addons/99999999/`)).status).toBe(404);
  });

  it('adds public add-ons by slug or id, with notes', async () => {
    const c = await collection('owner');
    const before = (await call('get', c.path)).body.modified;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const res = await call('post', `${c.path}addons/`, 'owner', { addon: 'apple', notes: 'Crunchy' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['addon', 'notes']);
    expect(res.body.addon).toMatchObject({
      id: addons.apple.id,
      slug: 'apple',
      current_version: { channel: 'listed' },
    });
    expect(res.body.notes).toEqual({ 'en-US': 'Crunchy' });
    const v3 = await call('post', `${base('v3', ids.owner)}${c.slug}/addons/`, 'owner', { addon: addons.banana.id });
    expect(v3.status).toBe(201);
    expect(v3.body).toMatchObject({ addon: { slug: 'banana' }, notes: null, downloads: 0 });
    const after = (await call('get', c.path)).body;
    expect(after.addon_count).toBe(2);
    expect(after.modified > before).toBe(true);
  });

  it.each([
    [{}, { addon: ['This field is required.'] }],
    [{ addon: null }, { addon: ['This field may not be null.'] }],
    [{ addon: 'no-such-addon' }, { addon: ['Invalid pk or slug "no-such-addon" - object does not exist.'] }],
    [{ addon: 'nominated' }, { addon: ['Invalid pk or slug "nominated" - object does not exist.'] }],
    [{ addon: 'invisible' }, { addon: ['Invalid pk or slug "invisible" - object does not exist.'] }],
    [{ addon: 'apple', notes: { zz: 'x' } }, { notes: ["The language code 'zz' is invalid."] }],
    [{ addon: 'apple' }, { non_field_errors: ['This add-on already belongs to the collection'] }],
  ])('refuses to add %j: %j', async (body, fields) => {
    const c = await collection('owner', {}, [addons.apple]);
    const res = await call('post', `${c.path}addons/`, 'owner', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fields);
  });

  it('changes notes only, and removes add-ons', async () => {
    const c = await collection('owner', {}, [addons.apple]);
    const patched = await call('patch', `${c.path}addons/apple/`, 'owner', { notes: 'Tasty', addon: 'banana' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ addon: { slug: 'apple' }, notes: { 'en-US': 'Tasty' } });
    const removed = await call('delete', `${c.path}addons/apple/`, 'owner');
    expect(removed.status).toBe(204);
    expect((await call('get', `${c.path}addons/apple/`)).status).toBe(404);
    expect((await call('delete', `${c.path}addons/apple/`, 'owner')).status).toBe(404);
    expect((await call('get', c.path)).body.addon_count).toBe(0);
  });

  it('reads public collections for anyone, private ones as the collection detail does', async () => {
    const open = await collection('owner', {}, [addons.apple]);
    const closed = await collection('owner', { public: false }, [addons.apple]);
    const all = { anonymous: 200, other: 200, owner: 200, editor: 200, curator: 200, contributor: 200, admin: 200 };
    for (const suffix of ['addons/', 'addons/apple/']) {
      expect(await matrix((v, actor) => call('get', `${base(v, ids.owner)}${open.slug}/${suffix}`, actor))).toEqual(
        expected(all, {}, {}),
      );
      expect(await matrix((v, actor) => call('get', `${base(v, ids.owner)}${closed.slug}/${suffix}`, actor))).toEqual(
        expected({ ...DENIED, owner: 200 }, { editor: 200, admin: 200 }, {}),
      );
    }
    expect((await call('get', `${base('v4', ids.owner)}no-such/addons/`)).status).toBe(404);
  });

  it('lets the owner (v3: also Collections:Edit) add, edit and remove, even on a public collection', async () => {
    const statuses = (ok: number) => expected({ ...DENIED, owner: ok }, { editor: ok, admin: ok }, {});
    const add = await matrix(async (v, actor) => {
      const c = await collection('owner');
      return call('post', `${base(v, ids.owner)}${c.slug}/addons/`, actor, { addon: 'apple' });
    });
    expect(add).toEqual(statuses(201));
    const edit = await matrix(async (v, actor) => {
      const c = await collection('owner', {}, [addons.apple]);
      return call('patch', `${base(v, ids.owner)}${c.slug}/addons/apple/`, actor, { notes: 'n' });
    });
    expect(edit).toEqual(statuses(200));
    const remove = await matrix(async (v, actor) => {
      const c = await collection('owner', {}, [addons.apple]);
      return call('delete', `${base(v, ids.owner)}${c.slug}/addons/apple/`, actor);
    });
    expect(remove).toEqual(statuses(204));
  });

  it('loads a page of add-ons in a constant number of queries', async () => {
    const small = await collection('owner', {}, [addons.apple]);
    const large = await collection('owner', {}, [addons.apple, addons.banana, addons.cherry]);
    queries = 0;
    expect((await call('get', `${small.path}addons/`)).status).toBe(200);
    const forOne = queries;
    queries = 0;
    expect((await call('get', `${large.path}addons/`)).status).toBe(200);
    expect(queries).toBe(forOne);
  });
});

describe('GraphQL', () => {
  const graphql = (query: string, variables: Body, who: Actor | Account = 'anonymous') => {
    const req = t.http.post('/graphql');
    if (who !== 'anonymous') req.set('Authorization', tokens[who]);
    return req.send({ query, variables });
  };

  it('creates, reads, edits and deletes collections and their add-ons under the same rules', async () => {
    const created = await graphql(
      `
        mutation ($user: String!, $input: CollectionInput!) {
          createCollection(user: $user, input: $input) {
            id
            slug
            public
            name
            addonCount
            author {
              username
            }
          }
        }
      `,
      { user: 'collector', input: { name: 'Via GraphQL', slug: 'via-graphql', public: false } },
      'owner',
    );
    expect(created.body.data.createCollection).toMatchObject({
      slug: 'via-graphql',
      public: false,
      name: { 'en-US': 'Via GraphQL' },
      addonCount: 0,
      author: { username: 'collector' },
    });
    const added = await graphql(
      `
        mutation {
          addCollectionAddon(user: "collector", slug: "via-graphql", addon: "apple", notes: "Yum") {
            notes
            addon {
              slug
            }
          }
        }
      `,
      {},
      'owner',
    );
    expect(added.body.data.addCollectionAddon).toEqual({ notes: { 'en-US': 'Yum' }, addon: { slug: 'apple' } });

    const read = `query {
      collection(user: "collector", slug: "via-graphql") { slug addons { addon { slug } notes } }
    }`;
    const anonymous = await graphql(read, {});
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    // Collections:Edit holders act on any collection under v3's legacy rules only, never through GraphQL.
    expect((await graphql(read, {}, 'editor')).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await graphql(read, {}, 'owner')).body.data.collection).toEqual({
      slug: 'via-graphql',
      addons: [{ addon: { slug: 'apple' }, notes: { 'en-US': 'Yum' } }],
    });
    expect((await call('get', `${base('v3', 'collector')}via-graphql/`, 'editor')).body).toMatchObject({
      slug: 'via-graphql',
    });
    expect((await call('get', `${base('v4', 'collector')}via-graphql/`, 'editor')).status).toBe(403);

    const invalid = await graphql(
      `
        mutation {
          updateCollection(user: "collector", slug: "via-graphql", input: { slug: "Bad Slug" }) {
            slug
          }
        }
      `,
      {},
      'owner',
    );
    expect(invalid.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { slug: ['The custom URL must consist of letters, numbers, underscores or hyphens.'] },
    });
    const page = await graphql(
      `
        {
          collectionAddons(user: "collector", slug: "via-graphql", sort: "-name") {
            count
            items {
              addon {
                slug
              }
            }
          }
        }
      `,
      {},
      'owner',
    );
    expect(page.body.data.collectionAddons).toEqual({ count: 1, items: [{ addon: { slug: 'apple' } }] });
    const list = await graphql(
      `
        {
          collections(user: "collector") {
            count
          }
        }
      `,
      {},
      'owner',
    );
    expect(list.body.data.collections.count).toBeGreaterThan(1);
    const removed = await graphql(
      `
        mutation {
          removeCollectionAddon(user: "collector", slug: "via-graphql", addon: "apple")
        }
      `,
      {},
      'owner',
    );
    expect(removed.body.data.removeCollectionAddon).toBe(true);
    const deleted = await graphql(
      `
        mutation {
          deleteCollection(user: "collector", slug: "via-graphql")
        }
      `,
      {},
      'owner',
    );
    expect(deleted.body.data.deleteCollection).toBe(true);
  });
});
