import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { AddonStatus, FileStatus } from '../src/catalogue/catalogue.enums.js';
import { AddonFile, Version } from '../src/catalogue/version.entity.js';
import { PackageFileDiff } from '../src/reviews/browse/contents.entity.js';
import { signPackage } from '../src/signing/crypto/index.js';
import { DEFAULT_ZIP_LIMITS, readZip } from '../src/archive/zip.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { call, caller, type Caller } from './helpers/ratings.js';
import { buildZip } from './helpers/signing.js';

/**
 * Issue 23, items 1 and 7: what browsing and comparing a version may cost, with the largest member
 * the upload limits allow, and packages whose members were stored (uncompressed) in the upload.
 *
 * Signing re-deflates every member: a stored member of short repeated lines comes out ~300x
 * smaller, past the ratio uploads refuse as a bomb, and the signed package's tree used to be
 * refused the same way (every browse of it a 404 "File not found"), for any such member over 1 MiB.
 */

const MiB = 1024 * 1024;
const LINE = 'const answer = 42; // a line\n'; // 29 bytes
const text = (bytes: number) => Buffer.alloc(bytes, LINE);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** Each member's sha256, computed once (the members add up to 121 MiB). */
const hashes = new Map<number, string>();
const hashOf = (size: number) => hashes.get(size) ?? hashes.set(size, sha256(text(size))).get(size)!;
const MANIFEST = '{\n  "manifest_version": 2,\n  "name": "Large",\n  "version": "1.0"\n}\n';

/** Stored members of several sizes: around the ratio check's 1 MiB, the content limit, and the largest allowed. */
const SIZES: Record<string, number> = {
  'data/1m.txt': MiB,
  'data/1m-plus-1.txt': MiB + 1,
  'data/3m.txt': 3 * MiB,
  'data/16m-plus-1.txt': 16 * MiB + 1,
  'data/largest.txt': DEFAULT_ZIP_LIMITS.maxEntrySize,
};

let t: TestApp;
let reviewer: Caller;
let scratch: string;

beforeAll(async () => {
  t = await startTestApp({
    env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test', SIGNING_CA_KEY_BITS: '2048', SIGNING_KEY_POOL: '1' },
  });
  reviewer = await caller(t, { permission: ['Addons:Review'] });
  scratch = mkdtempSync(join(tmpdir(), 'browse-limits-'));
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The upload as its author built it: every member stored, none compressed. */
function storedUpload(): Buffer {
  return buildZip([
    { name: 'manifest.json', data: MANIFEST, method: 0 },
    ...Object.entries(SIZES).map(([name, size]) => ({ name, data: text(size), method: 0 })),
  ]);
}

/** What the signing job makes of an upload: its members read under the upload limits, signed, re-zipped. */
async function signed(upload: Buffer, guid: string): Promise<Buffer> {
  const path = join(scratch, `${randomUUID()}.xpi`);
  writeFileSync(path, upload);
  try {
    const entries = await readZip(path);
    return await signPackage(entries, { guid, signer: await t.app.services.signingTools.signer() });
  } finally {
    rmSync(path, { force: true });
  }
}

async function attach(version: Version, bytes: Buffer) {
  const em = t.em();
  const file = await em.findOneOrFail(AddonFile, { version: version.id });
  file.storageKey = `addons/${version.addon.id}/${file.id}-${randomUUID()}.xpi`;
  file.hash = `sha256:${sha256(bytes)}`;
  file.size = bytes.length;
  await t.app.services.files.put(file.storageKey, bytes);
  await em.flush();
}

/** One request's body, hashed as it arrives (a 100 MiB download is not kept). */
function download(path: string) {
  return t.http
    .get(path)
    .set('Authorization', `Bearer ${reviewer.token}`)
    .buffer(true)
    .parse((stream, done) => {
      const hash = createHash('sha256');
      let length = 0;
      stream.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        length += chunk.length;
      });
      stream.on('end', () => done(null, { sha256: hash.digest('hex'), length }));
    });
}

