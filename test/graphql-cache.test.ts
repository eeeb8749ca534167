import { createHash } from 'node:crypto';
import { jest } from '@jest/globals';
import { Addon } from '../src/catalogue/addon.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';

/**
 * The GraphQL core cached like the REST layer over it (issue 11, item 3): anonymous catalogue
 * queries are answered from the response cache under the same narrow invalidation, and automatic
 * persisted queries sent with GET carry an ETag and `Cache-Control: public`.
 */

let t: TestApp;
let statements = 0;
let session: string;

beforeAll(async () => {
  t = await startTestApp({
    env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test', HTTP_CACHE_MAX_AGE: '30' },
    onQuery: () => statements++,
  });
  session = `Bearer ${(await t.createUser({ session: true })).sessionToken}`;
}, 120_000);
afterAll(() => t?.close());

const DETAIL = `query Detail($id: String!) {
  addon(id: $id) { id slug name ratings { count } authors { position userSummary { username name } } currentVersion { version files { id } } }
}`;
const SEARCH = `query Search($q: String!, $sort: [AddonSort!]) {
  searchAddons(filters: { q: $q }, sort: $sort) { count items { addon { id name } } }
}`;

/** Statements one anonymous POST costs, and its data. */
async function post(query: string, variables: Record<string, unknown>, auth?: string) {
  const before = statements;
  let req = t.http.post('/graphql').set('Content-Type', 'application/json');
  if (auth) req = req.set('Authorization', auth);
  const res = await req.send({ query, variables });
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return { cost: statements - before, data: res.body.data, res };
}

it('anonymous catalogue queries are served from the cache until what they show changes', async () => {
  const addon = await createAddon(t.em(), { name: { 'en-US': 'Cached Capybara' } });
  const vars = { id: String(addon.id) };
  const first = await post(DETAIL, vars);
  expect(first.cost).toBeGreaterThan(1);
  const second = await post(DETAIL, vars);
  expect(second.cost).toBe(1); // the versions of its cache tags
  expect(second.data).toEqual(first.data);
  await t.em().nativeUpdate(Addon, { id: addon.id }, { name: { 'en-US': 'Renamed Capybara' } });
  const third = await post(DETAIL, vars);
  expect(third.cost).toBeGreaterThan(1);
  expect(third.data.addon.name).toEqual({ 'en-US': 'Renamed Capybara' });
  // Signed-in callers may see more: never from the cache.
  expect((await post(DETAIL, vars, session)).cost).toBeGreaterThan(1);
  expect((await post(DETAIL, vars, session)).cost).toBeGreaterThan(1);
});

it('search pages keep their answer when an add-on they do not show changes', async () => {
  const shown = await createAddon(t.em(), { name: { 'en-US': 'Wombat Shown' } });
  const other = await createAddon(t.em(), { name: { 'en-US': 'Unrelated Thing' } });
  const vars = { q: 'wombat', sort: ['USERS'] };
  await post(SEARCH, vars);
  expect((await post(SEARCH, vars)).cost).toBe(1);
  await t.em().nativeUpdate(Addon, { id: other.id }, { bayesianRating: 4.5 });
  expect((await post(SEARCH, vars)).cost).toBe(1);
  await t.em().nativeUpdate(Addon, { id: shown.id }, { bayesianRating: 4.5 });
  expect((await post(SEARCH, vars)).cost).toBeGreaterThan(1);
  // Random orders are never cached.
  const random = { q: 'wombat', sort: ['RANDOM'] };
  const res = await t.http.post('/graphql').send({ query: SEARCH, variables: random });
  expect(res.body.errors?.[0]?.message ?? '').not.toBe(''); // random needs promoted and no q: refused
});

it('queries reaching data no domain declares shared are executed every time', async () => {
  const author = await t.createUser({ name: 'Some Author' });
  const addon = await createAddon(t.em(), { authors: [{ id: author.id }] });
  // A root field without `@Shared()` (the tags in use): the whole query is executed.
  const query = `query($id: String!) { addon(id: $id) { id authors { user { numAddonsListed } } } addonTags }`;
  await post(query, { id: String(addon.id) });
  expect((await post(query, { id: String(addon.id) })).cost).toBeGreaterThan(1);
  // Without it, the same query is shared (an account's statistics record their tags).
  const shared = `query($id: String!) { addon(id: $id) { id authors { user { numAddonsListed } } } }`;
  await post(shared, { id: String(addon.id) });
  expect((await post(shared, { id: String(addon.id) })).cost).toBe(1);
});

