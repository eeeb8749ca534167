import yauzl, { type Entry } from 'yauzl';
import { archiveErrors } from './archive.errors.js';

/** A central-directory entry that passed every metadata check. */
export interface CheckedEntry {
  entry: Entry;
  name: string;
  isDirectory: boolean;
}

export interface EntryLimits {
  maxEntrySize: number;
  maxNameLength: number;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

export const STORED = 0;
export const DEFLATED = 8;

/** Decoded the way yauzl would, but keeping backslashes so that they can be refused. */
function decodeEntryName(entry: Entry): string {
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
}

function hasControlCharacter(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Relative, forward-slash paths only: no `..`, `.` or empty segments (which would let two
 * names address one file), no absolute or drive paths, no backslashes, NUL or other controls.
 */
export function isSafeEntryName(name: string): boolean {
  if (!name || name.startsWith('/') || /^[a-z]:/i.test(name)) return false;
  if (name.includes('\\') || hasControlCharacter(name)) return false;
  const path = name.endsWith('/') ? name.slice(0, -1) : name;
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** The unix file type from the external attributes (0 when the archiver recorded none). */
function unixFileType(entry: Entry): number {
  return (entry.externalFileAttributes >>> 16) & S_IFMT;
}

function checkFileType(entry: Entry, name: string): void {
  const type = unixFileType(entry);
  if (type === S_IFLNK) throw archiveErrors.symlink(name);
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) throw archiveErrors.specialFile(name);
}

function checkEncoding(entry: Entry, name: string): void {
  if (entry.isEncrypted()) throw archiveErrors.encryptedFile(name);
  if (entry.compressionMethod !== STORED && entry.compressionMethod !== DEFLATED) {
    throw archiveErrors.unsupportedCompression(name);
  }
}

/**
 * Everything that can be refused from the central directory alone, before any data is read.
 * Refusing a declared size over the limit is only a shortcut: real sizes are counted on inflation.
 */
export function checkEntry(entry: Entry, limits: EntryLimits): CheckedEntry {
  const name = decodeEntryName(entry);
  if (entry.fileNameLength > limits.maxNameLength || !isSafeEntryName(name)) {
    throw archiveErrors.invalidFileName(name);
  }
  checkFileType(entry, name);
  checkEncoding(entry, name);
  const isDirectory = name.endsWith('/');
  if (isDirectory && entry.uncompressedSize !== 0) throw archiveErrors.invalidFileName(name);
  if (entry.uncompressedSize > limits.maxEntrySize) throw archiveErrors.fileTooLarge(name);
  return { entry, name, isDirectory };
}

/** Byte range of one member in the archive: local header through the end of its data. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Members sharing bytes are how non-recursive zip bombs multiply one compressed kernel; no
 * archiver writes them.
 */
export function hasOverlap(ranges: readonly ByteRange[]): boolean {
  const sorted = [...ranges].sort((left, right) => left.start - right.start);
  return sorted.some((range, i) => i > 0 && range.start < sorted[i - 1].end);
}
