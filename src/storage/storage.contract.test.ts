import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { startTestS3, type TestS3 } from '../../test/helpers/s3.js';
import { LocalStorage } from './local.storage.js';
import { S3Storage } from './s3.storage.js';
import { sliceStream, type Storage } from './storage.port.js';

/** One contract for every storage adapter: the local directory (default) and S3 (s3rver here). */
const adapters: [string, () => Promise<{ storage: Storage; close(): Promise<void> }>][] = [
  [
    'LocalStorage',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'addons-storage-'));
      return { storage: new LocalStorage(root), close: async () => rmSync(root, { recursive: true, force: true }) };
    },
  ],
  [
    'S3Storage',
    async () => {
      const s3: TestS3 = await startTestS3();
      const storage = new S3Storage({
        endpoint: s3.endpoint,
        region: 'us-east-1',
        bucket: s3.bucket,
        prefix: 'files',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      });
      return { storage, close: () => s3.close() };
    },
  ],
];

describe.each(adapters)('%s', (_name, make) => {
  let storage: Storage;
  let close: () => Promise<void>;
  let scratch: string;

  beforeAll(async () => {
    ({ storage, close } = await make());
    scratch = mkdtempSync(join(tmpdir(), 'addons-scratch-'));
  });
  afterAll(async () => {
    await close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('puts, gets, opens and deletes bytes', async () => {
    const bytes = Buffer.from('\x00binary\xffbytes');
    await storage.put('icons/1/1-64.png', bytes);
    expect(await storage.get('icons/1/1-64.png')).toEqual(bytes);
    const opened = await storage.open('icons/1/1-64.png');
    expect(opened?.size).toBe(bytes.length);
    const chunks: Buffer[] = [];
    for await (const chunk of opened!.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(bytes);
    await storage.delete('icons/1/1-64.png');
    expect(await storage.get('icons/1/1-64.png')).toBeNull();
    expect(await storage.open('icons/1/1-64.png')).toBeNull();
    await storage.delete('icons/1/1-64.png'); // deleting what is gone is fine
  });

  it('tells the size of stored bytes without reading them (a HEAD), null for a missing key', async () => {
    const bytes = Buffer.from('sized bytes');
    await storage.put('sized/1/a.bin', bytes);
    expect(await storage.size('sized/1/a.bin')).toBe(bytes.length);
    expect(await storage.size('sized/1/missing.bin')).toBeNull();
    expect(await storage.size('sized/1')).toBeNull();
    await storage.delete('sized/1/a.bin');
  });

  it('reads a byte range without the rest, short at the end, null for a missing key', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    await storage.put('files/range/1.xpi', bytes);
    expect(await storage.readRange('files/range/1.xpi', 0, 10)).toEqual(bytes.subarray(0, 10));
    expect(await storage.readRange('files/range/1.xpi', 500, 250)).toEqual(bytes.subarray(500, 750));
    expect(await storage.readRange('files/range/1.xpi', 990, 50)).toEqual(bytes.subarray(990));
    expect(await storage.readRange('files/range/1.xpi', 1000, 5)).toEqual(Buffer.alloc(0));
    expect(await storage.readRange('files/range/1.xpi', 2000, 5)).toEqual(Buffer.alloc(0));
    expect(await storage.readRange('files/range/1.xpi', 3, 0)).toEqual(Buffer.alloc(0));
    expect(await storage.readRange('files/range/missing.xpi', 0, 10)).toBeNull();
    await expect(storage.readRange('files/range/1.xpi', -1, 10)).rejects.toThrow(RangeError);
    await expect(storage.readRange('files/range/1.xpi', 0, 1.5)).rejects.toThrow(RangeError);
    await storage.delete('files/range/1.xpi');
  });

  it('streams the same byte ranges as readRange, over several chunks for a large range', async () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 253));
    await storage.put('files/range/2.xpi', bytes);
    const streamed = async (start: number, length: number) => {
      const stream = await storage.openRange('files/range/2.xpi', start, length);
      const chunks: Buffer[] = [];
      for await (const chunk of stream!) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };
    expect(await streamed(0, 10)).toEqual(bytes.subarray(0, 10));
    expect(await streamed(1_000, 250_000)).toEqual(bytes.subarray(1_000, 251_000));
    expect(await streamed(299_990, 50)).toEqual(bytes.subarray(299_990));
    expect(await streamed(300_000, 5)).toEqual(Buffer.alloc(0));
    expect(await streamed(3, 0)).toEqual(Buffer.alloc(0));
    expect(await storage.openRange('files/range/missing.xpi', 0, 10)).toBeNull();
    await expect(storage.openRange('files/range/2.xpi', -1, 10)).rejects.toThrow(RangeError);
    await storage.delete('files/range/2.xpi');
  });

  it('moves a local file in, and hands out local copies that release cleans up', async () => {
    const source = join(scratch, 'upload.xpi');
    const bytes = Buffer.alloc(300_000, 7);
    writeFileSync(source, bytes);
    await storage.putFile('uploads/ab/abc.xpi', source);
    expect(existsSync(source)).toBe(false);
    const local = await storage.localFile('uploads/ab/abc.xpi');
    expect(readFileSync(local!.path)).toEqual(bytes);
    await local!.release();
    expect(await storage.localFile('uploads/ab/missing.xpi')).toBeNull();
    expect((await storage.get('uploads/ab/abc.xpi'))?.length).toBe(bytes.length);
  });

  it('refuses unsafe keys', async () => {
    for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', 'A/b']) {
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow('Unsafe storage key');
    }
  });

  it('gives media URLs under the service unless a public base is configured', () => {
    expect(storage.url('http://addons.test', 'previews/1/2.png')).toBe(
      'http://addons.test/user-media/previews/1/2.png',
    );
  });
});

it('S3Storage points media URLs at S3_PUBLIC_URL when given', () => {
  const storage = new S3Storage({
    region: 'us-east-1',
    bucket: 'b',
    prefix: 'media',
    publicUrl: 'https://cdn.example/',
  });
  expect(storage.url('http://addons.test', 'icons/1.png')).toBe('https://cdn.example/media/icons/1.png');
});

it('sliceStream keeps the asked bytes of a whole object (a store that ignored Range) and stops reading there', async () => {
  // 1,000 chunks of 5 bytes; the slice ends in the second one.
  let pulled = 0;
  const source = Readable.from(
    (function* () {
      for (let i = 0; i < 1000; i++) {
        pulled++;
        yield Buffer.from(String.fromCharCode(97 + (i % 26)).repeat(5));
      }
    })(),
  );
  const out: Buffer[] = [];
  for await (const chunk of sliceStream(source, 3, 5)) out.push(chunk as Buffer);
  expect(Buffer.concat(out).toString()).toBe('aabbb');
  // Only the source's read-ahead (its highWaterMark) was pulled, and it was released.
  expect(pulled).toBeLessThan(50);
  expect(source.destroyed).toBe(true);
});
