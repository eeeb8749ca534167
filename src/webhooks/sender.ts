import { createHmac, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup, type CheckedUrl } from './url-guard.js';

/** Bytes of a response body read (the rest is dropped); the log keeps the first `EXCERPT_BYTES`. */
const READ_BYTES = 4 * 1024;
export const EXCERPT_BYTES = 1024;
export const USER_AGENT = 'addons-server-ts-webhooks/1 (+https://www.standardwebhooks.com)';

/** A new endpoint secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the secret's decoded bytes. */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
}

/**
 * One POST of `body`, signed, to the checked address; redirects are not followed (a 3xx is a
 * failure), at most `READ_BYTES` of the answer are read, and the whole exchange is bounded by
 * `timeoutMs`. Never throws.
 */
export function postWebhook(
  target: CheckedUrl,
  message: { id: string; body: string; secret: string },
  timeoutMs: number,
): Promise<AttemptResult> {
  const timestamp = Math.floor(Date.now() / 1000);
  const request = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const req = request(target.url, {
      method: 'POST',
      lookup: pinnedLookup(target) as never,
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(message.body),
        'user-agent': USER_AGENT,
        'webhook-id': message.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': webhookSignature(message.secret, message.id, timestamp, message.body),
      },
    });
    const timer = setTimeout(
      () => finish({ ok: false, statusCode: null, error: `No answer within ${timeoutMs} ms.`, excerpt: null }),
      timeoutMs,
    );
    req.on('error', (error) => finish({ ok: false, statusCode: null, error: error.message, excerpt: null }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const code = res.statusCode ?? 0;
        const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
        const ok = code >= 200 && code < 300;
        finish({ ok, statusCode: code, error: ok ? null : `HTTP ${code}`, excerpt });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= READ_BYTES) done();
      });
      res.on('end', done);
      res.on('error', done);
    });
    req.end(message.body);
  });
}
