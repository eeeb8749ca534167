import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  buildZip,
  deflatedZeros,
  type RawEntry,
  writeFixture,
  zipFiles,
} from '../signing/package/__tests__/zip-builder.js';
import { ArchiveError } from './archive.errors.js';
import { digestZip, inflateMember, inflateMemberStream, inspectZip, readZip } from './zip.js';

const MiB = 1024 * 1024;
let dir: string;
let counter = 0;

function fixture(content: Buffer): string {
  return writeFixture(dir, `fixture-${counter++}.zip`, content);
}

function raw(...entries: RawEntry[]): string {
  return fixture(buildZip(entries));
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ArchiveError);
  return (error as ArchiveError).message;
}

/** Both entry points must refuse a hostile archive the same way. */
async function refusals(path: string, limits = {}): Promise<string[]> {
  return [await refusal(readZip(path, limits)), await refusal(inspectZip(path, async () => null, limits))];
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'zip-test-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('readZip and inspectZip on well-formed archives', () => {
  let path: string;

  beforeAll(async () => {
    path = fixture(await zipFiles({ 'manifest.json': '{"name":"x"}', 'lib/a.js': 'a'.repeat(5000), 'empty.txt': '' }));
  });

  it('reads every file in archive order', async () => {
    const members = await readZip(path);
    expect(members.map(({ name, data }) => [name, data.length])).toEqual([
      ['manifest.json', 12],
      ['lib/a.js', 5000],
      ['empty.txt', 0],
    ]);
    expect(members[1].data.toString()).toBe('a'.repeat(5000));
  });

  it('inspects real sizes and reads only what it is asked for', async () => {
    const result = await inspectZip(path, async (zip) => ({
      files: zip.files,
      total: zip.totalSize,
      manifest: (await zip.read('manifest.json'))?.toString(),
      missing: await zip.read('nope.json'),
      has: [zip.has('lib/a.js'), zip.has('lib/')],
    }));
    expect(result).toEqual({
      files: [
        { name: 'manifest.json', size: 12 },
        { name: 'lib/a.js', size: 5000 },
        { name: 'empty.txt', size: 0 },
      ],
      total: 5012,
      manifest: '{"name":"x"}',
      missing: null,
      has: [true, false],
    });
  });

  it('drops directory entries and keeps stored files', async () => {
    const members = await readZip(
      raw({ name: 'icons/', method: 0 }, { name: 'icons/a.png', data: 'png', method: 0 }, { name: 'b', data: 'b' }),
    );
    expect(members.map((member) => member.name)).toEqual(['icons/a.png', 'b']);
  });

  it('refuses to read a file larger than maxReadSize', async () => {
    const message = await refusal(inspectZip(path, (zip) => zip.read('lib/a.js'), { maxReadSize: 4096 }));
    expect(message).toBe('File exceeding size limit in archive: lib/a.js');
  });

  it('does not recurse into nested archives', async () => {
    const bomb = deflatedZeros(200);
    const inner = buildZip([{ name: 'bomb.bin', compressed: bomb.compressed, size: 200 * MiB, crc: bomb.crc }]);
    const members = await readZip(raw({ name: 'inner.zip', data: inner, method: 0 }));
    expect(members.map((member) => member.name)).toEqual(['inner.zip']);
    expect(members[0].data.equals(inner)).toBe(true);
  });
});

