import { createHmac, timingSafeEqual } from 'node:crypto';
import { NO_DEVELOPER_AGREEMENT } from '../accounts/accounts.access.js';
import { errors } from '../core/errors.js';

/** The original's limits (MAX_APIKEY_JWT_AUTH_TOKEN_LIFETIME and JWT_LEEWAY). */
export const JWT_MAX_LIFETIME_SECONDS = 300;
export const JWT_LEEWAY_SECONDS = 5;

export const jwtMessages = {
  noCredentials: 'Invalid Authorization header. No credentials provided.',
  spaces: 'Invalid Authorization header. Credentials string should not contain spaces.',
  decoding: 'Error decoding signature.',
  invalidToken: 'Invalid JWT Token.',
  issuerMissing: 'JWT iss (issuer) claim is missing.',
  issuerUnknown: 'Unknown JWT iss (issuer).',
  missingClaim: (claim: string) => `Invalid JWT: Token is missing the "${claim}" claim.`,
  expired: 'Signature has expired.',
  iatInvalid:
    'JWT iat (issued at time) is invalid. Make sure your system clock is synchronized with something like TLSdate.',
  tooLong: 'JWT exp (expiration) is too long.',
  wrongType: 'Wrong type for one or more keys in payload',
  refreshable: "API key based tokens are not refreshable, don't include `orig_iat` in their payload.",
  replayed: 'JWT jti (nonce) has already been used. Sign a new token for each request.',
  userDisabled: 'User account is disabled.',
  noDevAgreement: NO_DEVELOPER_AGREEMENT,
} as const;

export interface ApiKeyJwtClaims {
  iss: string;
  iat: number;
  exp: number;
  jti?: string;
  [claim: string]: unknown;
}

const fail = (message: string) => errors.authenticationFailed(message);

/**
 * Verifies an API-key JWT the way the original does, check for check and message for message:
 * structure, issuer, algorithm (HS256 only), signature, required claims, expiry (5 s leeway),
 * future iat, lifetime <= 300 s, no `orig_iat`. `secretFor(iss)` returns the key's secret or null.
 * Replay (jti) and user checks are the caller's.
 */
export async function verifyApiKeyJwt(
  token: string,
  secretFor: (issuer: string) => Promise<string | null>,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<ApiKeyJwtClaims> {
  const parts = token.split('.');
  if (parts.length !== 3) throw fail(jwtMessages.decoding);
  const [headerPart, payloadPart, signaturePart] = parts;
  const header = decodeJsonSegment(headerPart);
  const payload = decodeJsonSegment(payloadPart);
  if (!isPlainObject(header) || !isPlainObject(payload) || !/^[A-Za-z0-9_-]*$/.test(signaturePart)) {
    throw fail(jwtMessages.decoding);
  }

  if (!('iss' in payload)) throw fail(jwtMessages.issuerMissing);
  // An issuer no key can have (too long, NUL) is unknown without asking the database.
  const secret = isStorableText(payload.iss) ? await secretFor(payload.iss) : null;
  if (secret === null) throw fail(jwtMessages.issuerUnknown);

  if (header.alg !== 'HS256') throw fail(jwtMessages.invalidToken);
  const expected = createHmac('sha256', secret).update(`${headerPart}.${payloadPart}`).digest();
  const given = Buffer.from(signaturePart, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw fail(jwtMessages.decoding);

  if (payload.exp === undefined || payload.exp === null) throw fail(jwtMessages.missingClaim('exp'));
  if (payload.iat === undefined || payload.iat === null) throw fail(jwtMessages.missingClaim('iat'));
  const iat = pythonInt(payload.iat);
  if (iat === TYPE_ERROR) throw fail(jwtMessages.wrongType);
  if (iat === VALUE_ERROR) throw fail(jwtMessages.iatInvalid);
  const exp = pythonInt(payload.exp);
  if (exp === TYPE_ERROR) throw fail(jwtMessages.wrongType);
  if (exp === VALUE_ERROR) throw fail(jwtMessages.decoding);
  if (exp < nowSeconds - JWT_LEEWAY_SECONDS) throw fail(jwtMessages.expired);

  // The original compares the raw claims; a numeric string here raised a TypeError.
  if (typeof payload.iat !== 'number' || typeof payload.exp !== 'number') throw fail(jwtMessages.wrongType);
  if (payload.iat > nowSeconds + JWT_LEEWAY_SECONDS) throw fail(jwtMessages.iatInvalid);
  if (payload.exp - payload.iat > JWT_MAX_LIFETIME_SECONDS) throw fail(jwtMessages.tooLong);
  if ('orig_iat' in payload) throw fail(jwtMessages.refreshable);
  if ('jti' in payload && !isStorableText(payload.jti)) throw fail(jwtMessages.wrongType);

  return payload as ApiKeyJwtClaims;
}

/** A string that fits the 255-character key and nonce columns (PostgreSQL refuses NUL in text). */
function isStorableText(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 255 && !value.includes('\0');
}

function decodeJsonSegment(segment: string): unknown {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(segment)) return undefined;
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const TYPE_ERROR = Symbol('TypeError');
const VALUE_ERROR = Symbol('ValueError');

/**
 * What Python's int() makes of a JSON value (the original validated claims with it): numbers,
 * booleans and integer strings convert; other strings are a ValueError; lists and objects a TypeError.
 */
function pythonInt(value: unknown): number | typeof TYPE_ERROR | typeof VALUE_ERROR {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : VALUE_ERROR;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') return /^\s*[-+]?\d+\s*$/.test(value) ? Number.parseInt(value, 10) : VALUE_ERROR;
  return TYPE_ERROR;
}

/** Builds an HS256 token; used by the CLI's docs, the tests and the benchmark. */
export function signJwt(payload: Record<string, unknown>, secret: string, alg: 'HS256' | 'HS512' = 'HS256'): string {
  const header = Buffer.from(JSON.stringify({ alg, typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const hash = alg === 'HS256' ? 'sha256' : 'sha512';
  const signature = createHmac(hash, secret).update(`${header}.${body}`).digest('base64url');
  return `${header}.${body}.${signature}`;
}
