import type { RequestHandler } from 'express';
import { sendBytes, sendJson } from '../core/http.js';
import type { Storage } from './storage.port.js';

const MEDIA_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** `/user-media/<key>` when media live in an object store (STORAGE=s3): streamed through the service. */
export function mediaFromStorage(storage: Storage): RequestHandler {
  return async (req, res) => {
    const parts = (req.params as { key?: string | string[] }).key;
    const key = Array.isArray(parts) ? parts.join('/') : String(parts ?? '');
    let media: Awaited<ReturnType<Storage['open']>> | number = null;
    try {
      media = req.method === 'HEAD' ? await storage.size(key) : await storage.open(key);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('Unsafe storage key'))) throw error;
    }
    if (media === null) return sendJson(res, 404, { detail: 'Not found.' });
    res.status(200);
    res.setHeader('Content-Type', MEDIA_TYPES[key.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream');
    res.setHeader('Cache-Control', 'public, max-age=3600');
    sendBytes(res, media);
  };
}
