import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signJwt } from '../src/auth/jwt.js';
import { DeniedGuid } from '../src/catalogue/denied-guid.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import {
  buildZip,
  deflatedZeros,
  extension,
  readCaPem,
  verifySignedPackage,
  waitFor,
  zipFiles,
} from './helpers/signing.js';

let t: TestApp;
const now = () => Math.floor(Date.now() / 1000);
const MAIL_SECRET = 'inbound-secret-0123456789';

beforeAll(async () => {
  t = await startTestApp({
    env: {
      SIGNING_CA_KEY_BITS: '2048',
      SIGNING_KEY_POOL: '1',
      SITE_URL: 'http://addons.test',
      INBOUND_EMAIL_SECRET_KEY: MAIL_SECRET,
      INBOUND_EMAIL_VALIDATION_KEY: 'validation-key',
      BROWSER_NAME: 'Browser',
      VENDOR_NAME: 'Vendor',
    },
  });
}, 120_000);
afterAll(() => t?.close());

interface Developer {
  id: number;
  jwt: () => string;
  /** For GraphQL: API keys reach the signing operations only. */
  session: string;
}

async function developer(extra: Record<string, unknown> = {}): Promise<Developer> {
  const user = await t.createUser({ 'api-key': true, session: true, ...extra });
  const key = user.apiKey!;
  return {
    id: user.id,
    jwt: () => `JWT ${signJwt({ iss: key.key, iat: now(), exp: now() + 300 }, key.secret)}`,
    session: `Bearer ${user.sessionToken}`,
  };
}

const put = (
  dev: Developer | null,
  guid: string,
  version: string,
  file?: Buffer,
  fields: Record<string, string> = {},
) => {
  let req = t.http.put(`/api/v4/addons/${encodeURIComponent(guid)}/versions/${encodeURIComponent(version)}/`);
  if (dev) req = req.set('Authorization', dev.jwt());
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  return file ? req.attach('upload', file, 'addon.xpi') : req.field('nothing', 'here');
};

const post = (dev: Developer, file: Buffer, fields: Record<string, string> = {}) => {
  let req = t.http.post('/api/v4/addons/').set('Authorization', dev.jwt());
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  return req.attach('upload', file, 'addon.zip');
};

/** Follows the status `url` (as sign-addon does) until `done` holds. */
async function poll(dev: Developer, url: string, done: (body: StatusBody) => boolean, timeoutMs = 90_000) {
  const path = new URL(url).pathname;
  return waitFor(
    `${path} to finish`,
    async () => {
      const res = await t.http.get(path).set('Authorization', dev.jwt());
      expect(res.status).toBe(200);
      return done(res.body) ? (res.body as StatusBody) : null;
    },
    timeoutMs,
  );
}

interface StatusBody {
  guid: string;
  active: boolean;
  automated_signing: boolean;
  url: string;
  files: { download_url: string; hash: string; signed: boolean }[];
  passed_review: boolean;
  pk: string;
  processed: boolean;
  reviewed: boolean;
  valid: boolean;
  validation_results: { errors: number; messages: { id: string[]; message: string }[] } | null;
  validation_url: string;
  version: string;
}

const signedDone = (b: StatusBody) => (b.processed && !b.valid) || (b.reviewed && b.active && b.files.length > 0);

async function download(dev: Developer, url: string) {
  const res = await t.http
    .get(new URL(url).pathname)
    .set('Authorization', dev.jwt())
    .set('Accept', 'application/json')
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
  return res;
}

const graphql = (dev: { session: string } | null, query: string, variables: Record<string, unknown> = {}) => {
  const req = t.http.post('/graphql').send({ query, variables });
  return dev ? req.set('Authorization', dev.session) : req;
};