describe('largest members and stored members', () => {
  let base: string;
  let ids: { stored: number; signed1: number; signed2: number };

  beforeAll(async () => {
    const author = await caller(t);
    const addon = await createAddon(t.em(), {
      status: AddonStatus.NOMINATED,
      authors: [{ id: author.id }],
      versions: [
        { version: '1.0', fileStatus: FileStatus.APPROVED },
        { version: '1.1', fileStatus: FileStatus.APPROVED },
        { version: '1.2', fileStatus: FileStatus.AWAITING_REVIEW },
      ],
    });
    const [stored, signed1, signed2] = await t.em().find(Version, { addon: addon.id }, { orderBy: { id: 'asc' } });
    const upload = storedUpload();
    await attach(stored, upload);
    await attach(signed1, await signed(upload, addon.guid ?? 'large@example.com'));
    await attach(signed2, await signed(upload, addon.guid ?? 'large@example.com'));
    ids = { stored: stored.id, signed1: signed1.id, signed2: signed2.id };
    base = `/api/v4/reviewers/addon/${addon.id}/versions/`;
  }, 300_000);

  it('browses a signed package whose upload stored its members, every size up to the largest allowed', async () => {
    for (const id of [ids.stored, ids.signed1]) {
      const tree = await call(t, 'get', `${base}${id}/`, reviewer);
      expect([id, tree.status]).toEqual([id, 200]);
      expect(tree.body.file.content).toBe(MANIFEST);
      for (const [path, size] of Object.entries(SIZES)) {
        const res = await call(t, 'get', `${base}${id}/?file=${path}&file_only=true`, reviewer);
        expect([path, res.status]).toEqual([path, 200]);
        expect(res.body.file).toMatchObject({ selected_file: path, size, sha256: hashOf(size) });
        // Up to BROWSE_CONTENT_MAX_KB (16 MiB) the content; past it none (download only), as the original.
        const shown = size <= 16 * MiB;
        expect([path, res.body.file.content.length]).toEqual([path, shown ? size : 0]);
        if (shown) expect(res.body.file.content === text(size).toString()).toBe(true);
      }
    }
  }, 120_000);

  it('answers a compare of a member over the limits as too large (no hunks), never line by line', async () => {
    const compare = (from: number, to: number, path: string) =>
      call(t, 'get', `${base}${from}/compare_to/${to}/?file=${path}&file_only=true`, reviewer);
    const tooLarge = (size: number) => ({
      size,
      is_binary: true,
      hunks: [],
      lines_added: 0,
      lines_deleted: 0,
      mode: '',
    });
    for (const [from, to] of [
      [ids.signed1, ids.signed2],
      [ids.stored, ids.signed2],
    ]) {
      const largest = await compare(from, to, 'data/largest.txt');
      expect(largest.status).toBe(200);
      expect(largest.body.file.diff).toMatchObject(tooLarge(DEFAULT_ZIP_LIMITS.maxEntrySize));
      expect(JSON.stringify(largest.body).length).toBeLessThan(10_000);
      // 3 MiB of 29-byte lines: 108,475 lines, over BROWSE_DIFF_MAX_LINES (100,000).
      expect((await compare(from, to, 'data/3m.txt')).body.file.diff).toMatchObject(tooLarge(3 * MiB));
      // 1 MiB: 36,158 lines, shown as one hunk of unchanged lines.
      const small = (await compare(from, to, 'data/1m.txt')).body.file.diff;
      expect(small).toMatchObject({ is_binary: false, mode: '' });
      expect(small.hunks[0].changes).toHaveLength(Math.ceil(MiB / LINE.length));
    }
    // The too-large answers are kept; a diff of megabytes of JSON is computed per request instead.
    expect(await t.em().count(PackageFileDiff, { path: 'data/largest.txt' })).toBe(2);
    expect(await t.em().count(PackageFileDiff, { path: 'data/1m.txt' })).toBe(0);
  }, 120_000);

  it('streams a download of the largest member from its byte range, never reading it whole', async () => {
    const files = t.app.services.files;
    const openRange = jest.spyOn(files, 'openRange');
    const get = jest.spyOn(files, 'get');
    const localFile = jest.spyOn(files, 'localFile');
    try {
      for (const id of [ids.signed1, ids.stored]) {
        for (const path of ['data/largest.txt', 'data/3m.txt']) {
          openRange.mockClear();
          const res = await download(`${base}${id}/download/?file=${path}`);
          expect([id, path, res.status]).toEqual([id, path, 200]);
          expect(res.headers['content-length']).toBe(String(SIZES[path]));
          expect(res.body).toEqual({ sha256: hashOf(SIZES[path]), length: SIZES[path] });
          expect(openRange).toHaveBeenCalledTimes(1);
        }
      }
      expect(get).not.toHaveBeenCalled();
      expect(localFile).not.toHaveBeenCalled();
    } finally {
      openRange.mockRestore();
      get.mockRestore();
      localFile.mockRestore();
    }
  }, 120_000);

  it('cuts a streamed download short when the stored bytes are not the member any more', async () => {
    const version = await t.em().findOneOrFail(AddonFile, { version: ids.stored });
    // The tree is computed (and kept) while the package is intact.
    expect((await call(t, 'get', `${base}${ids.stored}/`, reviewer)).status).toBe(200);
    const upload = storedUpload();
    // Same length, one byte changed inside the largest member (1,000 bytes after its local header,
    // the first place its name appears): caught by its CRC-32 at the end.
    upload[upload.indexOf(Buffer.from('data/largest.txt')) + 'data/largest.txt'.length + 1000] = 0x21;
    await t.app.services.files.put(version.storageKey!, upload);
    // Over a real socket (fetch): the answer starts (200, the full length announced), then is cut.
    const server = createServer(t.app.express).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}${base}${ids.stored}/download/?file=data/largest.txt`, {
        headers: { Authorization: `Bearer ${reviewer.token}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe(String(SIZES['data/largest.txt']));
      let received = 0;
      const read = (async () => {
        for await (const chunk of res.body!) received += chunk.length;
      })();
      await expect(read).rejects.toThrow();
      expect(received).toBeLessThan(SIZES['data/largest.txt']);
    } finally {
      server.close();
    }
    // Small members are still read whole first: a 404, not a cut answer.
    upload[upload.indexOf(Buffer.from(MANIFEST))] = 0x5b;
    await t.app.services.files.put(version.storageKey!, upload);
    const manifest = await call(t, 'get', `${base}${ids.stored}/download/?file=manifest.json`, reviewer);
    expect(manifest.status).toBe(404);
  }, 120_000);
});
