/**
 * A real OpenID Connect provider for tests of browser sign-in: `oidc-provider` (a certified
 * implementation) in the test process, over plain http on 127.0.0.1 and a random port, with one
 * confidential client (client_secret_basic, authorization code only, PKCE S256 required).
 *
 * Its login and consent pages complete themselves: the provider's interaction URL is a route of
 * this harness that signs in as the account given to `setAccount` and grants the requested scopes,
 * so a sign-in needs no form, whether a real browser or `browserlessSignIn` follows the redirects.
 *
 * The relying party reaches it through openid-client with `allowInsecureRequests` (http issuer).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import * as jose from 'jose';

export interface TestAccount {
  sub: string;
  email: string;
  /** The `email_verified` claim; true when not given. */
  emailVerified?: boolean;
  name?: string;
  /** Authentication methods (`amr` claim of the ID token), e.g. ['pwd', 'otp']. */
  amr?: string[];
  /** Authentication context class (`acr` claim of the ID token). */
  acr?: string;
}

export interface TestProvider {
  /** e.g. http://127.0.0.1:PORT (no trailing slash); discovery at `${issuer}/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * The account the next interactive login signs in as (the provider's login page is auto-completed
   * by the harness: no form to fill), with optional amr/acr claims in the ID token. A provider
   * session of another account (or other amr/acr) no longer counts: the next authorization
   * request logs in again, as this account (with `prompt=none` it fails with login_required).
   * Until the first call: sub 'test-user', email test-user@example.test, verified, name 'Test User'.
   */
  setAccount(account: TestAccount): void;
  /** Authorization requests seen (their query params), for assertions (e.g. acr_values, prompt, code_challenge_method=S256). */
  authorizations: URLSearchParams[];
  /**
   * Makes the NEXT ID token carry a wrong nonce / wrong audience (aud) — to test that the relying
   * party refuses it. The token endpoint's response is rewritten: the ID token signed again with
   * the provider's own key (its signature is valid), `nonce` TAMPERED_NONCE or `aud`
   * TAMPERED_AUDIENCE. Calls queue up: one tampered token each.
   */
  tamperNext(what: 'nonce' | 'audience'): void;
  /** Stops the server (open connections included): the port is free when it resolves. */
  close(): Promise<void>;
}

export interface StartOidcProviderOptions {
  redirectUris: string[];
  /** Default 'test-client'. */
  clientId?: string;
  /** Default: random. */
  clientSecret?: string;
}

const DEFAULT_ACCOUNT: TestAccount = {
  sub: 'test-user',
  email: 'test-user@example.test',
  emailVerified: true,
  name: 'Test User',
};

/** The wrong values `tamperNext` puts in an ID token. */
export const TAMPERED_NONCE = 'tampered-nonce';
export const TAMPERED_AUDIENCE = 'some-other-client';

/**
 * Starts a provider on 127.0.0.1 (random port). The client is registered with `redirectUris`
 * (exact match, as the provider requires).
 */
