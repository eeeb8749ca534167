import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildZip, deflatedZeros, writeFixture, zipFiles } from './__tests__/zip-builder.js';
import { isPackageRefusal } from './package.errors.js';
import { parsePackage } from './parse.js';
import { inspectZip, readZip } from '../../archive/zip.js';

const FD_DIR = '/proc/self/fd';
const MiB = 1024 * 1024;
const itWithProcfs = existsSync(FD_DIR) ? it : it.skip;

function openDescriptors(): number {
  return readdirSync(FD_DIR).length;
}

/** fs.close runs on the thread pool after the refusal settles; give it a moment, not a deadline. */
async function settledDescriptors(baseline: number): Promise<number> {
  let count = openDescriptors();
  for (let attempt = 0; attempt < 50 && count > baseline; attempt++) {
    await sleep(20);
    count = openDescriptors();
  }
  return count;
}

type Reader = (path: string) => Promise<unknown>;

const readers: Reader[] = [
  (path) => parsePackage(path),
  (path) => readZip(path),
  (path) => inspectZip(path, (zip) => zip.read('manifest.json')),
];

let dir: string;
/** Every reader on every hostile archive, and the parser on hostile manifests. */
const attempts: [Reader, string][] = [];
let valid: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'leak-test-'));
  const bomb = deflatedZeros(200);
  const manifest = JSON.stringify({ name: 'x', version: '1.0' });
  const archives: Buffer[] = [
    buildZip([{ name: 'bomb.bin', compressed: bomb.compressed, size: 99 * MiB, crc: bomb.crc }]),
    buildZip([{ name: 'bomb.bin', compressed: bomb.compressed, size: 4096, crc: bomb.crc }]),
    buildZip([
      { name: 'manifest.json', data: manifest },
      { name: 'a.js', compressed: randomBytes(300), size: 900 },
    ]),
    buildZip([{ name: 'manifest.json', data: manifest, crc: 1 }]),
    buildZip([
      { name: 'manifest.json', data: manifest },
      { name: 'link', data: '/', mode: 0o120777 },
    ]),
    buildZip([
      { name: 'manifest.json', data: manifest },
      { name: '../x', data: 'x' },
    ]),
    buildZip([{ name: 'manifest.json', data: manifest, flags: 0x801 }]),
    (await zipFiles({ 'manifest.json': manifest, 'a.js': randomBytes(5000) })).subarray(0, 3000),
    randomBytes(2048),
    Buffer.alloc(0),
  ];
  archives.forEach((archive, i) => {
    const path = writeFixture(dir, `archive-${i}.zip`, archive);
    readers.forEach((reader) => attempts.push([reader, path]));
  });
  const manifests = ['{"version": "1 0"}', '{oops', '{"version": "1", "applications": {"gecko": {"id": 1}}}'];
  manifests.forEach((text, i) => {
    attempts.push([
      readers[0],
      writeFixture(dir, `manifest-${i}.zip`, buildZip([{ name: 'manifest.json', data: text }])),
    ]);
  });
  valid = writeFixture(dir, 'valid.zip', await zipFiles({ 'manifest.json': manifest }));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

itWithProcfs('releases every file descriptor after 200 hostile parses', async () => {
  await parsePackage(valid);
  const baseline = await settledDescriptors(openDescriptors());

  for (let i = 0; i < 200; i++) {
    const [read, path] = attempts[i % attempts.length];
    const error: unknown = await read(path).catch((caught: unknown) => caught);
    expect(isPackageRefusal(error)).toBe(true);
  }
  for (let i = 0; i < 20; i++) await parsePackage(valid);

  expect(await settledDescriptors(baseline)).toBeLessThanOrEqual(baseline);
});
