import { defineRoutes, gql } from '../rest-compat/route.js';
import { User } from '../src/accounts/user.entity.js';
import { jwtMessages, signJwt } from '../src/auth/jwt.js';
import { startTestApp, type TestApp } from './helpers/app.js';

/** A route with the default (session-only) authentication, as most v3/v4 resources have. */
const probeRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/probe/me/',
    versions: ['v4'],
    // `me` accepts API keys too; the probe narrows the route to sessions, as most routes are.
    auth: ['session'],
    document: gql`
      query ProbeMe {
        me {
          id
        }
      }
    `,
  },
]);

let t: TestApp;
let statements = 0;
beforeAll(async () => {
  t = await startTestApp({ extraRoutes: probeRoutes, onQuery: () => statements++ });
});
afterAll(() => t.close());

const now = () => Math.floor(Date.now() / 1000);
const profile = (authorization?: string, version = 'v4') => {
  const req = t.http.get(`/api/${version}/accounts/profile/`);
  return authorization === undefined ? req : req.set('Authorization', authorization);
};

async function developer() {
  const user = await t.createUser({ 'api-key': true });
  const key = user.apiKey!;
  const token = (claims: Record<string, unknown> = {}, secret = key.secret) =>
    signJwt({ iss: key.key, iat: now(), exp: now() + 300, ...claims }, secret);
  return { user, key, token };
}

