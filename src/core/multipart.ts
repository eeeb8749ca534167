import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import busboy from 'busboy';
import type { RequestHandler } from 'express';
import Upload from 'graphql-upload/Upload.mjs';
import { spoolToFile } from './spool.js';

export interface MultipartLimits {
  /** Largest file part. */
  fileBytes: number;
  files: number;
  fields: number;
  fieldBytes: number;
}

/**
 * `multipart/form-data` bodies for the REST API: text fields become strings, file parts are
 * spooled to temporary files (removed when the response ends) and handed on as graphql-upload
 * `Upload`s, so a route passes them to its GraphQL document like any other variable. A file over
 * the limit becomes a rejected Upload: the mutation that awaits it fails with a 400.
 */
export function multipartBody(tmpDir: string, limits: MultipartLimits): RequestHandler {
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) return next();
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: limits.files, fields: limits.fields, fieldSize: limits.fieldBytes },
      });
    } catch {
      return next(
        Object.assign(new Error('Multipart form parse error - Invalid boundary in multipart: None'), {
          status: 400,
          expose: true,
        }),
      );
    }
    const body: Record<string, unknown> = {};
    const temporary: string[] = [];
    const pending: Promise<void>[] = [];
    const cleanup = () => void Promise.all(temporary.map((path) => rm(path, { force: true })));
    res.once('close', cleanup);

    parser.on('field', (name, value) => {
      if (!(name in body)) body[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const upload = new Upload();
      if (!(name in body)) body[name] = upload;
      pending.push(
        spoolToFile(stream, tmpDir, limits.fileBytes).then(
          ({ path }) => {
            temporary.push(path);
            upload.resolve({
              filename: info.filename ?? name,
              mimetype: info.mimeType,
              encoding: info.encoding,
              createReadStream: () => createReadStream(path),
            });
          },
          (error: unknown) => {
            stream.resume();
            upload.reject(error);
          },
        ),
      );
    });
    parser.once('error', () => {
      req.unpipe(parser);
      next(Object.assign(new Error('Multipart form parse error.'), { status: 400, expose: true }));
    });
    parser.once('close', () => {
      void Promise.all(pending).then(() => {
        req.body = body;
        next();
      });
    });
    req.pipe(parser);
  };
}
