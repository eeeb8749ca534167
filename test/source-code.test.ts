import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Channel } from '../src/catalogue/catalogue.enums.js';
import { AddonActivity } from '../src/catalogue/lifecycle/activity.entity.js';
import { Version } from '../src/catalogue/version.entity.js';
import { VersionSource } from '../src/signing/version-source.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { createAddon } from './helpers/catalogue.js';
import { extension, waitFor, zipFiles } from './helpers/signing.js';

/**
 * Version source code archives (VersionSourceService): `PATCH /api/v5/addons/addon/<id>/versions/<id>/`
 * with a multipart `source`, the archive checks and their field errors, `has_source`, the audit
 * log, `/downloads/source/<version id>` and GraphQL's `hasSource` / `sourceDownloadUrl`.
 */

let t: TestApp;
let author: KeyCaller;
let stranger: KeyCaller;
let reviewer: KeyCaller;
let unlistedReviewer: KeyCaller;
let addon: { id: number; slug: string };
let listedId: number;
let unlistedId: number;

beforeAll(async () => {
  // A 1 MB limit, so that the over-limit case stays small.
  t = await startTestApp({ env: { MAX_SOURCE_UPLOAD_MB: '1', SIGNING_CA_KEY_BITS: '2048' } });
  author = await keyCaller(t);
  stranger = await keyCaller(t);
  reviewer = await keyCaller(t, { permission: ['Addons:Review'] });
  unlistedReviewer = await keyCaller(t, { permission: ['Addons:ReviewUnlisted'] });
  const created = await createAddon(t.em(), {
    authors: [{ id: author.id }],
    versions: [{ version: '1.0' }, { version: '2.0', channel: Channel.UNLISTED }],
  });
  addon = { id: created.id, slug: created.slug };
  [listedId, unlistedId] = await versionIds(created.id);
}, 60_000);
afterAll(() => t?.close());

async function versionIds(addonId: number): Promise<number[]> {
  const versions = await t.em().find(Version, { addon: addonId }, { orderBy: { id: 'asc' } });
  return versions.map((v) => v.id);
}

/** A one-file tar (ustar header with its checksum, content, end blocks). */
function tar(name: string, content: string): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 'latin1');
  header.write('0000644\0', 100, 'latin1');
  header.write('0000000\0', 108, 'latin1');
  header.write('0000000\0', 116, 'latin1');
  header.write(content.length.toString(8).padStart(11, '0') + '\0', 124, 'latin1');
  header.write('00000000000\0', 136, 'latin1');
  header.write('        ', 148, 'latin1');
  header.write('0', 156, 'latin1');
  header.write('ustar\0' + '00', 257, 'latin1');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
  const body = Buffer.alloc(Math.ceil(content.length / 512) * 512);
  body.write(content, 0, 'latin1');
  return Buffer.concat([header, body, Buffer.alloc(1024)]);
}

const patch = (caller: KeyCaller | null, versionId: number, file: Buffer, name: string, addonKey = addon.slug) => {
  const req = t.http.patch(`/api/v5/addons/addon/${addonKey}/versions/${versionId}/`);
  if (caller) req.set('Authorization', caller.jwt());
  return req.attach('source', file, name);
};

const download = (caller: KeyCaller | null, versionId: number) => {
  const req = t.http
    .get(`/downloads/source/${versionId}`)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
  if (caller) req.set('Authorization', caller.session);
  return req;
};

const UNSUPPORTED = 'Unsupported file type, please upload an archive file (.zip, .tar.gz, .tgz, .tar.bz2).';
const BROKEN = 'Invalid or broken archive.';

