import { lengthProblem } from '../core/text-limits.js';
import { SIGNIN_TEXT_LIMITS } from './text-limits.js';

/**
 * Where a sign-in may send the browser back to: a path of this site (`/en-US/developers/`), or an
 * absolute URL of this site or of a front-end origin the operator trusts (`SIGNIN_RETURN_ORIGINS`).
 * Anything else (another host, `//host`, `/\host`, a scheme other than http(s), control characters)
 * is not an error but ignored: the browser returns to `/`, never to an address someone else chose.
 */
export function safeReturnTo(to: string | null | undefined, siteOrigin: string, trusted: readonly string[]): string {
  if (!to || lengthProblem(to, SIGNIN_TEXT_LIMITS.signinReturnTo)) return '/';
  // Whitespace and control characters: browsers strip some of them, making `/\t/evil` a host.
  if ([...to].some((c) => c <= ' ' || c === '\u007f' || c === '\\')) return '/';
  if (to.startsWith('/')) return to.startsWith('//') ? '/' : to;
  if (!URL.canParse(to)) return '/';
  const url = new URL(to);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return '/';
  if (url.username || url.password) return '/';
  return url.origin === siteOrigin || trusted.includes(url.origin) ? url.href : '/';
}

/** `to` with `error=<code>` added to its query (the original's way of telling a front-end). */
export function withError(to: string, code: string): string {
  const absolute = !to.startsWith('/');
  const url = new URL(to, 'http://relative.invalid');
  url.searchParams.set('error', code);
  return absolute ? url.href : url.pathname + url.search + url.hash;
}
