import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';

/** Asymmetric signatures only: `none` and the HMAC algorithms (HS256…) are refused before any key is looked at. */
export const OIDC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

/** Why an issuer's keys could not be had (its discovery document or JWKS). */
export class IssuerDiscoveryError extends Error {}

export interface OidcIssuersOptions {
  /** How long an issuer's discovery document and keys are kept, in milliseconds. */
  ttlMs: number;
  /** The longest one request to the issuer waits, in milliseconds. */
  timeoutMs: number;
  /** Plain-http issuers (and key sets) are allowed (a local test issuer). */
  allowInsecure: boolean;
}

/** Largest discovery document read. */
const MAX_DISCOVERY_BYTES = 64 * 1024;

interface CachedIssuer {
  keys: Promise<JWTVerifyGetKey>;
  until: number;
}

/**
 * The signing keys of OIDC issuers: `<issuer>/.well-known/openid-configuration` (whose `issuer`
 * must equal the issuer exactly) names `jwks_uri`, read by jose's remote key set. Both are kept per
 * issuer for `ttlMs` (jose refetches the key set itself when a token names an unknown key, at
 * most every 30 s). Callers pass only issuers that some active trusted publisher trusts and that
 * the configuration allows: an issuer named by a token alone is never fetched.
 */
export class OidcIssuers {
  private readonly cache = new Map<string, CachedIssuer>();

  constructor(private readonly options: OidcIssuersOptions) {}

  keys(issuer: string): Promise<JWTVerifyGetKey> {
    const now = Date.now();
    const cached = this.cache.get(issuer);
    if (cached && cached.until > now) return cached.keys;
    const keys = this.discover(issuer);
    this.cache.set(issuer, { keys, until: now + this.options.ttlMs });
    // A failure is not kept: the next exchange asks again.
    keys.catch(() => {
      if (this.cache.get(issuer)?.keys === keys) this.cache.delete(issuer);
    });
    return keys;
  }

  private async discover(issuer: string): Promise<JWTVerifyGetKey> {
    const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    let document: unknown;
    try {
      const response = await fetch(url, {
        redirect: 'error',
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (response.status !== 200) throw new IssuerDiscoveryError(`its discovery document answered ${response.status}`);
      document = JSON.parse(await readBounded(response, MAX_DISCOVERY_BYTES));
    } catch (error) {
      if (error instanceof IssuerDiscoveryError) throw error;
      throw new IssuerDiscoveryError(`its discovery document could not be read (${(error as Error).message})`);
    }
    const { issuer: named, jwks_uri: jwksUri } = (document ?? {}) as { issuer?: unknown; jwks_uri?: unknown };
    if (named !== issuer) throw new IssuerDiscoveryError('its discovery document names another issuer');
    if (typeof jwksUri !== 'string' || jwksUri.length > 2048) {
      throw new IssuerDiscoveryError('its discovery document has no jwks_uri');
    }
    let jwks: URL;
    try {
      jwks = new URL(jwksUri);
    } catch {
      throw new IssuerDiscoveryError('its jwks_uri is not a URL');
    }
    const protocols = this.options.allowInsecure ? ['https:', 'http:'] : ['https:'];
    if (!protocols.includes(jwks.protocol)) throw new IssuerDiscoveryError('its jwks_uri is not https');
    return createRemoteJWKSet(jwks, {
      timeoutDuration: this.options.timeoutMs,
      cacheMaxAge: this.options.ttlMs,
      cooldownDuration: 30_000,
    });
  }
}

/** The body as text, refused past `maxBytes`. */
async function readBounded(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new IssuerDiscoveryError('its discovery document is too large');
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new IssuerDiscoveryError('its discovery document is too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