describe('member locations (digestZip) and inflateMember', () => {
  const files = {
    'manifest.json': '{"name":"x"}',
    'lib/a.js': 'a'.repeat(5000),
    'icons/a.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
  };

  it('reads each member again from its recorded bytes alone, stored or deflated', async () => {
    const archive = buildZip([
      { name: 'manifest.json', data: files['manifest.json'] },
      { name: 'lib/a.js', data: files['lib/a.js'] },
      { name: 'icons/a.png', data: files['icons/a.png'], method: 0 },
    ]);
    const digests = await digestZip(fixture(archive), 16);
    expect(digests.map((d) => [d.name, d.location.method, d.location.size])).toEqual([
      ['manifest.json', 8, 12],
      ['lib/a.js', 8, 5000],
      ['icons/a.png', 0, 7],
    ]);
    for (const { name, location } of digests) {
      const compressed = archive.subarray(location.start, location.start + location.compressedSize);
      expect(await inflateMember(name, compressed, location)).toEqual(Buffer.from(files[name as keyof typeof files]));
    }
  });

  it('refuses bytes that are not the recorded ones, and members past maxReadSize', async () => {
    const path = fixture(await zipFiles(files));
    const archive = readFileSync(path);
    const [, big] = await digestZip(path, 16);
    const at = big.location;
    const compressed = archive.subarray(at.start, at.start + at.compressedSize);
    const flipped = Buffer.from(compressed);
    flipped[flipped.length >> 1] ^= 0xff;
    expect(await refusal(inflateMember('lib/a.js', flipped, at))).toBe('Invalid archive.');
    expect(await refusal(inflateMember('lib/a.js', compressed.subarray(1), at))).toBe('Invalid archive.');
    expect(await refusal(inflateMember('lib/a.js', compressed, { ...at, crc32: at.crc32 ^ 1 }))).toBe(
      'Invalid archive.',
    );
    expect(await refusal(inflateMember('lib/a.js', compressed, { ...at, size: at.size - 1 }))).toBe('Invalid archive.');
    expect(await refusal(inflateMember('lib/a.js', compressed, { ...at, method: 12 }))).toBe('Invalid archive.');
    expect(await refusal(inflateMember('lib/a.js', compressed, at, { maxReadSize: 4096 }))).toBe(
      'File exceeding size limit in archive: lib/a.js',
    );
  });

  /** The stream's chunks until it ends or fails: what a consumer could have sent on. */
  async function drain(stream: Readable): Promise<{ bytes: Buffer; error: unknown }> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return { bytes: Buffer.concat(chunks), error: null };
    } catch (error) {
      return { bytes: Buffer.concat(chunks), error };
    }
  }

  it('streams a member from its recorded bytes, stored or deflated, large ones in many chunks', async () => {
    const large = randomBytes(300_000).toString('hex'); // 600,000 bytes, several inflate chunks
    const archive = buildZip([
      { name: 'big.txt', data: large },
      { name: 'stored.bin', data: large, method: 0 },
    ]);
    for (const { location } of await digestZip(fixture(archive), 16)) {
      const compressed = archive.subarray(location.start, location.start + location.compressedSize);
      const source = Readable.from([compressed.subarray(0, 1000), compressed.subarray(1000)]);
      const { bytes, error } = await drain(inflateMemberStream(source, location));
      expect(error).toBeNull();
      expect(bytes.toString()).toBe(large);
    }
  });

  it('fails a streamed member that is not the recorded one before its last chunk goes out', async () => {
    const large = randomBytes(300_000).toString('hex');
    const archive = buildZip([{ name: 'big.txt', data: large }]);
    const [{ location: at }] = await digestZip(fixture(archive), 16);
    const compressed = archive.subarray(at.start, at.start + at.compressedSize);
    const stream = (bytes: Buffer, location = at) => drain(inflateMemberStream(Readable.from([bytes]), location));
    for (const outcome of [
      await stream(compressed, { ...at, crc32: at.crc32 ^ 1 }),
      await stream(compressed, { ...at, size: at.size + 1 }),
      await stream(compressed, { ...at, size: at.size - 1 }),
      await stream(compressed.subarray(0, compressed.length - 100)),
      await stream(compressed, { ...at, method: 12 }),
    ]) {
      expect(outcome.error).toBeInstanceOf(ArchiveError);
      expect(outcome.bytes.length).toBeLessThan(at.size);
    }
  });
});

describe('hostile names and entry types', () => {
  it.each([
    '../evil.js',
    'a/../../evil.js',
    '..',
    '/etc/passwd',
    'C:\\Windows\\evil.dll',
    'c:/evil.js',
    '\\\\server\\share\\evil.js',
    'lib\\evil.js',
    'a\u0000.js',
    'a\nb.js',
    'a//b.js',
    './manifest.json',
    'a/./b.js',
  ])('refuses %j', async (name) => {
    expect(await refusals(raw({ name, data: 'x' }))).toEqual(Array(2).fill(`Invalid file name in archive: ${name}`));
  });

  it('checks the name that unzip tools would show, from a Unicode Path extra field', async () => {
    expect(await refusal(readZip(raw({ name: 'safe.js', unicodePath: '../evil.js', data: 'x' })))).toBe(
      'Invalid file name in archive: ../evil.js',
    );
    const members = await readZip(raw({ name: 'caf?.js', unicodePath: 'café.js', data: 'x' }));
    expect(members.map((member) => member.name)).toEqual(['café.js']);
  });

  it('refuses names longer than maxNameLength', async () => {
    const name = 'a'.repeat(1025);
    expect(await refusal(readZip(raw({ name, data: 'x' })))).toBe(`Invalid file name in archive: ${name}`);
  });

  it('refuses symbolic links, devices and fifos', async () => {
    expect(await refusals(raw({ name: 'link', data: '/etc/passwd', mode: 0o120777 }))).toEqual(
      Array(2).fill('Symbolic links are not allowed in archive: link'),
    );
    expect(await refusal(readZip(raw({ name: 'fifo', mode: 0o010644 })))).toBe(
      'Unsupported file type in archive: fifo',
    );
  });

  it('accepts regular files and directories with unix modes', async () => {
    const members = await readZip(raw({ name: 'd/', mode: 0o040755, method: 0 }, { name: 'd/f', mode: 0o100644 }));
    expect(members.map((member) => member.name)).toEqual(['d/f']);
  });

  it('refuses encrypted entries', async () => {
    expect(await refusals(raw({ name: 'secret.txt', data: 'x', flags: 0x801 }))).toEqual(
      Array(2).fill('Encrypted files are not allowed in archive: secret.txt'),
    );
  });

  it('refuses duplicate names', async () => {
    expect(await refusals(raw({ name: 'a.txt', data: '1' }, { name: 'a.txt', data: '2' }))).toEqual(
      Array(2).fill('Duplicate file name in archive: a.txt'),
    );
  });

  it('refuses compression methods other than stored and deflated', async () => {
    expect(await refusal(readZip(raw({ name: 'a.bz2', compressed: Buffer.from('BZh9'), method: 12 })))).toBe(
      'Unsupported compression method in archive: a.bz2',
    );
  });

  it('refuses a directory entry that declares content', async () => {
    expect(await refusal(readZip(raw({ name: 'dir/', data: 'hidden' })))).toBe('Invalid file name in archive: dir/');
  });

  it('refuses more entries than allowed, before reading them', async () => {
    const entries = Array.from({ length: 10_001 }, (_, i): RawEntry => ({ name: `f${i}`, method: 0 }));
    expect(await refusals(raw(...entries))).toEqual(Array(2).fill('Archive contains more than 10000 files.'));
    expect(await refusal(readZip(raw(...entries.slice(0, 4)), { maxEntries: 3 }))).toBe(
      'Archive contains more than 3 files.',
    );
  });
});