describe('JWT API keys over REST', () => {
  it('authenticates the profile with a sign-addon style token, v3 and v4', async () => {
    const { user, token } = await developer();
    for (const version of ['v3', 'v4']) {
      const res = await profile(`JWT ${token()}`, version);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.body).toMatchObject({ id: user.id, username: user.username, email: user.email });
    }
  });

  it('reads the active key with its user and the permissions of their groups (one statement)', async () => {
    const user = await t.createUser({ 'api-key': true, permission: ['Addons:Review', 'Accounts:SuperCreate'] });
    const em = t.em();
    const before = statements;
    const active = await t.app.services.apiKeys.findActive(em, user.apiKey!.key);
    expect(statements - before).toBe(1);
    expect(active?.secret).toBe(user.apiKey!.secret);
    expect(active?.permissions).toEqual(['Accounts:SuperCreate', 'Addons:Review']);
    // The entity manager's own user and key, fully read (dates as dates).
    expect(await em.findOneOrFail(User, user.id)).toBe(active!.apiKey.user);
    expect(active!.apiKey.user.created).toBeInstanceOf(Date);
    expect(active!.apiKey.created).toBeInstanceOf(Date);
    expect(active!.apiKey).toMatchObject({ key: user.apiKey!.key, isActive: true });
    const plain = await t.createUser({ 'api-key': true });
    expect((await t.app.services.apiKeys.findActive(t.em(), plain.apiKey!.key))?.permissions).toEqual([]);
    await t.app.services.apiKeys.revoke(t.em(), active!.apiKey.user);
    expect(await t.app.services.apiKeys.findActive(t.em(), user.apiKey!.key)).toBeNull();
  });

  it('accepts the prefix in any case and refuses malformed headers', async () => {
    const { token } = await developer();
    expect((await profile(`jwt ${token()}`)).status).toBe(200);
    let res = await profile('JWT');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: jwtMessages.noCredentials });
    expect(res.headers['www-authenticate']).toBe('JWT realm="api"');
    res = await profile(`JWT ${token()} extra`);
    expect(res.body).toEqual({ detail: jwtMessages.spaces });
  });

  it.each([
    ['expired', (tk: Tk) => tk({ iat: now() - 400, exp: now() - 100 }), jwtMessages.expired],
    ['too long', (tk: Tk) => tk({ exp: now() + 301 }), jwtMessages.tooLong],
    ['issued in the future', (tk: Tk) => tk({ iat: now() + 60, exp: now() + 120 }), jwtMessages.iatInvalid],
    ['signed with the wrong secret', (tk: Tk) => tk({}, 'f'.repeat(64)), jwtMessages.decoding],
    ['missing exp', (tk: Tk) => tk({ exp: undefined }), 'Invalid JWT: Token is missing the "exp" claim.'],
    ['missing iat', (tk: Tk) => tk({ iat: undefined }), 'Invalid JWT: Token is missing the "iat" claim.'],
    ['missing iss', (tk: Tk) => tk({ iss: undefined }), jwtMessages.issuerMissing],
    ['from an unknown key', (tk: Tk) => tk({ iss: 'user:999999:1' }), jwtMessages.issuerUnknown],
    ['refreshable', (tk: Tk) => tk({ orig_iat: now() }), jwtMessages.refreshable],
    ['garbage', () => 'not-a-token', jwtMessages.decoding],
  ])('refuses a token %s', async (_name, make, message) => {
    const { token } = await developer();
    const res = await profile(`JWT ${make(token)}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: message });
  });

  it('accepts HS256 only (HS512 and "none" are refused)', async () => {
    const { key } = await developer();
    const claims = { iss: key.key, iat: now(), exp: now() + 60 };
    const hs512 = signJwt(claims, key.secret, 'HS512');
    const b = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${b({ alg: 'none', typ: 'JWT' })}.${b(claims)}.`;
    for (const token of [hs512, none]) {
      const res = await profile(`JWT ${token}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: jwtMessages.invalidToken });
    }
  });

  it('refuses a revoked key and accepts its replacement', async () => {
    const { user, key, token } = await developer();
    const old = token();
    const em = t.em();
    const replacement = await t.app.services.apiKeys.issue(em, await em.findOneOrFail(User, user.id));
    expect(replacement.key).not.toBe(key.key);
    expect((await profile(`JWT ${old}`)).body).toEqual({ detail: jwtMessages.issuerUnknown });
    const fresh = signJwt({ iss: replacement.key, iat: now(), exp: now() + 60 }, replacement.secret);
    expect((await profile(`JWT ${fresh}`)).status).toBe(200);
  });

  it('refuses a replayed jti but lets byte-identical tokens without jti through (sign-addon)', async () => {
    const { token } = await developer();
    const withJti = token({ jti: 'nonce-1' });
    expect((await profile(`JWT ${withJti}`)).status).toBe(200);
    const replay = await profile(`JWT ${withJti}`);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ detail: jwtMessages.replayed });
    expect((await profile(`JWT ${token({ jti: 'nonce-2' })}`)).status).toBe(200);
    const plain = token();
    expect((await profile(`JWT ${plain}`)).status).toBe(200);
    expect((await profile(`JWT ${plain}`)).status).toBe(200);
  });

  it('refuses deleted users and users without the developer agreement', async () => {
    const { user, token } = await developer();
    const em = t.em();
    const entity = await em.findOneOrFail(User, user.id);
    entity.readDevAgreement = null;
    await em.flush();
    expect((await profile(`JWT ${token()}`)).body).toEqual({ detail: jwtMessages.noDevAgreement });
    entity.deleted = true;
    await em.flush();
    expect((await profile(`JWT ${token()}`)).body).toEqual({ detail: jwtMessages.userDisabled });
  });

  it('records last_login and last_login_ip', async () => {
    const { token } = await developer();
    const res = await profile(`JWT ${token()}`);
    expect(res.body.last_login).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(res.body.last_login_ip).toMatch(/127\.0\.0\.1|::1/);
  });

  it('stores the secret only encrypted', async () => {
    const { key } = await developer();
    const rows: { secret_ciphertext: string }[] = await t
      .em()
      .getConnection()
      .execute('select secret_ciphertext from api_keys where key = ?', [key.key]);
    expect(rows[0].secret_ciphertext).not.toContain(key.secret);
    expect(rows[0].secret_ciphertext).toMatch(/^v1\./);
  });

  it('is ignored where the original accepts only the internal scheme', async () => {
    const { token } = await developer();
    for (const header of [`JWT ${token()}`, 'JWT garbage']) {
      const res = await t.http.get('/api/v4/probe/me/').set('Authorization', header);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    }
  });
});

type Tk = (claims?: Record<string, unknown>, secret?: string) => string;

describe('internal session tokens', () => {
  it('authenticate with Bearer and Session prefixes, on REST and on a session-only route', async () => {
    const { id, sessionToken } = await t.createUser({ session: true });
    for (const header of [`Bearer ${sessionToken}`, `Session ${sessionToken}`, `bearer ${sessionToken}`]) {
      expect((await profile(header)).body.id).toBe(id);
      expect((await t.http.get('/api/v4/probe/me/').set('Authorization', header)).body).toEqual({ me: { id } });
    }
  });

  it('answer header problems with ERROR_INVALID_HEADER', async () => {
    let res = await profile('Bearer');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: jwtMessages.noCredentials, code: 'ERROR_INVALID_HEADER' });
    expect(res.headers['www-authenticate']).toBe('bearer realm="api"');
    res = await profile('Bearer a b');
    expect(res.body).toEqual({ detail: jwtMessages.spaces, code: 'ERROR_INVALID_HEADER' });
  });

  it('answer a tampered token with ERROR_DECODING_SIGNATURE', async () => {
    const { sessionToken } = await t.createUser({ session: true });
    const [payload, signature] = sessionToken!.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), uid: 1 }),
    ).toString('base64url');
    for (const token of [`${forged}.${signature}`, `${payload}.x${signature}`, 'nonsense']) {
      const res = await profile(`Bearer ${token}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Error decoding signature.', code: 'ERROR_DECODING_SIGNATURE' });
    }
  });

  it('answer an expired token with ERROR_SIGNATURE_EXPIRED', async () => {
    const { id } = await t.createUser();
    const em = t.em();
    const old = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    const { token } = await t.app.services.sessions.create(em, await em.findOneOrFail(User, id), old);
    const res = await profile(`Bearer ${token}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Signature has expired.', code: 'ERROR_SIGNATURE_EXPIRED' });
  });

  it('are read with their user and the permissions of their groups', async () => {
    const { id, sessionToken } = await t.createUser({ session: true, permission: ['Reviews:Admin', 'Addons:Review'] });
    const em = t.em();
    const { session, permissions } = await t.app.services.sessions.verify(em, sessionToken!);
    expect(session.user.id).toBe(id);
    // The entity manager's own user, fully read (dates as dates).
    expect(await em.findOneOrFail(User, id)).toBe(session.user);
    expect(session.user.created).toBeInstanceOf(Date);
    expect(session.user.email).toMatch(/@/);
    expect(session.expiresAt).toBeInstanceOf(Date);
    expect(session.revokedAt).toBeNull();
    expect(permissions).toEqual(['Addons:Review', 'Reviews:Admin']);
    const plain = await t.createUser({ session: true });
    expect((await t.app.services.sessions.verify(t.em(), plain.sessionToken!)).permissions).toEqual([]);
  });

  it('stop working once the session is revoked or the user deleted', async () => {
    const { id, sessionToken } = await t.createUser({ session: true });
    const em = t.em();
    const payload = JSON.parse(Buffer.from(sessionToken!.split('.')[0], 'base64url').toString());
    await t.app.services.sessions.revoke(em, payload.sid);
    expect((await profile(`Bearer ${sessionToken}`)).body).toEqual({ detail: 'Incorrect authentication credentials.' });

    const other = await t.createUser({ session: true });
    const user = await em.findOneOrFail(User, other.id);
    user.deleted = true;
    await em.flush();
    expect((await profile(`Bearer ${other.sessionToken}`)).status).toBe(401);
    expect(id).not.toBe(other.id);
  });
});

describe('authentication on GraphQL', () => {
  const query = (authorization?: string) => {
    const req = t.http.post('/graphql').set('Content-Type', 'application/json');
    if (authorization) req.set('Authorization', authorization);
    return req.send({ query: '{ me { id private { email permissions } } }' });
  };

  it('accepts JWT and session tokens alike', async () => {
    const { user, token } = await developer();
    const session = await t.createUser({ session: true, permission: ['Addons:Review'] });
    expect((await query(`JWT ${token()}`)).body.data.me).toEqual({
      id: user.id,
      private: { email: user.email, permissions: [] },
    });
    const res = await query(`Session ${session.sessionToken}`);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body.data.me.private.permissions).toEqual(['Addons:Review']);
  });

  it('fails the whole request with 401 on bad credentials', async () => {
    const res = await query('JWT nonsense');
    expect(res.status).toBe(401);
    expect(res.body.errors[0]).toMatchObject({
      message: jwtMessages.decoding,
      extensions: { code: 'UNAUTHENTICATED' },
    });
    const bearer = await query('Bearer');
    expect(bearer.body.errors[0].extensions).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'ERROR_INVALID_HEADER' });
  });

  it('reports an anonymous `me` as UNAUTHENTICATED', async () => {
    const res = await query();
    expect(res.status).toBe(200);
    expect(res.body.errors[0]).toMatchObject({
      message: 'Authentication credentials were not provided.',
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });
});
