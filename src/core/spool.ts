import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { asAppError, errors } from './errors.js';

export interface SpooledFile {
  path: string;
  size: number;
}

/** A client's stream that ended early or broke (truncated multipart body, dropped connection). */
export const interrupted = () => errors.badRequest('The upload was interrupted before the file was complete.');

/**
 * Holds a client stream's first error until someone reads it. A stream read from a client can
 * fail at any moment (a body that ends inside a file part), also before its consumer attaches: an
 * `error` event with no listener kills the process. Call this as soon as the stream exists.
 */
export function guardClientStream(source: Readable): Readable {
  if (!source.listenerCount('error')) source.on('error', () => {});
  return source;
}

/**
 * Writes a client stream to a new temporary file under `dir`, refusing (and removing) anything
 * over `maxBytes`. A broken source is the client's fault (400); a failing disk is not.
 */
export async function spoolToFile(source: Readable, dir: string, maxBytes: number): Promise<SpooledFile> {
  guardClientStream(source);
  let sourceFailed = false;
  source.once('error', () => (sourceFailed = true));
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${randomUUID()}.part`);
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) done(tooLarge(maxBytes));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(source, counter, createWriteStream(path, { mode: 0o600 }));
    return { path, size };
  } catch (error) {
    source.destroy();
    await rm(path, { force: true });
    if (asAppError(error)) throw error;
    if (sourceFailed || source.errored) throw interrupted();
    throw error;
  }
}

/**
 * Reads a client stream into memory, up to `maxBytes`. Past the limit it stops reading and
 * returns what it has with `size > maxBytes` (the first chunk is kept, so a caller can still
 * sniff the type of an oversized file).
 */
export async function readClientStream(source: Readable, maxBytes: number): Promise<{ data: Buffer; size: number }> {
  guardClientStream(source);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of source) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size <= maxBytes) {
        chunks.push(buffer);
        continue;
      }
      if (chunks.length === 0) chunks.push(buffer.subarray(0, 64 * 1024));
      break;
    }
  } catch (error) {
    if (asAppError(error)) throw error;
    throw interrupted();
  }
  return { data: Buffer.concat(chunks), size };
}

export const tooLarge = (maxBytes: number) =>
  errors.badRequest(`The file is too large: the limit is ${Math.floor(maxBytes / (1024 * 1024))} MB.`);
