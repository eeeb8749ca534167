import { createHash } from 'node:crypto';
import { Readable, pipeline } from 'node:stream';
import { promisify } from 'node:util';
import { type InflateRaw, crc32, createInflateRaw, inflateRaw } from 'node:zlib';
import yauzl, { type Entry, type Options, type ZipFile } from 'yauzl';
import { PackageError, packageErrors } from './package.errors.js';
import { type ByteRange, type CheckedEntry, DEFLATED, STORED, checkEntry, hasOverlap } from './zip.entries.js';

const MiB = 1024 * 1024;
const inflateRawAsync = promisify(inflateRaw);

export interface ZipLimits {
  /** Largest member, in decompressed bytes (compat: 100 MiB). */
  maxEntrySize: number;
  /** All members together, in decompressed bytes. */
  maxTotalSize: number;
  /** Members, directories included. */
  maxEntries: number;
  /** Bytes of one member's name. */
  maxNameLength: number;
  /** Decompressed size over compressed size, checked once a member passes `compressionRatioFrom`. */
  maxCompressionRatio: number;
  compressionRatioFrom: number;
  /** Largest member `ZipInspection.read` returns (manifests, locale messages). */
  maxReadSize: number;
}

export const DEFAULT_ZIP_LIMITS: Readonly<ZipLimits> = {
  maxEntrySize: 100 * MiB,
  maxTotalSize: 250 * MiB,
  // Big language packs hold a few thousand files.
  maxEntries: 10_000,
  maxNameLength: 1024,
  // Code, fonts and images compress 2-10x; past 100x a megabyte is padding, i.e. a bomb.
  maxCompressionRatio: 100,
  compressionRatioFrom: MiB,
  maxReadSize: 4 * MiB,
};

export interface ZipFileInfo {
  name: string;
  /** Counted while decompressing, not taken from the headers. */
  size: number;
}

export interface ZipMember {
  name: string;
  data: Buffer;
}

/** An archive whose every member was decompressed and counted once; valid inside `inspectZip` only. */
export interface ZipInspection {
  /** Files (not directories), in archive order. */
  readonly files: readonly ZipFileInfo[];
  readonly totalSize: number;
  has(name: string): boolean;
  /** A file's bytes, or null if there is none; refused past `maxReadSize`. */
  read(name: string): Promise<Buffer | null>;
}

const OPEN_OPTIONS: Options = {
  lazyEntries: true,
  autoClose: false,
  // Names are decoded and checked in zip.entries.ts so that refusals carry the compat message.
  decodeStrings: false,
  // Checks stored entries' sizes up front; deflated ones are counted in `inflate`.
  validateEntrySizes: true,
  strictFileNames: true,
};

function ignore(): void {}

/**
 * The uploader's fault unless the system failed us (ENOENT, EMFILE…): those stay our errors.
 * yauzl and zlib report malformed input as plain errors.
 */
function asPackageError(error: unknown): unknown {
  if (error instanceof PackageError) return error;
  // Duck-typed: errors from node core may come from another realm (test runners, vm).
  if (typeof error === 'object' && error !== null && 'syscall' in error) return error;
  return packageErrors.invalidArchive();
}

async function guard<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    throw asPackageError(error);
  }
}

async function withZip<T>(path: string, use: (zip: ZipFile) => Promise<T>): Promise<T> {
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
      reject(asPackageError(error));
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
    if (!header.fileName.equals(entry.fileNameRaw)) throw packageErrors.invalidArchive();
    ranges.push({ start: entry.relativeOffsetOfLocalHeader, end: header.fileDataStart + entry.compressedSize });
    starts.set(member, header.fileDataStart);
  }
  if (hasOverlap(ranges)) throw packageErrors.invalidArchive();
  return starts;
}

/** Every metadata check, for all members, before a single byte is inflated. */
async function listMembers(zip: ZipFile, limits: ZipLimits): Promise<CheckedEntry[]> {
  return [...(await listMemberStarts(zip, limits)).keys()];
}

/** `listMembers`, with where each member's data starts in the archive. */
async function listMemberStarts(zip: ZipFile, limits: ZipLimits): Promise<Map<CheckedEntry, number>> {
  if (zip.entryCount > limits.maxEntries) throw packageErrors.tooManyFiles(limits.maxEntries);
  const members: CheckedEntry[] = [];
  const names = new Set<string>();
  for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
    const member = checkEntry(entry, limits);
    if (names.has(member.name)) throw packageErrors.duplicateFileName(member.name);
    names.add(member.name);
    members.push(member);
  }
  return checkLocalHeaders(zip, members);
}

