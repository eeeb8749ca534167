import { connect } from 'node:net';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { parse, specifiedRules, validate, type ValidationRule } from 'graphql';
import { routes } from '../rest-compat/routes/index.js';
import { signJwt } from '../src/auth/jwt.js';
import { loadConfig } from '../src/config.js';
import { waitFor } from './helpers/signing.js';
import { ResponseCache } from '../src/core/response-cache.js';
import { UploadSlots } from '../src/core/upload-slots.js';
import { buildAppSchema } from '../src/modules.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';

const now = () => Math.floor(Date.now() / 1000);

/** Sends raw bytes and returns whatever the server answers before closing (or `timeoutMs`). */
function rawRequest(server: Server, payload: string | Buffer, timeoutMs = 5_000): Promise<string> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(answer);
    }, timeoutMs);
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('error', (e) => (answer ? resolve(answer) : reject(e)));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.write(payload);
  });
}

const bodyOf = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4);
const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1]);

/** A multipart body that opens a file part and ends without closing it (issue 9, item 0). */
const truncatedMultipart = (path: string, authorization?: string) => {
  const body =
    '--XYZ\r\nContent-Disposition: form-data; name="upload"; filename="a.xpi"\r\n' +
    'Content-Type: application/octet-stream\r\n\r\nPK\u0003\u0004 half a file';
  return (
    `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=XYZ\r\n` +
    (authorization ? `Authorization: ${authorization}\r\n` : '') +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
};

describe('hardening (issue 9)', () => {
  let t: TestApp;
  let server: Server;
  let developer: { id: number; jwt: () => string; session: string };

  let statements = 0;

  beforeAll(async () => {
    t = await startTestApp({ onQuery: () => statements++ });
    server = await t.app.listen(0, '127.0.0.1');
    const user = await t.createUser({ 'api-key': true, session: true });
    const key = user.apiKey!;
    developer = {
      id: user.id,
      jwt: () => `JWT ${signJwt({ iss: key.key, iat: now(), exp: now() + 300 }, key.secret)}`,
      session: `Bearer ${user.sessionToken}`,
    };
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const alive = async () => expect((await t.http.get('/healthz')).status).toBe(200);

  describe('client streams never crash the process', () => {
    it('answers a truncated multipart upload with a 400 in the signing shape, and stays up', async () => {
      const answer = await rawRequest(server, truncatedMultipart('/api/v4/addons/x@y/versions/1.0/', developer.jwt()));
      expect(statusOf(answer)).toBe(400);
      expect(JSON.parse(bodyOf(answer))).toEqual({ error: expect.stringMatching(/^Multipart form parse error/) });
      await alive();
    });

    it('does not read an anonymous upload at all', async () => {
      const tmp = join(t.app.services.config.dataDir, 'tmp');
      const spooled = () => (existsSync(tmp) ? readdirSync(tmp) : []);
      // The previous test's spooled part is removed once its response has closed: wait for it.
      await waitFor('earlier spooled parts to be removed', async () => spooled().length === 0, 10_000);
      const answer = await rawRequest(server, truncatedMultipart('/api/v4/addons/x@y/versions/1.0/'));
      expect(statusOf(answer)).toBe(401);
      expect(spooled()).toEqual([]); // nothing spooled, nothing left
      await alive();
    });

    it('refuses file parts on routes that take no uploads, and oversized text fields', async () => {
      const file = await t.http
        .patch('/api/v4/ratings/rating/1/')
        .set('Authorization', developer.session)
        .attach('body', Buffer.from('x'), 'x.txt');
      expect(file.status).toBe(400);
      expect(file.body).toEqual({ detail: 'Multipart form parse error - files are not accepted here.' });

      const field = await t.http
        .patch(`/api/v4/accounts/account/${developer.id}/`)
        .set('Authorization', developer.session)
        .field('biography', 'b'.repeat(300 * 1024));
      expect(field.status).toBe(400);
      expect(field.body).toEqual({ detail: 'Multipart form parse error - the field "biography" is too long.' });
    });

    it('survives parts named "" (busboy names them undefined), oversized or not', async () => {
      for (const size of [10, 300 * 1024]) {
        const body =
          '--XYZ\r\nContent-Disposition: form-data; name="body"\r\n\r\nfalse\r\n' +
          `--XYZ\r\nContent-Disposition: form-data; name=""\r\n\r\n${'a'.repeat(size)}\r\n` +
          '--XYZ\r\nContent-Disposition: form-data; name=""; filename="x"\r\n\r\nxx\r\n--XYZ--\r\n';
        const answer = await rawRequest(
          server,
          `POST /api/v3/reviews/review/1/reply/ HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=XYZ\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
        expect(statusOf(answer)).toBeGreaterThanOrEqual(400);
        expect(statusOf(answer)).toBeLessThan(500);
      }
      await alive();
    });

    it('answers a truncated GraphQL multipart request with BAD_REQUEST', async () => {
      const ops = JSON.stringify({
        query: 'mutation($u: Upload) { submitAddonVersion(upload: $u) { addonCreated } }',
        variables: { u: null },
      });
      const body =
        `--XYZ\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${ops}\r\n` +
        `--XYZ\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"1":["variables.u"]}\r\n` +
        '--XYZ\r\nContent-Disposition: form-data; name="1"; filename="a.xpi"\r\n\r\nPK half';
      const answer = await rawRequest(
        server,
        `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=XYZ\r\n` +
          `Authorization: ${developer.session}\r\napollo-require-preflight: true\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      // A field error: GraphQL over HTTP answers 200, with the code a client can act on.
      expect(statusOf(answer)).toBe(200);
      expect(JSON.parse(bodyOf(answer))).toMatchObject({
        data: null,
        errors: [
          {
            message: 'The upload was interrupted before the file was complete.',
            extensions: { code: 'BAD_REQUEST' },
          },
        ],
      });
      expect(bodyOf(answer)).not.toMatch(/stacktrace|\/work\/|node_modules/);
      await alive();
    });

    it('caps concurrent uploads per account: past the slots and the waiting line, a 429 with Retry-After', async () => {
      const slots = t.app.services.uploadSlots;
      const releases = await Promise.all(
        Array.from({ length: t.app.services.config.MAX_CONCURRENT_UPLOADS_PER_USER }, () =>
          slots.acquire(developer.id),
        ),
      );
      // The line is full too: uploads waiting for a slot (granted below, one by one, as slots free).
      const waiting = Array.from({ length: slots.maxWaiting }, () => slots.acquire(developer.id));
      try {
        const res = await t.http
          .put('/api/v4/addons/x@y/versions/1.0/')
          .set('Authorization', developer.jwt())
          .attach('upload', Buffer.from('PK'), 'a.xpi');
        expect(res.status).toBe(429);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.body).toEqual({ error: 'Request was throttled. Expected available in 5 seconds.' });
        const graphql = await t.http
          .post('/graphql')
          .set('Authorization', developer.session)
          .set('apollo-require-preflight', 'true')
          .field(
            'operations',
            JSON.stringify({
              query: 'mutation($u: Upload) { submitAddonVersion(upload: $u) { addonCreated } }',
              variables: { u: null },
            }),
          )
          .field('map', JSON.stringify({ 1: ['variables.u'] }))
          .attach('1', Buffer.from('PK'), 'a.xpi');
        expect(graphql.status).toBe(429);
        expect(graphql.body.errors[0].extensions.code).toBe('THROTTLED');
      } finally {
        releases.forEach((release) => release());
        for (const granted of waiting) (await granted)();
      }
      expect(slots.inUse(developer.id)).toBe(0);
      expect(slots.waiting(developer.id)).toBe(0);
    });
  });

  describe('the HTTP parser refusals answer JSON', () => {
    it('431 for headers too large', async () => {
      const answer = await rawRequest(
        server,
        `GET /api/v4/site/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(statusOf(answer)).toBe(431);
      expect(answer).toMatch(/Content-Type: application\/json/);
      expect(JSON.parse(bodyOf(answer))).toEqual({ detail: 'Request header fields too large.' });
    });

    it('400 for a malformed request line', async () => {
      const answer = await rawRequest(server, 'GARBAGE\r\n\r\n');
      expect(statusOf(answer)).toBe(400);
      expect(JSON.parse(bodyOf(answer))).toEqual({ detail: 'Bad request.' });
      await alive();
    });
  });

  describe('bad input is a 400, never a 500', () => {
    it('NUL characters in query parameters, paths and bodies', async () => {
      for (const path of [
        '/api/v4/addons/search/?q=ab%00cd',
        '/api/v4/addons/autocomplete/?q=ab%00',
        '/api/v4/addons/addon/a%00b/',
        '/api/v3/addons/addon/a%00b/versions/',
      ]) {
        const res = await t.http.get(path);
        expect([path, res.status, res.body]).toEqual([path, 400, { detail: 'Null characters are not allowed.' }]);
      }
      const body = await t.http
        .patch(`/api/v4/accounts/account/${developer.id}/`)
        .set('Authorization', developer.session)
        .send({ biography: 'a\u0000b' });
      expect(body.status).toBe(400);
      expect(body.body).toEqual({ biography: ['Null characters are not allowed.'] });
      const signing = await t.http.get('/api/v4/addons/a%00b/versions/1.0/').set('Authorization', developer.jwt());
      expect(signing.status).toBe(400);
      expect(signing.body).toEqual({ error: 'Null characters are not allowed.' });
    });

    it('NUL characters in GraphQL variables and literals', async () => {
      const variable = await t.http
        .post('/graphql')
        .send({ query: 'query($q: String!) { user(user: $q) { id } }', variables: { q: 'a\u0000' } });
      expect(variable.status).toBe(400);
      expect(variable.body.errors[0].message).toBe('Null characters are not allowed. (variable q)');
      const inUrl = await t.http
        .get('/graphql')
        .set('apollo-require-preflight', 'true')
        .query({ query: 'query($q: String!) { user(user: $q) { id } }', variables: JSON.stringify({ q: 'a\u0000' }) });
      expect(inUrl.status).toBe(400);
      expect(inUrl.body.errors[0].message).toBe('Null characters are not allowed. (variable q)');
      const deepInUrl = await t.http
        .get('/graphql')
        .set('apollo-require-preflight', 'true')
        .query({ query: '{ siteStatus { readOnly } }', variables: `{"a":${'['.repeat(100)}${']'.repeat(100)}}` });
      expect(deepInUrl.status).toBe(400);
      const literal = await t.http.post('/graphql').send({ query: '{ user(user: "a\\u0000") { id } }' });
      expect(literal.status).toBe(400);
      expect(literal.body.errors[0].message).toBe('Null characters are not allowed.');
    });

    it('unpaired surrogates, a bad Host, a NUL in a JWT issuer, malformed GraphQL bodies', async () => {
      const surrogate = await t.http
        .post(`/api/v4/accounts/account/${developer.id}/collections/`)
        .set('Authorization', developer.session)
        .send('{"name":"\\ud800","slug":"lone"}')
        .set('Content-Type', 'application/json');
      expect([surrogate.status, surrogate.body]).toEqual([
        400,
        { name: ['Text must be valid Unicode: it holds an unpaired surrogate.'] },
      ]);
      const host = await t.http.get('/api/v4/site/').set('Host', 'a b');
      expect([host.status, host.body]).toEqual([400, { detail: 'Invalid Host header.' }]);
      const graphqlHost = await t.http
        .post('/graphql')
        .set('Host', 'x:99999')
        .send({ query: '{ siteStatus { readOnly } }' });
      expect(graphqlHost.body).toEqual({
        errors: [{ message: 'Invalid Host header.', extensions: { code: 'BAD_REQUEST' } }],
      });

      const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const nulIssuer = `JWT ${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ iss: 'a\u0000b', iat: now(), exp: now() + 60 })}.c2ln`;
      const profile = await t.http.get('/api/v4/accounts/profile/').set('Authorization', nulIssuer);
      expect([profile.status, profile.body]).toEqual([401, { detail: 'Unknown JWT iss (issuer).' }]);
      const me = await t.http.post('/graphql').set('Authorization', nulIssuer).send({ query: '{ me { id } }' });
      expect(me.status).toBe(401);
      expect(JSON.stringify(me.body)).not.toMatch(/select|Context creation/);

      const malformed = await t.http.post('/graphql').set('Content-Type', 'application/json').send('{');
      expect(malformed.status).toBe(400);
      expect(malformed.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });
      const subscription = await t.http.post('/graphql').send({ query: 'subscription { siteStatus { readOnly } }' });
      expect(subscription.status).toBe(400);
      expect(subscription.body.errors[0].message).toBe('This service has no subscriptions.');
    });

    it('dates the database cannot store', async () => {
      const admin = await t.createUser({ session: true, permission: ['Reviews:Admin'] });
      const addon = await createAddon(t.em(), { slug: 'dated-addon' });
      const res = await t.http
        .post('/graphql')
        .set('Authorization', `Bearer ${admin.sessionToken}`)
        .send({
          query: `mutation($d: DateTimeISO) { updateAddonReviewerFlags(addon: "${addon.id}", flags: { autoApprovalDelayedUntil: $d }) { autoApprovalDisabled } }`,
          variables: { d: '0000-01-01T00:00:00Z' },
        });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toMatch(/between the years 1 and 9999/);
    });

    it('numbers past GraphQL Int and Float in parameters', async () => {
      const page = await t.http.get('/api/v4/addons/search/?page=2147483648');
      expect([page.status, page.body]).toEqual([404, { detail: 'Invalid page.' }]);
      const size = await t.http.get('/api/v4/addons/search/?page_size=99999999999');
      expect(size.status).toBe(200);
      expect(size.body.page_size).toBe(50);
      const author = await t.http.get(`/api/v4/addons/autocomplete/?q=ab&author=${'9'.repeat(400)}`);
      expect([author.status, author.body]).toEqual([200, { results: [] }]);
    });

    it('deeply nested JSON bodies', async () => {
      const deep = '['.repeat(10_000) + ']'.repeat(10_000);
      for (const [path, extra] of [
        ['/api/v4/accounts/account/1/', {}],
        ['/graphql', {}],
      ] as const) {
        const res = await t.http
          .post(path)
          .set({ 'Content-Type': 'application/json', ...extra })
          .send(path === '/graphql' ? `{"query":"{ siteStatus { readOnly } }","variables":{"a":${deep}}}` : deep);
        expect(res.status).toBe(400);
        expect(JSON.stringify(res.body)).toContain('nesting deeper than 64 levels');
      }
      await alive();
    });

    it('a GraphQL document nested past the parser', async () => {
      const res = await t.http.post('/graphql').send({ query: `{ ${'a { '.repeat(20_000)}b${' }'.repeat(20_000)} }` });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).not.toMatch(/RangeError|stack/i);
      expect(res.body.errors[0].message).toMatch(/Document contains more that 2000 tokens/);
      await alive();
    });

    it('GraphQL errors never carry a stack trace, whatever NODE_ENV says', async () => {
      expect(process.env.NODE_ENV).not.toBe('production');
      const res = await t.http.post('/graphql').send({ query: '{ addon(id: "nope") { id } }' });
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].extensions.stacktrace).toBeUndefined();
      const syntax = await t.http.post('/graphql').send({ query: '{ addon(' });
      expect(syntax.body.errors[0].extensions.stacktrace).toBeUndefined();
    });
  });

  describe('credentials per operation', () => {
    it('GraphQL refuses an API key on operations that do not declare it', async () => {
      const me = await t.http.post('/graphql').set('Authorization', developer.jwt()).send({ query: '{ me { id } }' });
      expect(me.body).toEqual({ data: { me: { id: developer.id } } });
      for (const query of [
        'mutation { issueApiKey { key } }',
        `mutation { deleteUser(user: "${developer.id}") }`,
        '{ siteStatus { readOnly } }',
        '{ me { id } siteStatus { readOnly } }',
      ]) {
        const res = await t.http.post('/graphql').set('Authorization', developer.jwt()).send({ query });
        expect([query, res.status]).toEqual([query, 403]);
        expect(res.body.errors[0].message).toBe(
          'This operation does not accept API keys (JWT); it accepts session tokens.',
        );
      }
      expect((await t.http.get(`/api/v4/accounts/account/${developer.id}/`)).status).not.toBe(500);
    });

    it('REST ignores credentials of a scheme the route does not accept, as the original', async () => {
      const res = await t.http.delete('/api/v4/accounts/session/').set('Authorization', developer.jwt());
      expect(res.status).toBe(401);
      const profile = await t.http.get('/api/v4/accounts/profile/').set('Authorization', developer.jwt());
      expect(profile.status).toBe(200);
    });

    it('route schemes come from the operation: a route cannot widen them', async () => {
      const schema = await buildAppSchema(null);
      const { compileRoutes } = await import('../rest-compat/engine.js');
      expect(() =>
        compileRoutes(schema, [
          {
            method: 'GET',
            path: '/x/',
            versions: ['v4'],
            auth: ['jwt'],
            document: 'query X { siteStatus { readOnly } }',
          },
        ]),
      ).toThrow(/auth jwt is not accepted by X's fields/);
      const table = compileRoutes(schema, routes);
      const schemes = (method: string, path: string) =>
        table.get('v4')!.find((r) => r.definition.method === method && r.definition.path === path)!.schemes;
      expect(schemes('PUT', '/addons/<guid>/versions/<version>/')).toEqual(['jwt']);
      expect(schemes('GET', '/accounts/profile/')).toEqual(['jwt', 'session']);
      expect(schemes('POST', '/accounts/super-create/')).toEqual(['jwt']);
      expect(schemes('DELETE', '/accounts/session/')).toEqual(['session']);
    });
  });

  describe('GraphQL cost limits', () => {
    it('refuses too many aliases, too deep and too costly documents before execution', async () => {
      const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: siteStatus { readOnly }`).join(' ');
      const res = await t.http.post('/graphql').send({ query: `{ ${aliases} }` });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toMatch(/Aliases limit of 15 exceeded/);
      expect(res.body.data).toBeUndefined();

      const deep = await t.http
        .post('/graphql')
        .send({ query: `{ rating(id: 1) { ${'reply { '.repeat(12)}id${' }'.repeat(12)} } }` });
      expect(deep.status).toBe(400);
      expect(deep.body.errors[0].message).toMatch(/Query depth limit of 12 exceeded/);

      const one = (i: number) =>
        `r${i}: rating(id: 1) { ${'id body created reply { '.repeat(10)}id${' }'.repeat(10)} }`;
      const costly = await t.http
        .post('/graphql')
        .send({ query: `{ ${Array.from({ length: 10 }, (_, i) => one(i)).join(' ')} }` });
      expect(costly.status).toBe(400);
      expect(costly.body.errors[0].message).toMatch(/Query Cost limit of 5000 exceeded/);
    });

    it('lets every REST route document through the same limits', async () => {
      const schema = await buildAppSchema(null);
      const config = loadConfig({});
      const armor = new ApolloArmor({
        maxDepth: { n: config.GRAPHQL_MAX_DEPTH },
        maxAliases: { n: config.GRAPHQL_MAX_ALIASES },
        costLimit: { maxCost: config.GRAPHQL_MAX_COST },
        maxDirectives: { n: config.GRAPHQL_MAX_DIRECTIVES },
        maxTokens: { n: config.GRAPHQL_MAX_TOKENS },
      }).protect();
      for (const route of routes) {
        const errors = validate(schema, parse(route.document), [
          ...specifiedRules,
          ...(armor.validationRules as ValidationRule[]),
        ]);
        expect([route.method, route.path, errors.map((e) => e.message)]).toEqual([route.method, route.path, []]);
      }
    });
  });

  describe('the REST answer cache', () => {
    it('keys answers on what they depend on, and never caches junk parameters', async () => {
      await createAddon(t.em(), { slug: 'cached-addon' });
      const detail = '/api/v4/addons/addon/cached-addon/';
      /** SQL statements one anonymous GET costs: a hit reads its cache tags' versions only. */
      const cost = async (path: string, headers: Record<string, string> = {}) => {
        const before = statements;
        // supertest listens on a new port each time: a fixed Host keeps the origin the same.
        const res = await t.http.get(path).set({ Host: 'api.example', ...headers });
        expect(res.status).toBe(200);
        return statements - before;
      };
      expect(await cost(detail)).toBeGreaterThan(1);
      expect(await cost(detail)).toBe(1);
      // The scheme and host are in the key (absolute URLs in the answer), and so is the language.
      expect(await cost(detail, { Host: 'other.example' })).toBeGreaterThan(1);
      expect(await cost(detail, { Host: 'other.example' })).toBe(1);
      expect(await cost(detail, { 'Accept-Language': 'de' })).toBeGreaterThan(1);
      expect(await cost(detail, { 'Accept-Language': 'de' })).toBe(1);
      // Parameters the route never reads: answered, never cached.
      expect(await cost(`${detail}?utm=1`)).toBeGreaterThan(1);
      expect(await cost(`${detail}?utm=1`)).toBeGreaterThan(1);
      // Parameters it reads are keyed in a normal order.
      const search = '/api/v4/addons/search/?q=cached&page_size=5';
      expect(await cost(search)).toBeGreaterThan(1);
      expect(await cost('/api/v4/addons/search/?page_size=5&q=cached')).toBe(1);
    });

    it('is bounded by bytes, least recently used first', async () => {
      const em = t.em();
      const cache = new ResponseCache(64 * 1024);
      const body = Buffer.from('x'.repeat(2000));
      const tags = ['hardening:test'];
      const versions = await cache.tagVersions(em, tags);
      for (let i = 0; i < 100; i++) cache.set(`k${i}`, { status: 200, body, etag: '"e"' }, tags, versions);
      expect(cache.bytes).toBeLessThanOrEqual(64 * 1024);
      expect(cache.size).toBeLessThan(100);
      expect(await cache.get(em, 'k99')).toBeDefined();
      expect(await cache.get(em, 'k0')).toBeUndefined();
      cache.set('huge', { status: 200, body: Buffer.from('y'.repeat(10 * 1024)), etag: '"e"' }, tags, versions); // over an eighth
      expect(await cache.get(em, 'huge')).toBeUndefined();
      await em.getConnection().execute(`select cache_bump(array['hardening:test'])`);
      expect(await cache.get(em, 'k99')).toBeUndefined(); // its tag's version changed: dropped
    });
  });

  it('upload slots are per account and given back once; past them uploads wait in line, first come first served', async () => {
    const slots = new UploadSlots(2, { maxWaiting: 2, waitMs: 50 });
    const a = await slots.acquire(1);
    const b = await slots.acquire(1);
    const order: string[] = [];
    const third = slots.acquire(1).then((release) => (order.push('third'), release));
    const fourth = slots.acquire(1).then((release) => (order.push('fourth'), release));
    await expect(slots.acquire(1)).rejects.toThrow('Request was throttled. Expected available in 5 seconds.');
    await expect(slots.acquire(2)).resolves.toBeInstanceOf(Function);
    a();
    a();
    const releaseThird = await third;
    expect(order).toEqual(['third']);
    expect(slots.inUse(1)).toBe(2);
    b();
    (await fourth)();
    releaseThird();
    expect(slots.inUse(1)).toBe(0);
    // A wait that runs out is a 429; an abandoned wait leaves the line.
    const held = [await slots.acquire(1), await slots.acquire(1)];
    await expect(slots.acquire(1)).rejects.toThrow('Request was throttled');
    const gone = new AbortController();
    const abandoned = slots.acquire(1, gone.signal);
    gone.abort();
    await expect(abandoned).rejects.toThrow('Request was throttled');
    expect(slots.waiting(1)).toBe(0);
    held.forEach((release) => release());
    expect(slots.inUse(1)).toBe(0);
  });
});

/** Splits raw answers read off one connection: status, header block and the bytes after it. */
function parseAnswer(answer: string) {
  const end = answer.indexOf('\r\n\r\n');
  const head = answer.slice(0, end);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1];
  return { status: statusOf(answer), head, header, rest: answer.slice(end + 4) };
}

