import { type Readable, pipeline } from 'node:stream';
import { type InflateRaw, crc32, createInflateRaw } from 'node:zlib';
import yauzl, { type Entry, type Options, type ZipFile } from 'yauzl';
import { ArchiveError, archiveErrors } from './archive.errors.js';
import { type ByteRange, type CheckedEntry, DEFLATED, checkEntry, hasOverlap } from './zip.entries.js';
import type { Progress, ZipLimits } from './zip.limits.js';

/**
 * An archive opened by yauzl and read member by member: every member's metadata checked before a
 * byte is inflated, then each member streamed through a handler while its size and CRC-32 are
 * counted. The reads built on it are in zip.ts.
 */

const OPEN_OPTIONS: Options = {
  lazyEntries: true,
  autoClose: false,
  // Names are decoded and checked in zip.entries.ts so that refusals carry the compat message.
  decodeStrings: false,
  // Checks stored entries' sizes up front; deflated ones are counted in `inflate`.
  validateEntrySizes: true,
  strictFileNames: true,
};

export function ignore(): void {}

/**
 * The uploader's fault unless the system failed us (ENOENT, EMFILE…): those stay our errors.
 * yauzl and zlib report malformed input as plain errors.
 */
export function asArchiveError(error: unknown): unknown {
  if (error instanceof ArchiveError) return error;
  // Duck-typed: errors from node core may come from another realm (test runners, vm).
  if (typeof error === 'object' && error !== null && 'syscall' in error) return error;
  return archiveErrors.invalidArchive();
}

async function guard<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    throw asArchiveError(error);
  }
}

export async function withZip<T>(path: string, use: (zip: ZipFile) => Promise<T>): Promise<T> {
  const zip = await guard(yauzl.openPromise(path, OPEN_OPTIONS));
  // A failure to close the fd is reported after we stopped listening; it must not crash the process.
  zip.on('error', ignore);
  try {
    return await use(zip);
  } finally {
    zip.close();
  }
}

function nextEntry(zip: ZipFile): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    const detach = (): void => {
      zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
    };
    const onEntry = (entry: Entry): void => {
      detach();
      resolve(entry);
    };
    const onEnd = (): void => {
      detach();
      resolve(null);
    };
    const onError = (error: Error): void => {
      detach();
      reject(asArchiveError(error));
    };
    zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
    zip.readEntry();
  });
}

/**
 * Local headers must repeat the central name, and no two members may share bytes; returns where
 * each member's data starts.
 */
async function checkLocalHeaders(zip: ZipFile, members: readonly CheckedEntry[]): Promise<Map<CheckedEntry, number>> {
  const ranges: ByteRange[] = [];
  const starts = new Map<CheckedEntry, number>();
  for (const member of members) {
    const { entry } = member;
    const header = await guard(zip.readLocalFileHeaderPromise(entry));
    if (!header.fileName.equals(entry.fileNameRaw)) throw archiveErrors.invalidArchive();
    ranges.push({ start: entry.relativeOffsetOfLocalHeader, end: header.fileDataStart + entry.compressedSize });
    starts.set(member, header.fileDataStart);
  }
  if (hasOverlap(ranges)) throw archiveErrors.invalidArchive();
  return starts;
}

/** Every metadata check, for all members, before a single byte is inflated. */
export async function listMembers(zip: ZipFile, limits: ZipLimits): Promise<CheckedEntry[]> {
  return [...(await listMemberStarts(zip, limits)).keys()];
}

/** `listMembers`, with where each member's data starts in the archive. */
export async function listMemberStarts(zip: ZipFile, limits: ZipLimits): Promise<Map<CheckedEntry, number>> {
  if (zip.entryCount > limits.maxEntries) throw archiveErrors.tooManyFiles(limits.maxEntries);
  const members: CheckedEntry[] = [];
  const names = new Set<string>();
  for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
    const member = checkEntry(entry, limits);
    if (names.has(member.name)) throw archiveErrors.duplicateFileName(member.name);
    names.add(member.name);
    members.push(member);
  }
  return checkLocalHeaders(zip, members);
}

export type ChunkHandler = (chunk: Buffer, progress: Progress) => void;

interface MemberStreams {
  raw: Readable;
  inflater: InflateRaw | null;
}

/**
 * Raw member bytes, inflated here rather than by yauzl: its streams' `destroy()` leaves the
 * inflater running, and only our own inflater tells how much compressed input was consumed.
 */
async function openMember(zip: ZipFile, entry: Entry): Promise<MemberStreams> {
  const raw: Readable = await guard(zip.openReadStreamPromise(entry, { decodeFileData: false }));
  if (entry.compressionMethod !== DEFLATED) return { raw, inflater: null };
  const inflater = createInflateRaw();
  pipeline(raw, inflater, ignore);
  return { raw, inflater };
}

/**
 * Streams one member through `onChunk`, which throws to stop at once. Sizes are counted, never
 * trusted: a member holding more than it declares is refused at that byte. Both streams are
 * destroyed on every path so that the file descriptor is released.
 */
export async function inflate(zip: ZipFile, member: CheckedEntry, onChunk: ChunkHandler): Promise<number> {
  const { entry } = member;
  const { raw, inflater } = await openMember(zip, entry);
  let size = 0;
  let checksum = 0;
  try {
    for await (const chunk of (inflater ?? raw) as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > entry.uncompressedSize) throw archiveErrors.invalidArchive();
      checksum = crc32(chunk, checksum);
      onChunk(chunk, { size, compressed: inflater ? inflater.bytesWritten : size });
    }
  } catch (error) {
    throw asArchiveError(error);
  } finally {
    inflater?.destroy();
    raw.destroy();
  }
  if (size !== entry.uncompressedSize || checksum !== entry.crc32) throw archiveErrors.invalidArchive();
  return size;
}

export function fileMembers(members: readonly CheckedEntry[]): CheckedEntry[] {
  return members.filter((member) => !member.isDirectory);
}
