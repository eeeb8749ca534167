import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Request, Response } from 'express';

/** SITE_URL when configured, else the scheme and host the request came in on. */
export function baseUrlOf(req: Request, siteUrl: string | undefined): string {
  return siteUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/**
 * The request's URL: the origin of `baseUrlOf` (SITE_URL, else the checked Host) with the path and
 * query the client asked for. The authority of an absolute-form target (`GET http://other/… HTTP/1.1`)
 * is ignored, so it can never change the origin of the links an answer carries (or its cache key).
 */
export function requestUrlOf(req: Request, siteUrl: string | undefined): URL {
  const origin = new URL(baseUrlOf(req, siteUrl)).origin;
  return new URL(origin + pathAndQueryOf(req.originalUrl));
}

/** `/path?query` of a request target in origin form (as is) or absolute form (its path and query only). */
function pathAndQueryOf(target: string): string {
  if (target.startsWith('/')) return target;
  if (!URL.canParse(target)) return '/';
  const absolute = new URL(target);
  return absolute.pathname + absolute.search;
}

/** What Node's HTTP parser hands the `clientError` listener with a refused request. */
export interface ParserError extends Error {
  code?: string;
  /** The bytes of the read being parsed when the parser stopped. */
  rawPacket?: unknown;
  /** Where in `rawPacket` it stopped. */
  bytesParsed?: number;
}

const PARSER_REFUSALS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request header fields too large.'],
};
const URI_TOO_LONG: [number, string] = [414, 'Request-URI too long.'];
const BAD_REQUEST: [number, string] = [400, 'Bad request.'];

/**
 * Requests Node's HTTP parser refuses before any handler runs (headers too large, a malformed
 * request line) get a JSON answer in the API's shape instead of an empty one, then the connection
 * closes. A refused `HEAD` gets the same head without the body (a body would be read as the start of
 * the next answer); a head over the limit whose request line came in an earlier read (its method
 * unknown) gets an empty answer (`Content-Length: 0`), right for any method. Timeouts and resets
 * are only closed: nobody is waiting for an answer.
 */
export function clientErrorHandler(error: ParserError, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.destroy();
    return;
  }
  const refused = refusedRequest(error);
  const [status, detail] =
    error.code === 'HPE_HEADER_OVERFLOW' && refused.inRequestLine
      ? URI_TOO_LONG
      : (PARSER_REFUSALS[error.code ?? ''] ?? BAD_REQUEST);
  const body = JSON.stringify({ detail });
  const statusLine = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n`;
  if (refused.method === null) {
    socket.end(`${statusLine}Content-Length: 0\r\nConnection: close\r\n\r\n`);
    return;
  }
  const head =
    `${statusLine}Content-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
  socket.end(refused.method === 'HEAD' ? head : head + body);
}

/** Longer than any method llhttp accepts. */
const METHOD_BYTES = 24;

/**
 * What the refused read shows of its request. `method`: the method of the request line the read
 * starts with; `''` when it starts with something else (garbage, or the body of a request begun in
 * an earlier read: answered with a body, as before); null when a head that grew past the limit
 * began in an earlier read (a large head sent in several packets), so it may be a HEAD.
 * `inRequestLine`: the parser stopped inside that request line (a target too long, not headers).
 * Requests pipelined after another in one read are taken for the first one.
 */
function refusedRequest(error: ParserError): { method: string | null; inRequestLine: boolean } {
  const packet = error.rawPacket;
  if (!Buffer.isBuffer(packet)) return { method: '', inRequestLine: false };
  const parsed = error.bytesParsed;
  const end = typeof parsed === 'number' && parsed >= 0 && parsed <= packet.length ? parsed : packet.length;
  let start = 0;
  // llhttp skips empty lines before a request line.
  while (start < end && (packet[start] === 0x0d || packet[start] === 0x0a)) start++;
  const method = methodAt(packet, start);
  if (method === null) return { method: error.code === 'HPE_HEADER_OVERFLOW' ? null : '', inRequestLine: false };
  const lineEnd = packet.indexOf(0x0a, start);
  return { method, inRequestLine: lineEnd < 0 || lineEnd >= end };
}

/** The method token followed by a space at `start` (upper-case letters and `-`), or null. */
function methodAt(packet: Buffer, start: number): string | null {
  const limit = Math.min(packet.length, start + METHOD_BYTES);
  for (let i = start; i < limit; i++) {
    const byte = packet[i];
    if (byte === 0x20) return i > start ? packet.toString('latin1', start, i) : null;
    if (!((byte >= 0x41 && byte <= 0x5a) || byte === 0x2d)) return null;
  }
  return null;
}

/**
 * Sends JSON with `Content-Type: application/json` exactly: sign-addon and the catalogue
 * front-end compare the header literally, so Express's `; charset=utf-8` would break them.
 */
export function sendJson(
  res: Response,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  res.status(status);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (status === 204 || body === undefined) {
    res.end();
    return;
  }
  sendJsonText(res, status, JSON.stringify(body));
}

/** Sends an already serialised JSON body. */
export function sendJsonText(res: Response, status: number, payload: string): void {
  res.status(status);
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}

/**
 * Ends a file's answer (status and headers set): `Content-Length`, then the stream's bytes, or,
 * given only the size (a HEAD request, answered from the file's metadata), nothing more.
 */
export function sendBytes(res: Response, bytes: { stream: NodeJS.ReadableStream; size: number } | number): void {
  res.setHeader('Content-Length', String(typeof bytes === 'number' ? bytes : bytes.size));
  if (typeof bytes === 'number') {
    res.end();
    return;
  }
  bytes.stream.on('error', () => res.destroy());
  bytes.stream.pipe(res);
}

/** The request's `User-Agent`, cut to 255 characters (null when absent). */
export function userAgentOf(req: Pick<Request, 'headers'>): string | null {
  const agent = req.headers['user-agent'];
  return typeof agent === 'string' && agent ? agent.slice(0, 255) : null;
}

/** The forwarding headers `clientInfo` echoes (each at most 255 characters), for RequestInfo. */
export function forwardingHeadersOf(req: Pick<Request, 'headers'>): {
  forwardedFor: string | null;
  countryCode: string | null;
} {
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' && value ? value.slice(0, 255) : null;
  };
  return { forwardedFor: header('x-forwarded-for'), countryCode: header('x-country-code') };
}