describe('the REST edge (issue 23, items 3 and 6a)', () => {
  let t: TestApp;
  let server: Server;

  beforeAll(async () => {
    t = await startTestApp();
    server = await t.app.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  describe('absolute-form request targets', () => {
    const absolute = (target: string, host = 'api.example') =>
      `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;

    it('never put their authority in the links of an answer, nor in its cache key', async () => {
      const addon = await createAddon(t.em(), { slug: 'absolute-form' });
      await createAddon(t.em(), { slug: 'absolute-form-2' });
      const detail = parseAnswer(
        await rawRequest(server, absolute('http://evil.example/api/v4/addons/addon/absolute-form/')),
      );
      expect(detail.status).toBe(200);
      const body = JSON.parse(detail.rest) as { id: number; url: string };
      expect(body.id).toBe(addon.id);
      expect(body.url).toBe('http://api.example/addon/absolute-form/');
      expect(detail.rest).not.toContain('evil.example');
      // The answer it cached is the one the site's own origin gets (same bytes, same ETag).
      const plain = await t.http.get('/api/v4/addons/addon/absolute-form/').set('Host', 'api.example');
      expect(plain.text).toBe(detail.rest);
      expect(plain.headers.etag).toBe(detail.header('ETag'));

      // Pagination links too (with a scheme and a port of their own).
      const search = parseAnswer(
        await rawRequest(server, absolute('https://evil.example:8443/api/v4/addons/search/?page_size=1')),
      );
      expect(search.status).toBe(200);
      const page = JSON.parse(search.rest) as { next: string };
      expect(page.next).toMatch(/^http:\/\/api\.example\/api\/v4\/addons\/search\/\?/);
      expect(search.rest).not.toContain('evil.example');

      // GraphQL builds its URLs from SITE_URL or Host alone.
      const query = JSON.stringify({ query: '{ addon(id: "absolute-form") { url } }' });
      const graphql = parseAnswer(
        await rawRequest(
          server,
          `POST http://evil.example/graphql HTTP/1.1\r\nHost: api.example\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${Buffer.byteLength(query)}\r\nConnection: close\r\n\r\n${query}`,
        ),
      );
      expect(JSON.parse(graphql.rest)).toEqual({ data: { addon: { url: 'http://api.example/addon/absolute-form/' } } });
    });
  });

  describe('HEAD answers carry headers only', () => {
    const big = 'b'.repeat(20_000);

    it('when the HTTP parser refuses the request (431, 414, 400), and GET still gets the JSON body', async () => {
      const cases: [string, string, number, string][] = [
        ['/api/v4/site/', `X-Big: ${big}\r\n`, 431, 'Request header fields too large.'],
        [`/api/v4/addons/search/?q=${'q'.repeat(20_000)}`, '', 414, 'Request-URI too long.'],
        ['/api/v4/site/', 'Bad Header: 1\r\n', 400, 'Bad request.'],
      ];
      for (const [target, extra, status, detail] of cases) {
        const json = JSON.stringify({ detail });
        for (const method of ['HEAD', 'GET']) {
          const answer = parseAnswer(
            await rawRequest(server, `${method} ${target} HTTP/1.1\r\nHost: x\r\n${extra}Connection: close\r\n\r\n`),
          );
          const label = `${method} ${status}`;
          expect([label, answer.status, answer.header('Content-Type')]).toEqual([label, status, 'application/json']);
          expect([label, answer.header('Content-Length')]).toEqual([label, String(Buffer.byteLength(json))]);
          expect([label, answer.rest]).toEqual([label, method === 'HEAD' ? '' : json]);
        }
      }
    });

    it('when a refused head came in several reads (its method unknown): no body for anyone', async () => {
      const { port } = server.address() as AddressInfo;
      const head = Buffer.from(`HEAD /api/v4/site/ HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\nConnection: close\r\n\r\n`);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let received = '';
        socket.on('data', (d) => (received += d.toString('latin1')));
        socket.on('error', reject);
        socket.on('close', () => resolve(received));
        // The second read holds neither the request line nor its method.
        socket.write(head.subarray(0, 10_000), () => setTimeout(() => socket.write(head.subarray(10_000)), 100));
      });
      const parsed = parseAnswer(answer);
      expect(parsed.status).toBe(431);
      expect(parsed.header('Content-Length')).toBe('0');
      expect(parsed.rest).toBe('');
    });

    it('from the app: REST, GraphQL, errors and a bad Host', async () => {
      const slug = (await createAddon(t.em(), { slug: 'head-only' })).slug;
      const cases: [string, string, number][] = [
        [`/api/v4/addons/addon/${slug}/`, 'x', 200],
        ['/api/v4/addons/addon/missing-one/', 'x', 404],
        ['/api/v4/nowhere/', 'x', 404],
        ['/graphql?query=%7BsiteStatus%7BreadOnly%7D%7D', 'x', 405], // Apollo answers GET and POST only
        ['/api/v4/site/', 'bad host', 400],
      ];
      for (const [target, host, status] of cases) {
        const request = `HEAD ${target} HTTP/1.1\r\nHost: ${host}\r\nApollo-Require-Preflight: 1\r\nConnection: close\r\n\r\n`;
        const answer = parseAnswer(await rawRequest(server, request));
        expect([target, answer.status, answer.rest]).toEqual([target, status, '']);
      }
    });
  });
});

