import type { Response } from 'supertest';
import { AddonStatus, FileStatus } from '../src/catalogue/catalogue.enums.js';
import { Version } from '../src/catalogue/version.entity.js';
import type { Storage } from '../src/storage/storage.port.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { createAddon } from './helpers/catalogue.js';
import { attachPackage } from './helpers/packages.js';
import { startTestS3, type TestS3 } from './helpers/s3.js';

/**
 * Issue 35, item 6: a HEAD on a file route answers the GET's status and headers from the file's
 * metadata (a stat; an S3 HEAD) and never opens or reads the stored bytes. A spy on the private
 * file storage counts every call that reads bytes.
 */

let t: TestApp;
let author: KeyCaller;

beforeAll(async () => {
  t = await startTestApp({ env: { SITE_URL: 'http://addons.test' } });
  author = await keyCaller(t);
}, 120_000);
afterAll(() => t?.close());

const READS = ['get', 'open', 'readRange', 'openRange', 'localFile'] as const;

/** Counts the calls to `storage`'s byte-reading methods while `run` runs. */
async function storageReads(storage: Storage, run: () => Promise<void>): Promise<string[]> {
  const calls: string[] = [];
  const originals = READS.map((name) => [name, storage[name]] as const);
  for (const [name, original] of originals) {
    (storage as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      calls.push(name);
      return (original as (...a: unknown[]) => unknown).apply(storage, args);
    };
  }
  try {
    await run();
  } finally {
    for (const [name, original] of originals) (storage as unknown as Record<string, unknown>)[name] = original;
  }
  return calls;
}

const HEADERS = [
  'content-type',
  'content-length',
  'content-disposition',
  'x-target-digest',
  'cache-control',
  'etag',
  'last-modified',
];
const headersOf = (res: Response) => Object.fromEntries(HEADERS.map((name) => [name, res.headers[name]]));

/** GET, then HEAD with the same credentials: the same status and headers, no body, no read of the file. */
async function compareHead(path: string, authorization: string | null, size: number, app = t, storage?: Storage) {
  const withAuth = (req: ReturnType<TestApp['http']['get']>) =>
    authorization ? req.set('Authorization', authorization) : req;
  const get = await withAuth(app.http.get(path)).buffer(true);
  expect(get.status).toBe(200);
  expect(get.headers['content-length']).toBe(String(size));
  let head: Response | undefined;
  const reads = await storageReads(storage ?? app.app.services.files, async () => {
    head = await withAuth(app.http.head(path));
  });
  expect(head!.status).toBe(200);
  expect(headersOf(head!)).toEqual(headersOf(get));
  expect(head!.text ?? '').toBe('');
  expect(reads).toEqual([]);
}

async function storedFile(bytes: Buffer, spec: Parameters<typeof createAddon>[1]) {
  const addon = await createAddon(t.em(), spec);
  const [file] = await t
    .em()
    .getConnection()
    .execute<{ id: number; filename: string }[]>(
      'select f.id, f.filename from files f join versions v on v.id = f.version_id where v.addon_id = ?',
      [addon.id],
    );
  const key = `addons/${addon.id}/${file.filename}`;
  await t.app.services.files.put(key, bytes);
  await t.em().getConnection().execute('update files set storage_key = ? where id = ?', [key, file.id]);
  return { addon, file };
}

describe('HEAD on file routes', () => {
  it('/downloads/file/<id>/<name> (the public mirror)', async () => {
    const bytes = Buffer.from('PK\x03\x04 a public signed file');
    const { file } = await storedFile(bytes, {});
    await compareHead(`/downloads/file/${file.id}/${file.filename}`, null, bytes.length);
  });

  it('/api/v4/file/<id>/<name> (a file not public yet, to its author)', async () => {
    const bytes = Buffer.from('PK\x03\x04 a file awaiting review, longer');
    const { file } = await storedFile(bytes, {
      authors: [{ id: author.id }],
      versions: [{ fileStatus: FileStatus.AWAITING_REVIEW }],
    });
    await compareHead(`/api/v4/file/${file.id}/${file.filename}`, author.jwt(), bytes.length);
  });

  it('/downloads/source/<version id> (to an author)', async () => {
    const bytes = Buffer.from('a source archive');
    const { addon } = await storedFile(Buffer.from('PK'), { authors: [{ id: author.id }] });
    const [version] = await t
      .em()
      .getConnection()
      .execute<{ id: number }[]>('select id from versions where addon_id = ?', [addon.id]);
    const key = `version_source/${addon.id}/src.zip`;
    await t.app.services.files.put(key, bytes);
    await t
      .em()
      .getConnection()
      .execute('insert into version_sources (version_id, storage_key, filename, size) values (?, ?, ?, ?)', [
        version.id,
        key,
        'addon-1.0-src.zip',
        bytes.length,
      ]);
    await compareHead(`/downloads/source/${version.id}`, author.jwt(), bytes.length);
  });

  it('a file of a package a reviewer browses (its size from the package tree; no member read)', async () => {
    const reviewer = await keyCaller(t, { permission: ['Addons:Review'] });
    const addon = await createAddon(t.em(), { status: AddonStatus.NOMINATED });
    const version = await t.em().findOneOrFail(Version, { addon: addon.id });
    const main = 'console.log("browsed");\n'.repeat(10);
    await attachPackage(t, version, { 'manifest.json': '{"manifest_version": 2}', 'content/main.js': main });
    const path = `/api/v4/reviewers/addon/${addon.id}/versions/${version.id}/download/?file=content/main.js`;
    await compareHead(path, reviewer.session, main.length);
    expect((await t.http.head(path.replace('main.js', 'none.js')).set('Authorization', reviewer.session)).status).toBe(
      404,
    );
  });

  it('answers 404 to a HEAD of a file whose bytes are gone, as the GET does', async () => {
    const { file } = await storedFile(Buffer.from('PK'), {});
    await t
      .em()
      .getConnection()
      .execute('update files set storage_key = ? where id = ?', ['addons/0/gone.xpi', file.id]);
    const path = `/downloads/file/${file.id}/${file.filename}`;
    expect((await t.http.get(path)).status).toBe(404);
    expect((await t.http.head(path)).status).toBe(404);
  });
});

describe('HEAD on /user-media/ with STORAGE=s3 (served through the service)', () => {
  let s3: TestS3;
  let withS3: TestApp;

  beforeAll(async () => {
    s3 = await startTestS3();
    withS3 = await startTestApp({ env: { ...s3.env, JOB_WORKERS: 'false', SITE_URL: 'http://addons.test' } });
  }, 120_000);
  afterAll(async () => {
    await withS3?.close();
    await s3?.close();
  });

  it('answers from a HEAD of the object, never a GET of it', async () => {
    const bytes = Buffer.from('\x89PNG not really an image');
    await withS3.app.services.storage.put('addon_icons/9/9-64.png', bytes);
    await compareHead('/user-media/addon_icons/9/9-64.png', null, bytes.length, withS3, withS3.app.services.storage);
    expect((await withS3.http.head('/user-media/addon_icons/9/0-64.png')).status).toBe(404);
  });
});
