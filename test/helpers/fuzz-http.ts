import { connect } from 'node:net';

/** An HTTP/1.1 answer read off a raw socket. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  ms: number;
}

/** What came back: an answer, nothing before the socket closed, or nothing before the deadline. */
export type RawOutcome =
  | { kind: 'answer'; response: RawResponse }
  | { kind: 'closed'; ms: number; error?: string }
  | { kind: 'timeout'; ms: number };

export interface RawRequestOptions {
  /** Give up waiting for an answer after this long. */
  timeoutMs?: number;
  /** Close our side after writing (the server sees the body end early when it is shorter than announced). */
  halfClose?: boolean;
}

/**
 * Sends `bytes` exactly as given to 127.0.0.1:`port` and reads the answer until the server closes
 * (requests built by `buildRequest` carry `Connection: close`). Bytes no HTTP client would produce
 * (truncated bodies, wrong lengths, bad request lines) go through here.
 */
export function rawRequest(port: number, bytes: Buffer, options: RawRequestOptions = {}): Promise<RawOutcome> {
  const { timeoutMs = 30_000, halfClose = false } = options;
  const started = Date.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = connect({ port, host: '127.0.0.1' });
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const ms = Date.now() - started;
      const response = parseResponse(Buffer.concat(chunks), ms);
      resolve(response ? { kind: 'answer', response } : { kind: 'closed', ms, error });
    };
    const timer = setTimeout(() => {
      if (settled) return;
      const response = parseResponse(Buffer.concat(chunks), Date.now() - started);
      settled = true;
      socket.destroy();
      resolve(response ? { kind: 'answer', response } : { kind: 'timeout', ms: Date.now() - started });
    }, timeoutMs);
    socket.on('connect', () => {
      socket.write(bytes, () => {
        if (halfClose) socket.end();
      });
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A complete answer is enough; some servers keep the socket open despite `Connection: close`.
      if (parseResponse(Buffer.concat(chunks), 0, true)) finish();
    });
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
  });
}

/**
 * Parses one HTTP/1.1 answer. Null when there is not even a status line; with `complete`, null
 * until the whole body (by Content-Length or chunked framing) is there.
 */
export function parseResponse(data: Buffer, ms: number, complete = false): RawResponse | null {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const head = data.subarray(0, end).toString('latin1').split('\r\n');
  const statusLine = /^HTTP\/1\.[01] (\d{3})/.exec(head[0]);
  if (!statusLine) return null;
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = data.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const decoded = decodeChunked(body);
    if (complete && !decoded.done) return null;
    body = decoded.body;
  } else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (complete && body.length < length) return null;
    body = body.subarray(0, length);
  } else if (complete) {
    const status = Number(statusLine[1]);
    // No framing: the body runs to the end of the connection, except for answers that have none.
    if (!(status === 204 || status === 304 || (status >= 100 && status < 200))) return null;
  }
  return { status: Number(statusLine[1]), headers, body, text: body.toString('utf8'), ms };
}

function decodeChunked(data: Buffer): { body: Buffer; done: boolean } {
  const out: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd < 0) return { body: Buffer.concat(out), done: false };
    const size = Number.parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) return { body: Buffer.concat(out), done: false };
    if (size === 0) return { body: Buffer.concat(out), done: true };
    const start = lineEnd + 2;
    if (data.length < start + size) {
      out.push(data.subarray(start));
      return { body: Buffer.concat(out), done: false };
    }
    out.push(data.subarray(start, start + size));
    offset = start + size + 2;
  }
}

export interface RequestSpec {
  method: string;
  /** The request target exactly as sent (already percent-encoded, or deliberately not). */
  target: string;
  headers?: [string, string][];
  body?: Buffer | string;
  /** Content-Length to announce instead of the real one; null sends none. */
  contentLength?: number | null;
}

/** The bytes of an HTTP/1.1 request with `Host` and `Connection: close` unless given. */
export function buildRequest(spec: RequestSpec): Buffer {
  const body = spec.body === undefined ? undefined : Buffer.isBuffer(spec.body) ? spec.body : Buffer.from(spec.body);
  const headers = [...(spec.headers ?? [])];
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  if (!has('host')) headers.unshift(['Host', 'localhost']);
  if (!has('connection')) headers.push(['Connection', 'close']);
  if (spec.contentLength !== null && !has('content-length') && !has('transfer-encoding')) {
    const length = spec.contentLength ?? body?.length;
    if (length !== undefined) headers.push(['Content-Length', String(length)]);
  }
  const head = `${spec.method} ${spec.target} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
  // latin1 keeps each char of the head one byte, so a header can carry raw bytes >= 0x80.
  return body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
}

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

/**
 * A multipart/form-data body. `truncate`: the last part is opened and cut off halfway (no closing
 * boundary), as when a client dies mid-upload; `noFinalBoundary`: all parts complete but the
 * closing `--boundary--` missing.
 */
export function multipartBody(
  parts: MultipartPart[],
  options: { boundary?: string; truncate?: boolean; noFinalBoundary?: boolean } = {},
): { contentType: string; body: Buffer } {
  const boundary = options.boundary ?? '----fuzzboundary7MA4YWxkTrZu0gW';
  const chunks: Buffer[] = [];
  parts.forEach((part, i) => {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const head =
      `--${boundary}\r\nContent-Disposition: ${disposition}\r\n` +
      (part.contentType ? `Content-Type: ${part.contentType}\r\n` : '') +
      '\r\n';
    const data = Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data);
    chunks.push(Buffer.from(head));
    if (options.truncate && i === parts.length - 1) {
      chunks.push(data.subarray(0, Math.ceil(data.length / 2)));
      return;
    }
    chunks.push(data, Buffer.from('\r\n'));
  });
  if (!options.truncate && !options.noFinalBoundary) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}

/** Percent-encodes the UTF-8 bytes of `text` (lone surrogates become U+FFFD), every byte but unreserved ones. */
export function percentEncode(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  let out = '';
  for (const byte of bytes) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
