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
  sendJsonText(res, status, JSON.stringify(body));
}

/** Sends an already serialised JSON body. */
export function sendJsonText(res: Response, status: number, payload: string): void {
  res.status(status);
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}

/** A non-JSON answer a route's `shape` can return: the bytes of a stored file, or a redirect. */
export class FileReply {
  constructor(
    /** The file (in `services.downloads`) whose access the route's document just checked. */
    readonly fileId: number,
    readonly contentType: string,
    readonly headers: Record<string, string> = {},
    /** A file inside that package (`services.versionBrowse`) instead of the package itself. */
    readonly member?: string,
  ) {}
}

export class RedirectReply {
  constructor(
    readonly location: string,
    readonly headers: Record<string, string> = {},
  ) {}
}
