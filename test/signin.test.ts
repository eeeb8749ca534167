import { createServer as createNetServer } from 'node:net';
import type { Server } from 'node:http';
import { chromium } from 'playwright-core';
import { startOidcProvider, type TestProvider } from './helpers/oidc-provider.js';
import { signJwt } from '../src/auth/jwt.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { extension } from './helpers/signing.js';

/**
 * Browser sign-in through a real OpenID Connect provider (oidc-provider, certified, on loopback):
 * the service as relying party (openid-client), followed redirect by redirect as a browser does,
 * with each host's cookies kept.
 */

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A cookie jar per host, and a redirect follower: a browser without a page. */
class Browser {
  readonly jar = new Map<string, Map<string, string>>();
  readonly visited: URL[] = [];

  cookies(host: string): Map<string, string> {
    let cookies = this.jar.get(host);
    if (!cookies) this.jar.set(host, (cookies = new Map()));
    return cookies;
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const cookie = [...this.cookies(target.host)].map(([k, v]) => `${k}=${v}`).join('; ');
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    const res = await fetch(target, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /max-age=0\b/i.test(a.trim())) || value === '';
      if (expired) this.cookies(target.host).delete(name);
      else this.cookies(target.host).set(name, value);
    }
    return res;
  }

  /** Follows redirects from `url` until an answer that is not one, or a URL on `stopAt`'s origin and path. */
  async follow(url: string, stopAt?: (u: URL) => boolean): Promise<{ url: URL; res: Response }> {
    let current = new URL(url);
    for (let hops = 0; hops < 20; hops++) {
      this.visited.push(current);
      if (stopAt?.(current)) return { url: current, res: new Response(null) };
      const res = await this.fetch(current.href);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { url: current, res };
      current = new URL(location, current);
    }
    throw new Error('too many redirects');
  }
}

let provider: TestProvider;
/** Two apps: the second requires a second factor. */
const ports: number[] = [];

beforeAll(async () => {
  ports.push(await freePort(), await freePort());
  provider = await startOidcProvider({
    redirectUris: ports.map((port) => `http://127.0.0.1:${port}/api/v5/accounts/authenticate-callback/`),
  });
}, 60_000);
afterAll(() => provider?.close());

/** A test app using the provider, listening on `port` (the redirect URI the provider knows). */
async function signinApp(port: number, env: Record<string, string> = {}): Promise<{ t: TestApp; server: Server }> {
  const t = await startTestApp({
    env: {
      SIGNIN_PROVIDERS: 'test-idp',
      OIDC_TEST_IDP_ISSUER: provider.issuer,
      OIDC_TEST_IDP_CLIENT_ID: provider.clientId,
      OIDC_TEST_IDP_CLIENT_SECRET: provider.clientSecret,
      OIDC_TEST_IDP_DISPLAY_NAME: 'Test IdP',
      SIGNIN_RETURN_ORIGINS: 'http://frontend.test',
      ...env,
    },
  });
  const server = t.app.express.listen(port, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { t, server };
}

async function stop(app: { t: TestApp; server: Server } | undefined) {
  if (!app) return;
  await new Promise((resolve) => app.server.close(resolve));
  await app.t.close();
}

const gqlWith = async (b: Browser, base: string, query: string) => {
  const res = await b.fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ query }),
  });
  return (await res.json()) as { data?: any; errors?: { message: string; extensions: Record<string, any> }[] };
};

let n = 0;
const account = (extra: Record<string, unknown> = {}) => {
  n++;
  const a = {
    sub: `subject-${n}-${process.pid}`,
    email: `person${n}-${process.pid}@example.com`,
    emailVerified: true,
    ...extra,
  };
  provider.setAccount(a as Parameters<TestProvider['setAccount']>[0]);
  return a;
};

