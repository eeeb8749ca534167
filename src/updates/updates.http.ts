import type { Request, RequestHandler, Response } from 'express';
import { matchesIfNoneMatch } from '../core/http-caching.js';
import { baseUrlOf, sendJson } from '../core/http.js';
import type { Database } from '../db/database.js';
import { updateInfoPage } from './update-info.js';
import { parseUpdateRequest } from './update-request.js';
import { UPDATE_MAX_AGE_SECONDS, type UpdateAnswer, type UpdatesService } from './updates.service.js';

/**
 * `GET /update/` and `/update/VersionCheck.php` (the original's paths; Firefox's
 * `extensions.update.url`): the JSON update manifest of one add-on, answered like a static file.
 * Every answer may be kept an hour by clients and CDNs (`Cache-Control: public, max-age=3600`, as
 * the original), carries a strong `ETag` (a hash of its bytes) and `Last-Modified` (when it was
 * computed), and names its add-on for CDN purges (`Surrogate-Key` and `Cache-Tag`: `a:<id>`, the
 * service's own cache tag). A matching `If-None-Match` (or, without one, an `If-Modified-Since` not
 * before `Last-Modified`) gets 304.
 */
export function updateCheck(updates: UpdatesService, db: Database, siteUrl: string | undefined): RequestHandler {
  return async (req, res) => {
    const query = req.originalUrl.indexOf('?');
    const params = new URLSearchParams(query < 0 ? '' : req.originalUrl.slice(query + 1));
    const answer = await updates.check(db.fork(), parseUpdateRequest(params), baseUrlOf(req, siteUrl));
    sendUpdateAnswer(req, res, answer);
  };
}

export function sendUpdateAnswer(req: Request, res: Response, answer: UpdateAnswer): void {
  res.setHeader('Cache-Control', `public, max-age=${UPDATE_MAX_AGE_SECONDS}`);
  res.setHeader('ETag', answer.etag);
  if (answer.status === 200) res.setHeader('Last-Modified', new Date(answer.lastModified).toUTCString());
  if (answer.addonId !== null) {
    res.setHeader('Surrogate-Key', `a:${answer.addonId}`);
    res.setHeader('Cache-Tag', `a:${answer.addonId}`);
  }
  if (answer.status === 200 && notModified(req, answer)) {
    res.status(304).end();
    return;
  }
  res.status(answer.status);
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', answer.body.length);
  res.end(answer.body);
}

/** RFC 9110 §13.2.2: `If-None-Match` when sent, else `If-Modified-Since`. */
function notModified(req: Request, answer: UpdateAnswer): boolean {
  const etags = req.headers['if-none-match'];
  if (etags !== undefined) return matchesIfNoneMatch(etags, answer.etag);
  const since = req.headers['if-modified-since'];
  if (!since || since.length > 64) return false;
  const time = Date.parse(since);
  return Number.isFinite(time) && answer.lastModified <= time;
}

/**
 * `GET /<locale>/<app>/addon/<addon>/versions/<version>/updateinfo/`: a version's release notes
 * for Firefox's update details (the `update_info_url` of an update entry), an hour in caches.
 */
export function updateInfo(db: Database): RequestHandler {
  return async (req, res) => {
    const { locale, addon, version } = req.params as Record<string, string>;
    const page = await updateInfoPage(db.fork(), addon, version, locale);
    if (page === null) return sendJson(res, 404, { detail: 'Not found.' });
    res.status(200);
    res.setHeader('Content-Type', 'application/xhtml+xml; charset=utf-8');
    res.setHeader('Cache-Control', `public, max-age=${UPDATE_MAX_AGE_SECONDS}`);
    res.end(page);
  };
}
