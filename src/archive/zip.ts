import { createHash } from 'node:crypto';
import type { ZipFile } from 'yauzl';
import { archiveErrors } from './archive.errors.js';
import { fileMembers, inflate, listMemberStarts, listMembers, withZip } from './zip.archive.js';
import type { CheckedEntry } from './zip.entries.js';
import { SizeMeter, resolveLimits, type ZipLimits } from './zip.limits.js';
import type { MemberLocation } from './zip.location.js';

export { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip.limits.js';
export { inflateMember, inflateMemberStream, type MemberLocation } from './zip.location.js';

/*
 * Reading a zip archive (an uploaded package): the whole archive (readZip), its sizes and small
 * files (inspectZip), every file's digest (digestZip) or one file (readZipMember), each under the
 * limits (zip.limits.ts) through the archive reader (zip.archive.ts); a member read again from
 * where its bytes are is in zip.location.ts. Refusals are `ArchiveError`s (archive.errors.ts).
 */

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
    if (size > maxReadSize) throw archiveErrors.fileTooLarge(member.name);
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
      if (progress.size > resolved.maxReadSize) throw archiveErrors.fileTooLarge(member.name);
      chunks.push(chunk);
    });
    return Buffer.concat(chunks, size);
  });
}