interface Progress {
  /** Decompressed bytes so far. */
  size: number;
  /** Compressed bytes consumed so far. */
  compressed: number;
}

type ChunkHandler = (chunk: Buffer, progress: Progress) => void;

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
async function inflate(zip: ZipFile, member: CheckedEntry, onChunk: ChunkHandler): Promise<number> {
  const { entry } = member;
  const { raw, inflater } = await openMember(zip, entry);
  let size = 0;
  let checksum = 0;
  try {
    for await (const chunk of (inflater ?? raw) as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > entry.uncompressedSize) throw packageErrors.invalidArchive();
      checksum = crc32(chunk, checksum);
      onChunk(chunk, { size, compressed: inflater ? inflater.bytesWritten : size });
    }
  } catch (error) {
    throw asPackageError(error);
  } finally {
    inflater?.destroy();
    raw.destroy();
  }
  if (size !== entry.uncompressedSize || checksum !== entry.crc32) throw packageErrors.invalidArchive();
  return size;
}

/** Counts decompressed bytes as they arrive and refuses the archive as soon as a limit is crossed. */
class SizeMeter {
  total = 0;

  constructor(private readonly limits: ZipLimits) {}

  add(member: CheckedEntry, chunkLength: number, { size, compressed }: Progress): void {
    this.total += chunkLength;
    if (size > this.limits.maxEntrySize) throw packageErrors.fileTooLarge(member.name);
    if (this.total > this.limits.maxTotalSize) throw packageErrors.totalTooLarge();
    const { maxCompressionRatio, compressionRatioFrom } = this.limits;
    if (size > compressionRatioFrom && size > maxCompressionRatio * compressed) {
      throw packageErrors.compressionRatio(member.name);
    }
  }
}

function resolveLimits(limits: Partial<ZipLimits>): ZipLimits {
  return { ...DEFAULT_ZIP_LIMITS, ...limits };
}

function fileMembers(members: readonly CheckedEntry[]): CheckedEntry[] {
  return members.filter((member) => !member.isDirectory);
}

/** Every file's bytes, in archive order (directories are dropped). The limits bound memory. */
export async function readZip(path: string, limits: Partial<ZipLimits> = {}): Promise<ZipMember[]> {
  const resolved = resolveLimits(limits);
  return withZip(path, async (zip) => {
    const meter = new SizeMeter(resolved);
    const result: ZipMember[] = [];
    for (const member of fileMembers(await listMembers(zip, resolved))) {
      const chunks: Buffer[] = [];
      const size = await inflate(zip, member, (chunk, progress) => {
        meter.add(member, chunk.length, progress);
        chunks.push(chunk);
      });
      result.push({ name: member.name, data: Buffer.concat(chunks, size) });
    }
    return result;
  });
}

function readSmallFile(zip: ZipFile, member: CheckedEntry, maxReadSize: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return inflate(zip, member, (chunk, { size }) => {
    if (size > maxReadSize) throw packageErrors.fileTooLarge(member.name);
    chunks.push(chunk);
  }).then((size) => Buffer.concat(chunks, size));
}

/**
 * Decompresses every member once to learn real sizes (keeping nothing), then lets `use` read the
 * small files it needs. The archive is closed when `use` settles.
 */
export async function inspectZip<T>(
  path: string,
  use: (zip: ZipInspection) => Promise<T>,
  limits: Partial<ZipLimits> = {},
): Promise<T> {
  const resolved = resolveLimits(limits);
  return withZip(path, async (zip) => {
    const meter = new SizeMeter(resolved);
    const members = new Map<string, CheckedEntry>();
    const files: ZipFileInfo[] = [];
    for (const member of fileMembers(await listMembers(zip, resolved))) {
      const size = await inflate(zip, member, (chunk, progress) => meter.add(member, chunk.length, progress));
      members.set(member.name, member);
      files.push({ name: member.name, size });
    }
    return use({
      files,
      totalSize: meter.total,
      has: (name) => members.has(name),
      read: async (name) => {
        const member = members.get(name);
        return member ? readSmallFile(zip, member, resolved.maxReadSize) : null;
      },
    });
  });
}