it('automatic persisted queries over GET are shared answers with an ETag', async () => {
  const addon = await createAddon(t.em(), { name: { 'en-US': 'Persisted Pangolin' } });
  const hash = createHash('sha256').update(DETAIL).digest('hex');
  const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } });
  const variables = JSON.stringify({ id: String(addon.id) });
  const url = `/graphql?extensions=${encodeURIComponent(extensions)}&variables=${encodeURIComponent(variables)}`;
  const get = () => t.http.get(url).set('apollo-require-preflight', 'true');

  const unknown = await get();
  expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  const registered = await t.http
    .post('/graphql')
    .send({ query: DETAIL, variables: JSON.parse(variables), extensions: JSON.parse(extensions) });
  expect(registered.body.data.addon.name).toEqual({ 'en-US': 'Persisted Pangolin' });

  const first = await get();
  expect(first.status).toBe(200);
  expect(first.body.data.addon.id).toBe(addon.id);
  expect(first.headers['cache-control']).toBe('public, max-age=30');
  expect(first.headers.etag).toMatch(/^"[\w-]{22}"$/);
  const before = statements;
  const second = await get();
  expect(statements - before).toBe(1);
  expect(second.headers.etag).toBe(first.headers.etag);
  expect(second.headers.vary).toBe('Accept-Language, Authorization');
  expect(second.headers['content-type']).toBe('application/json');
  expect(second.body).toEqual(first.body);
  // A client (or CDN) holding the answer revalidates it for nothing.
  const revalidated = await get().set('If-None-Match', first.headers.etag);
  expect([revalidated.status, revalidated.text]).toEqual([304, '']);
  // Another language is another answer; credentials are never answered from the cache.
  let cost = statements;
  await get().set('Accept-Language', 'fr');
  expect(statements - cost).toBeGreaterThan(1);
  cost = statements;
  const signedIn = await get().set('Authorization', session);
  expect(statements - cost).toBeGreaterThan(1);
  expect(signedIn.headers['cache-control']).toBe('no-store');
  // Apollo's CSRF rule holds for cached answers too.
  const simple = await t.http.get(url);
  expect(simple.status).toBe(400);
  expect(simple.body.errors[0].message).toMatch(/Cross-Site Request Forgery/);
});

it('two persisted queries with the same variables are two answers', async () => {
  const addon = await createAddon(t.em(), { name: { 'en-US': 'Twin Tapir' } });
  const registration = await createAddon(t.em(), { name: { 'en-US': 'Registration Rhea' } });
  const queries = [
    'query One($id: String!) { addon(id: $id) { id name } }',
    'query Two($id: String!) { addon(id: $id) { id slug } }',
  ];
  const extensions = queries.map((query) => ({
    persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') },
  }));
  // Registered (with other variables), then asked for by hash alone.
  for (const [i, query] of queries.entries()) {
    await t.http
      .post('/graphql')
      .send({ query, variables: { id: String(registration.id) }, extensions: extensions[i] });
  }
  const get = (i: number) =>
    t.http
      .get(
        `/graphql?extensions=${encodeURIComponent(JSON.stringify(extensions[i]))}` +
          `&variables=${encodeURIComponent(JSON.stringify({ id: String(addon.id) }))}`,
      )
      .set('apollo-require-preflight', 'true');
  for (const round of [1, 2]) {
    const [one, two] = [await get(0), await get(1)];
    expect([round, one.body.data.addon]).toEqual([round, { id: addon.id, name: { 'en-US': 'Twin Tapir' } }]);
    expect([round, two.body.data.addon]).toEqual([round, { id: addon.id, slug: addon.slug }]);
  }
});

it('malformed persisted-query extensions are 400 BAD_REQUEST', async () => {
  const send = (persistedQuery: unknown, query?: string) =>
    t.http.post('/graphql').send({ query, extensions: { persistedQuery } });
  const cases: [unknown, string | undefined, string][] = [
    [{ version: 1, sha256Hash: 'a'.repeat(64) }, '{ categories { id } }', 'provided sha does not match query'],
    [{ version: 2, sha256Hash: 'a'.repeat(64) }, undefined, 'Unsupported persisted query version (only version 1 is).'],
    [{ version: 1, sha256Hash: 'x' }, undefined, 'persistedQuery.sha256Hash must be 64 hexadecimal digits.'],
    [null, undefined, 'Unsupported persisted query version (only version 1 is).'],
  ];
  for (const [persisted, query, message] of cases) {
    const res = await send(persisted, query);
    expect([res.status, res.body.errors[0]]).toEqual([400, { message, extensions: { code: 'BAD_REQUEST' } }]);
  }
  // Over GET, extensions nested past the JSON depth limit are refused before they are parsed.
  const deep = `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`;
  const res = await t.http
    .get(`/graphql?query=${encodeURIComponent('{ categories { id } }')}&extensions=${encodeURIComponent(deep)}`)
    .set('apollo-require-preflight', 'true');
  expect([res.status, res.body.errors[0]]).toEqual([
    400,
    { message: 'Extensions nest deeper than 64 levels.', extensions: { code: 'BAD_REQUEST' } },
  ]);
});