describe('the GraphQL edge (issue 23, items 6b, 6c and 8c)', () => {
  let t: TestApp;
  // Imported here, so that this block leaves the file's imports to the blocks above.
  const modules = async () => ({
    limits: await import('../src/graphql/document-limits.js'),
    caches: await import('../src/graphql/bounded-caches.js'),
    jit: await import('../src/graphql/jit.js'),
    crypto: await import('node:crypto'),
  });
  let limits: Awaited<ReturnType<typeof modules>>['limits'];
  let caches: Awaited<ReturnType<typeof modules>>['caches'];
  let jit: Awaited<ReturnType<typeof modules>>['jit'];
  let createHash: Awaited<ReturnType<typeof modules>>['crypto']['createHash'];
  beforeAll(async () => {
    const loaded = await modules();
    ({ limits, caches, jit } = loaded);
    createHash = loaded.crypto.createHash;
    // The largest token limit the configuration allows: the most nesting the parser could be sent.
    t = await startTestApp({ env: { JOB_WORKERS: 'false', GRAPHQL_MAX_TOKENS: '4000' } });
  });
  afterAll(() => t?.close());

  const gql = (query: string, variables?: object) => t.http.post('/graphql').send({ query, variables });

  describe('list and object values nested past the JSON depth limit', () => {
    it('are refused before parsing with a syntax error, not a stack overflow', async () => {
      for (const [open, close] of [
        ['[', ']'],
        ['{a: ', '}'],
      ]) {
        const deep = `${open.repeat(3990)}1${close.repeat(3990)}`;
        for (const query of [
          `{ __typename(arg: ${deep}) }`,
          `query($v: [Int] = ${deep}) { siteStatus { readOnly } }`,
          `{ siteStatus { readOnly @include(if: ${deep}) } }`,
        ]) {
          const res = await gql(query);
          expect([query.slice(0, 40), res.status, res.body]).toEqual([
            query.slice(0, 40),
            400,
            {
              errors: [
                {
                  message: 'Syntax Error: List and object values nest deeper than 64 levels. Parsing aborted.',
                  locations: [{ line: 1, column: expect.any(Number) }],
                  extensions: { code: 'GRAPHQL_PARSE_FAILED' },
                },
              ],
            },
          ]);
        }
      }
      // Over GET too.
      const get = await t.http
        .get(`/graphql?query=${encodeURIComponent(`{ __typename(arg: ${'['.repeat(100)}${']'.repeat(100)}) }`)}`)
        .set('apollo-require-preflight', 'true');
      expect([get.status, get.body.errors[0].extensions.code]).toEqual([400, 'GRAPHQL_PARSE_FAILED']);
    });

    it('lets values up to the limit through to validation, and brackets in strings and selections alone', async () => {
      const res = await gql(`{ __typename(arg: ${'['.repeat(64)}"]]]["${']'.repeat(64)}) }`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED'); // no such argument
      const strings = await gql(`{ siteStatus { readOnly @include(if: true) } } # ${'['.repeat(100)}`);
      expect([strings.status, strings.body]).toEqual([200, { data: { siteStatus: { readOnly: false } } }]);
      expect(limits.deepValueAt(`query { a(x: """${'['.repeat(100)}""") }`, 64, 2000)).toBeNull();
      expect(limits.deepValueAt(`query { a(x: [[[1]]]) { b(y: [[2]]) } }`, 3, 2000)).toBeNull();
      expect(limits.deepValueAt(`query { a(x: [[[[1]]]]) }`, 3, 2000)).toEqual({ line: 1, column: 17 });
    });
  });

  describe('list sizes in the cost', () => {
    const HIT =
      'items { addon { id slug name summary guid type status averageDailyUsers weeklyDownloads hotness ' +
      'authors { position userSummary { username name } } previews { id imageUrl thumbnailUrl } ' +
      'currentVersion { id version files { id } } } }';
    const pages = (n: number, size: string) =>
      `query Pages${size.startsWith('$') ? '($n: Int)' : ''} { ${Array.from(
        { length: n },
        (_, i) => `s${i}: searchAddons(pageSize: ${size}) { count ${HIT} }`,
      ).join(' ')} }`;
    const armorOnly = () => {
      const config = loadConfig({});
      return new ApolloArmor({ costLimit: { maxCost: config.GRAPHQL_MAX_COST } }).protect()
        .validationRules as ValidationRule[];
    };

    it('refuses many 50-item pages with armor cost error, which armor alone let through', async () => {
      const schema = await buildAppSchema(null);
      for (const query of [pages(12, '50'), pages(12, '$n'), pages(12, '500')]) {
        expect(validate(schema, parse(query), armorOnly())).toEqual([]); // armor alone: ~1,650
        const res = await gql(query);
        expect([res.status, res.body.errors]).toEqual([
          400,
          [
            {
              message: 'Syntax Error: Query Cost limit of 15000 exceeded, found 16212.',
              extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
            },
          ],
        ]);
      }
      // Smaller pages, or fewer of them, pass.
      for (const query of [pages(12, '20'), pages(5, '50'), pages(12, '$n').replace('$n: Int', '$n: Int = 10')]) {
        const res = await gql(query, query.includes('$n') ? {} : undefined);
        expect([res.status, res.body.errors]).toEqual([200, undefined]);
      }
    });

    it('lets every REST route document (the front-end and bench queries) through, at 50 items a page', async () => {
      const schema = await buildAppSchema(null);
      const { validationRules } = limits.documentLimits(loadConfig({}));
      for (const route of routes) {
        const problems = validate(schema, parse(route.document), [...specifiedRules, ...validationRules]);
        expect([route.method, route.path, problems.map((e) => e.message)]).toEqual([route.method, route.path, []]);
      }
      expect(limits.MAX_LIST_COST).toBeGreaterThanOrEqual(2 * 6401); // the largest, a collection's add-ons
    });
  });

  describe('what /graphql keeps per document is bounded', () => {
    it('compiled operations are dropped least recently used first, past their bound', async () => {
      const schema = await buildAppSchema(null);
      const gateway = jit.jitGateway(schema, 200_000);
      const executor = (await (gateway.load as (o: unknown) => ReturnType<typeof gateway.load>)({})).executor!;
      const run = async (i: number) => {
        const query = `query Q${i} { searchAddons(pageSize: ${1 + (i % 50)}) { count ${'items { addon { id name } }'} } }`;
        const document = parse(query);
        const operation = document.definitions[0];
        const result = await executor({
          document,
          operation,
          operationName: `Q${i}`,
          queryHash: createHash('sha256').update(query).digest('hex'),
          request: { variables: {} },
          context: {},
        } as unknown as Parameters<typeof executor>[0]);
        return result;
      };
      await run(0);
      const one = gateway.compiled.weight;
      expect(one).toBe(2_500 + 1_100 * 6); // its generated source, estimated from its 6 fields
      // (Executed without the app's context, the resolvers answer errors: compiling is what counts.)
      for (let i = 1; i < 200; i++) await run(i);
      expect(gateway.compiled.weight).toBeLessThanOrEqual(200_000);
      expect(gateway.compiled.size).toBe(Math.floor(200_000 / one));
    });

    it("a compiled operation's weight stays within a factor of 2 of graphql-jit's generated source", async () => {
      const schema = await buildAppSchema(null);
      const { compileQuery } = await import('graphql-jit');
      const outside: string[] = [];
      for (const route of routes) {
        const document = parse(route.document);
        // graphql-jit's debug option hands out the generated text (what its function keeps as source).
        const compiled = compileQuery(schema, document, undefined, { debug: true } as object) as {
          __DO_NOT_USE_THIS_OR_YOU_WILL_BE_FIRED_compilation?: string;
        };
        const actual = compiled.__DO_NOT_USE_THIS_OR_YOU_WILL_BE_FIRED_compilation!.length;
        const estimate = jit.estimatedSourceChars(
          document,
          document.definitions.find((d) => d.kind === 'OperationDefinition'),
        );
        // Under-weighing is what would let the cache outgrow its bound. Over-weighing only shortens
        // what it keeps: a document of `__typename` alone (the OpenAPI route's) compiles to ~200
        // characters, below the estimate's 2,500 floor, and may weigh more than twice its size.
        const overweighedTiny = estimate > actual * 2 && actual < 1_000;
        if ((estimate < actual / 2 || estimate > actual * 2) && !overweighedTiny) {
          outside.push(`${route.path}: ${estimate} for ${actual}`);
        }
      }
      expect(outside).toEqual([]);
    });

    it('parsed documents are weighed by their tokens, persisted texts by their length', async () => {
      const store = caches.documentStore(1_100);
      const documents = Array.from({ length: 150 }, (_, i) => parse(`{ a${i}: categories { id name } }`));
      expect(caches.documentTokens(documents[0])).toBe(11); // <SOF> { a0 : categories { id name } } <EOF>
      for (const [i, document] of documents.entries()) await store.set(`d${i}`, document);
      expect(await store.get('d0')).toBeUndefined();
      expect(await store.get('d149')).toBe(documents[149]);
      let kept = 0;
      for (let i = 0; i < 150; i++) if (await store.get(`d${i}`)) kept++;
      expect(kept).toBe(100);

      const texts = caches.persistedQueryStore(1_000);
      for (let i = 0; i < 100; i++) await texts.set(`q${i}`, `{ a${i}: categories { id } }`.padEnd(100));
      expect([await texts.get('q89'), await texts.get('q90')]).toEqual([undefined, expect.any(String)]);
      await texts.set('brief', '{ categories { id } }', { ttl: 0.001 });
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await texts.get('brief')).toBeUndefined(); // Apollo's TTL is honoured
    });
  });
});
