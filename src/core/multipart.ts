import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import Upload from 'graphql-upload/Upload.mjs';
import type { FileUpload as UploadedFile } from 'graphql-upload/processRequest.mjs';
import { asAppError, errors, type AppError } from './errors.js';
import { guardClientStream, interrupted, spoolToFile, tooLarge } from './spool.js';

export interface MultipartLimits {
  /** Largest file part. */
  fileBytes: number;
  /** File parts accepted (0: a file part is refused). */
  files: number;
  fields: number;
  /** Largest text field. */
  fieldBytes: number;
}

export interface MultipartBody {
  /** Text fields as strings, file parts as graphql-upload `Upload`s (first value of a name wins). */
  body: Record<string, unknown>;
  /** Removes the spooled files; call when the response is done. */
  cleanup(): Promise<void>;
}

export const isMultipart = (req: IncomingMessage) =>
  /^multipart\/form-data\b/i.test(req.headers['content-type']?.slice(0, 64) ?? '');

const parseError = (reason: string) => errors.badRequest(`Multipart form parse error - ${reason}`);

/**
 * Reads a `multipart/form-data` body: text fields become strings, file parts are spooled to
 * temporary files and handed on as graphql-upload `Upload`s, so a route passes them to its
 * GraphQL document like any other variable. The REST engine calls this only for routes that take
 * it, after authentication. Every failure is a 400 (AppError): a body that ends inside a part, too
 * many parts, an oversized field; a file over its limit becomes a rejected Upload, which the
 * mutation that awaits it turns into its own 400. No stream's error is ever left unhandled.
 */
export function readMultipart(req: IncomingMessage, tmpDir: string, limits: MultipartLimits): Promise<MultipartBody> {
  const temporary: string[] = [];
  const cleanup = async () => void (await Promise.all(temporary.map((path) => rm(path, { force: true }))));
  return new Promise<MultipartBody>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          files: limits.files,
          fields: limits.fields,
          fieldSize: limits.fieldBytes,
          // Past it busboy cuts the file and drains the rest of the part itself.
          fileSize: limits.fileBytes,
          parts: limits.files + limits.fields,
          fieldNameSize: 200,
          headerPairs: 20,
        },
      });
    } catch {
      reject(parseError('Invalid boundary in multipart: None'));
      return;
    }
    const body: Record<string, unknown> = {};
    const pending: Promise<void>[] = [];
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      void cleanup();
      reject(error);
    };
    req.once('error', () => fail(parseError('the request was interrupted.')));

    // A throw inside a parser event escapes into the request stream and kills the process: any
    // slip in these handlers is the request's 400 instead.
    const guarded =
      <A extends unknown[]>(handler: (...args: A) => void) =>
      (...args: A) => {
        try {
          handler(...args);
        } catch {
          fail(parseError('malformed body.'));
        }
      };
    // busboy gives `undefined` for a part named "": such parts name nothing a route reads.
    parser.on(
      'field',
      guarded((name: string | undefined, value: string, info: busboy.FieldInfo) => {
        if (info.valueTruncated) return fail(parseError(`the field "${(name ?? '').slice(0, 100)}" is too long.`));
        if (name && !(name in body)) body[name] = value;
      }),
    );
    parser.on(
      'file',
      guarded((name: string | undefined, stream: Readable, info: busboy.FileInfo) => {
        guardClientStream(stream);
        if (failed || !name) return void stream.resume();
        const upload = new Upload();
        // graphql-upload's Upload rejects into a promise nobody may await (a field the route ignores).
        upload.promise.catch(() => {});
        if (!(name in body)) body[name] = upload;
        let cut = false;
        stream.once('limit', () => (cut = true));
        pending.push(
          spoolToFile(stream, tmpDir, limits.fileBytes + 1).then(
            ({ path }) => {
              temporary.push(path);
              if (cut) return upload.reject(tooLarge(limits.fileBytes));
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
      }),
    );
    parser.on('filesLimit', () =>
      fail(parseError(limits.files ? `at most ${limits.files} files are accepted.` : 'files are not accepted here.')),
    );
    parser.on('fieldsLimit', () => fail(parseError(`at most ${limits.fields} fields are accepted.`)));
    parser.on('partsLimit', () => fail(parseError('too many parts.')));
    parser.once('error', (error: Error) =>
      fail(parseError(/unexpected end/i.test(error.message) ? 'the body ended inside a part.' : 'malformed body.')),
    );
    parser.once('close', () => {
      void Promise.all(pending).then(() => {
        if (failed) return;
        resolve({ body, cleanup });
      });
    });
    req.pipe(parser);
  });
}

/** graphql-upload's own refusals (a missing file, a part over its limit, a malformed map): http-errors. */
export function uploadRefusal(error: unknown): AppError | null {
  const { status, expose, message } = (error ?? {}) as { status?: number; expose?: boolean; message?: string };
  return status && status >= 400 && status < 500 && expose && message ? errors.badRequest(message) : null;
}

/** An error of graphql-upload or of a client stream, as the client's 400. */
function uploadError(error: unknown): AppError {
  return asAppError(error) ?? uploadRefusal(error) ?? interrupted();
}

/**
 * Awaits an uploaded file (a graphql-upload Upload). One whose body broke before or while the
 * file arrived (truncated, disconnected, malformed, missing) is the client's BAD_REQUEST (REST:
 * 400), never a 500: also when `createReadStream` finds the file failed.
 */
export async function receiveUpload<T extends UploadedFile>(upload: Promise<T>): Promise<T>;
export async function receiveUpload<T extends UploadedFile>(upload: Promise<T> | null | undefined): Promise<T | null>;
export async function receiveUpload<T extends UploadedFile>(upload: Promise<T> | null | undefined): Promise<T | null> {
  if (!upload) return null;
  let file: T;
  try {
    file = await upload;
  } catch (error) {
    throw uploadError(error);
  }
  return {
    ...file,
    createReadStream: (...args: Parameters<T['createReadStream']>) => {
      try {
        return guardClientStream(file.createReadStream(...args));
      } catch (error) {
        throw uploadError(error);
      }
    },
  };
}