export async function startOidcProvider(options: StartOidcProviderOptions): Promise<TestProvider> {
  const { Provider, interactionPolicy } = await loadOidcProvider();
  const clientId = options.clientId ?? 'test-client';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');

  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // The signing key is ours, so a tampered ID token can be signed again with it.
  const { privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
  const kid = randomBytes(8).toString('hex');
  const signingJwk = { ...(await jose.exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };

  const accounts = new Map<string, TestAccount>([[DEFAULT_ACCOUNT.sub, DEFAULT_ACCOUNT]]);
  let current = DEFAULT_ACCOUNT;
  const tampering: ('nonce' | 'audience')[] = [];
  const authorizations: URLSearchParams[] = [];
  const debug = process.env.OIDC_HARNESS_DEBUG
    ? (...args: unknown[]) => console.error('[oidc-harness]', ...args)
    : () => {};

  // The login prompt also asks again when the provider's session is not the current account's.
  const policy = interactionPolicy.base();
  policy.get('login').checks.add(
    new interactionPolicy.Check(
      'harness_account_changed',
      'the test account changed since this session logged in',
      (ctx: OidcContext) => {
        const { session } = ctx.oidc;
        if (!session.accountId) return false;
        return !sameLogin(session, current);
      },
    ),
  );

  const provider = await quietly(
    () =>
      new Provider(issuer, {
        adapter: memoryAdapter(),
        jwks: { keys: [signingJwk] },
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: options.redirectUris,
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        pkce: { required: () => true },
        scopes: ['openid', 'email', 'profile'],
        // acr and amr with the openid scope: in every ID token of a login that has them.
        claims: {
          openid: ['sub', 'acr', 'amr'],
          email: ['email', 'email_verified'],
          profile: ['name'],
          auth_time: null,
          sid: null,
          iss: null,
        },
        ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
        // Scope claims (email, name) in the ID token itself, not only from the userinfo endpoint.
        conformIdTokenClaims: false,
        findAccount: (_ctx: unknown, sub: string) => {
          const account = accounts.get(sub);
          if (!account) return undefined;
          return {
            accountId: sub,
            claims: () => ({
              sub,
              email: account.email,
              email_verified: account.emailVerified ?? true,
              ...(account.name === undefined ? {} : { name: account.name }),
            }),
          };
        },
        interactions: {
          policy,
          url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
        },
        cookies: {
          keys: [randomBytes(32).toString('base64url')],
          // Browsers share cookies between the ports of one host: names of our own, so the
          // provider's cookies never overwrite the relying party's on 127.0.0.1.
          names: {
            session: 'oidc_harness_session',
            interaction: 'oidc_harness_interaction',
            resume: 'oidc_harness_resume',
          },
        },
        features: { devInteractions: { enabled: false } },
        renderError: (ctx: { type: string; body: string }, out: Record<string, string>) => {
          ctx.type = 'text/plain';
          ctx.body = `${out.error}: ${out.error_description ?? ''}`;
        },
      }),
  );

  provider.on('server_error', (_ctx: unknown, error: unknown) => debug('server_error', error));
  provider.on('error', (error: unknown) => debug('error', error));

  provider.use(async (ctx: KoaContext, next: () => Promise<void>) => {
    if (ctx.path === '/auth' && ctx.method === 'GET') authorizations.push(new URLSearchParams(ctx.querystring));
    await next();
    const body = ctx.body as { id_token?: unknown } | undefined;
    if (ctx.path === '/token' && ctx.status === 200 && typeof body?.id_token === 'string' && tampering.length) {
      const what = tampering.shift();
      const payload = jose.decodeJwt(body.id_token);
      if (what === 'nonce') payload.nonce = TAMPERED_NONCE;
      else payload.aud = TAMPERED_AUDIENCE;
      const header = jose.decodeProtectedHeader(body.id_token) as jose.JWSHeaderParameters & { alg: string };
      ctx.body = { ...body, id_token: await new jose.SignJWT(payload).setProtectedHeader(header).sign(privateKey) };
    }
  });

  async function completeInteraction(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const interaction = await provider.interactionDetails(req, res);
    const account = current;
    if (interaction.session?.uid && interaction.session.accountId !== account.sub) {
      // Another account's session: end it here (the provider would make the browser post a logout
      // form first), so the login that follows starts a new one.
      await (await provider.Session.findByUid(interaction.session.uid))?.destroy();
      interaction.session = undefined;
      await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
    }
    const clientId = interaction.params.client_id as string;
    // The grant of the session's login, unless it was another account's.
    const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    const grant =
      existing?.accountId === account.sub ? existing : new provider.Grant({ accountId: account.sub, clientId });
    if (typeof interaction.params.scope === 'string') grant.addOIDCScope(interaction.params.scope);
    if (typeof interaction.params.claims === 'string') {
      const requested = JSON.parse(interaction.params.claims) as Record<string, Record<string, unknown> | undefined>;
      grant.addOIDCClaims([...Object.keys(requested.id_token ?? {}), ...Object.keys(requested.userinfo ?? {})]);
    }
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      {
        login: {
          accountId: account.sub,
          remember: true,
          ...(account.amr ? { amr: account.amr } : {}),
          ...(account.acr ? { acr: account.acr } : {}),
        },
        consent: { grantId },
      },
      { mergeWithLastSubmission: false },
    );
  }

  const callback = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.method === 'GET' && req.url?.startsWith('/interaction/')) {
      completeInteraction(req, res).catch((error: unknown) => {
        debug('interaction failed', error);
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`interaction failed: ${error instanceof Error ? error.message : String(error)}`);
      });
      return;
    }
    callback(req, res);
  });

  return {
    issuer,
    clientId,
    clientSecret,
    authorizations,
    setAccount(account) {
      current = { ...account };
      accounts.set(account.sub, current);
    },
    tamperNext(what) {
      tampering.push(what);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Sign-in without a browser: fetch following redirects, with cookies.

/**
 * Cookies per host (host:port: unlike a browser, which shares them between the ports of one host
 * name, so the provider's and the relying party's never mix). Honours Path, Max-Age and Expires;
 * ignores Domain, Secure and SameSite.
 */
export class CookieJar {
  private readonly cookies = new Map<string, Map<string, { value: string; path: string; expires: number }>>();

  /** Stores one Set-Cookie header received from `url` (a deletion when already expired). */
  set(url: string | URL, setCookie: string): void {
    const target = new URL(url);
    const [pair = '', ...attributes] = setCookie.split(';');
    const eq = pair.indexOf('=');
    if (eq < 1) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    let path = target.pathname.slice(0, target.pathname.lastIndexOf('/')) || '/';
    let expires = Infinity;
    for (const attribute of attributes) {
      const [key = '', ...rest] = attribute.split('=');
      const attributeValue = rest.join('=').trim();
      switch (key.trim().toLowerCase()) {
        case 'path':
          if (attributeValue.startsWith('/')) path = attributeValue;
          break;
        case 'max-age':
          expires = Date.now() + Number(attributeValue) * 1000;
          break;
        case 'expires':
          if (expires === Infinity) expires = Date.parse(attributeValue);
          break;
      }
    }
    let host = this.cookies.get(target.host);
    if (!host) this.cookies.set(target.host, (host = new Map()));
    const key = `${path}\n${name}`;
    if (!(expires > Date.now())) host.delete(key);
    else host.set(key, { value, path, expires });
  }

  /** The Cookie header for a request to `url` ('' when none). */
  header(url: string | URL): string {
    const target = new URL(url);
    const now = Date.now();
    const matching = [...(this.cookies.get(target.host) ?? new Map())]
      .filter(([, cookie]) => cookie.expires > now && pathMatches(target.pathname, cookie.path))
      .sort(([, a], [, b]) => b.path.length - a.path.length);
    return matching.map(([key, cookie]) => `${key.slice(key.indexOf('\n') + 1)}=${cookie.value}`).join('; ');
  }

  /** The value of cookie `name` sent with a request to `url`. */
  get(url: string | URL, name: string): string | undefined {
    for (const part of this.header(url).split('; ')) {
      if (part.startsWith(`${name}=`)) return part.slice(name.length + 1);
    }
    return undefined;
  }
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  return (
    requestPath === cookiePath ||
    (requestPath.startsWith(cookiePath) && (cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/'))
  );
}

export interface BrowserlessSignInResult {
  /** URL of the final (non-redirect) response. */
  url: string;
  status: number;
  /** The final response, body unread. */
  response: Response;
  /** Every Set-Cookie header the relying party host (that of `startUrl`) sent, in order. */
  setCookies: string[];
  /** The jar used (given or new), for the requests that follow. */
  cookieJar: CookieJar;
  /** Every URL requested, in order (`startUrl` first). */
  visited: string[];
}

/**
 * Does what a browser does with a sign-in link: GET `startUrl`, then follow each redirect (any
 * host) with the jar's cookies, until a response that is not a redirect. Give the jar of earlier
 * requests to sign in with their cookies (and get a session of the provider again).
 */
export async function browserlessSignIn(
  startUrl: string,
  cookieJar: CookieJar = new CookieJar(),
  options: { maxRedirects?: number } = {},
): Promise<BrowserlessSignInResult> {
  const relyingPartyHost = new URL(startUrl).host;
  const setCookies: string[] = [];
  const visited: string[] = [];
  let url = startUrl;
  for (let redirects = 0; ; redirects += 1) {
    visited.push(url);
    const cookie = cookieJar.header(url);
    const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const header of response.headers.getSetCookie()) {
      cookieJar.set(url, header);
      if (new URL(url).host === relyingPartyHost) setCookies.push(header);
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || !location) {
      return { url, status: response.status, response, setCookies, cookieJar, visited };
    }
    await response.body?.cancel();
    if (redirects >= (options.maxRedirects ?? 20)) throw new Error(`more than ${redirects} redirects from ${startUrl}`);
    url = new URL(location, url).href;
  }
}

// ---------------------------------------------------------------------------------------------
// oidc-provider plumbing (the package ships no types: the few shapes used here).

interface OidcContext {
  oidc: { session: { accountId?: string; amr?: string[]; acr?: string } };
}

interface KoaContext {
  path: string;
  method: string;
  querystring: string;
  status: number;
  body: unknown;
}

interface Grant {
  accountId: string;
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  save(): Promise<string>;
}

interface Interaction {
  uid: string;
  exp: number;
  grantId?: string;
  params: Record<string, unknown>;
  session?: { uid?: string; accountId: string };
  save(ttl: number): Promise<unknown>;
}

interface ProviderInstance {
  Grant: { new (fields: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
  Session: { findByUid(uid: string): Promise<{ destroy(): Promise<void> } | undefined> };
  interactionDetails(req: http.IncomingMessage, res: http.ServerResponse): Promise<Interaction>;
  interactionFinished(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    result: Record<string, unknown>,
    options: { mergeWithLastSubmission: boolean },
  ): Promise<void>;
  use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
  on(event: string, listener: (...args: any[]) => void): void;
  callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
}

interface OidcProviderModule {
  Provider: new (issuer: string, configuration: Record<string, unknown>) => ProviderInstance;
  interactionPolicy: {
    base(): { get(name: string): { checks: { add(check: unknown): void } } };
    Check: new (reason: string, description: string, check: (ctx: OidcContext) => boolean) => unknown;
  };
}

let oidcProviderModule: Promise<OidcProviderModule> | undefined;

function loadOidcProvider(): Promise<OidcProviderModule> {
  // @ts-expect-error -- oidc-provider ships no type declarations (its shapes are above)
  oidcProviderModule ??= quietly(() => import('oidc-provider') as Promise<OidcProviderModule>);
  return oidcProviderModule;
}

/**
 * Runs `fn` without oidc-provider's notices (printed on import and construction: the runtime
 * version check under Node 20, development defaults); other console output goes through.
 */
async function quietly<T>(fn: () => T | Promise<T>): Promise<T> {
  // Replacing (not calling) console methods: the no-console rule is about printing.
  const streams = console as unknown as Record<'warn' | 'info', (...args: unknown[]) => void>;
  const saved = { warn: streams.warn, info: streams.info };
  for (const method of ['warn', 'info'] as const) {
    streams[method] = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].includes('oidc-provider ')) return;
      saved[method].apply(console, args);
    };
  }
  try {
    return await fn();
  } finally {
    Object.assign(streams, saved);
  }
}

function sameLogin(session: { accountId?: string; amr?: string[]; acr?: string }, account: TestAccount): boolean {
  return (
    session.accountId === account.sub &&
    session.acr === account.acr &&
    JSON.stringify(session.amr ?? null) === JSON.stringify(account.amr ?? null)
  );
}

/** The provider's storage: a Map per provider (oidc-provider's own in-memory adapter warns on use). */
function memoryAdapter() {
  type Payload = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string; consumed?: number };
  const store = new Map<string, { payload: Payload; expiresAt: number }>();
  const read = (key: string): Payload | undefined => {
    const entry = store.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      store.delete(key);
      return undefined;
    }
    return structuredClone(entry.payload);
  };
  const findBy = (model: string, field: 'uid' | 'userCode', value: string): Payload | undefined => {
    for (const [key, entry] of store) {
      if (key.startsWith(`${model}:`) && entry.payload[field] === value) return read(key);
    }
    return undefined;
  };
  return (model: string) => ({
    async upsert(id: string, payload: Payload, expiresIn?: number) {
      const expiresAt = typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : Infinity;
      store.set(`${model}:${id}`, { payload: structuredClone(payload), expiresAt });
    },
    async find(id: string) {
      return read(`${model}:${id}`);
    },
    async findByUid(uid: string) {
      return findBy(model, 'uid', uid);
    },
    async findByUserCode(userCode: string) {
      return findBy(model, 'userCode', userCode);
    },
    async consume(id: string) {
      const entry = store.get(`${model}:${id}`);
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    },
    async destroy(id: string) {
      store.delete(`${model}:${id}`);
    },
    async revokeByGrantId(grantId: string) {
      for (const [key, entry] of store) {
        if (entry.payload.grantId === grantId && !key.startsWith('Grant:')) store.delete(key);
      }
    },
  });
}
