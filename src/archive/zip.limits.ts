import { archiveErrors } from './archive.errors.js';
import type { CheckedEntry } from './zip.entries.js';

const MiB = 1024 * 1024;

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

export function resolveLimits(limits: Partial<ZipLimits>): ZipLimits {
  return { ...DEFAULT_ZIP_LIMITS, ...limits };
}

/** How far one member's inflation has gone. */
export interface Progress {
  /** Decompressed bytes so far. */
  size: number;
  /** Compressed bytes consumed so far. */
  compressed: number;
}

/** Counts decompressed bytes as they arrive and refuses the archive as soon as a limit is crossed. */
export class SizeMeter {
  total = 0;

  constructor(private readonly limits: ZipLimits) {}

  add(member: CheckedEntry, chunkLength: number, { size, compressed }: Progress): void {
    this.total += chunkLength;
    if (size > this.limits.maxEntrySize) throw archiveErrors.fileTooLarge(member.name);
    if (this.total > this.limits.maxTotalSize) throw archiveErrors.totalTooLarge();
    const { maxCompressionRatio, compressionRatioFrom } = this.limits;
    if (size > compressionRatioFrom && size > maxCompressionRatio * compressed) {
      throw archiveErrors.compressionRatio(member.name);
    }
  }
}