describe('browser sign-in through OpenID Connect (issue 36)', () => {
  let app: { t: TestApp; server: Server };
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    app = await signinApp(ports[0]!);
    t = app.t;
    base = `http://127.0.0.1:${ports[0]}`;
  }, 120_000);
  afterAll(() => stop(app));

  const profile = (b: Browser) => b.fetch(`${base}/api/v5/accounts/profile/`);

  it('signs in: start, provider, callback, session cookie; then REST and a GraphQL mutation with it; logout', async () => {
    const who = account({ name: 'Person One' });
    const b = new Browser();
    const { url } = await b.follow(`${base}/api/v5/accounts/login/start/?to=/en-US/developers/`);
    // Back on this site at `to`, signed in.
    expect(url.origin + url.pathname).toBe(`${base}/en-US/developers/`);
    const auth = provider.authorizations.at(-1)!;
    expect(auth.get('code_challenge_method')).toBe('S256');
    expect(auth.get('state')).toBeTruthy();
    expect(auth.get('nonce')).toBeTruthy();
    const token = b.cookies(new URL(base).host).get('frontend_auth_token');
    expect(token).toBeTruthy();
    const me = await profile(b);
    expect(me.status).toBe(200);
    const body = (await me.json()) as Record<string, unknown>;
    expect(body.email).toBe(who.email);
    // The provider's subject is the account's idp id.
    const [row] = await t.em().getConnection().execute('select idp_id from users where email = ?', [who.email]);
    expect(row.idp_id).toBe(who.sub);
    // A GraphQL mutation with the cookie, from this site.
    const accepted = await b.fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ query: 'mutation { acceptDeveloperAgreement { id } }' }),
    });
    expect(((await accepted.json()) as { errors?: unknown }).errors).toBeUndefined();
    // The same from another site: refused before it runs.
    const forged = await b.fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://evil.test' },
      body: JSON.stringify({ query: 'mutation { endOtherSessions }' }),
    });
    expect(forged.status).toBe(403);
    // The session is listed; logout ends it, and clears the cookie.
    const listed = await b.fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ query: '{ mySessions { origin current secondFactor } }' }),
    });
    expect(((await listed.json()) as any).data.mySessions).toEqual([
      { origin: 'test-idp', current: true, secondFactor: false },
    ]);
    const out = await b.fetch(`${base}/api/v5/accounts/session/`, { method: 'DELETE', headers: { origin: base } });
    expect(out.status).toBe(200);
    expect(b.cookies(new URL(base).host).has('frontend_auth_token')).toBe(false);
    // The token, still held elsewhere, no longer works.
    const again = await fetch(`${base}/api/v5/accounts/profile/`, { headers: { authorization: `Session ${token}` } });
    expect(again.status).toBe(401);
  });

  it('in Chromium: the catalogue front-end’s sign-in link (`config`, `to`) ends signed in, the cookies HttpOnly', async () => {
    const who = account();
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
    try {
      const page = await (await browser.newContext()).newPage();
      // addons-frontend's startLoginUrl: `config` names its provider configuration, `to` the page.
      await page.goto(
        `${base}/api/v5/accounts/login/start/?config=amo&to=${encodeURIComponent('/api/v5/accounts/profile/')}`,
      );
      expect(page.url()).toBe(`${base}/api/v5/accounts/profile/`);
      // The page itself is the profile, read with the session cookie.
      const shown = JSON.parse((await page.textContent('body'))!) as { email: string };
      expect(shown.email).toBe(who.email);
      const cookies = await page.context().cookies(base);
      // (Chromium keeps 127.0.0.1's cookies for every port: the provider's are there too.)
      const ours = cookies.filter((c) => ['sessionid', 'frontend_auth_token'].includes(c.name));
      expect(ours.map((c) => [c.name, c.httpOnly, c.sameSite]).sort()).toEqual([
        ['frontend_auth_token', true, 'Lax'],
        ['sessionid', true, 'Lax'],
      ]);
      // Script on the page cannot read them.
      expect(await page.evaluate('document.cookie')).toBe('');
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('the same person signs in again to the same account; a verified email links an existing account once', async () => {
    const created = await t.createUser({ email: `linked-${process.pid}@example.com` });
    account({ sub: `linked-sub-${process.pid}`, email: `linked-${process.pid}@example.com` });
    const b = new Browser();
    await b.follow(`${base}/api/v5/accounts/login/start/`);
    const body = (await (await profile(b)).json()) as Record<string, unknown>;
    expect(body.id).toBe(created.id);
    // Another identity at this provider with the same email is not linked to it.
    account({ sub: `other-sub-${process.pid}`, email: `linked-${process.pid}@example.com` });
    const c = new Browser();
    const { url } = await c.follow(`${base}/api/v5/accounts/login/start/?to=/here/`);
    expect(url.pathname).toBe('/here/');
    expect(url.searchParams.get('error')).toBe('ERROR_EMAIL_IN_USE');
    expect((await profile(c)).status).toBe(401);
  });

  it('refuses a callback whose state this browser did not start, and a replayed code', async () => {
    account();
    const b = new Browser();
    // The provider's answer, stopped before it reaches the service.
    const { url: callback } = await b.follow(`${base}/api/v5/accounts/login/start/?to=/x/`, (u) =>
      u.pathname.endsWith('/authenticate-callback/'),
    );
    // Another browser (no binding cookie) presenting it: refused.
    const stranger = new Browser();
    const { url: refused } = await stranger.follow(callback.href);
    expect(refused.searchParams.get('error')).toBe('ERROR_STATE_MISMATCH');
    // The attempt is used up: the rightful browser cannot use it either, nor can a replay.
    const { url: late } = await b.follow(callback.href);
    expect(late.searchParams.get('error')).toBe('ERROR_STATE_MISMATCH');
    // A made-up state.
    const forged = new URL(callback);
    forged.searchParams.set('state', 'made-up');
    expect((await new Browser().follow(forged.href)).url.searchParams.get('error')).toBe('ERROR_STATE_MISMATCH');
  });

  it('never redirects elsewhere: `to` of another site returns to this one', async () => {
    for (const to of ['https://evil.test/', '//evil.test/', '/\\evil.test', 'javascript:alert(1)', '/\t/evil.test']) {
      account();
      const b = new Browser();
      const { url } = await b.follow(`${base}/api/v5/accounts/login/start/?to=${encodeURIComponent(to)}`);
      expect(url.href).toBe(`${base}/`);
    }
    // A trusted front-end's URL is kept.
    account();
    const b = new Browser();
    const { url } = await b.follow(
      `${base}/api/v5/accounts/login/start/?to=${encodeURIComponent('http://frontend.test/en-US/firefox/')}`,
      (u) => u.host === 'frontend.test',
    );
    expect(url.href).toBe('http://frontend.test/en-US/firefox/');
  });

  it.each(['nonce', 'audience'] as const)('refuses an ID token with a wrong %s', async (what) => {
    account();
    provider.tamperNext(what);
    const b = new Browser();
    const { url } = await b.follow(`${base}/api/v5/accounts/login/start/?to=/y/`);
    expect(url.searchParams.get('error')).toBe('ERROR_AUTHENTICATION_FAILED');
    expect(b.cookies(new URL(base).host).has('frontend_auth_token')).toBe(false);
  });

  it('refuses an unverified email for a new account, and a deleted account signing in again', async () => {
    account({ emailVerified: false });
    const b = new Browser();
    expect((await b.follow(`${base}/api/v5/accounts/login/start/`)).url.searchParams.get('error')).toBe(
      'ERROR_EMAIL_NOT_VERIFIED',
    );
    const who = account();
    const c = new Browser();
    await c.follow(`${base}/api/v5/accounts/login/start/`);
    const me = (await (await profile(c)).json()) as { id: number };
    const deleted = await c.fetch(`${base}/api/v5/accounts/account/${me.id}/`, {
      method: 'DELETE',
      headers: { origin: base },
    });
    expect(deleted.status).toBe(204);
    provider.setAccount(who as Parameters<TestProvider['setAccount']>[0]);
    const d = new Browser();
    expect((await d.follow(`${base}/api/v5/accounts/login/start/`)).url.searchParams.get('error')).toBe(
      'ERROR_ACCOUNT_DELETED',
    );
  });
});

describe('a second factor before publishing (issue 36)', () => {
  let app: { t: TestApp; server: Server };
  let base: string;

  beforeAll(async () => {
    app = await signinApp(ports[1]!, {
      SIGNIN_REQUIRE_SECOND_FACTOR: 'true',
      OIDC_TEST_IDP_SECOND_FACTOR_REQUEST: 'urn:example:mfa',
    });
    base = `http://127.0.0.1:${ports[1]}`;
  }, 120_000);
  afterAll(() => stop(app));

  it('refuses an API key to a session without one, asks the provider for one, and then issues it', async () => {
    account({ amr: ['pwd'] });
    const b = new Browser();
    await b.follow(`${base}/api/v5/accounts/login/start/`);
    // Reading works; what publishes does not.
    expect((await b.fetch(`${base}/api/v5/accounts/profile/`)).status).toBe(200);
    const refused = await gqlWith(b, base, 'mutation { issueApiKey { key } }');
    expect(refused.errors![0]!.extensions).toMatchObject({
      code: 'FORBIDDEN',
      details: { code: 'TWO_FACTOR_REQUIRED', login_url: '/api/v5/accounts/login/start/?require_two_factor=1' },
    });
    const hook = await gqlWith(
      b,
      base,
      'mutation { createWebhookEndpoint(input: { url: "https://example.com/h" }) { secret } }',
    );
    expect(hook).toMatchObject({ errors: [{ extensions: { details: { code: 'TWO_FACTOR_REQUIRED' } } }] });
    // Signing in again with a second factor asked for: a new login at the provider, with acr_values.
    account({
      sub: `subject-${n}-${process.pid}`,
      email: `person${n}-${process.pid}@example.com`,
      amr: ['pwd', 'otp'],
    });
    await b.follow(`${base}/api/v5/accounts/login/start/?require_two_factor=1`);
    const asked = provider.authorizations.at(-1)!;
    expect(asked.get('acr_values')).toBe('urn:example:mfa');
    expect(asked.get('prompt')).toBe('login');
    expect((await gqlWith(b, base, 'mutation { acceptDeveloperAgreement { id } }')).errors).toBeUndefined();
    const issued = await gqlWith(b, base, 'mutation { issueApiKey { key secret } }');
    expect(issued.errors).toBeUndefined();
    // The key works from CI without any second factor: an upload signed with it is accepted.
    const { key, secret } = issued.data.issueApiKey as { key: string; secret: string };
    const now = Math.floor(Date.now() / 1000);
    const form = new FormData();
    form.set('channel', 'unlisted');
    form.set('upload', new Blob([await extension({ id: `mfa-${process.pid}@example.com`, version: '1.0' })]), 'a.zip');
    const upload = await fetch(`${base}/api/v5/addons/upload/`, {
      method: 'POST',
      headers: { authorization: `JWT ${signJwt({ iss: key, iat: now, exp: now + 300 }, secret)}` },
      body: form,
    });
    expect(upload.status).toBe(201);
    const sessions = await gqlWith(b, base, '{ mySessions { secondFactor current } }');
    expect(sessions.data.mySessions.find((s: { current: boolean }) => s.current)).toEqual({
      secondFactor: true,
      current: true,
    });
  });
});