export interface ZipDigest {
  name: string;
  /** Decompressed bytes, counted. */
  size: number;
  /** Hex sha256 of the decompressed bytes. */
  sha256: string;
  /** The first `headBytes` bytes, for type sniffing. */
  head: Buffer;
  /** Where the member's bytes are in this archive, to read it again alone (`inflateMember`). */
  location: MemberLocation;
}

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
 * Every file's size, sha256 and first bytes, streamed member by member under the limits (no
 * member is kept whole): what browsing a package's tree needs.
 */
export async function digestZip(
  path: string,
  headBytes: number,
  limits: Partial<ZipLimits> = {},
): Promise<ZipDigest[]> {
  const resolved = resolveLimits(limits);
  return withZip(path, async (zip) => {
    const meter = new SizeMeter(resolved);
    const result: ZipDigest[] = [];
    const starts = await listMemberStarts(zip, resolved);
    for (const member of fileMembers([...starts.keys()])) {
      const hash = createHash('sha256');
      const head: Buffer[] = [];
      let kept = 0;
      const size = await inflate(zip, member, (chunk, progress) => {
        meter.add(member, chunk.length, progress);
        hash.update(chunk);
        if (kept < headBytes) {
          const part = chunk.subarray(0, headBytes - kept);
          head.push(part);
          kept += part.length;
        }
      });
      const { entry } = member;
      const location = {
        start: starts.get(member)!,
        compressedSize: entry.compressedSize,
        method: entry.compressionMethod,
        size,
        crc32: entry.crc32,
      };
      result.push({ name: member.name, size, sha256: hash.digest('hex'), head: Buffer.concat(head, kept), location });
    }
    return result;
  });
}

/**
 * One file's bytes, or null if the archive has no such file. Every member's metadata is checked
 * first, as for the whole archive; the one member is inflated under the limits and refused past
 * `maxReadSize`.
 */
export async function readZipMember(
  path: string,
  name: string,
  limits: Partial<ZipLimits> = {},
): Promise<Buffer | null> {
  const resolved = resolveLimits(limits);
  return withZip(path, async (zip) => {
    const member = fileMembers(await listMembers(zip, resolved)).find((m) => m.name === name);
    if (!member) return null;
    const meter = new SizeMeter(resolved);
    const chunks: Buffer[] = [];
    const size = await inflate(zip, member, (chunk, progress) => {
      meter.add(member, chunk.length, progress);
      if (progress.size > resolved.maxReadSize) throw packageErrors.fileTooLarge(member.name);
      chunks.push(chunk);
    });
    return Buffer.concat(chunks, size);
  });
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
  if (location.size > maxReadSize) throw packageErrors.fileTooLarge(name);
  if (compressed.length !== location.compressedSize) throw packageErrors.invalidArchive();
  let bytes: Buffer;
  if (location.method === DEFLATED) {
    try {
      // One byte over the recorded size is enough to tell a member that grew.
      bytes = await inflateRawAsync(compressed, { maxOutputLength: location.size + 1 });
    } catch {
      throw packageErrors.invalidArchive();
    }
  } else if (location.method === STORED) {
    bytes = compressed;
  } else {
    throw packageErrors.invalidArchive();
  }
  if (bytes.length !== location.size || crc32(bytes) !== location.crc32) throw packageErrors.invalidArchive();
  return bytes;
}

/**
 * `inflateMember` as a stream: the member's compressed bytes (`source`, `location.compressedSize`
 * long) inflated chunk by chunk, so that memory does not grow with the member. The size and CRC-32
 * are counted as the bytes pass and checked at the end: a member that grows past its recorded
 * size fails at that byte, one that ends short or with another checksum fails before its last
 * chunk (the stream errors with `PackageError`; a consumer that already sent bytes can only cut
 * its answer, which then never has its full length).
 */
export function inflateMemberStream(source: Readable, location: MemberLocation): Readable {
  async function* inflated(): AsyncGenerator<Buffer> {
    if (location.method !== DEFLATED && location.method !== STORED) throw packageErrors.invalidArchive();
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
        if (size > location.size) throw packageErrors.invalidArchive();
        checksum = crc32(chunk, checksum);
        if (held) yield held;
        held = chunk;
      }
    } catch (error) {
      throw asPackageError(error);
    } finally {
      inflater?.destroy();
      source.destroy();
    }
    if (size !== location.size || checksum !== location.crc32) throw packageErrors.invalidArchive();
    if (held) yield held;
  }
  return Readable.from(inflated(), { objectMode: false });
}
