import { crc32 } from 'node:zlib';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AddonFile } from '../../catalogue/version.entity.js';
import type { Storage } from '../../storage/storage.port.js';
import { PackageContentsStore, STORED_DIFF_MAX, type StoredEntry } from './package-contents.js';

/** A storage whose ranged reads wait until the test lets them go, counting how many are in flight. */
function slowStorage(bytes: Buffer) {
  let inFlight = 0;
  let most = 0;
  let reads = 0;
  const waiting: (() => void)[] = [];
  const storage = {
    async readRange(_key: string, start: number, length: number) {
      reads++;
      most = Math.max(most, ++inFlight);
      await new Promise<void>((resolve) => waiting.push(resolve));
      inFlight--;
      return bytes.subarray(start, start + length);
    },
  } as unknown as Storage;
  return {
    storage,
    stats: () => ({ inFlight, most, reads }),
    /** Lets every read waiting now go, then gives their continuations a turn. */
    async release() {
      waiting.splice(0).forEach((go) => go());
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/** A file of the package: stored (method 0) at offset 0 of `bytes`. */
const entryOf = (path: string, bytes: Buffer): StoredEntry => ({
  path,
  filename: path,
  depth: 0,
  size: bytes.length,
  sha256: `${bytes.length}`,
  mimetype: 'text/plain',
  category: 'text',
  at: { start: 0, compressedSize: bytes.length, method: 0, size: bytes.length, crc32: crc32(bytes) },
});

const file = (hash: string) => ({ id: 1, hash, storageKey: 'files/1/a.xpi' }) as AddonFile;

/** Only what `diff` asks of the entity manager: no stored diff, and an insert (recorded). */
const inserted: unknown[][] = [];
const em = {
  findOne: async () => null,
  getConnection: () => ({ execute: async (_sql: string, values: unknown[]) => inserted.push(values) }),
} as unknown as EntityManager;

const options = (concurrentReads: number) => ({
  limits: {},
  diff: { maxBytes: 100, maxLines: 10 },
  concurrentReads,
});

describe('PackageContentsStore', () => {
  it('reads at most `concurrentReads` members whole at once; the others wait their turn', async () => {
    const bytes = Buffer.from('a\nb\n');
    const { storage, stats, release } = slowStorage(bytes);
    const store = new PackageContentsStore(storage, options(2));
    const entry = entryOf('a.txt', bytes);
    const reads = Array.from({ length: 5 }, () => store.readEntry(file('sha256:a'), entry));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stats()).toMatchObject({ inFlight: 2, reads: 2 });
    for (let round = 0; round < 5 && stats().reads < 5; round++) await release();
    await release();
    expect(await Promise.all(reads)).toEqual(Array(5).fill(bytes));
    expect(stats()).toMatchObject({ most: 2, reads: 5, inFlight: 0 });
  });

  it('holds one slot per diff, for both of its sides', async () => {
    const bytes = Buffer.from('a\nb\n');
    const { storage, stats, release } = slowStorage(bytes);
    const store = new PackageContentsStore(storage, options(1));
    const tree = [entryOf('a.txt', bytes)];
    const diffs = ['a', 'b', 'c'].map((base) =>
      store.diff(em, file(`sha256:${base}`), file('sha256:z'), 'a.txt', { base: tree, file: tree }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(stats()).toMatchObject({ inFlight: 2, reads: 2 });
    for (let round = 0; round < 5 && stats().reads < 6; round++) await release();
    await release();
    // An unchanged file: its two lines and the empty one after the final newline (the original's split).
    for (const diff of await Promise.all(diffs)) expect(diff.hunks[0].changes).toHaveLength(3);
    expect(stats()).toMatchObject({ most: 2, reads: 6, inFlight: 0 });
  });

  it('answers a diff with a side over the byte limit from the trees, reading neither side', async () => {
    const { storage, stats } = slowStorage(Buffer.alloc(0));
    const store = new PackageContentsStore(storage, options(1));
    const large = entryOf('big.txt', Buffer.alloc(101, 'x'));
    const small = entryOf('big.txt', Buffer.from('x'));
    const diff = await store.diff(em, file('sha256:a'), file('sha256:b'), 'big.txt', {
      base: [small],
      file: [large],
    });
    expect(diff).toMatchObject({ mode: 'M', is_binary: true, hunks: [], size: 101, parent: 'a', hash: 'b' });
    const added = await store.diff(em, file('sha256:a'), file('sha256:b'), 'big.txt', { base: [], file: [large] });
    expect(added).toMatchObject({ mode: 'A', is_binary: true, size: 101 });
    const same = await store.diff(em, file('sha256:a'), file('sha256:b'), 'big.txt', {
      base: [large],
      file: [large],
    });
    expect(same).toMatchObject({ mode: '', is_binary: true });
    expect(stats().reads).toBe(0);
  });

  it('keeps a diff of at most STORED_DIFF_MAX bytes of JSON, and computes longer ones per request', async () => {
    const lines = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => `line ${i}\n`).join(''));
    const store = new PackageContentsStore(
      {
        readRange: async (_key: string, start: number, length: number) => big.subarray(start, start + length),
      } as never,
      { limits: {}, diff: { maxBytes: 1 << 24, maxLines: 100_000 }, concurrentReads: 1 },
    );
    let big = lines(10);
    inserted.length = 0;
    const short = await store.diff(em, file('sha256:a'), file('sha256:b'), 'a.txt', {
      base: [entryOf('a.txt', big)],
      file: [entryOf('a.txt', big)],
    });
    expect(inserted).toHaveLength(1);
    expect(inserted[0][3]).toBe(JSON.stringify(short));
    big = lines(20_000);
    const long = await store.diff(em, file('sha256:a'), file('sha256:b'), 'b.txt', {
      base: [entryOf('b.txt', big)],
      file: [entryOf('b.txt', big)],
    });
    expect(JSON.stringify(long).length).toBeGreaterThan(STORED_DIFF_MAX);
    expect(long.hunks[0].changes).toHaveLength(20_001);
    expect(inserted).toHaveLength(1);
  });
});
