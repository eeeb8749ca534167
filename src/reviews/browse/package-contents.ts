import type { EntityManager } from '@mikro-orm/postgresql';
import type { AddonFile } from '../../catalogue/version.entity.js';
import { errors } from '../../core/errors.js';
import { PackageError } from '../../signing/package/package.errors.js';
import {
  digestZip,
  inflateMember,
  readZipMember,
  type MemberLocation,
  type ZipDigest,
  type ZipLimits,
} from '../../signing/package/zip.js';
import type { Storage } from '../../storage/storage.port.js';
import { PackageContents, PackageFileDiff, type PackageEntry } from './contents.entity.js';
import { diffFile, type FileDiff } from './file-diff.js';
import { BINARY_SNIFF_BYTES, DIRECTORY_MIMETYPE, fileType } from './mime.js';

/**
 * A tree entry as stored: a file also keeps where its compressed bytes are in the package (`at`,
 * absent from trees stored before it was recorded), so that reading it later reads those bytes
 * only, not every member's headers.
 */
export type StoredEntry = PackageEntry & { at?: MemberLocation };

/**
 * The files inside versions' packages, read from the private file storage: each package's tree
 * (computed once per file bytes, then read from `package_contents`), one file's bytes, and a
 * file's diff between two packages (computed once, then read from `package_file_diffs`). The zip
 * limits of uploads apply to every read: the full checks when a tree is computed; afterwards a
 * file is read from its recorded range and must inflate to its recorded size and CRC-32.
 */
export class PackageContentsStore {
  constructor(
    private readonly files: Storage,
    private readonly limits: Partial<ZipLimits>,
  ) {}

  /** The package's entries in tree order: each directory before its children, names sorted bytewise. */
  async entries(em: EntityManager, file: AddonFile): Promise<StoredEntry[]> {
    const stored = await em.findOne(PackageContents, { hash: file.hash }, { disableIdentityMap: true });
    if (stored) return stored.entries;
    const entries = await this.withPackage(file, async (path) =>
      treeOf(await digestZip(path, BINARY_SNIFF_BYTES, this.limits)),
    );
    await em
      .getConnection()
      .execute('insert into package_contents (hash, entries) values (?, ?::jsonb) on conflict (hash) do nothing', [
        file.hash,
        JSON.stringify(entries),
      ]);
    return entries;
  }

  /** One file's bytes; null when the package has no such file. */
  async read(em: EntityManager, file: AddonFile, path: string): Promise<Buffer | null> {
    return this.readPath(file, await this.entries(em, file), path);
  }

  /** The file at `path` of the package whose tree is `tree`; null when there is none. */
  private readPath(file: AddonFile, tree: readonly StoredEntry[], path: string): Promise<Buffer | null> {
    const entry = tree.find((e) => e.path === path);
    return entry && entry.category !== 'directory' ? this.readEntry(file, entry) : Promise.resolve(null);
  }

  /** The bytes of a file entry of this package's tree (from `entries`). */
  async readEntry(file: AddonFile, entry: Pick<StoredEntry, 'path' | 'at'>): Promise<Buffer | null> {
    const { at } = entry;
    if (!at) return this.withPackage(file, (local) => readZipMember(local, entry.path, this.limits));
    const compressed = file.storageKey
      ? await this.files.readRange(file.storageKey, at.start, at.compressedSize)
      : null;
    if (!compressed) throw errors.notFound('File not found');
    try {
      return await inflateMember(entry.path, compressed, at, this.limits);
    } catch (error) {
      if (error instanceof PackageError) throw errors.notFound('File not found');
      throw error;
    }
  }

  /**
   * The diff of `path` from `base` to `file` (either side may lack it), computed once per pair of
   * packages; `trees` are the two packages' `entries`.
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
    const [before, after] = await Promise.all([
      this.readPath(base, trees.base, path),
      this.readPath(file, trees.file, path),
    ]);
    const diff = diffFile(path, before, after, { parent: hexOf(base.hash), hash: hexOf(file.hash) });
    await em
      .getConnection()
      .execute(
        'insert into package_file_diffs (parent_hash, hash, path, diff) values (?, ?, ?, ?::jsonb) on conflict do nothing',
        [key.parentHash, key.hash, path, JSON.stringify(diff)],
      );
    return diff;
  }

  private async withPackage<T>(file: AddonFile, use: (path: string) => Promise<T>): Promise<T> {
    const local = file.storageKey ? await this.files.localFile(file.storageKey) : null;
    if (!local) throw errors.notFound('File not found');
    try {
      return await use(local.path);
    } catch (error) {
      // The package passed these checks at upload; a refusal now means the stored bytes changed.
      if (error instanceof PackageError) throw errors.notFound('File not found');
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
