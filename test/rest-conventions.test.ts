import { paginated, pageVariables } from '../rest-compat/pagination.js';
import { defineRoutes, gql } from '../rest-compat/route.js';
import { errors } from '../src/core/errors.js';
import { parseTranslationsInput } from '../src/core/i18n/translations.js';
import type { Page } from '../src/core/pagination.js';
import { startTestApp, type TestApp } from './helpers/app.js';

const siteQuery = (name: string) => `query ${name} { siteStatus { readOnly } }`;

/** Probes of the engine's shared conventions, mounted next to the real route table. */
const probes = defineRoutes([
  {
    method: 'GET',
    path: '/probe/users/',
    versions: ['v3', 'v4'],
    document: gql`
      query ProbeUsers($page: Int, $pageSize: Int) {
        users(page: $page, pageSize: $pageSize) {
          count
          page
          pageSize
          pageCount
          items {
            id
          }
        }
      }
    `,
    variables: pageVariables,
    shape: (data: { users: Page<{ id: number }> }, ctx) => paginated(data.users, ctx, (u) => u.id),
  },
  {
    method: 'GET',
    path: '/probe/translated/',
    versions: ['v4'],
    document: siteQuery('ProbeTranslated'),
    shape: (_data, ctx) => ({
      name: ctx.translated({ 'en-US': 'Hello', fr: 'Bonjour', de: '' }),
      summary: ctx.translated({ fr: 'Résumé' }, 'fr'),
      empty: ctx.translated({}),
      homepage: ctx.link('https://example.com/page?a=1&b=2'),
      internal: ctx.link(`${ctx.baseUrl}/addon/foo/`),
      created: ctx.timestamp(new Date('2020-01-02T03:04:05.678Z')),
    }),
  },
  {
    method: 'POST',
    path: '/probe/translated/',
    versions: ['v4'],
    document: siteQuery('ProbeTranslatedInput'),
    status: 201,
    shape: (_data, ctx) => ({
      name: parseTranslationsInput('name', (ctx.request.body as { name?: unknown }).name, ctx.request.locale),
    }),
  },
  {
    method: 'GET',
    path: '/probe/errors/<kind>/',
    versions: ['v4'],
    document: siteQuery('ProbeErrors'),
    variables: (req) => {
      switch (req.params.kind) {
        case 'field':
          throw errors.validation({ name: ['This field is required.'], non_field_errors: ['Nope.'] });
        case 'array':
          throw errors.badParameter('Invalid "app" parameter.');
        case 'forbidden':
          throw errors.forbidden(undefined, { is_disabled_by_developer: false, is_disabled_by_vendor: true });
        case 'crash':
          throw new Error('secret internals at /srv/app.ts:12');
        default:
          throw errors.notFound();
      }
    },
  },
  {
    method: 'GET',
    path: '/probe/signing/<guid>/',
    versions: ['v3', 'v4'],
    errorStyle: 'signing',
    document: siteQuery('ProbeSigning'),
    variables: (req) => {
      throw errors.notFound(`Could not find add-on with id "${req.params.guid}".`);
    },
  },
  {
    method: 'POST',
    path: '/probe/echo/',
    versions: ['v4'],
    document: siteQuery('ProbeEcho'),
    shape: (_data, ctx) => ({ body: ctx.request.body }),
  },
]);

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await startTestApp({ extraRoutes: probes });
  admin = `Bearer ${(await t.createUser({ group: ['Admins'], session: true })).sessionToken}`;
  for (let i = 0; i < 59; i++) await t.createUser();
});
afterAll(() => t.close());

