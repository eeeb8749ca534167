import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import type { Settings as Config } from '../core/settings.js';

/**
 * The GraphQL playground: GraphiQL from the prebuilt bundle of @graphql-yoga/graphiql (React and
 * the Monaco editor's workers included), served by the service itself so that it works on a
 * network without Internet access. Mounted on `/graphql`:
 *
 * - `GET /graphql` from a browser (Accept prefers text/html, the rule Apollo's landing page used)
 *   answers the page; every other request goes on to Apollo unchanged.
 * - `GET /graphql/playground/<package version>/<file>` answers the files of the package's `dist`
 *   folder, cached for a year (the version is in the path); anything else under it is a 404.
 *
 * The page keeps a session token in localStorage and sends it as `Authorization: Bearer …` on
 * every request GraphiQL makes, introspection included. Off when introspection is off.
 */
export function playground(config: Config): RequestHandler {
  if (!config.GRAPHQL_INTROSPECTION) return (_req, _res, next) => next();
  const { version, assets } = bundleAssets();
  const prefix = `/playground/${version}/`;
  return (req, res, next) => {
    if (req.path.startsWith('/playground/')) {
      const asset = req.method === 'GET' || req.method === 'HEAD' ? assets.get(req.path.slice(prefix.length)) : null;
      if (!req.path.startsWith(prefix) || !asset) return notFound(res);
      res.setHeader('Content-Type', asset.type);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      return res.sendFile(asset.file, { maxAge: '365d', immutable: true }, (error) => {
        if (error && !res.headersSent) next(error);
      });
    }
    if ((req.method === 'GET' || req.method === 'HEAD') && req.path === '/' && prefersHtml(req)) {
      return sendPage(res, `${req.baseUrl}${prefix}`, req.baseUrl);
    }
    next();
  };
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** The package's version and its dist files (path relative to dist → file and content type). */
function bundleAssets(): { version: string; assets: Map<string, { file: string; type: string }> } {
  const manifest = createRequire(import.meta.url).resolve('@graphql-yoga/graphiql/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const dist = join(dirname(manifest), 'dist');
  const assets = new Map<string, { file: string; type: string }>();
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    const type = CONTENT_TYPES[entry.name.slice(entry.name.lastIndexOf('.'))];
    if (!entry.isFile() || !type) continue;
    const file = join(entry.parentPath, entry.name);
    assets.set(relative(dist, file).split(sep).join('/'), { file, type });
  }
  return { version: encodeURIComponent(version), assets };
}

/** Apollo's rule: a GET whose Accept prefers HTML to every GraphQL answer type is a browser's. */
function prefersHtml(req: Request): boolean {
  const types = ['application/json', 'application/graphql-response+json', 'multipart/mixed', 'text/html'];
  return req.accepts(types) === 'text/html';
}

/** In GraphQL's error shape, `Content-Type: application/json` exactly, as every JSON answer. */
function notFound(res: Response): void {
  res.status(404).setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ errors: [{ message: 'Not found.', extensions: { code: 'NOT_FOUND' } }] }));
}

/** Monaco's workers, by the label it asks for (the bundle names the GraphQL one with two dots). */
const WORKERS = {
  editorWorkerService: 'monacoeditorwork/editor.worker.bundle.js',
  json: 'monacoeditorwork/json.worker.bundle.js',
  graphql: 'monacoeditorwork/graphql.worker..bundle.js',
};

function sendPage(res: Response, assets: string, endpoint: string): void {
  // base64url: no '/' or '+' (a CSP nonce is any base64 text; the page then holds no '//' by chance).
  const nonce = randomBytes(16).toString('base64url');
  const settings = JSON.stringify({ assets, endpoint, workers: WORKERS }).replace(/</g, '\\u003c');
  res.setHeader(
    'Content-Security-Policy',
    [
      "default-src 'none'",
      `script-src 'self' 'nonce-${nonce}'`,
      // GraphiQL and Monaco add <style> elements and style attributes at run time.
      "style-src 'self' 'unsafe-inline'",
      "font-src 'self' data:",
      "img-src 'self' data:",
      "connect-src 'self'",
      "worker-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
  );
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.type('html').send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphQL playground</title>
<link rel="stylesheet" href="${assets}graphiql.css">
<style>
html, body { height: 100%; margin: 0; }
body { display: flex; flex-direction: column; }
#session { display: flex; align-items: center; gap: 0.5rem; padding: 0.4rem 1rem; font: 14px system-ui, sans-serif; border-bottom: 1px solid #d0d0d8; }
#session input { flex: 0 1 28rem; padding: 0.2rem 0.4rem; font: inherit; }
#session small { color: #666; }
#graphiql { flex: 1; min-height: 0; }
</style>
<script nonce="${nonce}">
(() => {
  const settings = ${settings};
  const key = 'graphql-playground:session-token';
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: (_module, label) => settings.assets + (settings.workers[label] || settings.workers.editorWorkerService),
  };
  // Every request GraphiQL makes (queries and introspection) carries the session token.
  async function fetcher(params, options) {
    const headers = { ...(options && options.headers) };
    const token = (localStorage.getItem(key) || '').trim();
    if (token) {
      for (const name of Object.keys(headers)) if (name.toLowerCase() === 'authorization') delete headers[name];
      headers.Authorization = /^(bearer|session)\\s/i.test(token) ? token : 'Bearer ' + token;
    }
    headers['Content-Type'] = 'application/json';
    const response = await fetch(settings.endpoint, { method: 'POST', headers, body: JSON.stringify(params) });
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch {
      return { errors: [{ message: response.status + ' ' + response.statusText + ': ' + text.slice(0, 500) }] };
    }
  }
  document.addEventListener('DOMContentLoaded', () => {
    document.getElementById('session').addEventListener('submit', (event) => event.preventDefault());
    const input = document.getElementById('session-token');
    input.value = localStorage.getItem(key) || '';
    input.addEventListener('input', () => {
      if (input.value.trim()) localStorage.setItem(key, input.value.trim());
      else localStorage.removeItem(key);
    });
    YogaGraphiQL.renderYogaGraphiQL(document.getElementById('graphiql'), { fetcher, title: 'GraphQL playground' });
  });
})();
</script>
<script src="${assets}yoga-graphiql.umd.js" defer></script>
</head>
<body>
<form id="session">
<label for="session-token">Session token</label>
<input id="session-token" type="password" autocomplete="off" spellcheck="false" placeholder="sent as Authorization: Bearer …">
<small>kept in this browser (localStorage), sent with every request</small>
</form>
<div id="graphiql"></div>
</body>
</html>
`);
}
