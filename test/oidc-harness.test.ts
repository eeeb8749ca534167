/**
 * The OpenID Connect provider harness (test/helpers/oidc-provider.ts) proven with openid-client
 * alone: the test plays the relying party (no service code), its redirect URI a tiny http server
 * recording the authorization responses.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import * as client from 'openid-client';
import { chromium } from 'playwright-core';
import {
  browserlessSignIn,
  CookieJar,
  startOidcProvider,
  TAMPERED_AUDIENCE,
  TAMPERED_NONCE,
  type TestProvider,
} from './helpers/oidc-provider.js';

let callbackServer: http.Server;
let redirectUri: string;
const callbacks: URL[] = [];
const callbackCookies: (string | undefined)[] = [];
let provider: TestProvider;
let config: client.Configuration;

beforeAll(async () => {
  // The relying party's side: /callback (the redirect URI) records what arrives; /start?to=URL
  // stands for a service's sign-in link (sets a cookie, redirects to the provider).
  callbackServer = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', redirectUri);
    if (url.pathname === '/start') {
      res.writeHead(302, { location: url.searchParams.get('to')!, 'set-cookie': 'rp_binding=b1; Path=/; HttpOnly' });
      return void res.end();
    }
    if (url.pathname !== '/callback') return void res.writeHead(404).end(); // e.g. a browser's favicon.ico
    callbacks.push(url);
    callbackCookies.push(req.headers.cookie);
    res.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': 'rp_session=s1; Path=/; HttpOnly' });
    res.end('signed in');
  });
  await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
  provider = await startOidcProvider({ redirectUris: [redirectUri] });
  config = await client.discovery(
    new URL(provider.issuer),
    provider.clientId,
    undefined,
    client.ClientSecretBasic(provider.clientSecret),
    { execute: [client.allowInsecureRequests] },
  );
});

afterAll(async () => {
  await provider?.close();
  callbackServer?.closeAllConnections();
  await new Promise((resolve) => callbackServer?.close(resolve));
});

/** One authorization request as the relying party makes it, and the checks its callback needs. */
async function authorizationRequest(extra: Record<string, string> = {}) {
  const state = client.randomState();
  const nonce = client.randomNonce();
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, checks: { pkceCodeVerifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true } };
}

/** Signs in without a browser; the URL the provider sent back to the redirect URI. */
async function signIn(extra: Record<string, string> = {}, jar?: CookieJar) {
  const request = await authorizationRequest(extra);
  const result = await browserlessSignIn(request.url.href, jar);
  expect(result.status).toBe(200);
  expect(await result.response.text()).toBe('signed in');
  const callbackUrl = new URL(result.url);
  expect(callbackUrl.origin + callbackUrl.pathname).toBe(redirectUri);
  return { callbackUrl, checks: request.checks, result };
}