it('mutations are never cached', async () => {
  const res = await t.http
    .post('/graphql')
    .send({ query: 'mutation { logout }' })
    .set('Content-Type', 'application/json');
  expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
});

describe('cache keys hold the normalised document and the declared variables, coerced (issue 23, item 2)', () => {
  const cached = () => t.app.services.responseCache.size;

  it('spelling variants of one document share its answers', async () => {
    const addon = await createAddon(t.em(), { name: { 'en-US': 'Spelled Serval' } });
    const vars = { id: String(addon.id) };
    const first = await post(DETAIL, vars);
    expect(first.cost).toBeGreaterThan(1);
    const entries = cached();
    const variants = [
      `  ${DETAIL.replace(/ /g, '  ')}\n`,
      `# a comment\n${DETAIL.replace(/\n/g, ',\n')}`,
      DETAIL.replace(/\s+/g, ' '),
    ];
    for (const variant of variants) {
      const res = await post(variant, vars);
      expect([variant, res.cost]).toEqual([variant, 1]);
      expect(res.data).toEqual(first.data);
    }
    expect(cached()).toBe(entries);
  });

  it('variables are keyed as the resolvers get them: a default given or left out is one answer', async () => {
    await createAddon(t.em(), { name: { 'en-US': 'Defaulted Dingo' } });
    const query = `query Defaulted($q: String!, $sort: [AddonSort!] = [USERS]) {
      searchAddons(filters: { q: $q }, sort: $sort) { count items { addon { id name } } }
    }`;
    const first = await post(query, { q: 'dingo' });
    expect(first.cost).toBeGreaterThan(1);
    expect((await post(query, { q: 'dingo', sort: ['USERS'] })).cost).toBe(1);
    // A list given as a single value is coerced to the same list.
    expect((await post(query, { q: 'dingo', sort: 'USERS' })).cost).toBe(1);
    expect((await post(query, { q: 'dingo', sort: ['RATING'] })).cost).toBeGreaterThan(1);
  });

  it('refuses variables the operation does not declare, without executing or caching anything', async () => {
    const addon = await createAddon(t.em(), { name: { 'en-US': 'Undeclared Urial' } });
    await post(DETAIL, { id: String(addon.id) });
    const entries = cached();
    const before = statements;
    for (let i = 0; i < 5; i++) {
      const res = await t.http
        .post('/graphql')
        .send({ query: DETAIL, variables: { id: String(addon.id), [`junk${i}`]: i } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [
          {
            message: `Variable "$junk${i}" is not declared by operation "Detail".`,
            extensions: { code: 'BAD_USER_INPUT' },
          },
        ],
      });
    }
    const anonymous = await t.http
      .post('/graphql')
      .send({ query: '{ categories { id } }', variables: { ['x'.repeat(5000)]: 1 } });
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.errors[0].message).toBe(`Variable "$${'x'.repeat(64)}…" is not declared by the operation.`);
    expect(statements - before).toBe(0);
    expect(cached()).toBe(entries);
  });

  it('a persisted query sent with GET is served from the answer its POST stored, whatever its spelling', async () => {
    const addon = await createAddon(t.em(), { name: { 'en-US': 'Persisted Pika' } });
    const variables = { id: String(addon.id) };
    // The plain document's answer is stored by a POST ...
    await post(DETAIL, variables);
    // ... and a persisted spelling variant, registered then sent over GET, is served from it.
    const variant = `${DETAIL}\n# persisted`;
    const extensions = {
      persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(variant).digest('hex') },
    };
    const registered = await post(variant, variables);
    expect(registered.cost).toBe(1);
    await t.http.post('/graphql').send({ query: variant, variables, extensions });
    const url = (vars: object) =>
      `/graphql?extensions=${encodeURIComponent(JSON.stringify(extensions))}&variables=${encodeURIComponent(JSON.stringify(vars))}`;
    const before = statements;
    const hit = await t.http.get(url(variables)).set('apollo-require-preflight', 'true');
    expect(hit.status).toBe(200);
    expect(hit.body.data).toEqual(registered.data);
    expect(statements - before).toBe(1);
    // Undeclared variables are refused over GET too (Apollo answers: the cache is not asked).
    const junk = await t.http.get(url({ ...variables, junk: 1 })).set('apollo-require-preflight', 'true');
    expect(junk.status).toBe(400);
    expect(junk.body.errors[0].message).toBe('Variable "$junk" is not declared by operation "Detail".');
  });
});

