import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AddonFile } from '../../catalogue/version.entity.js';
import { errors } from '../../core/errors.js';
import { Slots } from '../../core/slots.js';
import { ArchiveError } from '../../archive/archive.errors.js';
import {
  digestZip,
  inflateMember,
  inflateMemberStream,
  readZipMember,
  type MemberLocation,
  type ZipDigest,
  type ZipLimits,
} from '../../archive/zip.js';
import type { Storage } from '../../storage/storage.port.js';
import { PackageContents, PackageFileDiff, type PackageEntry } from './contents.entity.js';
import { diffFile, diffWithoutLines, type DiffLimits, type FileDiff, type FileStatus } from './file-diff.js';
import { BINARY_SNIFF_BYTES, DIRECTORY_MIMETYPE, fileType } from './mime.js';

/**
 * A tree entry as stored: a file also keeps where its compressed bytes are in the package (`at`,
 * absent from trees stored before it was recorded), so that reading it later reads those bytes
 * only, not every member's headers.
 */
export type StoredEntry = PackageEntry & { at?: MemberLocation };

export interface PackageReadOptions {
  /** The upload zip limits (`maxReadSize`: the largest member read back). */
  limits: Partial<ZipLimits>;
  /** What one file's diff may cost (file-diff.ts). */
  diff: DiffLimits;
  /** Members read whole (a browsed file's content, both sides of a diff) at once, per process. */
  concurrentReads: number;
}

/** Members up to this size are downloaded from memory, checked whole first; larger ones are streamed. */
const DOWNLOAD_WHOLE_MAX = 1024 * 1024;
/** Diffs up to this much JSON are kept in `package_file_diffs`; longer ones are computed per request. */
export const STORED_DIFF_MAX = 1024 * 1024;

/**
 * The files inside versions' packages, read from the private file storage: each package's tree
 * (computed once per file bytes, then read from `package_contents`), one file's bytes, and a
 * file's diff between two packages (computed once, then read from `package_file_diffs`, unless
 * longer than STORED_DIFF_MAX). The zip limits of uploads apply to every read: the full checks
 * when a tree is computed; afterwards a file is read from its recorded range and must inflate to
 * its recorded size and CRC-32.
 */
export class PackageContentsStore {
  private readonly limits: Partial<ZipLimits>;
  /**
   * The tree's limits: the upload's sizes, but no compression ratio. Stored packages are the
   * signed ones, which signing re-deflates: a member stored (uncompressed) in the upload, or
   * deflated more weakly, can come out far past the ratio refused in uploads (a 3 MiB stored text
   * file: ~290x), and the tree would be refused as a bomb. The sizes still bound the work.
   */
  private readonly treeLimits: Partial<ZipLimits>;
  private readonly reads: Slots;

  constructor(
    private readonly files: Storage,
    private readonly options: PackageReadOptions,
  ) {
    this.limits = options.limits;
    this.treeLimits = { ...options.limits, maxCompressionRatio: Infinity };
    this.reads = new Slots(options.concurrentReads);
  }

  /** The package's entries in tree order: each directory before its children, names sorted bytewise. */
  async entries(em: EntityManager, file: AddonFile): Promise<StoredEntry[]> {
    const stored = await em.findOne(PackageContents, { hash: file.hash }, { disableIdentityMap: true });
    if (stored) return stored.entries;
    const entries = await this.withPackage(file, async (path) =>
      treeOf(await digestZip(path, BINARY_SNIFF_BYTES, this.treeLimits)),
    );
    await em
      .getConnection()
      .execute('insert into package_contents (hash, entries) values (?, ?::jsonb) on conflict (hash) do nothing', [
        file.hash,
        JSON.stringify(entries),
      ]);
    return entries;
  }

  /**
   * One file's bytes as a stream, with its size; null when the package has no such file. A large
   * member is read by a ranged stream and inflated as it is sent (memory does not grow with its
   * size), and checked against its recorded size and CRC-32 at the end: a mismatch fails the
   * stream (the answer is cut short). Small ones are read whole and checked first (404).
   */
  async open(em: EntityManager, file: AddonFile, path: string): Promise<{ stream: Readable; size: number } | null> {
    const entry = (await this.entries(em, file)).find((e) => e.path === path);
    if (!entry || entry.category === 'directory') return null;
    const { at } = entry;
    if (at && file.storageKey && Math.max(at.size, at.compressedSize) > DOWNLOAD_WHOLE_MAX) {
      if (at.size > (this.limits.maxReadSize ?? Infinity)) throw errors.notFound('File not found');
      const compressed = await this.files.openRange(file.storageKey, at.start, at.compressedSize);
      if (!compressed) throw errors.notFound('File not found');
      return { stream: inflateMemberStream(compressed, at), size: at.size };
    }
    const bytes = await this.readEntry(file, entry);
    return bytes && { stream: Readable.from([bytes]), size: bytes.length };
  }

  /**
   * The size `open` would answer for a file of the package, from its tree (a HEAD request: no
   * member is read); null when `open` finds none. A member that `open` would find corrupt is only
   * found so by reading it: its HEAD answers 200.
   */
  async size(em: EntityManager, file: AddonFile, path: string): Promise<number | null> {
    const entry = (await this.entries(em, file)).find((e) => e.path === path);
    if (!entry || entry.category === 'directory' || entry.size === null) return null;
    if (entry.size > (this.limits.maxReadSize ?? Infinity)) return null;
    return entry.size;
  }

