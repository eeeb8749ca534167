import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * HTTP caching for clients and CDNs: answers the service may cache for everyone carry an `ETag`
 * (a hash of the exact bytes) and `Cache-Control: public, max-age=…`; a conditional request whose
 * `If-None-Match` names the current tag gets `304 Not Modified` without a body.
 *
 * Which answers: those of cacheable routes (see `RouteDefinition.cache`) that are the same for
 * every caller who gets them: `public` routes (every request), `anonymous` routes (requests
 * without credentials). They vary with `Accept-Language` (the request language picks translations)
 * and, for `anonymous` routes, with `Authorization` (a signed-in caller may see more).
 */

/** A strong entity tag of a JSON payload: 128 bits of its SHA-1, base64url. */
export function entityTag(payload: Buffer | string): string {
  return `"${createHash('sha1').update(payload).digest('base64url').slice(0, 22)}"`;
}

/**
 * Whether `If-None-Match` names `etag` (weak comparison, RFC 9110 §13.1.2: `W/` prefixes are
 * ignored; `*` matches any current representation). The header is at most a few hundred bytes in
 * practice; it is cut at 8 KiB before it is split.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const value = header.slice(0, 8192).trim();
  if (value === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return value.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}

/**
 * The caching headers of a shared answer (`maxAge` seconds; 0: clients and CDNs revalidate each
 * time). `varyOnCredentials`: a signed-in caller may get another answer (`anonymous` REST routes,
 * GraphQL).
 */
export function sharedCacheHeaders(etag: string, maxAge: number, varyOnCredentials: boolean): Record<string, string> {
  return {
    ETag: etag,
    'Cache-Control': maxAge > 0 ? `public, max-age=${maxAge}` : 'public, no-cache',
    Vary: varyOnCredentials ? 'Accept-Language, Authorization' : 'Accept-Language',
  };
}

/** GET answers that depend on who asks: never kept by shared caches. */
export const PRIVATE_CACHE_HEADERS: Readonly<Record<string, string>> = { 'Cache-Control': 'private, no-cache' };

/**
 * A shared answer as the cache keeps it: the status and the exact JSON bytes (UTF-8, encoded once
 * when the answer is made, so a hit is sent without encoding or measuring it again) with their tag.
 */
export interface SharedAnswer {
  status: number;
  body: Buffer;
  etag: string;
}

/**
 * A shared answer of a JSON text: its bytes, in memory of their own, and their tag. A small Buffer
 * is a slice of an 8 KiB pool shared with the buffers allocated around it, so a kept 200-byte
 * answer would keep its whole pool alive, unseen by the cache's byte count (20,000 hostile GraphQL
 * requests left 4,989 pools, 39 MiB, held by ~8,500 small answers).
 */
export function sharedAnswer(status: number, json: string): SharedAnswer {
  const body = ownMemory(Buffer.from(json));
  return { status, body, etag: entityTag(body) };
}

/** `body`, or a copy of it when it is a slice of a larger (pooled) allocation. */
function ownMemory(body: Buffer): Buffer {
  if (body.byteLength === body.buffer.byteLength) return body;
  const copy = Buffer.allocUnsafeSlow(body.byteLength);
  body.copy(copy);
  return copy;
}

/** Sends a shared answer with its caching headers, or `304` when the client already holds it. */
export function sendSharedAnswer(
  req: Request,
  res: Response,
  answer: SharedAnswer,
  maxAge: number,
  varyOnCredentials: boolean,
): void {
  for (const [name, value] of Object.entries(sharedCacheHeaders(answer.etag, maxAge, varyOnCredentials))) {
    res.setHeader(name, value);
  }
  if (answer.status === 200 && matchesIfNoneMatch(req.headers['if-none-match'], answer.etag)) {
    res.status(304).end();
    return;
  }
  res.status(answer.status);
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', answer.body.length);
  res.end(answer.body);
}
