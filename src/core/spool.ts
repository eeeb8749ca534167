import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { errors } from './errors.js';

export interface SpooledFile {
  path: string;
  size: number;
}

/** Writes a stream to a new temporary file under `dir`, refusing (and removing) anything over `maxBytes`. */
export async function spoolToFile(source: Readable, dir: string, maxBytes: number): Promise<SpooledFile> {
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
    throw error;
  }
}

export const tooLarge = (maxBytes: number) =>
  errors.badRequest(`The file is too large: the limit is ${Math.floor(maxBytes / (1024 * 1024))} MB.`);