describe('attaching source code (REST v5)', () => {
  it('stores a zip, then replaces it with a tar.gz; has_source shows in detail and list; the audit log records both', async () => {
    const zip = await zipFiles({ 'src/index.js': 'console.log(1);\n', 'README.md': '# build: npm ci\n' });
    const first = await patch(author, listedId, zip, 'source.zip');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: listedId, version: '1.0', has_source: true });

    const detail = await t.http
      .get(`/api/v5/addons/addon/${addon.slug}/versions/${listedId}/`)
      .set('Authorization', author.jwt());
    expect(detail.status).toBe(200);
    expect(detail.body.has_source).toBe(true);
    const list = await t.http.get(`/api/v5/addons/addon/${addon.slug}/versions/`).set('Authorization', author.jwt());
    const byId = new Map((list.body.results as { id: number; has_source: boolean }[]).map((v) => [v.id, v]));
    expect(byId.get(listedId)?.has_source).toBe(true);
    // Authors see their unlisted versions in the list too: without source.
    const unlisted = await t.http
      .get(`/api/v5/addons/addon/${addon.slug}/versions/?filter=all_with_unlisted`)
      .set('Authorization', author.jwt());
    expect(
      (unlisted.body.results as { id: number; has_source: boolean }[]).find((v) => v.id === unlistedId)?.has_source,
    ).toBe(false);

    const stored = await t.em().findOneOrFail(VersionSource, { version: listedId });
    expect(stored.filename).toBe(`${addon.slug}-1.0-src.zip`);
    expect(stored.size).toBe(zip.length);
    const firstKey = stored.storageKey;
    expect(firstKey).toMatch(new RegExp(`^version_source/${listedId}/`));

    const tgz = gzipSync(tar('src/index.js', 'console.log(2);\n'));
    const second = await patch(author, listedId, tgz, 'source.tar.gz', String(addon.id));
    expect([second.status, second.body.has_source]).toEqual([200, true]);
    const replaced = await t.em().findOneOrFail(VersionSource, { version: listedId });
    expect([replaced.filename, replaced.size]).toEqual([`${addon.slug}-1.0-src.tar.gz`, tgz.length]);
    // The earlier archive is gone from the storage.
    expect(await t.app.services.files.get(firstKey)).toBeNull();
    expect(await t.app.services.files.get(replaced.storageKey)).toEqual(tgz);

    const log = await t
      .em()
      .find(AddonActivity, { addon: addon.id, action: 'source_code_uploaded' }, { orderBy: { id: 'asc' } });
    expect(log.map((l) => [l.version?.id, l.user?.id, l.details])).toEqual([
      [listedId, author.id, { filename: `${addon.slug}-1.0-src.zip`, size: zip.length, replaced: false }],
      [listedId, author.id, { filename: `${addon.slug}-1.0-src.tar.gz`, size: tgz.length, replaced: true }],
    ]);
  });

  it('accepts .tgz; refuses other extensions and bytes that are not the archive their name says', async () => {
    const tgz = gzipSync(tar('a.js', 'x'));
    expect((await patch(author, unlistedId, tgz, 'code.tgz')).status).toBe(200);

    const cases: [Buffer, string, string][] = [
      [tgz, 'code.rar', UNSUPPORTED],
      [Buffer.from('plain text'), 'code.txt', UNSUPPORTED],
      [Buffer.from('this is not a zip at all'), 'code.zip', BROKEN],
      // A gzip of something that is not a tar.
      [gzipSync(Buffer.alloc(2048, 'a')), 'code.tar.gz', BROKEN],
      [Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]), 'code.tgz', BROKEN],
      [Buffer.from('BZh9 not really'), 'code.tar.bz2', BROKEN],
      // A zip whose central directory was cut off.
      [(await zipFiles({ 'a.js': 'x'.repeat(100) })).subarray(0, 120), 'code.zip', BROKEN],
    ];
    for (const [bytes, name, message] of cases) {
      const res = await patch(author, unlistedId, bytes, name);
      expect([name, res.status, res.body]).toEqual([name, 400, { source: [message] }]);
    }
    // The accepted .tgz is still the source.
    const stored = await t.em().findOneOrFail(VersionSource, { version: unlistedId });
    expect(stored.filename).toBe(`${addon.slug}-2.0-src.tgz`);
  });

  it('refuses an archive over MAX_SOURCE_UPLOAD_MB with a field error', async () => {
    expect(t.app.services.config.MAX_SOURCE_UPLOAD_MB).toBe(1);
    const big = await zipFiles({ 'blob.bin': randomBytes(1_100_000) });
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const res = await patch(author, unlistedId, big, 'big.zip');
    expect([res.status, res.body]).toEqual([
      400,
      { source: ['The source code archive is too large: the limit is 1 MB.'] },
    ]);
  });

  it('anonymous: 401; not an author: 403; unknown version or add-on: 404', async () => {
    const zip = await zipFiles({ 'a.js': 'x' });
    const anonymous = await patch(null, listedId, zip, 'a.zip');
    expect([anonymous.status, anonymous.body]).toEqual([
      401,
      { detail: 'Authentication credentials were not provided.' },
    ]);
    const other = await patch(stranger, listedId, zip, 'a.zip');
    expect([other.status, other.body]).toEqual([403, { detail: 'You do not have permission to perform this action.' }]);
    // Reviewers download sources; they do not attach them.
    expect((await patch(reviewer, listedId, zip, 'a.zip')).status).toBe(403);
    expect((await patch(author, 999_999, zip, 'a.zip')).status).toBe(404);
    expect((await patch(author, listedId, zip, 'a.zip', 'no-such-addon')).status).toBe(404);
    // None of them changed anything.
    const log = await t.em().count(AddonActivity, { addon: addon.id, action: 'source_code_uploaded' });
    expect(log).toBe(3);
  });

  it('a JSON `source` is not a file: 400; a PATCH without source changes nothing', async () => {
    const json = await t.http
      .patch(`/api/v5/addons/addon/${addon.slug}/versions/${listedId}/`)
      .set('Authorization', author.jwt())
      .send({ source: 'https://example.com/src.zip' });
    expect([json.status, json.body]).toEqual([
      400,
      { source: ['The submitted data was not a file. Check the encoding type on the form.'] },
    ]);
    const empty = await t.http
      .patch(`/api/v5/addons/addon/${addon.slug}/versions/${listedId}/`)
      .set('Authorization', author.jwt())
      .send({});
    expect([empty.status, empty.body.has_source]).toEqual([200, true]);
  });
});

