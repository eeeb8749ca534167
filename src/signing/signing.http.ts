import type { RequestHandler, Response } from 'express';
import { KeyOperation, assertKeyScope } from '../access/key-scopes.js';
import { createRequestContext } from '../core/context.js';
import { asAppError, ErrorCode } from '../core/errors.js';
import { baseUrlOf, sendBytes, sendJson } from '../core/http.js';
import type { Database } from '../db/database.js';
import type { Platform } from '../core/module.js';
import type { SigningServices } from './services.js';

/** What the downloads and reports read: the module's services and the configuration. */
type Services = SigningServices & Pick<Platform, 'config'>;
import { escapeHtml, renderValidationReport } from './validation/report.js';

/**
 * `/downloads/file/<id>/<name>`: the public mirror of approved listed files (what `files[].url`
 * and the signing API's redirects point to). Anything not public is "not found".
 */
export function publicDownload(services: Services, db: Database): RequestHandler {
  return async (req, res) => {
    const id = /^\d{1,10}$/.test(String(req.params.id)) ? Number(req.params.id) : NaN;
    const em = db.fork();
    const file = Number.isNaN(id) ? null : await services.downloads.publicFile(em, id);
    // HEAD: the same answer from the file's metadata, its bytes never opened.
    const bytes = !file
      ? null
      : req.method === 'HEAD'
        ? await services.downloads.size(em, file.id)
        : await services.downloads.open(em, file.id);
    if (!file || bytes === null) return sendJson(res, 404, { detail: 'Not found.' });
    res.status(200);
    res.setHeader('Content-Type', 'application/x-xpinstall');
    res.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
    res.setHeader('X-Target-Digest', file.hash);
    res.setHeader('Cache-Control', 'public, max-age=3600');
    sendBytes(res, bytes);
  };
}

/**
 * `/downloads/source/<version id>`: a version's source code archive (the original's path), streamed
 * to the add-on's authors and reviewers of the version's channel, signed in with an API key (JWT)
 * or a session header. Anonymous callers get 401; everyone else, and versions without source, 404.
 */
export function sourceDownload(services: Services, db: Database): RequestHandler {
  return async (req, res) => {
    const id = /^\d{1,10}$/.test(String(req.params.id)) ? Number(req.params.id) : 0;
    const em = db.fork();
    let download: Awaited<ReturnType<Services['versionSources']['download']>>;
    try {
      const viewer = await services.authenticator.authenticate(
        em,
        req.headers.authorization,
        ['jwt', 'session'],
        req.ip ?? null,
      );
      assertKeyScope(viewer, KeyOperation.STATUS);
      const ctx = createRequestContext({
        em,
        viewer,
        locale: 'en-US',
        request: { baseUrl: baseUrlOf(req, services.config.SITE_URL), ip: req.ip ?? null },
      });
      // HEAD: the same answer from the archive's metadata, its bytes never opened.
      download = await services.versionSources.download(ctx, id, req.method !== 'HEAD');
    } catch (error) {
      const code = asAppError(error)?.code;
      if (code === ErrorCode.UNAUTHENTICATED) {
        return sendJson(res, 401, { detail: asAppError(error)!.message }, { 'WWW-Authenticate': 'JWT realm="api"' });
      }
      if (code === ErrorCode.FORBIDDEN) return sendJson(res, 403, { detail: asAppError(error)!.message });
      if (code === ErrorCode.NOT_FOUND) return sendJson(res, 404, { detail: 'Not found.' });
      throw error;
    }
    res.status(200);
    res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('Content-Disposition', `attachment; filename="${download.filename}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    const { stream, size } = download;
    sendBytes(res, stream ? { stream, size } : size);
  };
}

/**
 * `/developers/upload/<uuid>`: the upload's validation results as a page (the status object's
 * `validation_url`). The 128-bit upload id, given only to the uploader, is the capability.
 */
export function validationReport(services: Services, db: Database): RequestHandler {
  return async (req, res) => {
    const uuid = String(req.params.uuid).toLowerCase();
    const upload = /^[0-9a-f]{32}$/.test(uuid) ? await services.uploads.byUuid(db.fork(), uuid) : null;
    if (!upload) return html(res, 404, page('Not found', '<p>There is no upload with this id.</p>'));
    if (!upload.validation) {
      const body = '<p>Validation is still running. This page reloads every few seconds.</p>';
      return html(res, 200, page('Validation in progress', body, '<meta http-equiv="refresh" content="3">'));
    }
    const guid = upload.addon?.guid ?? undefined;
    html(
      res,
      200,
      renderValidationReport(upload.validation, { title: 'Validation results', guid, version: upload.version }),
    );
  };
}

/**
 * `/developers/upload/<uuid>/json`: the same results as JSON (a browsed version's
 * `validation_url_json`); 404 until validation has run.
 */
export function validationReportJson(services: Services, db: Database): RequestHandler {
  return async (req, res) => {
    const uuid = String(req.params.uuid).toLowerCase();
    const upload = /^[0-9a-f]{32}$/.test(uuid) ? await services.uploads.byUuid(db.fork(), uuid) : null;
    if (!upload?.validation) return sendJson(res, 404, { detail: 'Not found.' });
    sendJson(res, 200, upload.validation, { 'Cache-Control': 'private, no-cache' });
  };
}

function html(res: Response, status: number, body: string) {
  res.status(status).setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
  res.end(body);
}

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${head}</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}