describe('corrupt and non-zip input', () => {
  let valid: Buffer;

  beforeAll(async () => {
    valid = await zipFiles({ 'manifest.json': '{}', 'a.js': 'x'.repeat(10_000) });
  });

  it.each([
    ['an empty file', () => Buffer.alloc(0)],
    ['random bytes', () => randomBytes(4096)],
    ['text', () => Buffer.from('this is not a zip file')],
    ['a truncated archive', () => valid.subarray(0, valid.length - 30)],
    ['an archive missing bytes in the middle', () => Buffer.concat([valid.subarray(0, 60), valid.subarray(90)])],
  ])('refuses %s', async (_, content) => {
    expect(await refusals(fixture(content()))).toEqual(Array(2).fill('Invalid archive.'));
  });

  it.each<[string, RawEntry]>([
    ['declares fewer bytes than it holds', { name: 'a.js', data: 'x'.repeat(50_000), size: 1000 }],
    ['declares more bytes than it holds', { name: 'a.js', data: 'x'.repeat(1000), size: 50_000 }],
    ['a stored entry whose sizes disagree', { name: 'a.js', data: 'xyz', method: 0, size: 2 }],
    ['a wrong checksum', { name: 'a.js', data: 'hello', crc: 1234 }],
    ['data that is not deflate', { name: 'a.js', compressed: randomBytes(200), size: 1000 }],
    ['a local header naming another file', { name: 'a.js', data: 'x', localName: 'b.js' }],
  ])('refuses an entry with %s', async (_, entry) => {
    expect(await refusals(raw(entry))).toEqual(Array(2).fill('Invalid archive.'));
  });

  it('leaves system errors alone', async () => {
    const error: unknown = await readZip(join(dir, 'missing.zip')).catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(ArchiveError);
    expect((error as NodeJS.ErrnoException).code).toBe('ENOENT');
  });
});

describe('size limits, counted on decompressed bytes', () => {
  let bomb: { compressed: Buffer; crc: number };

  beforeAll(() => {
    bomb = deflatedZeros(200);
  });

  it('refuses a member declaring more than 100 MiB without inflating it', async () => {
    const path = raw({ name: 'bomb.bin', compressed: bomb.compressed, size: 200 * MiB, crc: bomb.crc });
    expect(await refusals(path)).toEqual(Array(2).fill('File exceeding size limit in archive: bomb.bin'));
  });

  it('stops a bomb that lies about its size at the declared size', async () => {
    const path = raw({ name: 'bomb.bin', compressed: bomb.compressed, size: 1024, crc: bomb.crc });
    expect(await refusals(path)).toEqual(Array(2).fill('Invalid archive.'));
  });

  it('stops a bomb declared under the member limit after its first megabyte', async () => {
    const path = raw({ name: 'bomb.bin', compressed: bomb.compressed, size: 99 * MiB, crc: bomb.crc });
    expect(await refusals(path)).toEqual(Array(2).fill('Suspicious compression ratio in archive: bomb.bin'));
  });

  it('stops when the members together pass the total limit', async () => {
    const files = ['a', 'b', 'c'].map((name): RawEntry => ({ name, data: randomBytes(MiB) }));
    const limits = { maxEntrySize: 2 * MiB, maxTotalSize: 2.5 * MiB };
    expect(await refusals(raw(...files), limits)).toEqual(Array(2).fill('Uncompressed size is too large'));
  });

  it('accepts a compressible file under the ratio floor and honest files at the limits', async () => {
    const members = await readZip(
      raw({ name: 'zeros', data: Buffer.alloc(MiB) }, { name: 'random', data: randomBytes(2 * MiB) }),
      { maxEntrySize: 2 * MiB, maxTotalSize: 3 * MiB },
    );
    expect(members.map((member) => member.data.length)).toEqual([MiB, 2 * MiB]);
  });
});
