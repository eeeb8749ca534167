import { Readable } from 'node:stream';

/**
 * Where media and add-on files live. The default keeps them under DATA_DIR; an object-store
 * adapter implements the same calls. Keys are relative paths like `previews/full/12/12345.png`.
 */
export interface Storage {
  put(key: string, data: Buffer): Promise<void>;
  /** Moves a local file (e.g. a finished upload) under `key`. */
  putFile(key: string, path: string): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  /** A stream of the bytes and their size, or null. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  /**
   * The size of the stored bytes, or null when there is no such key: metadata only (a stat, an S3
   * HEAD), nothing is read (a HEAD request's answer).
   */
  size(key: string): Promise<number | null>;
  /**
   * A local path holding the bytes, for tools that read files (the validator, the zip reader);
   * `release` removes it when it is a temporary copy.
   */
  localFile(key: string): Promise<{ path: string; release(): Promise<void> } | null>;
  /**
   * `length` bytes from offset `start` (fewer where the object ends first), without reading the
   * rest (a member of a stored package); null when there is no such key.
   */
  readRange(key: string, start: number, length: number): Promise<Buffer | null>;
  /**
   * The same bytes as `readRange`, as a stream (a member too large to hold in memory): null when
   * there is no such key.
   */
  openRange(key: string, start: number, length: number): Promise<Readable | null>;
  delete(key: string): Promise<void>;
  /** The public URL of a key, under the service's base URL. */
  url(baseUrl: string, key: string): string;
}

export function assertSafeKey(key: string): void {
  if (!/^[a-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Unsafe storage key: ${key}`);
  }
}

/** A byte range a caller may ask for: whole, non-negative numbers (offsets past the end read nothing). */
export function assertRange(start: number, length: number): void {
  if (!Number.isSafeInteger(start) || start < 0 || !Number.isSafeInteger(length) || length < 0) {
    throw new RangeError(`Invalid byte range: ${start}+${length}`);
  }
}

/**
 * `length` bytes of `source` from offset `skip` (for a store that answered a ranged read with the
 * whole object), chunk by chunk; the rest of the source is not read.
 */
export function sliceStream(source: Readable, skip: number, length: number): Readable {
  async function* slice() {
    let position = 0;
    const end = skip + length;
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        const from = Math.max(skip - position, 0);
        const to = Math.min(end - position, chunk.length);
        position += chunk.length;
        if (to > from) yield chunk.subarray(from, to);
        if (position >= end) break;
      }
    } finally {
      source.destroy();
    }
  }
  return Readable.from(slice(), { objectMode: false });
}