describe('pagination', () => {
  const list = (query = '') => t.http.get(`/api/v4/probe/users/${query}`).set('Authorization', admin);

  it('defaults to 25 per page with the original keys, in order, and absolute links', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['page_size', 'page_count', 'count', 'next', 'previous', 'results']);
    expect(res.body).toMatchObject({ page_size: 25, page_count: 3, count: 60, previous: null });
    expect(res.body.results).toHaveLength(25);
    expect(res.body.next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v4\/probe\/users\/\?page=2$/);
  });

  it('caps page_size at 50 and falls back to 25 for bad values', async () => {
    expect((await list('?page_size=100')).body).toMatchObject({ page_size: 50, page_count: 2 });
    for (const bad of ['0', '-3', 'abc', '']) {
      expect((await list(`?page_size=${bad}`)).body.page_size).toBe(25);
    }
  });

  it('keeps the other parameters in next/previous, sorted, and drops page=1', async () => {
    const res = await list('?page_size=10&page=2&lang=fr');
    expect(res.body.results).toHaveLength(10);
    expect(new URL(res.body.next).search).toBe('?lang=fr&page=3&page_size=10');
    expect(new URL(res.body.previous).search).toBe('?lang=fr&page_size=10');
    const last = await list('?page_size=10&page=6');
    expect(last.body.next).toBeNull();
    expect(new URL(last.body.previous).searchParams.get('page')).toBe('5');
  });

  it('answers a page past the end, or not a page at all, with 404 "Invalid page."', async () => {
    for (const page of ['4', '0', '-1', 'abc', '1.5']) {
      const res = await list(`?page=${page}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Invalid page.' });
    }
  });

  it('applies the same limits on GraphQL', async () => {
    const res = await t.http
      .post('/graphql')
      .set('Authorization', admin)
      .send({ query: '{ users(pageSize: 500) { pageSize pageCount } }' });
    expect(res.body.data.users).toEqual({ pageSize: 50, pageCount: 2 });
    const past = await t.http
      .post('/graphql')
      .set('Authorization', admin)
      .send({ query: '{ users(page: 9) { count } }' });
    expect(past.body.errors[0]).toMatchObject({ message: 'Invalid page.', extensions: { code: 'INVALID_PAGE' } });
  });
});

describe('translated fields', () => {
  it('are objects of every non-empty locale without lang, null when empty', async () => {
    const res = await t.http.get('/api/v4/probe/translated/');
    expect(res.body.name).toEqual({ 'en-US': 'Hello', fr: 'Bonjour' });
    expect(res.body.empty).toBeNull();
  });

  it('are one string with lang: the language, else the default locale', async () => {
    expect((await t.http.get('/api/v4/probe/translated/?lang=fr')).body).toMatchObject({
      name: 'Bonjour',
      summary: 'Résumé',
    });
    expect((await t.http.get('/api/v4/probe/translated/?lang=de')).body).toMatchObject({
      name: 'Hello',
      summary: 'Résumé',
    });
    expect((await t.http.get('/api/v4/probe/translated/?lang=xx')).body.name).toBe('Hello');
  });

  it('accept a string for the current language or an object, and refuse unknown locales', async () => {
    const post = (body: object, query = '') => t.http.post(`/api/v4/probe/translated/${query}`).send(body);
    expect((await post({ name: '  Hallo  ' }, '?lang=de')).body).toEqual({ name: { de: 'Hallo' } });
    expect((await post({ name: 'Hej' }).set('Accept-Language', 'sv-SE,en;q=0.5')).body).toEqual({
      name: { 'sv-SE': 'Hej' },
    });
    expect((await post({ name: 'Hi' })).body).toEqual({ name: { 'en-US': 'Hi' } });
    expect((await post({ name: { 'en-us': 'Hi', fr: 'Salut' } })).body).toEqual({
      name: { 'en-US': 'Hi', fr: 'Salut' },
    });
    const bad = await post({ name: { 'en-US': 'Hi', xx: 'Nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ name: ["The language code 'xx' is invalid."] });
    expect((await post({ name: 42 })).body).toEqual({ name: ['You must provide an object of {lang-code:value}.'] });
  });
});

describe('outgoing links and timestamps', () => {
  it('wraps external links only with wrap_outgoing_links, never internal ones', async () => {
    const plain = await t.http.get('/api/v4/probe/translated/');
    expect(plain.body.homepage).toBe('https://example.com/page?a=1&b=2');
    const wrapped = await t.http.get('/api/v4/probe/translated/?wrap_outgoing_links');
    expect(wrapped.body.homepage).toMatch(
      /^https:\/\/outgoing\.example\.org\/v1\/[A-Za-z0-9_-]{43}\/https%3A\/\/example\.com\/page%3Fa=1&b=2$/,
    );
    expect(wrapped.body.internal).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/addon\/foo\/$/);
    expect(t.app.services.links.verify(wrapped.body.homepage.split('/')[4], 'https://example.com/page?a=1&b=2')).toBe(
      true,
    );
  });

  it('formats timestamps as YYYY-MM-DDTHH:MM:SSZ', async () => {
    expect((await t.http.get('/api/v4/probe/translated/')).body.created).toBe('2020-01-02T03:04:05Z');
  });
});

describe('error bodies', () => {
  const get = (path: string) => t.http.get(path);

  it('uses field maps, bare arrays, detail objects and signing errors where the original does', async () => {
    let res = await get('/api/v4/probe/errors/field/');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: ['This field is required.'], non_field_errors: ['Nope.'] });
    res = await get('/api/v4/probe/errors/array/');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(['Invalid "app" parameter.']);
    res = await get('/api/v4/probe/errors/forbidden/');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      detail: 'You do not have permission to perform this action.',
      is_disabled_by_developer: false,
      is_disabled_by_vendor: true,
    });
    res = await get('/api/v4/probe/errors/missing/');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not found.' });
    res = await get('/api/v3/probe/signing/%7Babc%7D/');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Could not find add-on with id "{abc}".' });
  });

  it('turns an unexpected failure into a 500 without internals', async () => {
    const res = await get('/api/v4/probe/errors/crash/');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: 'Internal Server Error' });
    expect(res.text).not.toContain('secret');
  });

  it('answers unknown paths with 404 and wrong methods with 405', async () => {
    for (const path of ['/api/v4/nothing/', '/api/v6/site/', '/api/v3/site/', '/api/', '/nothing']) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
      expect(res.headers['content-type']).toBe('application/json');
    }
    const res = await t.http.delete('/api/v4/site/');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ detail: 'Method "DELETE" not allowed.' });
    expect(res.headers.allow).toBe('GET');
  });

  it('answers malformed JSON with 400 "JSON parse error - …"', async () => {
    const res = await t.http.post('/api/v4/probe/echo/').set('Content-Type', 'application/json').send('{"a": ');
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^JSON parse error - /);
    expect(res.headers['content-type']).toBe('application/json');
  });

  it('parses JSON and form bodies', async () => {
    expect((await t.http.post('/api/v4/probe/echo/').send({ a: [1] })).body).toEqual({ body: { a: [1] } });
    expect((await t.http.post('/api/v4/probe/echo/').type('form').send('a=1&b=x')).body).toEqual({
      body: { a: '1', b: 'x' },
    });
  });
});

describe('HTTP conventions', () => {
  it('sends Content-Type: application/json exactly, on success and on errors', async () => {
    for (const path of ['/api/v4/site/', '/api/v4/accounts/profile/', '/api/v4/probe/errors/crash/', '/healthz']) {
      expect((await t.http.get(path)).headers['content-type']).toBe('application/json');
    }
  });

  it('allows CORS on every API route', async () => {
    const res = await t.http.get('/api/v4/site/').set('Origin', 'https://front.example');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const preflight = await t.http
      .options('/api/v4/accounts/profile/')
      .set('Origin', 'https://front.example')
      .set('Access-Control-Request-Method', 'PATCH')
      .set('Access-Control-Request-Headers', 'authorization,content-type');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('PATCH');
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization,content-type');
  });

  it('collapses doubled slashes (sign-addon with a trailing-slash prefix)', async () => {
    const res = await t.http.get('/api/v4//site/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ read_only: false, notice: null });
  });

  it('reports health with the database', async () => {
    expect((await t.http.get('/healthz')).body).toEqual({ status: 'ok', database: t.app.db.kind });
  });
});