describe('editing release notes (REST v5 PATCH)', () => {
  const edit = (body: Record<string, unknown>) =>
    t.http
      .patch(`/api/v5/addons/addon/${addon.slug}/versions/${listedId}/`)
      .set('Authorization', author.jwt())
      .send(body);

  it('sets them per locale (a string for the request language), refuses over 3,000 characters, clears with null', async () => {
    const set = await edit({ release_notes: { 'en-US': 'Fixed the toolbar.', fr: 'Barre corrigée.' } });
    expect(set.status).toBe(200);
    expect(set.body.release_notes).toEqual({ 'en-US': 'Fixed the toolbar.', fr: 'Barre corrigée.' });
    expect(set.body.has_source).toBe(true);
    const one = await edit({ release_notes: 'Fixed the toolbar again.' });
    expect(one.body.release_notes).toEqual({ 'en-US': 'Fixed the toolbar again.', fr: 'Barre corrigée.' });

    const long = await edit({ release_notes: { de: 'x'.repeat(3001) } });
    expect([long.status, long.body]).toEqual([
      400,
      { release_notes: ['Ensure this field has no more than 3000 characters.'] },
    ]);
    const badLocale = await edit({ release_notes: { xx: 'hello' } });
    expect([badLocale.status, badLocale.body]).toEqual([
      400,
      { release_notes: ["The language code 'xx' is invalid."] },
    ]);
    const badType = await edit({ release_notes: 42 });
    expect(badType.status).toBe(400);
    // A refused edit stored nothing, the archive included.
    const withSource = await t.http
      .patch(`/api/v5/addons/addon/${addon.slug}/versions/${listedId}/`)
      .set('Authorization', author.jwt())
      .field('release_notes', 'y'.repeat(3001))
      .attach('source', await zipFiles({ 'a.js': 'x' }), 'new.zip');
    expect(withSource.status).toBe(400);
    expect((await t.em().findOneOrFail(VersionSource, { version: listedId })).filename).toMatch(/\.tar\.gz$/);

    // Multipart: a text field for the request's language, with the archive.
    const both = await t.http
      .patch(`/api/v5/addons/addon/${addon.slug}/versions/${listedId}/?lang=fr`)
      .set('Authorization', author.jwt())
      .field('release_notes', 'Barre corrigée deux fois.')
      .attach('source', gzipSync(tar('b.js', 'y')), 'again.tar.gz');
    expect(both.status).toBe(200);
    // v5 with `lang` shows that language only; both are stored.
    expect(both.body.release_notes).toEqual({ fr: 'Barre corrigée deux fois.' });
    expect((await t.em().findOneOrFail(Version, listedId)).releaseNotes).toEqual({
      'en-US': 'Fixed the toolbar again.',
      fr: 'Barre corrigée deux fois.',
    });
    expect((await t.em().findOneOrFail(VersionSource, { version: listedId })).filename).toMatch(/\.tar\.gz$/);

    const cleared = await edit({ release_notes: null });
    expect([cleared.status, cleared.body.release_notes]).toEqual([200, null]);
  });
});

