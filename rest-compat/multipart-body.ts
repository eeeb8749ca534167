import { join } from 'node:path';
import type { Request, Response } from 'express';
import type { Viewer } from '../src/auth/viewer.js';
import { errors } from '../src/core/errors.js';
import { readMultipart } from '../src/core/multipart.js';
import type { Services } from '../src/modules.js';
import type { EngineRoute } from './route-table.js';

/** Multipart text fields: a route reads a handful of short ones (channel, version, profile texts). */
const FORM_FIELDS = 50;
const FORM_FIELD_BYTES = 256 * 1024;
/** File parts per upload request. */
const UPLOAD_FILES = 5;

export type MultipartReader = (req: Request, res: Response, route: EngineRoute, viewer: Viewer) => Promise<unknown>;

/**
 * Reads a multipart body after authentication, so that an unknown caller's upload never touches
 * the disk. Upload routes take files from signed-in callers only, within the caller's concurrent
 * upload slots (waiting for one); other routes take short text fields only. Spooled files and the
 * slot are given back when the response ends.
 */
export function multipartReader(services: Pick<Services, 'config' | 'uploadSlots'>): MultipartReader {
  const { config } = services;
  const tmpDir = join(config.dataDir, 'tmp');
  return async (req, res, route, viewer) => {
    let release = () => {};
    if (route.uploads) {
      if (viewer.userId === null) throw errors.notAuthenticated();
      // Waits for a slot while the account's are taken (given back when the response closes).
      release = await services.uploadSlots.acquireFor(viewer.userId, res);
    }
    try {
      const { body, cleanup } = await readMultipart(req, tmpDir, {
        files: route.uploads ? UPLOAD_FILES : 0,
        fileBytes: config.MAX_UPLOAD_MB * 1024 * 1024,
        fields: FORM_FIELDS,
        fieldBytes: FORM_FIELD_BYTES,
      });
      res.once('close', () => {
        release();
        void cleanup();
      });
      return body;
    } catch (error) {
      release();
      throw error;
    }
  };
}