describe('the v3 signing paths', () => {
  it('answer as v4: PUT, POST, status and download under /api/v3/', async () => {
    const dev = await developer();
    const guid = 'v3-put@example.com';
    const res = await t.http
      .put(`/api/v3/addons/${encodeURIComponent(guid)}/versions/1.0.0/`)
      .set('Authorization', dev.jwt())
      .attach('upload', await extension({ id: guid }), 'addon.xpi');
    expect(res.status).toBe(201);
    expect(res.body.url).toBe(
      `http://addons.test/api/v3/addons/v3-put%40example.com/versions/1.0.0/uploads/${res.body.pk}/`,
    );
    const done = await poll(dev, res.body.url, signedDone);
    expect(done).toMatchObject({ valid: true, reviewed: true, active: true });
    // The status without the upload id, and the file through the v3 download path.
    const status = await t.http
      .get(`/api/v3/addons/${encodeURIComponent(guid)}/versions/1.0.0/`)
      .set('Authorization', dev.jwt());
    expect(status.status).toBe(200);
    expect(status.body.files[0].download_url).toMatch(/^http:\/\/addons\.test\/api\/v3\/file\/\d+\//);
    const file = await download(dev, status.body.files[0].download_url);
    expect(file.status).toBe(200);
    expect(file.headers['x-target-digest']).toBe(status.body.files[0].hash);
    expect(await verifySignedPackage(file.body, readCaPem(t.app.services.config.dataDir))).toContain(`CN = ${guid}`);
    // POST without an id gets a generated guid.
    const created = await t.http
      .post('/api/v3/addons/')
      .set('Authorization', dev.jwt())
      .attach('upload', await extension({ id: null }), 'addon.zip');
    expect(created.status).toBe(201);
    expect(created.body.guid).toMatch(/^\{[0-9a-f-]{36}\}$/);
  });
});

describe('unlisted uploads are validated, signed and downloadable', () => {
  it('PUT with an id: 201, then a signed file that verifies against the CA', async () => {
    const dev = await developer();
    const guid = 'put-test@example.com';
    const res = await put(dev, guid, '1.0.0', await extension({ id: guid }));
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toEqual({
      guid,
      active: false,
      automated_signing: true,
      url: `http://addons.test/api/v4/addons/put-test%40example.com/versions/1.0.0/uploads/${res.body.pk}/`,
      files: [],
      passed_review: false,
      pk: expect.stringMatching(/^[0-9a-f]{32}$/),
      processed: false,
      reviewed: false,
      valid: false,
      validation_results: null,
      validation_url: `http://addons.test/developers/upload/${res.body.pk}`,
      version: '1.0.0',
    });
    const done = await poll(dev, res.body.url, signedDone);
    expect(done).toMatchObject({ processed: true, valid: true, reviewed: true, active: true, passed_review: true });
    expect(done.validation_results).toMatchObject({ errors: 0, success: true, ending_tier: 5 });
    expect(done.files).toHaveLength(1);
    const [file] = done.files;
    expect(file.signed).toBe(true);
    expect(file.download_url).toMatch(/^http:\/\/addons\.test\/api\/v4\/file\/\d+\/[\w.-]+\.xpi$/);

    const got = await download(dev, file.download_url);
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/x-xpinstall');
    const bytes = got.body as Buffer;
    expect(`sha256:${(await import('node:crypto')).createHash('sha256').update(bytes).digest('hex')}`).toBe(file.hash);
    const subject = await verifySignedPackage(bytes, readCaPem(t.app.services.config.dataDir));
    expect(subject).toContain(`CN = ${guid}`);

    // The same version again: the signing API's only 409.
    const again = await put(dev, guid, '1.0.0', await extension({ id: guid }));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'Version 1.0.0 already exists.' });

    // A new version of an existing add-on: 202.
    const next = await put(dev, guid, '1.1.0', await extension({ id: guid, version: '1.1.0' }));
    expect(next.status).toBe(202);

    // The validation report page.
    const report = await t.http.get(new URL(done.validation_url).pathname);
    expect(report.status).toBe(200);
    expect(report.headers['content-type']).toMatch(/^text\/html/);
  }, 120_000);

  it('POST without an id: 201 with a generated {uuid} guid, always unlisted', async () => {
    const dev = await developer();
    const res = await post(dev, await extension({ id: null, version: '2.0' }), { channel: 'listed' });
    expect(res.status).toBe(201);
    expect(res.body.guid).toMatch(/^\{[0-9a-f-]{36}\}$/);
    expect(res.body.automated_signing).toBe(true);
    const done = await poll(dev, res.body.url, signedDone);
    expect(done.files[0].signed).toBe(true);
    const bytes = (await download(dev, done.files[0].download_url)).body as Buffer;
    await verifySignedPackage(bytes, readCaPem(t.app.services.config.dataDir));
  }, 120_000);

  it('a package the linter refuses ends processed and not valid, with no version', async () => {
    const dev = await developer();
    const guid = 'invalid@example.com';
    const res = await put(dev, guid, '1.0.0.0.0-beta', await extension({ id: guid, version: '1.0.0.0.0-beta' }));
    expect(res.status).toBe(201);
    const done = await poll(dev, res.body.url, signedDone);
    expect(done).toMatchObject({ processed: true, valid: false, files: [], reviewed: false, active: false });
    expect(done.validation_results!.errors).toBeGreaterThan(0);
    expect(done.validation_results!.messages.map((m) => m.id[0])).toContain('VERSION_FORMAT_INVALID');
  }, 120_000);
});