describe('downloading source code', () => {
  it('streams the archive to authors and reviewers of its channel; others 404, anonymous 401', async () => {
    const stored = await t.em().findOneOrFail(VersionSource, { version: listedId });
    const bytes = await t.app.services.files.get(stored.storageKey);

    const mine = await download(author, listedId);
    expect(mine.status).toBe(200);
    expect(mine.headers['content-disposition']).toBe(`attachment; filename="${addon.slug}-1.0-src.tar.gz"`);
    expect(mine.body).toEqual(bytes);

    expect((await download(reviewer, listedId)).status).toBe(200);
    expect((await download(unlistedReviewer, unlistedId)).status).toBe(200);
    // A listed reviewer does not review unlisted versions.
    expect((await download(reviewer, unlistedId)).status).toBe(404);
    expect((await download(stranger, listedId)).status).toBe(404);
    expect((await download(null, listedId)).status).toBe(401);
    expect((await download(author, 999_999)).status).toBe(404);
    expect((await download(author, 0)).status).toBe(404);
  });
});

describe('GraphQL', () => {
  const QUERY = `query($a: String!, $id: Int!) { addonVersion(addon: $a, id: $id) { id hasSource sourceDownloadUrl } }`;
  const ask = (caller: KeyCaller | null, id: number) => {
    const req = t.http.post('/graphql').send({ query: QUERY, variables: { a: addon.slug, id } });
    if (caller) req.set('Authorization', caller.session);
    return req;
  };

  it('hasSource for anyone who sees the version; sourceDownloadUrl only for those who may download', async () => {
    const mine = await ask(author, listedId);
    expect(mine.body.errors).toBeUndefined();
    expect(mine.body.data.addonVersion).toMatchObject({ id: listedId, hasSource: true });
    expect(mine.body.data.addonVersion.sourceDownloadUrl).toMatch(new RegExp(`/downloads/source/${listedId}$`));
    expect((await ask(reviewer, listedId)).body.data.addonVersion.sourceDownloadUrl).not.toBeNull();
    expect((await ask(stranger, listedId)).body.data.addonVersion).toEqual({
      id: listedId,
      hasSource: true,
      sourceDownloadUrl: null,
    });
    expect((await ask(null, listedId)).body.data.addonVersion.sourceDownloadUrl).toBeNull();
  });

  it('an anonymous answer asked before and after a new source follows it', async () => {
    const created = await createAddon(t.em(), { authors: [{ id: author.id }], versions: [{ version: '4.0' }] });
    const [versionId] = await versionIds(created.id);
    const anonymous = () =>
      t.http.post('/graphql').send({ query: QUERY, variables: { a: created.slug, id: versionId } });
    for (let i = 0; i < 2; i++) expect((await anonymous()).body.data.addonVersion.hasSource).toBe(false);
    const res = await patch(author, versionId, await zipFiles({ 'a.js': 'x' }), 'src.zip', created.slug);
    expect(res.status).toBe(200);
    expect((await anonymous()).body.data.addonVersion).toEqual({
      id: versionId,
      hasSource: true,
      sourceDownloadUrl: null,
    });
  });

  it('editVersion attaches a source from a GraphQL multipart request', async () => {
    const created = await createAddon(t.em(), { authors: [{ id: author.id }], versions: [{ version: '3.0' }] });
    const [versionId] = await versionIds(created.id);
    const zip = await zipFiles({ 'a.js': 'x' });
    const res = await t.http
      .post('/graphql')
      .set('Authorization', author.session)
      .set('apollo-require-preflight', 'true')
      .field(
        'operations',
        JSON.stringify({
          query: `mutation($a: String!, $id: Int!, $s: Upload) { editVersion(addon: $a, id: $id, source: $s) { id hasSource } }`,
          variables: { a: created.slug, id: versionId, s: null },
        }),
      )
      .field('map', JSON.stringify({ 0: ['variables.s'] }))
      .attach('0', zip, 'src.zip');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.editVersion).toEqual({ id: versionId, hasSource: true });
    const before = (await ask(author, listedId)).body.data.addonVersion.hasSource;
    expect(before).toBe(true);
  });
});

