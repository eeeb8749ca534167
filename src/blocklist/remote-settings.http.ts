import { Router, type Request, type Response } from 'express';
import { baseUrlOf, sendJson } from '../core/http.js';
import type { Database } from '../db/database.js';
import type { BlocklistPublisher } from './blocklist.publisher.js';

export const BLOCKLIST_BUCKET = 'blocklists';
export const BLOCKLIST_COLLECTION = 'addons-bloomfilters';

/** Kinto's error body (what Remote Settings clients parse). */
function notFound(res: Response, message = 'The resource you are looking for could not be found.'): void {
  sendJson(res, 404, { code: 404, errno: 111, error: 'Not Found', message });
}

/**
 * The published blocklist over the read side of the Remote Settings protocol (Kinto's v1 API), as
 * browsers fetch it: the server's capabilities (where attachments are), the collection's records
 * and changeset, the monitor of changes, and the attachments. Read-only and public; only the
 * blocklist's collection exists here. Collection signatures (which a browser verifies against its
 * vendor's key) are not produced: a browser reading this service must be configured for it.
 */
export function remoteSettingsRouter(publisher: BlocklistPublisher, db: Database, siteUrl: string | undefined): Router {
  const router = Router();
  const records = () => publisher.records(db.fork());
  const timestampOf = (list: Record<string, unknown>[]) =>
    list.reduce((max, record) => Math.max(max, Number(record.last_modified)), 0);
  const isBlocklist = (req: Request) =>
    req.params.bucket === BLOCKLIST_BUCKET && req.params.collection === BLOCKLIST_COLLECTION;

  router.get('/', (req, res) => {
    const base = baseUrlOf(req, siteUrl);
    sendJson(res, 200, {
      project_name: 'Remote Settings (blocklist)',
      url: `${base}/v1/`,
      capabilities: { attachments: { base_url: `${base}/v1/attachments/`, bundle: false } },
    });
  });

  // Before the collection routes: `monitor`/`changes` would match them.
  router.get('/buckets/monitor/collections/changes/changeset', async (req, res) => {
    const timestamp = timestampOf(await records());
    const changes = timestamp
      ? [
          {
            id: `${BLOCKLIST_BUCKET}/${BLOCKLIST_COLLECTION}`,
            bucket: BLOCKLIST_BUCKET,
            collection: BLOCKLIST_COLLECTION,
            last_modified: timestamp,
          },
        ]
      : [];
    sendJson(res, 200, { metadata: {}, changes, timestamp });
  });

  router.get('/buckets/:bucket/collections/:collection/records', async (req, res) => {
    if (!isBlocklist(req)) return notFound(res);
    const list = await records();
    res.setHeader('ETag', `"${timestampOf(list)}"`);
    sendJson(res, 200, { data: list });
  });

  router.get('/buckets/:bucket/collections/:collection/changeset', async (req, res) => {
    if (!isBlocklist(req)) return notFound(res);
    const list = await records();
    const timestamp = timestampOf(list);
    sendJson(res, 200, {
      metadata: { id: BLOCKLIST_COLLECTION, bucket: BLOCKLIST_BUCKET, last_modified: timestamp },
      changes: [...list].reverse(),
      timestamp,
    });
  });

  router.get('/attachments/*location', async (req, res) => {
    const parts = (req.params as { location?: string | string[] }).location;
    const location = Array.isArray(parts) ? parts.join('/') : String(parts ?? '');
    const bytes = location.length <= 255 ? await publisher.attachment(db.fork(), location) : null;
    if (!bytes) return notFound(res);
    res.status(200);
    res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('Content-Length', String(bytes.length));
    res.setHeader('Cache-Control', 'public, max-age=86400, immutable');
    res.end(bytes);
  });

  router.use((_req, res) => notFound(res));
  return router;
}