describe('upload rules and messages', () => {
  it('401 without credentials, 403 for someone else’s add-on, 404 for unknown ones', async () => {
    const owner = await developer();
    const other = await developer();
    const guid = 'owned@example.com';
    expect((await put(null, guid, '1.0', await extension({ id: guid }))).status).toBe(401);
    const first = await put(owner, guid, '1.0.0', await extension({ id: guid }));
    expect(first.status).toBe(201);
    const res = await put(other, guid, '2.0.0', await extension({ id: guid, version: '2.0.0' }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'You do not own this addon.' });
    const status = await t.http.get(`/api/v4/addons/${guid}/versions/1.0.0/`).set('Authorization', other.jwt());
    expect(status.status).toBe(403);
    expect(status.body).toEqual({ error: 'You do not own this addon.' });
    const unknown = await t.http
      .get('/api/v4/addons/nobody@example.com/versions/1.0/')
      .set('Authorization', other.jwt());
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Could not find add-on with id "nobody@example.com".' });
    const noUpload = await t.http
      .get(`/api/v3/addons/${guid}/versions/9.9/uploads/${'0'.repeat(32)}/`)
      .set('Authorization', owner.jwt());
    expect(noUpload.status).toBe(404);
    expect(noUpload.body).toEqual({ error: 'No uploaded file for that addon and version.' });
  });

  it('answers each bad request with its message', async () => {
    const dev = await developer();
    const cases: [Promise<{ status: number; body: unknown }>, string][] = [
      [put(dev, 'a@example.com', '1.0'), 'Missing "upload" key in multipart file data.'],
      [
        put(dev, 'b@example.com', '2.0', await extension({ id: 'b@example.com', version: '1.0' })),
        'Version does not match the manifest file.',
      ],
      [
        put(dev, 'c@example.com', '1.0', await extension({ id: 'other@example.com', version: '1.0' })),
        'The add-on ID in your manifest.json or install.rdf (other@example.com) does not match the ID of your add-on on AMO (c@example.com)',
      ],
      [
        put(dev, 'not a guid', '1.0', await extension({ id: null, version: '1.0' })),
        'Invalid Add-on ID in URL or package',
      ],
      [
        put(dev, `${'x'.repeat(60)}@example.com`, '1.0', await extension({ id: null, version: '1.0' })),
        "Please specify your Add-on GUID in the manifest if it's longer than 64 characters.",
      ],
      [
        put(dev, 'v@example.com', 'x'.repeat(33), await extension({ id: 'v@example.com', version: 'x'.repeat(33) })),
        'Version numbers should have fewer than 32 characters.',
      ],
      [
        put(
          dev,
          'tm@example.com',
          '1.0',
          await extension({ id: 'tm@example.com', version: '1.0', name: 'Vendor Helper' }),
        ),
        'Add-on names cannot contain the Vendor or Browser trademarks.',
      ],
      [
        put(dev, 'x@vendor.com', '1.0', await extension({ id: 'x@vendor.com', version: '1.0' })),
        'You cannot submit an add-on with a guid ending "@vendor.com"',
      ],
    ];
    for (const [response, message] of cases) {
      const res = await response;
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { error: message } });
    }
    // "Name for Browser" is allowed.
    const ok = await put(
      dev,
      'tm2@example.com',
      '1.0',
      await extension({ id: 'tm2@example.com', version: '1.0', name: 'Helper for Browser' }),
    );
    expect(ok.status).toBe(201);
  });

  it('refuses denied guids and deleted add-ons’ guids as duplicates', async () => {
    const dev = await developer();
    const em = t.em();
    em.create(DeniedGuid, { guid: 'denied@example.com' });
    await em.flush();
    const res = await put(
      dev,
      'denied@example.com',
      '1.0',
      await extension({ id: 'denied@example.com', version: '1.0' }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Duplicate add-on ID found.' });
  });

  it('refuses hostile archives with a clear 400 and stays healthy', async () => {
    const dev = await developer();
    const manifest = JSON.stringify({
      manifest_version: 2,
      name: 'H',
      version: '1.0',
      browser_specific_settings: { gecko: { id: 'h@example.com' } },
    });
    const zeros = deflatedZeros(120);
    const cases: [Buffer, RegExp][] = [
      [
        buildZip([
          { name: 'manifest.json', data: manifest },
          { name: '../evil.js', data: 'x' },
        ]),
        /^Invalid file name in archive: \.\.\/evil\.js$/,
      ],
      [
        buildZip([
          { name: 'manifest.json', data: manifest },
          { name: '/etc/passwd', data: 'x' },
        ]),
        /^Invalid file name in archive: \/etc\/passwd$/,
      ],
      [
        buildZip([
          { name: 'manifest.json', data: manifest },
          { name: 'link', data: '/etc/passwd', mode: 0o120777 },
        ]),
        /^Symbolic links are not allowed in archive: link$/,
      ],
      [
        buildZip([
          { name: 'manifest.json', data: manifest },
          { name: 'big.bin', compressed: zeros.compressed, size: 120 * 1024 * 1024, crc: zeros.crc },
        ]),
        /^File exceeding size limit in archive: big\.bin$/,
      ],
      [
        buildZip([
          { name: 'manifest.json', data: manifest },
          { name: 'bomb.bin', compressed: zeros.compressed, size: 1000, crc: zeros.crc },
        ]),
        /^Invalid archive\.$/,
      ],
      [Buffer.from('this is not a zip file at all'), /^Invalid archive\.$/],
      [(await zipFiles({ 'manifest.json': manifest })).subarray(0, 40), /^Invalid archive\.$/],
      [await zipFiles({ 'README.txt': 'no manifest' }), /^No install\.rdf or manifest\.json found$/],
      [await zipFiles({ 'manifest.json': '{ "name": "broken", ' }), /^Could not parse the manifest file\./],
    ];
    for (const [bytes, message] of cases) {
      const res = await put(dev, 'h@example.com', '1.0', bytes);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
      expect((await t.http.get('/healthz')).status).toBe(200);
    }
  }, 60_000);
});