describe('anonymous POSTs of a known document are answered before Apollo (issue 24, item 4)', () => {
  it("sends the bytes and headers Apollo sent, for one statement and without Apollo's pipeline", async () => {
    const addon = await createAddon(t.em(), { name: { 'en-US': 'Early Echidna' } });
    const vars = { id: String(addon.id) };
    const authenticate = jest.spyOn(t.app.services.authenticator, 'authenticate');
    try {
      const miss = await post(DETAIL, vars);
      expect(miss.cost).toBeGreaterThan(1);
      const apollo = authenticate.mock.calls.length;
      expect(apollo).toBeGreaterThan(0); // Apollo built a context
      const hit = await post(DETAIL, vars);
      expect(hit.cost).toBe(1);
      expect(authenticate.mock.calls.length).toBe(apollo); // answered before Apollo
      expect(hit.res.text).toBe(miss.res.text);
      for (const name of ['content-type', 'content-length', 'cache-control']) {
        expect([name, hit.res.headers[name]]).toEqual([name, miss.res.headers[name]]);
      }
      // A write outdates it as before.
      await t.em().nativeUpdate(Addon, { id: addon.id }, { name: { 'en-US': 'Renamed Echidna' } });
      const fresh = await post(DETAIL, vars);
      expect(fresh.cost).toBeGreaterThan(1);
      expect(fresh.data.addon.name).toEqual({ 'en-US': 'Renamed Echidna' });
    } finally {
      authenticate.mockRestore();
    }
  });

  it('leaves to Apollo what it would answer otherwise: credentials, bad variables, extensions, other operations', async () => {
    const addon = await createAddon(t.em(), { name: { 'en-US': 'Late Lemur' } });
    const vars = { id: String(addon.id) };
    await post(DETAIL, vars);
    await post(DETAIL, vars);
    const send = (body: object, auth?: string) => {
      let req = t.http.post('/graphql').set('Content-Type', 'application/json');
      if (auth) req = req.set('Authorization', auth);
      return req.send(body);
    };
    const authenticate = jest.spyOn(t.app.services.authenticator, 'authenticate');
    try {
      const cases: [object, string | undefined, number, string | undefined][] = [
        [{ query: DETAIL, variables: vars }, session, 200, undefined],
        [{ query: DETAIL, variables: { id: 5 } }, undefined, 400, 'BAD_USER_INPUT'],
        [{ query: DETAIL, variables: { ...vars, junk: 1 } }, undefined, 400, 'BAD_USER_INPUT'],
        [{ query: DETAIL, variables: vars, operationName: 'Other' }, undefined, 400, 'OPERATION_RESOLUTION_FAILURE'],
        [{ query: DETAIL, variables: vars, extensions: { junk: true } }, undefined, 200, undefined],
      ];
      for (const [body, auth, status, code] of cases) {
        const before = authenticate.mock.calls.length;
        const res = await send(body, auth);
        expect([JSON.stringify(body), res.status, res.body.errors?.[0]?.extensions?.code]).toEqual([
          JSON.stringify(body),
          status,
          code,
        ]);
        expect(authenticate.mock.calls.length).toBeGreaterThan(before);
      }
    } finally {
      authenticate.mockRestore();
    }
  });
});

it('a kept answer holds its own bytes, not a slice of a shared 8 KiB pool (issue 23, item 6c)', async () => {
  const addon = await createAddon(t.em(), { name: { 'en-US': 'Pooled Pudu' } });
  const cache = t.app.services.responseCache;
  const stored: Buffer[] = [];
  const store = cache.store.bind(cache);
  cache.store = (key, answer, recorded) => {
    stored.push(answer.body);
    store(key, answer, recorded);
  };
  try {
    const { data } = await post('query Pooled($id: String!) { addon(id: $id) { id name } }', { id: String(addon.id) });
    expect(data.addon.name).toEqual({ 'en-US': 'Pooled Pudu' });
  } finally {
    cache.store = store;
  }
  expect(stored).toHaveLength(1);
  expect(stored[0].byteLength).toBeLessThan(200);
  expect(stored[0].buffer.byteLength).toBe(stored[0].byteLength);
});