  /**
   * The bytes of a file entry of this package's tree (from `entries`), read whole: at most
   * `concurrentReads` such reads run at once in the process, the others wait.
   */
  readEntry(file: AddonFile, entry: Pick<StoredEntry, 'path' | 'at'>): Promise<Buffer | null> {
    return this.reads.run(() => this.readWhole(file, entry));
  }

  private async readWhole(file: AddonFile, entry: Pick<StoredEntry, 'path' | 'at'>): Promise<Buffer | null> {
    const { at } = entry;
    if (!at) return this.withPackage(file, (local) => readZipMember(local, entry.path, this.limits));
    const compressed = file.storageKey
      ? await this.files.readRange(file.storageKey, at.start, at.compressedSize)
      : null;
    if (!compressed) throw errors.notFound('File not found');
    try {
      return await inflateMember(entry.path, compressed, at, this.limits);
    } catch (error) {
      if (error instanceof ArchiveError) throw errors.notFound('File not found');
      throw error;
    }
  }

  /**
   * The diff of `path` from `base` to `file` (either side may lack it), computed once per pair of
   * packages when its JSON is at most STORED_DIFF_MAX; `trees` are the two packages' `entries`.
   */
  async diff(
    em: EntityManager,
    base: AddonFile,
    file: AddonFile,
    path: string,
    trees: { base: readonly StoredEntry[]; file: readonly StoredEntry[] },
  ): Promise<FileDiff> {
    const key = { parentHash: base.hash, hash: file.hash, path };
    const stored = await em.findOne(PackageFileDiff, key, { disableIdentityMap: true });
    if (stored) return stored.diff as FileDiff;
    const packages = { parent: hexOf(base.hash), hash: hexOf(file.hash) };
    const [was, now] = [trees.base, trees.file].map((tree) =>
      tree.find((e) => e.path === path && e.category !== 'directory'),
    );
    const limits = this.options.diff;
    let diff: FileDiff;
    if ((was?.size ?? 0) > limits.maxBytes || (now?.size ?? 0) > limits.maxBytes) {
      // Too large to show: answered from the trees, neither side read.
      const mode: FileStatus = !was ? 'A' : !now ? 'D' : was.sha256 === now.sha256 ? '' : 'M';
      diff = diffWithoutLines(path, mode, now?.size ?? 0, packages);
    } else {
      // Both sides whole, then the diff, in one slot: what a diff holds at once is bounded per process.
      diff = await this.reads.run(async () => {
        const [before, after] = await Promise.all([
          was ? this.readWhole(base, was) : null,
          now ? this.readWhole(file, now) : null,
        ]);
        return diffFile(path, before, after, packages, limits);
      });
    }
    const json = JSON.stringify(diff);
    // A long diff is computed again rather than kept: storing and reading back megabytes of jsonb
    // cost more time and memory than reading the two members again (measured in bench/browse.ts).
    if (json.length <= STORED_DIFF_MAX) {
      await em
        .getConnection()
        .execute(
          'insert into package_file_diffs (parent_hash, hash, path, diff) values (?, ?, ?, ?::jsonb) on conflict do nothing',
          [key.parentHash, key.hash, path, json],
        );
    }
    return diff;
  }

  private async withPackage<T>(file: AddonFile, use: (path: string) => Promise<T>): Promise<T> {
    const local = file.storageKey ? await this.files.localFile(file.storageKey) : null;
    if (!local) throw errors.notFound('File not found');
    try {
      return await use(local.path);
    } catch (error) {
      // The package passed these checks at upload; a refusal now means the stored bytes changed.
      if (error instanceof ArchiveError) throw errors.notFound('File not found');
      throw error;
    } finally {
      await local.release();
    }
  }
}

/** `sha256:<hex>` -> `<hex>`. */
const hexOf = (hash: string) => hash.replace(/^sha256:/, '');

/** Files plus the directories their paths imply, in tree order. */
function treeOf(files: ZipDigest[]): StoredEntry[] {
  const entries = new Map<string, StoredEntry>();
  const entry = (path: string, fields: Omit<StoredEntry, 'path' | 'filename' | 'depth'>): StoredEntry => {
    const parts = path.split('/');
    return { path, filename: parts[parts.length - 1], depth: parts.length - 1, ...fields };
  };
  for (const file of files) {
    const parts = file.name.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (!entries.has(dir)) {
        entries.set(dir, entry(dir, { size: null, sha256: null, mimetype: DIRECTORY_MIMETYPE, category: 'directory' }));
      }
    }
    const { mimetype, category } = fileType(file.name, file.head);
    const { size, sha256, location: at } = file;
    entries.set(file.name, entry(file.name, { size, sha256, mimetype, category, at }));
  }
  return [...entries.values()].sort((a, b) => compareTreePaths(a.path, b.path));
}

/** Depth-first order: segment by segment, bytewise (a directory sorts before its children). */
export function compareTreePaths(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return Buffer.compare(Buffer.from(x[i]), Buffer.from(y[i]));
  }
  return x.length - y.length;
}
