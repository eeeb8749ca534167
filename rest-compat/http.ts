import type { Response } from 'express';

/**
 * Sends JSON with `Content-Type: application/json` exactly: sign-addon and the catalogue
 * front-end compare the header literally, so Express's `; charset=utf-8` would break them.
 */
export function sendJson(res: Response, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.status(status);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (status === 204 || body === undefined) {
    res.end();
    return;
  }
  const payload = JSON.stringify(body);
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}
