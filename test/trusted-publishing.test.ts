import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { signJwt } from '../src/auth/jwt.js';
import { AddonStatus } from '../src/catalogue/catalogue.enums.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { createAddon } from './helpers/catalogue.js';
import { extension, waitFor } from './helpers/signing.js';

/**
 * Trusted publishing (src/trusted-publishing/): owners trust an OIDC issuer and claims; CI exchanges
 * the issuer's ID token for a short-lived API key scoped to the add-on, which signs an upload through
 * the real pipeline. The issuers are local HTTP servers in this process (discovery document and
 * JWKS of keys made with jose), allowed as insecure test issuers; each records the requests it gets.
 */

const GITHUB = 'https://token.actions.githubusercontent.com';
const AUDIENCE = 'http://addons.test';
const KEY_SECONDS = 3;

interface TestIssuer {
  url: string;
  requests: string[];
  /** A token signed with this issuer's published key (RS256), `iss` this issuer unless given. */
  mint(
    claims: JWTPayload,
    options?: { key?: CryptoKey; alg?: string; header?: Record<string, unknown> },
  ): Promise<string>;
  /** Holds its key set's answers until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

/** An OIDC issuer on loopback (one `alg` key); `discoveryIssuer` makes its discovery document name another issuer. */
async function startIssuer(discoveryIssuer?: string, alg = 'RS256', jwksUri?: string): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair(alg);
  const jwk = { ...(await exportJWK(publicKey)), kid: 'key-1', alg, use: 'sig' };
  const requests: string[] = [];
  let url = '';
  let held: Promise<void> | null = null;
  const server: Server = createServer(async (req, res) => {
    requests.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      res.end(JSON.stringify({ issuer: discoveryIssuer ?? url, jwks_uri: jwksUri ?? `${url}/jwks` }));
    } else if (req.url === '/jwks') {
      await held;
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    mint: (claims, options = {}) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        iss: url,
        aud: AUDIENCE,
        iat: now,
        nbf: now - 5,
        exp: now + 300,
        jti: randomUUID(),
        ...claims,
      })
        .setProtectedHeader({ alg: options.alg ?? 'RS256', kid: 'key-1', typ: 'JWT', ...options.header })
        .sign(options.key ?? privateKey);
    },
    hold: () => {
      let release = () => {};
      held = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let t: TestApp;
let issuer: TestIssuer;
/** Allowed by the configuration, trusted by no publisher. */
let untrusted: TestIssuer;
/** Its discovery document names another issuer. */
let impostor: TestIssuer;
/** Publishes an ES256 key. */
let es256: TestIssuer;
/** Its key set is held by one test: fetched only there. */
let slow: TestIssuer;
/** Stopped before the app starts: unreachable. */
let gone: TestIssuer;
/** Its discovery document names an unreachable key set. */
let keyless: TestIssuer;
let owner: KeyCaller;
let developer: KeyCaller;
let stranger: KeyCaller;
let guid: string;
let addonId: number;

const REPOSITORY = 'octo/addon';
const WORKFLOW = 'octo/addon/.github/workflows/release.yml@refs/tags/v2.0.0';
const CLAIMS = { repository: REPOSITORY, workflow_ref: WORKFLOW, sub: 'repo:octo/addon:ref:refs/tags/v2.0.0' };

beforeAll(async () => {
  issuer = await startIssuer();
  untrusted = await startIssuer();
  impostor = await startIssuer('https://someone-else.example');
  es256 = await startIssuer(undefined, 'ES256');
  slow = await startIssuer();
  gone = await startIssuer();
  await gone.close();
  keyless = await startIssuer(undefined, 'RS256', `${gone.url}/jwks`);
  t = await startTestApp({
    env: {
      SIGNING_CA_KEY_BITS: '2048',
      SIGNING_KEY_POOL: '1',
      SITE_URL: AUDIENCE,
      TRUSTED_PUBLISHING_ISSUERS: [
        issuer.url,
        untrusted.url,
        impostor.url,
        es256.url,
        slow.url,
        gone.url,
        keyless.url,
        GITHUB,
      ].join(','),
      TRUSTED_PUBLISHING_ALLOW_INSECURE_ISSUERS: 'true',
      TRUSTED_PUBLISHING_KEY_SECONDS: String(KEY_SECONDS),
    },
  });
  owner = await keyCaller(t);
  developer = await keyCaller(t);
  stranger = await keyCaller(t);
  guid = `tp-${Date.now()}@trusted-publishing.test`;
  const first = await t.http
    .put(`/api/v4/addons/${encodeURIComponent(guid)}/versions/1.0.0/`)
    .set('Authorization', owner.jwt())
    .attach('upload', await extension({ id: guid, version: '1.0.0' }), 'addon.xpi');
  expect(first.status).toBe(201);
  const [row] = await t.em().getConnection().execute<{ id: number }[]>('select id from addons where guid = ?', [guid]);
  addonId = row.id;
  await t
    .em()
    .getConnection()
    .execute('insert into addon_users (addon_id, user_id, role, listed, position) values (?, ?, 4, true, 1)', [
      addonId,
      developer.id,
    ]);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await Promise.all([issuer, untrusted, impostor, es256, slow, keyless].map((i) => i?.close()));
});

const graphql = (who: string | null, query: string, variables: Record<string, unknown> = {}) => {
  const req = t.http.post('/graphql').send({ query, variables });
  return who ? req.set('Authorization', who) : req;
};

const ADD = `mutation($input: TrustedPublisherInput!) { addTrustedPublisher(input: $input) {
  id addonId issuer audience requiredClaims { claim value } userId created lastUsed } }`;
const LIST = `query($addon: String!) { trustedPublishers(addon: $addon) { id issuer requiredClaims { claim value } lastUsed } }`;
const REMOVE = `mutation($id: Int!) { removeTrustedPublisher(id: $id) }`;
const EXCHANGE = `mutation($token: String) { exchangeOidcToken(token: $token) { apiKey apiSecret expiresAt } }`;

const claimList = (claims: Record<string, string>) =>
  Object.entries(claims).map(([claim, value]) => ({ claim, value }));

async function addPublisher(
  who: KeyCaller,
  addon: string,
  claims: Record<string, string>,
  issuerUrl = issuer.url,
): Promise<number> {
  const res = await graphql(who.session, ADD, {
    input: { addon, issuer: issuerUrl, requiredClaims: claimList(claims) },
  });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.addTrustedPublisher.id as number;
}

const exchange = (token: unknown, addon?: unknown) =>
  t.http.post('/api/v5/trusted-publishing/token/').send(addon === undefined ? { token } : { token, addon });

const keyRow = async (key: string) =>
  (
    await t
      .em()
      .getConnection()
      .execute<Record<string, unknown>[]>(
        'select user_id, is_active, scope_addon_ids, trusted_publisher_ids from api_keys where key = ?',
        [key],
      )
  )[0];

const now = () => Math.floor(Date.now() / 1000);
const keyJwt = (key: string, secret: string) => `JWT ${signJwt({ iss: key, iat: now(), exp: now() + 60 }, secret)}`;

describe('managing trusted publishers (owners, sessions)', () => {
  it('an owner adds one (default audience: the site URL), lists it, and it is in the audit log', async () => {
    const res = await graphql(owner.session, ADD, {
      input: { addon: guid, issuer: issuer.url, requiredClaims: claimList({ repository: 'octo/listed' }) },
    });
    expect(res.body.errors).toBeUndefined();
    const added = res.body.data.addTrustedPublisher;
    expect(added).toMatchObject({
      addonId,
      issuer: issuer.url,
      audience: AUDIENCE,
      requiredClaims: [{ claim: 'repository', value: 'octo/listed' }],
      userId: owner.id,
      lastUsed: null,
    });
    const list = await graphql(owner.session, LIST, { addon: guid });
    expect(list.body.data.trustedPublishers.map((p: { id: number }) => p.id)).toContain(added.id);
    const [entry] = await t
      .em()
      .getConnection()
      .execute<{ details: { publisher: number } }[]>(
        `select details from addon_activity where addon_id = ? and action = 'trusted_publisher_added' order by id desc limit 1`,
        [addonId],
      );
    expect(entry.details.publisher).toBe(added.id);
    const removed = await graphql(owner.session, REMOVE, { id: added.id });
    expect(removed.body.data.removeTrustedPublisher).toBe(true);
    const after = await graphql(owner.session, LIST, { addon: guid });
    expect(after.body.data.trustedPublishers.map((p: { id: number }) => p.id)).not.toContain(added.id);
  });

  it('refuses anonymous callers, non-owners (a developer, a stranger) and API keys', async () => {
    const input = { addon: guid, issuer: issuer.url, requiredClaims: claimList({ repository: 'x/y' }) };
    expect((await graphql(null, ADD, { input })).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await graphql(developer.session, ADD, { input })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await graphql(stranger.session, ADD, { input })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await graphql(stranger.session, LIST, { addon: guid })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await graphql(owner.jwt(), ADD, { input })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const id = await addPublisher(owner, guid, { repository: 'octo/remove-test' });
    expect((await graphql(developer.session, REMOVE, { id })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await graphql(owner.session, REMOVE, { id })).body.data.removeTrustedPublisher).toBe(true);
    expect((await graphql(owner.session, REMOVE, { id })).body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it.each([
    ['not a URL', 'issuer', 'not a url', { repository: 'a/b' }, /valid URL/],
    ['an issuer the configuration does not list', 'issuer', 'https://issuer.example', { repository: 'a/b' }, /accepts/],
    ['plain http when not listed', 'issuer', 'http://127.0.0.1:1', { repository: 'a/b' }, /accepts/],
    ['a query in the issuer', 'issuer', `${GITHUB}?x=1`, { repository: 'a/b' }, /query/],
    ['an issuer over 255 characters', 'issuer', `https://${'a'.repeat(260)}.example`, { repository: 'a/b' }, /255/],
    ['no claims', 'requiredClaims', null, {}, /At least one claim/],
    ['a reserved claim', 'requiredClaims', null, { aud: 'x' }, /cannot be required/],
    ['a bad claim name', 'requiredClaims', null, { 'a b': 'x' }, /Not a claim name/],
    ['a claim value over 255 characters', 'requiredClaims', null, { repository: 'v'.repeat(256) }, /255/],
    ['GitHub without a workflow', 'requiredClaims', GITHUB, { repository: 'a/b' }, /workflow_ref/],
    ['GitHub without the repository', 'requiredClaims', GITHUB, { workflow_ref: WORKFLOW }, /repository/],
  ])('refuses %s', async (_label, field, issuerUrl, claims, message) => {
    const res = await graphql(owner.session, ADD, {
      input: { addon: guid, issuer: issuerUrl ?? issuer.url, requiredClaims: claimList(claims) },
    });
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors[0].extensions.fields[field][0]).toMatch(message);
  });

  it('accepts a GitHub publisher with repository and workflow, refuses the same one twice', async () => {
    const claims = { repository: 'octo/gh', job_workflow_ref: WORKFLOW, environment: 'release' };
    const id = await addPublisher(owner, guid, claims, GITHUB);
    const again = await graphql(owner.session, ADD, {
      input: { addon: guid, issuer: GITHUB, requiredClaims: claimList(claims) },
    });
    expect(again.body.errors[0].extensions.fields.non_field_errors[0]).toMatch(/already trusts/);
    await graphql(owner.session, REMOVE, { id });
  });

  it('an add-on has at most 20 publishers', async () => {
    const addon = await createAddon(t.em(), { authors: [{ id: owner.id }] });
    for (let i = 0; i < 20; i++) await addPublisher(owner, String(addon.id), { repository: `octo/many-${i}` });
    const res = await graphql(owner.session, ADD, {
      input: {
        addon: String(addon.id),
        issuer: issuer.url,
        requiredClaims: claimList({ repository: 'octo/one-more' }),
      },
    });
    expect(res.body.errors[0].extensions.fields.non_field_errors[0]).toMatch(/at most 20/);
  });
});

describe('the exchange', () => {
  let publisherId: number;

  beforeAll(async () => {
    publisherId = await addPublisher(owner, guid, { repository: REPOSITORY, workflow_ref: WORKFLOW });
  });

  it('a valid token gets a short-lived key, which signs an upload through the real pipeline; then it expires', async () => {
    const res = await exchange(await issuer.mint(CLAIMS));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      api_key: expect.stringMatching(new RegExp(`^user:${owner.id}:\\d+$`)),
      api_secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      expires_at: expect.any(String),
    });
    const lifetime = new Date(res.body.expires_at).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(KEY_SECONDS * 1000);
    const [key] = await t
      .em()
      .getConnection()
      .execute<Record<string, unknown>[]>(
        'select user_id, kind, name, scope_addon_ids, scope_operations, trusted_publisher_ids from api_keys where key = ?',
        [res.body.api_key],
      );
    expect(key).toEqual({
      user_id: owner.id,
      kind: 'trusted-publishing',
      name: `Trusted publisher #${publisherId}`,
      scope_addon_ids: [addonId],
      scope_operations: ['upload', 'status'],
      trusted_publisher_ids: [publisherId],
    });
    const auth = keyJwt(res.body.api_key, res.body.api_secret);
    const put = await t.http
      .put(`/api/v4/addons/${encodeURIComponent(guid)}/versions/2.0.0/`)
      .set('Authorization', auth)
      .attach('upload', await extension({ id: guid, version: '2.0.0' }), 'addon.xpi');
    expect([201, 202]).toContain(put.status);

    // The key expires: a fresh JWT of it is refused.
    await new Promise((resolve) => setTimeout(resolve, KEY_SECONDS * 1000 + 500));
    const late = await t.http
      .get(`/api/v4/addons/${encodeURIComponent(guid)}/versions/2.0.0/`)
      .set('Authorization', keyJwt(res.body.api_key, res.body.api_secret));
    expect(late.status).toBe(401);

    const signed = await waitFor(
      'version 2.0.0 signed',
      async () => {
        const status = await t.http
          .get(`/api/v4/addons/${encodeURIComponent(guid)}/versions/2.0.0/`)
          .set('Authorization', owner.jwt());
        return status.status === 200 && status.body.files?.[0]?.signed ? status.body : null;
      },
      120_000,
    );
    expect(signed.version).toBe('2.0.0');

    const [entry] = await t
      .em()
      .getConnection()
      .execute<{ user_id: number; details: { key: string; publishers: number[]; issuer: string } }[]>(
        `select user_id, details from addon_activity where addon_id = ? and action = 'trusted_publishing_key_issued'
          order by id desc limit 1`,
        [addonId],
      );
    expect(entry).toMatchObject({
      user_id: owner.id,
      details: { key: res.body.api_key, publishers: [publisherId], issuer: issuer.url },
    });
    const list = await graphql(owner.session, LIST, { addon: guid });
    const mine = list.body.data.trustedPublishers.find((p: { id: number }) => p.id === publisherId);
    expect(mine.lastUsed).not.toBeNull();
  }, 180_000);

  it('refuses a token exchanged before (replay)', async () => {
    const token = await issuer.mint(CLAIMS);
    expect((await exchange(token)).status).toBe(200);
    const again = await exchange(token);
    expect(again.status).toBe(401);
    expect(again.body.detail).toMatch(/already been exchanged/);
  });

  it('one of two concurrent exchanges of a token wins; the other is a replay and writes nothing', async () => {
    const token = await issuer.mint(CLAIMS);
    const keys = async () =>
      Number(
        (
          await t
            .em()
            .getConnection()
            .execute<{ n: string }[]>("select count(*) as n from api_keys where kind = 'trusted-publishing'")
        )[0].n,
      );
    const before = await keys();
    const answers = await Promise.all([exchange(token), exchange(token)]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 401]);
    expect(answers.find((res) => res.status === 401)!.body.detail).toMatch(/already been exchanged/);
    expect(await keys()).toBe(before + 1);
  });

  it("fetches the issuer's keys outside any transaction: other mutations complete meanwhile", async () => {
    const addon = await createAddon(t.em(), { authors: [{ id: owner.id }] });
    await addPublisher(owner, String(addon.id), { repository: 'octo/slow' }, slow.url);
    const release = slow.hold();
    try {
      const pending = exchange(await slow.mint({ ...CLAIMS, repository: 'octo/slow' })).then((res) => res);
      await waitFor('the key set request', async () => slow.requests.includes('/jwks'));
      // On the embedded database's one connection, a transaction held during the fetch blocks this.
      const meanwhile = await Promise.race([
        addPublisher(owner, String(addon.id), { repository: 'octo/meanwhile' }, slow.url).then(() => 'done'),
        new Promise((resolve) => setTimeout(() => resolve('blocked'), 3_000)),
      ]);
      expect(meanwhile).toBe('done');
      release();
      const res = await pending;
      expect(res.status).toBe(200);
      expect(res.body.api_key).toMatch(new RegExp(`^user:${owner.id}:\\d+$`));
    } finally {
      release();
    }
  });

  it('refuses a token without jti exchanged before (its hash is kept)', async () => {
    const token = await issuer.mint({ ...CLAIMS, jti: undefined });
    expect((await exchange(token)).status).toBe(200);
    const again = await exchange(token);
    expect(again.status).toBe(401);
    expect(again.body.detail).toMatch(/already been exchanged/);
  });

  it('accepts an ES256 signature from a key the issuer publishes', async () => {
    const other = await createAddon(t.em(), { authors: [{ id: owner.id }] });
    await addPublisher(owner, String(other.id), { repository: 'octo/es256' }, es256.url);
    const res = await exchange(await es256.mint({ ...CLAIMS, repository: 'octo/es256' }, { alg: 'ES256' }));
    expect(res.status).toBe(200);
  });

  it('GraphQL: exchangeOidcToken answers the same fields, and accepts no credentials', async () => {
    const res = await graphql(null, EXCHANGE, { token: await issuer.mint(CLAIMS) });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.exchangeOidcToken).toMatchObject({ apiKey: expect.stringMatching(/^user:/) });
    const withSession = await graphql(owner.session, EXCHANGE, { token: await issuer.mint(CLAIMS) });
    expect(withSession.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it.each([
    ['an expired token', { iat: now() - 900, nbf: now() - 900, exp: now() - 600 }, /expired/],
    ['a token for another audience', { aud: 'https://elsewhere.example' }, /audience/],
    ['a token too old (iat)', { iat: now() - 7200, exp: now() + 300 }, /too old/],
    ['a token without exp', { exp: undefined }, /exp/],
    ['a token not valid yet (nbf)', { nbf: now() + 600 }, /nbf/],
    ['a token issued in the future (iat)', { iat: now() + 600 }, /future/],
  ])('401: %s', async (_label, claims, message) => {
    const res = await exchange(await issuer.mint({ ...CLAIMS, ...claims }));
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(message);
  });

  it.each([
    ['another repository', { repository: 'mallory/addon' }],
    ['another workflow', { workflow_ref: 'octo/addon/.github/workflows/other.yml@refs/heads/main' }],
    ['the repository as a list, not a string', { repository: [REPOSITORY] }],
  ])('403: a claim that does not match (%s)', async (_label, claims) => {
    const res = await exchange(await issuer.mint({ ...CLAIMS, ...claims }));
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/match no trusted publisher/);
  });

  it('401: a token signed by a key the issuer does not publish', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const res = await exchange(await issuer.mint(CLAIMS, { key: privateKey }));
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/signature/);
  });

  it('401: alg none and HS256', async () => {
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const payload = { ...CLAIMS, iss: issuer.url, aud: AUDIENCE, iat: now(), exp: now() + 300, jti: randomUUID() };
    const none = await exchange(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`);
    expect(none.status).toBe(401);
    expect(none.body.detail).toMatch(/algorithm/);
    const hs = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('a shared secret of enough length!!'));
    const hmac = await exchange(hs);
    expect(hmac.status).toBe(401);
    expect(hmac.body.detail).toMatch(/algorithm/);
  });

  it('400: an oversized token, a missing one; 401: not a JWT', async () => {
    const big = await exchange('a'.repeat(9000));
    expect(big.status).toBe(400);
    expect(big.body.token[0]).toMatch(/8192 characters/);
    expect((await exchange(undefined)).status).toBe(400);
    expect((await exchange(42)).status).toBe(400);
    expect((await exchange('not.a-jwt')).status).toBe(401);
  });

  it('403 without fetching anything: an issuer no publisher trusts, one not allowed, one differing by a slash', async () => {
    const before = issuer.requests.length;
    const forUntrusted = await exchange(await untrusted.mint(CLAIMS));
    expect(forUntrusted.status).toBe(403);
    expect(forUntrusted.body.detail).toMatch(/No trusted publisher trusts the issuer/);
    expect(untrusted.requests).toEqual([]);
    const elsewhere = await exchange(await issuer.mint({ ...CLAIMS, iss: 'https://attacker.example' }));
    expect(elsewhere.status).toBe(403);
    const slash = await exchange(await issuer.mint({ ...CLAIMS, iss: `${issuer.url}/` }));
    expect(slash.status).toBe(403);
    expect(issuer.requests.length).toBe(before);
  });

  it('401: an issuer whose discovery document names another issuer', async () => {
    await addPublisher(owner, guid, { repository: REPOSITORY }, impostor.url);
    const res = await exchange(await impostor.mint(CLAIMS));
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/names another issuer/);
    expect(impostor.requests).toEqual(['/.well-known/openid-configuration']);
  });

  it('401: an issuer that cannot be reached, or whose key set cannot', async () => {
    await addPublisher(owner, guid, { repository: REPOSITORY }, gone.url);
    await addPublisher(owner, guid, { repository: REPOSITORY }, keyless.url);
    for (const unreachable of [gone, keyless]) {
      const res = await exchange(await unreachable.mint(CLAIMS));
      expect(res.status).toBe(401);
      expect(res.body.detail).toMatch(/could not be fetched/);
    }
  });

  it('removing the publisher revokes the keys issued for it', async () => {
    const addon = await createAddon(t.em(), { authors: [{ id: owner.id }] });
    const id = await addPublisher(owner, String(addon.id), { repository: 'octo/revoked' });
    const res = await exchange(await issuer.mint({ ...CLAIMS, repository: 'octo/revoked' }));
    expect(res.status).toBe(200);
    const status = () =>
      t.http
        .get(`/api/v4/addons/${encodeURIComponent(addon.guid!)}/versions/1.0.0/`)
        .set('Authorization', keyJwt(res.body.api_key, res.body.api_secret));
    expect((await status()).status).not.toBe(401);
    await graphql(owner.session, REMOVE, { id });
    expect((await status()).status).toBe(401);
  });

  it('403: the user who added the publisher is no longer an author', async () => {
    const former = await keyCaller(t);
    const addon = await createAddon(t.em(), { authors: [{ id: former.id }, { id: owner.id }] });
    await addPublisher(former, String(addon.id), { repository: 'octo/former' });
    await t
      .em()
      .getConnection()
      .execute('delete from addon_users where addon_id = ? and user_id = ?', [addon.id, former.id]);
    const res = await exchange(await issuer.mint({ ...CLAIMS, repository: 'octo/former' }));
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/no longer an author/);
  });

  it('400 without `addon`: a token matching publishers of several add-ons (of anyone) must name one; the token is kept', async () => {
    const other = await keyCaller(t);
    const mine = await createAddon(t.em(), { authors: [{ id: owner.id }] });
    const theirs = await createAddon(t.em(), { authors: [{ id: other.id }] });
    await addPublisher(owner, String(mine.id), { repository: 'octo/shared' });
    await addPublisher(other, String(theirs.id), { repository: 'octo/shared' });
    const token = await issuer.mint({ ...CLAIMS, repository: 'octo/shared' });
    const res = await exchange(token);
    expect(res.status).toBe(400);
    expect(res.body.addon[0]).toMatch(/several add-ons: name the add-on/);
    // Refused: nothing was consumed, the same token naming the add-on gets its key.
    const named = await exchange(token, mine.guid!);
    expect(named.status).toBe(200);
    expect(await keyRow(named.body.api_key)).toMatchObject({ user_id: owner.id, scope_addon_ids: [mine.id] });
  });
});

describe('the add-on an exchange names (`addon`): a stranger cannot stop releases', () => {
  it("only the named add-on's publishers count: a stranger's publisher with the same issuer and claims changes nothing", async () => {
    const victim = await createAddon(t.em(), { authors: [{ id: owner.id }] });
    const theirs = await createAddon(t.em(), { authors: [{ id: stranger.id }] });
    const claims = { repository: 'octo/victim', workflow_ref: WORKFLOW };
    const publisher = await addPublisher(owner, String(victim.id), claims);
    // The claims of an open-source project are public: the stranger copies them to an add-on of theirs.
    await addPublisher(stranger, String(theirs.id), claims);
    const token = { ...CLAIMS, repository: 'octo/victim' };
    for (const addon of [victim.guid!, victim.slug!, String(victim.id), victim.id]) {
      const res = await exchange(await issuer.mint(token), addon);
      expect(res.status).toBe(200);
      expect(await keyRow(res.body.api_key)).toEqual({
        user_id: owner.id,
        is_active: true,
        scope_addon_ids: [victim.id],
        trusted_publisher_ids: [publisher],
      });
    }
    const named = await graphql(
      null,
      'mutation($token: String, $addon: String) { exchangeOidcToken(token: $token, addon: $addon) { apiKey } }',
      { token: await issuer.mint(token), addon: victim.guid },
    );
    expect(named.body.errors).toBeUndefined();
    expect(named.body.data.exchangeOidcToken.apiKey).toMatch(new RegExp(`^user:${owner.id}:`));
  });

  it('a named add-on the token does not cover: one 403 whatever the reason, and only once the token verifies', async () => {
    const claims = { ...CLAIMS, repository: 'octo/uncovered' };
    const covered = await createAddon(t.em(), { authors: [{ id: owner.id }] });
    await addPublisher(owner, String(covered.id), { repository: 'octo/uncovered' });
    const otherClaims = await createAddon(t.em(), {
      authors: [{ id: stranger.id }],
      status: AddonStatus.NOMINATED,
      disabledByUser: true,
    });
    await addPublisher(stranger, String(otherClaims.id), { repository: 'octo/other' });
    const noPublisher = await createAddon(t.em(), { authors: [{ id: stranger.id }] });
    const otherIssuer = await createAddon(t.em(), { authors: [{ id: stranger.id }] });
    await addPublisher(stranger, String(otherIssuer.id), { repository: 'octo/uncovered' }, es256.url);
    const deleted = await createAddon(t.em(), { authors: [{ id: owner.id }] });
    await addPublisher(owner, String(deleted.id), { repository: 'octo/uncovered' });
    await t
      .em()
      .getConnection()
      .execute('update addons set status = ? where id = ?', [AddonStatus.DELETED, deleted.id]);
    const names = [
      'no-such-addon',
      '2147483647',
      otherClaims.guid!,
      otherClaims.slug!,
      noPublisher.guid!,
      otherIssuer.guid!,
      deleted.guid!,
    ];
    const answers = new Set<string>();
    for (const addon of names) {
      const res = await exchange(await issuer.mint(claims), addon);
      answers.add(JSON.stringify([res.status, res.body]));
    }
    expect([...answers]).toEqual([
      JSON.stringify([
        403,
        {
          detail:
            "The token matches no trusted publisher of this add-on (check the add-on named and the publisher's " +
            'issuer, audience and claims).',
        },
      ]),
    ]);
    // A forged token is refused for its signature, whatever add-on it names.
    const { privateKey } = await generateKeyPair('RS256');
    for (const addon of ['no-such-addon', otherClaims.guid!, covered.guid!]) {
      const res = await exchange(await issuer.mint(claims, { key: privateKey }), addon);
      expect(res.status).toBe(401);
      expect(res.body.detail).toMatch(/signature/);
    }
    expect((await exchange(await issuer.mint(claims), covered.guid!)).status).toBe(200);
  });

  it('400: an `addon` over 255 characters, or not text', async () => {
    const long = await exchange(await issuer.mint(CLAIMS), 'a'.repeat(256));
    expect(long.status).toBe(400);
    expect(long.body.addon[0]).toMatch(/255 characters/);
    const wrong = await exchange(await issuer.mint(CLAIMS), { id: 1 });
    expect(wrong.status).toBe(400);
    expect(wrong.body.addon[0]).toBe('Not a valid string.');
  });
});

describe('replays of a token without jti', () => {
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

  it('refuses the same token with its signature spelled otherwise (unused bits of the last base64url character)', async () => {
    const addon = await createAddon(t.em(), { authors: [{ id: owner.id }] });
    await addPublisher(owner, String(addon.id), { repository: 'octo/respelled' });
    const token = await issuer.mint({ ...CLAIMS, repository: 'octo/respelled', jti: undefined });
    expect((await exchange(token, addon.guid)).status).toBe(200);
    const last = token[token.length - 1];
    // A 256-byte RS256 signature leaves 4 unused bits in its last character.
    const respelled = `${token.slice(0, -1)}${ALPHABET[ALPHABET.indexOf(last) ^ 1]}`;
    expect(respelled).not.toBe(token);
    const again = await exchange(respelled, addon.guid);
    expect(again.status).toBe(401);
    expect(again.body.detail).toMatch(/already been exchanged/);
  });

  it("refuses an ES256 token's other valid signature, (r, n - s)", async () => {
    const addon = await createAddon(t.em(), { authors: [{ id: owner.id }] });
    await addPublisher(owner, String(addon.id), { repository: 'octo/high-s' }, es256.url);
    const token = await es256.mint({ ...CLAIMS, repository: 'octo/high-s', jti: undefined }, { alg: 'ES256' });
    expect((await exchange(token, addon.guid)).status).toBe(200);
    const dot = token.lastIndexOf('.');
    const signature = Buffer.from(token.slice(dot + 1), 'base64url');
    const order = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');
    const s = BigInt(`0x${signature.subarray(32).toString('hex')}`);
    const other = Buffer.concat([
      signature.subarray(0, 32),
      Buffer.from((order - s).toString(16).padStart(64, '0'), 'hex'),
    ]);
    const again = await exchange(`${token.slice(0, dot)}.${other.toString('base64url')}`, addon.guid);
    expect(again.status).toBe(401);
    expect(again.body.detail).toMatch(/already been exchanged/);
  });
});

describe('removing a publisher revokes every key it contributed to', () => {
  it('a key issued for two matching publishers (of two owners) is revoked when either is removed', async () => {
    const coOwner = await keyCaller(t);
    const addon = await createAddon(t.em(), { authors: [{ id: owner.id }, { id: coOwner.id }] });
    const first = await addPublisher(owner, String(addon.id), { repository: 'octo/two' });
    const second = await addPublisher(coOwner, String(addon.id), { repository: 'octo/two', workflow_ref: WORKFLOW });
    const keys: { api_key: string; api_secret: string }[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await exchange(await issuer.mint({ ...CLAIMS, repository: 'octo/two' }), addon.guid);
      expect(res.status).toBe(200);
      // Both publishers are the add-on's (its owners added them): the key acts as the first one's user.
      expect(await keyRow(res.body.api_key)).toEqual({
        user_id: owner.id,
        is_active: true,
        scope_addon_ids: [addon.id],
        trusted_publisher_ids: [first, second],
      });
      keys.push(res.body);
    }
    const status = (key: { api_key: string; api_secret: string }) =>
      t.http
        .get(`/api/v4/addons/${encodeURIComponent(addon.guid!)}/versions/1.0.0/`)
        .set('Authorization', keyJwt(key.api_key, key.api_secret));
    expect((await status(keys[0])).status).not.toBe(401);
    expect((await graphql(coOwner.session, REMOVE, { id: second })).body.data.removeTrustedPublisher).toBe(true);
    for (const key of keys) {
      expect((await status(key)).status).toBe(401);
      expect((await keyRow(key.api_key)).is_active).toBeNull();
    }
  });
});