describe('listed versions wait for a reviewer', () => {
  it('go through the queue, approval signs them and makes the add-on public; notes, replies by mail', async () => {
    const dev = await developer();
    const reviewer = await developer({ permission: ['Addons:Review'] });
    const guid = 'listed@example.com';
    const first = await put(dev, guid, '1.0', await extension({ id: guid, version: '1.0', name: 'Listed Thing' }));
    await poll(dev, first.body.url, signedDone);

    // Without listing metadata a listed upload is refused.
    const refused = await put(dev, guid, '2.0', await extension({ id: guid, version: '2.0' }), { channel: 'listed' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(
      /^You cannot add a listed version to this addon via the API due to missing metadata/,
    );

    const listing = await graphql(
      dev,
      `mutation { updateAddonListing(addon: "${guid}", input: { summary: "A summary", categories: [{ application: BROWSER, slug: "privacy-security" }] }) { id } }`,
    );
    expect(listing.body.errors).toBeUndefined();

    const res = await put(dev, guid, '2.0', await extension({ id: guid, version: '2.0' }), { channel: 'listed' });
    expect(res.status).toBe(202);
    expect(res.body.automated_signing).toBe(false);
    const waiting = await poll(dev, res.body.url, (b) => b.processed && b.files.length > 0);
    expect(waiting).toMatchObject({ valid: true, reviewed: false, active: false, passed_review: false });
    expect(waiting.files[0].signed).toBe(false);

    // The reviewer queue has it; a developer cannot see the queue.
    const queueQuery = '{ reviewQueue { count items { version { id version } addon { guid } } } }';
    expect((await graphql(dev, queueQuery)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const queue = await graphql(reviewer, queueQuery);
    const item = queue.body.data.reviewQueue.items.find((i: { addon: { guid: string } }) => i.addon.guid === guid);
    expect(item.version.version).toBe('2.0');

    // A request for information, then approval.
    const ask = await graphql(
      reviewer,
      `mutation { reviewVersion(versionId: ${item.version.id}, decision: REQUEST_INFORMATION, comments: "What does it do?") { action } }`,
    );
    expect(ask.body.data.reviewVersion.action).toBe('more-information-requested');
    const approve = await graphql(
      reviewer,
      `mutation { reviewVersion(versionId: ${item.version.id}, decision: APPROVE) { action } }`,
    );
    expect(approve.body.data.reviewVersion.action).toBe('approved');
    const approved = await poll(dev, res.body.url, (b) => b.reviewed && b.active);
    expect(approved.files[0].signed).toBe(true);

    // Public now: searchable detail, and the download redirects to the mirror with the digest.
    const detail = await t.http.get(`/api/v4/addons/addon/${guid}/`);
    expect(detail.status).toBe(200);
    expect(detail.body.status).toBe('public');
    expect(detail.body.current_version.version).toBe('2.0');
    const redirect = await t.http.get(new URL(approved.files[0].download_url).pathname).set('Authorization', dev.jwt());
    expect(redirect.status).toBe(302);
    expect(redirect.headers['x-target-digest']).toBe(approved.files[0].hash);
    const mirror = await t.http.get(new URL(redirect.headers.location).pathname);
    expect(mirror.status).toBe(200);

    // Review notes, v4 and v3 shapes; strangers get 403, anonymous 401.
    const notesPath = `/api/v4/addons/addon/${guid}/versions/${item.version.id}/reviewnotes/`;
    const notes = await t.http.get(notesPath).set('Authorization', dev.jwt());
    expect(notes.status).toBe(200);
    expect(notes.body.results.map((n: { action: string }) => n.action)).toEqual([
      'approved',
      'more-information-requested',
      'review-requested',
    ]);
    expect(notes.body.results[1]).toEqual({
      id: expect.any(Number),
      action: 'more-information-requested',
      action_label: 'More information requested',
      comments: 'What does it do?',
      user: { name: expect.any(String) },
      date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      highlight: true,
    });
    const v3 = await t.http.get(notesPath.replace('/v4/', '/v3/')).set('Authorization', dev.jwt());
    expect(Object.keys(v3.body.results[1].user).sort()).toEqual(['id', 'name', 'url', 'username']);
    // One note by its id, in both versions; an unknown id is a 404.
    const one = await t.http.get(`${notesPath}${notes.body.results[1].id}/`).set('Authorization', dev.jwt());
    expect(one.status).toBe(200);
    expect(one.body).toEqual(notes.body.results[1]);
    const oneV3 = await t.http
      .get(`${notesPath.replace('/v4/', '/v3/')}${notes.body.results[1].id}/`)
      .set('Authorization', dev.jwt());
    expect(oneV3.body).toEqual(v3.body.results[1]);
    expect((await t.http.get(`${notesPath}999999999/`).set('Authorization', dev.jwt())).status).toBe(404);
    expect((await t.http.get(notesPath)).status).toBe(401);
    expect((await t.http.get(notesPath).set('Authorization', (await developer()).jwt())).status).toBe(403);

    // The author was mailed with a reply address; a reply by mail becomes a note.
    const outbox = join(t.app.services.config.dataDir, 'mail', 'outbox');
    const mails = readdirSync(outbox).map((f) => readFileSync(join(outbox, f), 'utf8'));
    const replyTo = /^Reply-To: (reviewreply\+[0-9a-f]{32}@addons\.test)$/m.exec(
      mails.find((m) => m.includes('What does it do?'))!,
    )![1];
    const mail = (body: Record<string, unknown>) => t.http.post('/api/v4/activity/mail/').send(body);
    expect(
      (await mail({ SecretKey: 'wrong', Message: { TextBody: 'x' }, To: [{ EmailAddress: replyTo }] })).status,
    ).toBe(403);
    const probe = await mail({ SecretKey: MAIL_SECRET, Type: 'Validation' });
    expect([probe.status, probe.body]).toEqual([200, 'validation-key']);
    expect((await mail({ SecretKey: MAIL_SECRET })).body).toEqual({ detail: 'Message not present in the POST data.' });
    const reply = await mail({
      SecretKey: MAIL_SECRET,
      Message: { TextBody: 'It blocks trackers.\n\nOn Monday the reviewer wrote:\n> What does it do?' },
      To: [{ EmailAddress: 'someone@example.com' }, { EmailAddress: replyTo }],
    });
    expect([reply.status, reply.body]).toEqual([201, 'validation-key']);
    const after = await t.http.get(notesPath).set('Authorization', dev.jwt());
    expect(after.body.results[0]).toMatchObject({ action: 'review-note', comments: 'It blocks trackers.' });
  }, 180_000);
});

describe('GraphQL', () => {
  it('uploads a version (multipart), follows it to a signed file and reads its review notes', async () => {
    const dev = await developer();
    const guid = 'graphql-upload@example.com';
    const operations = {
      query: `mutation ($upload: Upload!) {
        submitAddonVersion(upload: $upload, guid: "${guid}", version: "1.0.0") {
          addonCreated
          upload { uuid guid version channel automatedSigning processed }
        }
      }`,
      variables: { upload: null },
    };
    const res = await t.http
      .post('/graphql')
      .set('Authorization', dev.jwt())
      .set('apollo-require-preflight', 'true')
      .field('operations', JSON.stringify(operations))
      .field('map', JSON.stringify({ 0: ['variables.upload'] }))
      .attach('0', await extension({ id: guid }), 'addon.xpi');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.submitAddonVersion).toEqual({
      addonCreated: true,
      upload: {
        uuid: expect.stringMatching(/^[0-9a-f]{32}$/),
        guid,
        version: '1.0.0',
        channel: 'UNLISTED',
        automatedSigning: true,
        processed: false,
      },
    });
    const uuid = res.body.data.submitAddonVersion.upload.uuid;
    const status = `{ addonUpload(guid: "${guid}", version: "1.0.0", uuid: "${uuid}") { valid reviewed active files { id signed hash } } }`;
    const done = await waitFor('the GraphQL upload to be signed', async () => {
      const r = await graphql(dev, status);
      // Signing and approval are two steps (approval follows the signature): wait for both.
      const upload = r.body.data?.addonUpload;
      return upload?.files[0]?.signed && upload.reviewed && upload.active ? upload : null;
    });
    expect(done).toMatchObject({ valid: true, reviewed: true, active: true });

    // Automatic approval is in the version's history, by the service.
    const detail = await graphql(
      dev,
      `{ addonVersions(addon: "${guid}", filter: "all_with_unlisted") { items { id } } }`,
    );
    const versionId = detail.body.data.addonVersions.items[0].id;
    const notes = await graphql(
      dev,
      `{ reviewNotes(addon: "${guid}", versionId: ${versionId}) { count items { action userName user { id } } } }`,
    );
    expect(notes.body.data.reviewNotes).toEqual({
      count: 1,
      items: [{ action: 'approved', userName: 'Vendor', user: null }],
    });

    // Anonymous uploads are refused.
    const anonymous = await graphql(null, `{ addonUpload(guid: "${guid}", version: "1.0.0") { uuid } }`);
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  }, 120_000);
});

describe('reviewer flags and denied guids', () => {
  it('an add-on with auto-approval disabled waits for an unlisted reviewer; denied guids are refused', async () => {
    const dev = await developer();
    const admin = await developer({ group: ['Admins'] });
    const unlistedReviewer = await developer({ permission: ['Addons:ReviewUnlisted'] });
    const guid = 'flagged@example.com';
    const first = await put(dev, guid, '1.0', await extension({ id: guid, version: '1.0' }));
    await poll(dev, first.body.url, signedDone);

    const flag = `mutation { updateAddonReviewerFlags(addon: "${guid}", flags: { autoApprovalDisabled: true }) { autoApprovalDisabled } }`;
    expect((await graphql(dev, flag)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await graphql(admin, flag)).body.data.updateAddonReviewerFlags.autoApprovalDisabled).toBe(true);

    const res = await put(dev, guid, '1.1', await extension({ id: guid, version: '1.1' }));
    expect(res.status).toBe(202);
    expect(res.body.automated_signing).toBe(false);
    const waiting = await poll(dev, res.body.url, (b) => b.processed && b.files.length > 0);
    expect(waiting.files[0].signed).toBe(false);

    const queue = await graphql(
      unlistedReviewer,
      '{ reviewQueue(channel: UNLISTED) { items { version { id version } addon { guid } } } }',
    );
    const item = queue.body.data.reviewQueue.items.find((i: { addon: { guid: string } }) => i.addon.guid === guid);
    expect(item.version.version).toBe('1.1');
    const approve = await graphql(
      unlistedReviewer,
      `mutation { reviewVersion(versionId: ${item.version.id}, decision: APPROVE, comments: "Fine") { action } }`,
    );
    expect(approve.body.data.reviewVersion.action).toBe('approved');
    const signed = await poll(dev, res.body.url, (b) => b.reviewed && b.active);
    expect(signed.files[0].signed).toBe(true);

    // Rejection of the next one disables its file.
    const next = await put(dev, guid, '1.2', await extension({ id: guid, version: '1.2' }));
    await poll(dev, next.body.url, (b) => b.processed && b.files.length > 0);
    const queued = await graphql(
      unlistedReviewer,
      '{ reviewQueue(channel: UNLISTED) { items { version { id version } } } }',
    );
    const v12 = queued.body.data.reviewQueue.items.find(
      (i: { version: { version: string } }) => i.version.version === '1.2',
    );
    const reject = await graphql(
      unlistedReviewer,
      `mutation { reviewVersion(versionId: ${v12.version.id}, decision: REJECT) { action } }`,
    );
    expect(reject.body.errors[0].extensions.fields).toEqual({ comments: ['This field may not be blank.'] });
    await graphql(
      unlistedReviewer,
      `mutation { reviewVersion(versionId: ${v12.version.id}, decision: REJECT, comments: "No") { action } }`,
    );
    const rejected = await t.http.get(new URL(next.body.url).pathname).set('Authorization', dev.jwt());
    expect(rejected.body).toMatchObject({ reviewed: true, active: false, passed_review: false });

    // Denied guids.
    const deny = `mutation { denyAddonGuid(guid: "banned@example.com", comments: "malware") }`;
    expect((await graphql(dev, deny)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await graphql(admin, deny)).body.data.denyAddonGuid).toBe(true);
    const refused = await put(
      dev,
      'banned@example.com',
      '1.0',
      await extension({ id: 'banned@example.com', version: '1.0' }),
    );
    expect([refused.status, refused.body]).toEqual([400, { error: 'Duplicate add-on ID found.' }]);
  }, 180_000);
});

describe('concurrent first uploads', () => {
  it('of add-ons with the same name all succeed, with distinct slugs', async () => {
    const dev = await developer();
    const guids = [1, 2, 3, 4].map((i) => `same-name-${i}@example.com`);
    const responses = await Promise.all(
      guids.map(async (guid) =>
        put(dev, guid, '1.0', await extension({ id: guid, version: '1.0', name: 'Same Name' })),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const slugs = await t
      .em()
      .getConnection()
      .execute<{ slug: string }[]>(`select slug from addons where guid like 'same-name-%' order by slug`);
    expect(new Set(slugs.map((r) => r.slug)).size).toBe(4);
  });
});
