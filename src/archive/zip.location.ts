import { Readable, pipeline } from 'node:stream';
import { promisify } from 'node:util';
import { crc32, createInflateRaw, inflateRaw } from 'node:zlib';
import { archiveErrors } from './archive.errors.js';
import { asArchiveError, ignore } from './zip.archive.js';
import { DEFLATED, STORED } from './zip.entries.js';
import { resolveLimits, type ZipLimits } from './zip.limits.js';

const inflateRawAsync = promisify(inflateRaw);

/**
 * A member's compressed bytes in one archive (found and checked by a full read of its metadata),
 * and what they must inflate to. Valid for those archive bytes only: keep it by the archive's hash.
 */
export interface MemberLocation {
  /** Offset of the first data byte (after the local header). */
  start: number;
  compressedSize: number;
  /** 0 stored, 8 deflated. */
  method: number;
  size: number;
  crc32: number;
}

/**
 * A member's bytes from its compressed bytes alone (read at `location.start`, `compressedSize`
 * long): refused past `maxReadSize` before inflating, and unless they inflate to exactly the
 * recorded size and CRC-32 (stored bytes that changed since the location was taken).
 */
export async function inflateMember(
  name: string,
  compressed: Buffer,
  location: MemberLocation,
  limits: Partial<ZipLimits> = {},
): Promise<Buffer> {
  const { maxReadSize } = resolveLimits(limits);
  if (location.size > maxReadSize) throw archiveErrors.fileTooLarge(name);
  if (compressed.length !== location.compressedSize) throw archiveErrors.invalidArchive();
  let bytes: Buffer;
  if (location.method === DEFLATED) {
    try {
      // One byte over the recorded size is enough to tell a member that grew.
      bytes = await inflateRawAsync(compressed, { maxOutputLength: location.size + 1 });
    } catch {
      throw archiveErrors.invalidArchive();
    }
  } else if (location.method === STORED) {
    bytes = compressed;
  } else {
    throw archiveErrors.invalidArchive();
  }
  if (bytes.length !== location.size || crc32(bytes) !== location.crc32) throw archiveErrors.invalidArchive();
  return bytes;
}

/**
 * `inflateMember` as a stream: the member's compressed bytes (`source`, `location.compressedSize`
 * long) inflated chunk by chunk, so that memory does not grow with the member. The size and CRC-32
 * are counted as the bytes pass and checked at the end: a member that grows past its recorded
 * size fails at that byte, one that ends short or with another checksum fails before its last
 * chunk (the stream errors with `ArchiveError`; a consumer that already sent bytes can only cut
 * its answer, which then never has its full length).
 */
export function inflateMemberStream(source: Readable, location: MemberLocation): Readable {
  async function* inflated(): AsyncGenerator<Buffer> {
    if (location.method !== DEFLATED && location.method !== STORED) throw archiveErrors.invalidArchive();
    const inflater = location.method === DEFLATED ? createInflateRaw() : null;
    if (inflater) pipeline(source, inflater, ignore);
    let size = 0;
    let checksum = 0;
    // Each chunk is passed on once the next one came, the last only once the member checked out:
    // a member that fails never reaches its full length downstream (a client sees a cut answer).
    let held: Buffer | null = null;
    try {
      for await (const chunk of (inflater ?? source) as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > location.size) throw archiveErrors.invalidArchive();
        checksum = crc32(chunk, checksum);
        if (held) yield held;
        held = chunk;
      }
    } catch (error) {
      throw asArchiveError(error);
    } finally {
      inflater?.destroy();
      source.destroy();
    }
    if (size !== location.size || checksum !== location.crc32) throw archiveErrors.invalidArchive();
    if (held) yield held;
  }
  return Readable.from(inflated(), { objectMode: false });
}