describe('OpenID Connect provider harness', () => {
  test('discovery over http on loopback: code flow, S256 only, the scopes and claims', () => {
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(provider.issuer);
    expect(provider.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(metadata.response_types_supported).toContain('code');
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
    expect(metadata.claims_supported).toEqual(
      expect.arrayContaining(['sub', 'email', 'email_verified', 'name', 'amr', 'acr']),
    );
  });

  test('code + PKCE through redirects without a browser: the ID token carries the account, amr and acr', async () => {
    provider.setAccount({
      sub: 'user-1',
      email: 'one@example.test',
      emailVerified: false,
      name: 'User One',
      amr: ['pwd', 'otp'],
      acr: 'urn:test:mfa',
    });
    const before = provider.authorizations.length;
    const { callbackUrl, checks, result } = await signIn({ acr_values: 'urn:test:mfa' });
    expect(callbackUrl.searchParams.get('code')).toBeTruthy();
    expect(callbackUrl.searchParams.get('iss')).toBe(provider.issuer);
    // Straight through: authorization, the harness's interaction, the resume, the redirect URI.
    expect(result.visited.map((url) => new URL(url).pathname)).toEqual([
      '/auth',
      expect.stringMatching(/^\/interaction\//),
      expect.stringMatching(/^\/auth\//),
      '/callback',
    ]);

    const tokens = await client.authorizationCodeGrant(config, callbackUrl, checks);
    expect(tokens.claims()).toMatchObject({
      iss: provider.issuer,
      aud: provider.clientId,
      sub: 'user-1',
      email: 'one@example.test',
      email_verified: false,
      name: 'User One',
      amr: ['pwd', 'otp'],
      acr: 'urn:test:mfa',
      nonce: checks.expectedNonce,
    });
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, 'user-1');
    expect(userinfo).toMatchObject({ sub: 'user-1', email: 'one@example.test' });

    expect(provider.authorizations.length).toBe(before + 1);
    const seen = provider.authorizations.at(-1)!;
    expect(seen.get('code_challenge_method')).toBe('S256');
    expect(seen.get('acr_values')).toBe('urn:test:mfa');
    expect(seen.get('redirect_uri')).toBe(redirectUri);
  });

  test('an account without amr/acr gets an ID token without them', async () => {
    provider.setAccount({ sub: 'user-2', email: 'two@example.test' });
    const { callbackUrl, checks } = await signIn();
    const claims = (await client.authorizationCodeGrant(config, callbackUrl, checks)).claims()!;
    expect(claims).toMatchObject({ sub: 'user-2', email: 'two@example.test', email_verified: true });
    expect(claims).not.toHaveProperty('amr');
    expect(claims).not.toHaveProperty('acr');
    expect(claims).not.toHaveProperty('name');
  });

  test('the provider session is reused until the account changes, then login happens again', async () => {
    const jar = new CookieJar();
    provider.setAccount({ sub: 'user-3', email: 'three@example.test' });
    const first = await signIn({}, jar);
    expect((await client.authorizationCodeGrant(config, first.callbackUrl, first.checks)).claims()?.sub).toBe('user-3');

    const again = await signIn({}, jar);
    expect(again.result.visited.length).toBe(2); // the provider session: no interaction
    expect((await client.authorizationCodeGrant(config, again.callbackUrl, again.checks)).claims()?.sub).toBe('user-3');

    provider.setAccount({ sub: 'user-4', email: 'four@example.test' });
    const other = await signIn({}, jar);
    expect(other.result.visited.length).toBe(4);
    expect((await client.authorizationCodeGrant(config, other.callbackUrl, other.checks)).claims()?.sub).toBe('user-4');

    // The same account, signing in again with a second factor.
    provider.setAccount({ sub: 'user-4', email: 'four@example.test', amr: ['pwd', 'otp'], acr: 'urn:test:mfa' });
    const stepUp = await signIn({}, jar);
    expect(stepUp.result.visited.length).toBe(4);
    expect((await client.authorizationCodeGrant(config, stepUp.callbackUrl, stepUp.checks)).claims()).toMatchObject({
      sub: 'user-4',
      amr: ['pwd', 'otp'],
      acr: 'urn:test:mfa',
    });
  });

  test('PKCE is required', async () => {
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email',
      state: client.randomState(),
      nonce: client.randomNonce(),
    });
    const result = await browserlessSignIn(url.href);
    const callbackUrl = new URL(result.url);
    expect(callbackUrl.searchParams.get('error')).toBe('invalid_request');
    expect(callbackUrl.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  test('a replayed authorization code is refused (and the tokens it gave are revoked)', async () => {
    const { callbackUrl, checks } = await signIn();
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, checks);
    const sub = tokens.claims()!.sub;
    await expect(client.fetchUserInfo(config, tokens.access_token, sub)).resolves.toMatchObject({ sub });
    await expect(client.authorizationCodeGrant(config, callbackUrl, checks)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(client.fetchUserInfo(config, tokens.access_token, sub)).rejects.toMatchObject({
      code: 'OAUTH_WWW_AUTHENTICATE_CHALLENGE',
    });
  });

  test('a tampered nonce, then a tampered audience, are refused by openid-client; the next is fine', async () => {
    /** openid-client's refusal of an ID token claim: which claim, and the token's claims. */
    const refusal = async (attempt: Promise<unknown>) => {
      const error = await attempt.then(
        () => undefined,
        (e: unknown) => e as Error & { code?: string; cause?: { cause?: { claim?: string; claims?: object } } },
      );
      expect(error?.code).toBe('OAUTH_JWT_CLAIM_COMPARISON_FAILED');
      return { claim: error?.cause?.cause?.claim, claims: error?.cause?.cause?.claims };
    };

    provider.tamperNext('nonce');
    const nonce = await signIn();
    expect(await refusal(client.authorizationCodeGrant(config, nonce.callbackUrl, nonce.checks))).toMatchObject({
      claim: 'nonce',
      claims: { nonce: TAMPERED_NONCE, aud: provider.clientId },
    });

    provider.tamperNext('audience');
    const audience = await signIn();
    expect(await refusal(client.authorizationCodeGrant(config, audience.callbackUrl, audience.checks))).toMatchObject({
      claim: 'aud',
      claims: { nonce: audience.checks.expectedNonce, aud: TAMPERED_AUDIENCE },
    });

    const fine = await signIn();
    await expect(client.authorizationCodeGrant(config, fine.callbackUrl, fine.checks)).resolves.toBeTruthy();
  });

  test("browserlessSignIn from a relying party link: its cookies, kept apart from the provider's", async () => {
    const { url } = await authorizationRequest();
    const start = new URL('/start', redirectUri);
    start.searchParams.set('to', url.href);
    const result = await browserlessSignIn(start.href);
    expect(new URL(result.url).pathname).toBe('/callback');
    expect(result.setCookies).toEqual(['rp_binding=b1; Path=/; HttpOnly', 'rp_session=s1; Path=/; HttpOnly']);
    expect(callbackCookies.at(-1)).toBe('rp_binding=b1');
    expect(result.cookieJar.header(redirectUri)).toBe('rp_binding=b1; rp_session=s1');
    expect(result.cookieJar.get(new URL('/', redirectUri), 'rp_session')).toBe('s1');
    expect(result.cookieJar.get(provider.issuer + '/auth', 'oidc_harness_session')).toBeTruthy();
    expect(result.cookieJar.get(provider.issuer + '/auth', 'rp_binding')).toBeUndefined();
  });

  test('close() ends open connections and frees the port', async () => {
    const other = await startOidcProvider({ redirectUris: [redirectUri] });
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) =>
      http
        .get(`${other.issuer}/.well-known/openid-configuration`, { agent }, (res) => res.resume().on('end', resolve))
        .on('error', reject),
    );
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(1000);
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject).listen(Number(new URL(other.issuer).port), '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
    agent.destroy();
  });

  test('the same flow through headless Chromium', async () => {
    provider.setAccount({ sub: 'user-5', email: 'five@example.test', amr: ['hwk'], acr: 'urn:test:hw' });
    const { url, checks } = await authorizationRequest();
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      const count = callbacks.length;
      await page.goto(url.href);
      await page.waitForURL((current) => current.href.startsWith(redirectUri));
      expect(await page.textContent('body')).toBe('signed in');
      expect(callbacks.length).toBe(count + 1);
      const callbackUrl = callbacks.at(-1)!;
      expect(new URL(page.url()).searchParams.get('code')).toBe(callbackUrl.searchParams.get('code'));
      const claims = (await client.authorizationCodeGrant(config, callbackUrl, checks)).claims();
      expect(claims).toMatchObject({ sub: 'user-5', email: 'five@example.test', amr: ['hwk'], acr: 'urn:test:hw' });
      expect(provider.authorizations.at(-1)?.get('code_challenge_method')).toBe('S256');
      // The provider's cookies carry names of the harness's own.
      const names = (await page.context().cookies()).map((cookie) => cookie.name);
      expect(names.some((name) => name.startsWith('oidc_harness_session'))).toBe(true);
    } finally {
      await browser.close();
    }
  });
});
