import type { Request, RequestHandler, Response } from 'express';
import { baseUrlOf } from '../core/http.js';
import { sendJson } from '../core/http.js';

/**
 * The cookies holding a front-end's session token, both set at sign-in: the catalogue front-end
 * reads the original's Django session cookie (`sessionid`), the reviewer front-end its older
 * `frontend_auth_token` (`API_TOKEN_COOKIE`). Either is accepted as credentials.
 */
export const SESSION_COOKIES = ['sessionid', 'frontend_auth_token'] as const;
export const SESSION_COOKIE = SESSION_COOKIES[0];

/** The longest cookie value read (a session token is ~120 characters). */
const MAX_COOKIE_VALUE = 1024;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CookiePolicy {
  siteUrl: string | undefined;
  /** Front-end origins (`SIGNIN_RETURN_ORIGINS`): their cookie-authenticated writes are accepted. */
  trustedOrigins: readonly string[];
  /** SESSION_COOKIE_DOMAIN. */
  domain?: string | undefined;
}

/** The value of cookie `name` in the request's `Cookie` header (the first one), or null. */
export function readCookie(req: Pick<Request, 'headers'>, name: string): string | null {
  const header = req.headers.cookie;
  if (!header || header.length > 16_384) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    if (!value || value.length > MAX_COOKIE_VALUE) return null;
    try {
      return decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  return null;
}

/** Whether cookies set for `baseUrl` need `Secure` (every origin but loopback http). */
export function secureCookies(baseUrl: string): boolean {
  const url = new URL(baseUrl);
  return url.protocol === 'https:' || !/^(localhost|127\.[0-9.]+|\[::1\])$/.test(url.hostname);
}

export interface CookieOptions {
  maxAgeSeconds: number;
  path?: string;
  /** `Domain` (front-ends on sibling hosts: SESSION_COOKIE_DOMAIN); none: this host only. */
  domain?: string | undefined;
}

/** A `Set-Cookie` value: HttpOnly, SameSite=Lax, Secure outside loopback. Max-Age 0 deletes it. */
export function setCookie(baseUrl: string, name: string, value: string, options: CookieOptions): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path ?? '/'}`,
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (options.domain) parts.push(`Domain=${options.domain}`);
  if (secureCookies(baseUrl)) parts.push('Secure');
  return parts.join('; ');
}

/**
 * The session cookie as credentials: a request without an `Authorization` header that carries the
 * cookie is authenticated as if it had sent `Authorization: Session <token>` (so both APIs and the
 * shared answer caches treat it as the signed-in request it is). A write (any method but GET, HEAD
 * and OPTIONS) authenticated so must come from this site or a trusted front-end origin: a browser
 * says where a request comes from (`Origin`, else `Sec-Fetch-Site`), and a cross-site one is
 * refused (403) before anything runs, as Django's CSRF check does in the original.
 */
export function sessionCookieCredentials(
  policy: CookiePolicy,
  stillValid: (token: string) => Promise<boolean>,
): RequestHandler {
  return (req, res, next) => {
    if (req.headers.authorization) return next();
    const token = readCookie(req, SESSION_COOKIES[0]) ?? readCookie(req, SESSION_COOKIES[1]);
    if (!token) return next();
    if (!SAFE_METHODS.has(req.method)) {
      const refused = crossSiteOrigin(req, policy);
      if (refused !== null) return refuseCrossSite(req, res, refused);
    }
    // A cookie of an ended session (logged out elsewhere, expired) is not a 401 on every page the
    // browser opens: the request goes on anonymous, and the cookie is cleared.
    stillValid(token).then(
      (valid) => {
        if (valid) req.headers.authorization = `Session ${token}`;
        else
          res.append('Set-Cookie', setCookie(baseUrlOf(req, policy.siteUrl), SESSION_COOKIE, '', { maxAgeSeconds: 0 }));
        next();
      },
      (error: unknown) => next(error),
    );
  };
}

/** The origin a cookie-authenticated write came from when it is not trusted, else null. */
function crossSiteOrigin(req: Request, policy: CookiePolicy): string | null {
  const site = new URL(baseUrlOf(req, policy.siteUrl)).origin;
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') {
    return origin === site || policy.trustedOrigins.includes(origin) ? null : origin.slice(0, 200);
  }
  if (origin === 'null') return 'null';
  const fetchSite = req.headers['sec-fetch-site'];
  if (fetchSite === undefined || fetchSite === 'same-origin' || fetchSite === 'none') return null;
  return `a ${String(fetchSite)} request`;
}

function refuseCrossSite(req: Request, res: Response, origin: string): void {
  const message = `CSRF Failed: Origin checking failed - ${origin} does not match any trusted origins.`;
  if (req.path === '/graphql' || req.path.startsWith('/graphql/')) {
    return sendJson(res, 403, { errors: [{ message, extensions: { code: 'FORBIDDEN' } }] });
  }
  sendJson(res, 403, { detail: message });
}