describe('creating a version with its source (REST v5 POST …/versions/)', () => {
  /** A v5 upload by `caller`, processed and valid: its uuid. */
  async function validUpload(caller: KeyCaller, guid: string, version: string): Promise<string> {
    const res = await t.http
      .post('/api/v5/addons/upload/')
      .set('Authorization', caller.jwt())
      .field('channel', 'unlisted')
      .attach('upload', await extension({ id: guid, version }), 'addon.zip');
    expect(res.status).toBe(201);
    const uuid = res.body.uuid as string;
    await waitFor('the upload to be validated', async () => {
      const r = await t.http.get(`/api/v5/addons/upload/${uuid}/`).set('Authorization', caller.jwt());
      return r.body.processed ? r.body : null;
    });
    return uuid;
  }

  const create = (caller: KeyCaller, guid: string, uuid: string, source?: [Buffer, string]) => {
    const req = t.http
      .post(`/api/v5/addons/addon/${encodeURIComponent(guid)}/versions/`)
      .set('Authorization', caller.jwt());
    if (!source) return req.send({ upload: uuid });
    return req.field('upload', uuid).attach('source', source[0], source[1]);
  };

  it('submits the upload as a new version with its source; a refused archive creates no version', async () => {
    const guid = 'source-create@example.com';
    const first = await t.http
      .put(`/api/v5/addons/addon/${encodeURIComponent(guid)}/`)
      .set('Authorization', author.jwt())
      .send({ version: { upload: await validUpload(author, guid, '1.0') } });
    expect(first.status).toBe(201);

    const uuid = await validUpload(author, guid, '2.0');
    const refused = await create(author, guid, uuid, [Buffer.from('not a zip'), 'src.zip']);
    expect([refused.status, refused.body]).toEqual([400, { source: [BROKEN] }]);
    // Someone else's add-on: 403, before anything else.
    expect((await create(stranger, guid, uuid, [await zipFiles({ 'a.js': 'x' }), 'src.zip'])).status).toBe(403);

    const zip = await zipFiles({ 'src/a.js': 'x' });
    const created = await create(author, guid, uuid, [zip, 'src.zip']);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ version: '2.0', channel: 'unlisted', has_source: true });
    const stored = await t.em().findOneOrFail(VersionSource, { version: created.body.id });
    expect(await t.app.services.files.get(stored.storageKey)).toEqual(zip);

    // JSON, without source; a missing upload is v5's field error.
    const third = await create(author, guid, await validUpload(author, guid, '3.0'));
    expect([third.status, third.body.version, third.body.has_source]).toEqual([201, '3.0', false]);
    const missing = await t.http
      .post(`/api/v5/addons/addon/${encodeURIComponent(guid)}/versions/`)
      .set('Authorization', author.jwt())
      .send({});
    expect([missing.status, missing.body]).toEqual([400, { upload: ['This field is required.'] }]);
    expect((await create(author, 'no-such-addon@example.com', uuid)).status).toBe(404);
  }, 120_000);
});
