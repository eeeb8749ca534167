import { createHash } from 'node:crypto';
import { Addon } from '../src/catalogue/addon.entity.js';
import { AddonStatus, App, Channel, FileStatus, versionInt } from '../src/catalogue/catalogue.enums.js';
import { AddonFile, Version, VersionCompat } from '../src/catalogue/version.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { extension } from './helpers/signing.js';

type Json = Record<string, any>;

const FIREFOX = '{ec8030f7-c20a-464f-9b0e-13a3a9e97384}';
const ANDROID = '{aa3c5121-dab2-40e2-81ca-7ea25febc110}';
const SITE = 'http://addons.test';
const HASH = `sha256:${'ab'.repeat(32)}`;

let t: TestApp;
let statements = 0;
let lastStatement = '';
let owner: { id: number; token: string };
let blockAdmin: string;
let reviewsAdmin: string;
/**
 * `main`: 1.0 [57.0, *], 2.0 [60.0, *] with release notes, 3.0 [100.0, 110.0], 3.5 [100.0, 110.0]
 * strict, 4.0 unlisted, 5.0 awaiting review, 6.0 deleted, 7.0 [200.0, *], 9.0 unsigned.
 */
let main: Addon;

async function sql(text: string, params: unknown[] = []) {
  return t.em().getConnection().execute(text, params);
}

async function signAll(addon: Addon) {
  await sql('update files set is_signed = true where version_id in (select id from versions where addon_id = ?)', [
    addon.id,
  ]);
}

async function gql(token: string, query: string, variables: Json = {}) {
  const res = await t.http.post('/graphql').set('Authorization', `Bearer ${token}`).send({ query, variables });
  expect(res.body.errors).toBeUndefined();
  return res.body.data as Json;
}

function check(params: Record<string, string | undefined>, path = '/update/VersionCheck.php') {
  const query = new URLSearchParams(
    Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString();
  return t.http.get(`${path}?${query}`);
}

/** What Firefox sends (its default extensions.update.url, filled in). */
const firefox = (guid: string, extra: Record<string, string | undefined> = {}) => ({
  reqVersion: '2',
  id: guid,
  version: '1.0',
  maxAppVersion: '*',
  status: 'userEnabled',
  appID: FIREFOX,
  appVersion: '130.0',
  appOS: 'Linux',
  appABI: 'x86_64-gcc3',
  locale: 'en-US',
  currentAppVersion: '130.0',
  updateType: '112',
  compatMode: 'normal',
  ...extra,
});

async function offered(guid: string, extra: Record<string, string | undefined> = {}): Promise<Json[] | null> {
  const res = await check(firefox(guid, extra));
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/json');
  if (!res.body.addons) return null;
  expect(Object.keys(res.body.addons)).toEqual([guid]);
  return res.body.addons[guid].updates;
}

const versionsOf = async (guid: string, extra: Record<string, string | undefined> = {}) =>
  (await offered(guid, extra))?.map((u) => u.version) ?? null;

async function fileOf(addon: Addon, version: string) {
  const [row] = await sql(
    'select f.id, f.filename from files f join versions v on v.id = f.version_id where v.addon_id = ? and v.version = ?',
    [addon.id, version],
  );
  return row as { id: number; filename: string };
}

beforeAll(async () => {
  t = await startTestApp({
    env: { JOB_WORKERS: 'false', SITE_URL: SITE },
    onQuery: (text) => {
      statements++;
      lastStatement = text;
    },
  });
  const user = await t.createUser({ session: true });
  owner = { id: user.id, token: user.sessionToken! };
  blockAdmin = (await t.createUser({ session: true, permission: ['Blocklist:Create'] })).sessionToken!;
  reviewsAdmin = (await t.createUser({ session: true, permission: ['Reviews:Admin'] })).sessionToken!;
  main = await createAddon(t.em(), {
    guid: 'main@updates.test',
    slug: 'main-updates',
    authors: [{ id: owner.id }],
    versions: [
      { version: '1.0', compat: { [App.BROWSER]: ['57.0', '*'] } },
      {
        version: '2.0',
        compat: { [App.BROWSER]: ['60.0', '*'] },
        releaseNotes: { 'en-US': 'Faster <b>tabs</b>\nand more', fr: 'Plus vite' },
      },
      { version: '3.0', compat: { [App.BROWSER]: ['100.0', '110.0'] } },
      { version: '3.5', compat: { [App.BROWSER]: ['100.0', '110.0'] }, strict: true },
      { version: '4.0', channel: Channel.UNLISTED },
      { version: '5.0', fileStatus: FileStatus.AWAITING_REVIEW },
      { version: '6.0', deleted: true },
      { version: '7.0', compat: { [App.BROWSER]: ['200.0', '*'] } },
      { version: '9.0' },
    ],
  });
  await signAll(main);
  await sql(
    `update files set is_signed = false where version_id = (select id from versions where addon_id = ? and version = '9.0')`,
    [main.id],
  );
}, 120_000);
afterAll(() => t?.close());

describe('the update manifest', () => {
  it('offers the newest signed, approved, listed, compatible version in the shape Firefox reads', async () => {
    const res = await check(firefox('main@updates.test', { compatMode: 'strict' }));
    expect(res.status).toBe(200);
    const file = await fileOf(main, '2.0');
    expect(res.body).toEqual({
      addons: {
        'main@updates.test': {
          updates: [
            {
              version: '2.0',
              update_link: `${SITE}/downloads/file/${file.id}/${file.filename}`,
              update_hash: HASH,
              applications: { gecko: { strict_min_version: '60.0' } },
              update_info_url: `${SITE}/%APP_LOCALE%/firefox/addon/main-updates/versions/2.0/updateinfo/`,
            },
          ],
        },
      },
    });
  });

  it('both paths answer; reqVersion and the installed copy’s parameters change nothing', async () => {
    const full = await check(firefox('main@updates.test'));
    const bare = await check(
      { id: 'main@updates.test', appID: FIREFOX, appVersion: '130.0', compatMode: 'normal' },
      '/update/',
    );
    expect(bare.status).toBe(200);
    expect(bare.text).toBe(full.text);
    const other = await check(
      firefox('main@updates.test', { version: '0.1', status: 'userDisabled', reqVersion: '1' }),
    );
    expect(other.text).toBe(full.text);
  });

  it('compatibility modes: strict (also when absent), normal, ignore (and any other value)', async () => {
    // At 130.0: 3.0 and 3.5 end at 110.0; 3.5's file asks for strict compatibility.
    expect(await versionsOf('main@updates.test', { compatMode: 'strict' })).toEqual(['2.0']);
    expect(await versionsOf('main@updates.test', { compatMode: undefined })).toEqual(['2.0']);
    expect(await versionsOf('main@updates.test', { compatMode: 'normal' })).toEqual(['3.0']);
    const ignored = await offered('main@updates.test', { compatMode: 'ignore' });
    expect(ignored).toMatchObject([
      { version: '3.5', applications: { gecko: { strict_min_version: '100.0', strict_max_version: '110.0' } } },
    ]);
    expect(ignored?.[0]).not.toHaveProperty('update_info_url');
    expect(await versionsOf('main@updates.test', { compatMode: 'whatever' })).toEqual(['3.5']);
    // Within 3.5's range, strict offers it, with its maximum.
    expect(await versionsOf('main@updates.test', { compatMode: 'strict', appVersion: '105.0' })).toEqual(['3.5']);
    // 3.0's file does not ask for strict compatibility: no maximum is sent.
    const normal = await offered('main@updates.test', { compatMode: 'normal' });
    expect(normal?.[0].applications).toEqual({ gecko: { strict_min_version: '100.0' } });
  });

  it('the caller’s version: minimums bind in every mode; read from its start; a newer one gets a newer version', async () => {
    expect(await versionsOf('main@updates.test', { appVersion: '250.0', compatMode: 'strict' })).toEqual(['7.0']);
    expect(await versionsOf('main@updates.test', { appVersion: '50.0', compatMode: 'ignore' })).toEqual([]);
    expect(await versionsOf('main@updates.test', { appVersion: '130.0esr', compatMode: 'strict' })).toEqual(['2.0']);
    expect(await versionsOf('main@updates.test', { appVersion: '130.0a1', compatMode: 'strict' })).toEqual(['2.0']);
    expect(await versionsOf('main@updates.test', { appVersion: 'garbage', compatMode: 'ignore' })).toEqual([]);
    expect(await versionsOf('main@updates.test', { appVersion: '1'.repeat(100), compatMode: 'ignore' })).toEqual([]);
  });

  it('another application: only versions compatible with it', async () => {
    expect(await versionsOf('main@updates.test', { appID: ANDROID, appVersion: '130.0' })).toEqual([]);
    const android = await createAddon(t.em(), {
      guid: 'android@updates.test',
      slug: 'android-updates',
      versions: [
        { version: '1.0', compat: { [App.ANDROID]: ['120.0', '*'], [App.BROWSER]: ['57.0', '*'] } },
        { version: '2.0' },
      ],
    });
    await signAll(android);
    expect(await versionsOf('android@updates.test', { appID: ANDROID, appVersion: '130.0' })).toEqual(['1.0']);
    expect(await versionsOf('android@updates.test')).toEqual(['2.0']);
    const notes = await createAddon(t.em(), {
      guid: 'notes-android@updates.test',
      slug: 'notes-android',
      versions: [{ version: '1.0', compat: { [App.ANDROID]: ['120.0', '*'] }, releaseNotes: { 'en-US': 'x' } }],
    });
    await signAll(notes);
    const [update] = (await offered('notes-android@updates.test', { appID: ANDROID }))!;
    expect(update.update_info_url).toBe(`${SITE}/%APP_LOCALE%/android/addon/notes-android/versions/1.0/updateinfo/`);
  });

  it('the id is matched without regard to case, and the answer is keyed by the id asked', async () => {
    const res = await check(firefox('MAIN@Updates.Test'));
    expect(Object.keys(res.body.addons)).toEqual(['MAIN@Updates.Test']);
    expect(res.body.addons['MAIN@Updates.Test'].updates[0].version).toBe('3.0');
  });

  it('a repeated parameter: the last value counts', async () => {
    const res = await t.http.get(
      `/update/?id=nobody@updates.test&id=main@updates.test&appID=${encodeURIComponent(FIREFOX)}&appVersion=50.0&appVersion=130.0&compatMode=strict`,
    );
    expect(res.body.addons['main@updates.test'].updates[0].version).toBe('2.0');
  });
});

describe('refusals', () => {
  it('a missing or empty id, appID or appVersion, or an unknown application: 400 {}', async () => {
    for (const missing of ['id', 'appID', 'appVersion']) {
      for (const value of [undefined, '']) {
        const res = await check(firefox('main@updates.test', { [missing]: value }));
        expect(res.status).toBe(400);
        expect(res.text).toBe('{}');
        expect(res.headers['cache-control']).toBe('public, max-age=3600');
      }
    }
    const thunderbird = await check(firefox('main@updates.test', { appID: '{3550f703-e582-4d05-9a08-453d09bdfdc6}' }));
    expect(thunderbird.status).toBe(400);
    const bare = await t.http.get('/update/VersionCheck.php');
    expect([bare.status, bare.text]).toEqual([400, '{}']);
  });

  it('an unknown id, or one longer than any id: {} (no statement for the impossible one)', async () => {
    const unknown = await check(firefox('nobody@updates.test'));
    expect([unknown.status, unknown.text]).toEqual([200, '{}']);
    const before = statements;
    const long = await check(firefox(`${'x'.repeat(256)}@updates.test`));
    expect([long.status, long.text]).toEqual([200, '{}']);
    expect(statements).toBe(before);
  });

  it('add-ons that are not public get {}: disabled by the developer or the vendor, deleted, not yet approved', async () => {
    const cases: [string, { disabledByUser?: boolean; status?: AddonStatus }][] = [
      ['user-disabled@updates.test', { disabledByUser: true }],
      ['vendor-disabled@updates.test', { status: AddonStatus.DISABLED }],
      ['deleted@updates.test', { status: AddonStatus.DELETED }],
      ['nominated@updates.test', { status: AddonStatus.NOMINATED }],
      ['incomplete@updates.test', { status: AddonStatus.INCOMPLETE }],
    ];
    for (const [guid, fields] of cases) {
      const addon = await createAddon(t.em(), { guid, ...fields });
      await signAll(addon);
      const res = await check(firefox(guid));
      expect([guid, res.status, res.text]).toEqual([guid, 200, '{}']);
    }
  });

  it('a public add-on with nothing to offer: an empty list (unlisted, unsigned, unapproved, deleted versions)', async () => {
    const addon = await createAddon(t.em(), {
      guid: 'nothing@updates.test',
      versions: [
        { version: '1.0' },
        { version: '2.0', channel: Channel.UNLISTED },
        { version: '3.0', fileStatus: FileStatus.AWAITING_REVIEW },
        { version: '4.0', fileStatus: FileStatus.DISABLED },
        { version: '5.0', deleted: true },
      ],
    });
    // Signed: every version but 1.0 (the only approved listed one).
    await signAll(addon);
    await sql(
      `update files set is_signed = false where version_id = (select id from versions where addon_id = ? and version = '1.0')`,
      [addon.id],
    );
    expect(await versionsOf('nothing@updates.test')).toEqual([]);
  });
});

describe('caching', () => {
  it('Cache-Control as the original, validators, 304 on If-None-Match and If-Modified-Since, a tag per add-on', async () => {
    const first = await check(firefox('main@updates.test'));
    expect(first.headers['cache-control']).toBe('public, max-age=3600');
    expect(first.headers.etag).toMatch(/^"[\w-]{22}"$/);
    expect(new Date(first.headers['last-modified']).getTime()).toBeLessThanOrEqual(Date.now());
    expect(first.headers['surrogate-key']).toBe(`a:${main.id}`);
    expect(first.headers['cache-tag']).toBe(`a:${main.id}`);
    const etag = first.headers.etag;

    const same = await check(firefox('main@updates.test')).set('If-None-Match', etag);
    expect(same.status).toBe(304);
    expect(same.text).toBe('');
    expect(same.headers.etag).toBe(etag);
    expect((await check(firefox('main@updates.test')).set('If-None-Match', `W/${etag}, "other"`)).status).toBe(304);
    expect((await check(firefox('main@updates.test')).set('If-None-Match', '"other"')).status).toBe(200);
    // If-None-Match wins over If-Modified-Since.
    const both = await check(firefox('main@updates.test'))
      .set('If-None-Match', '"other"')
      .set('If-Modified-Since', first.headers['last-modified']);
    expect(both.status).toBe(200);

    const since = await check(firefox('main@updates.test')).set('If-Modified-Since', first.headers['last-modified']);
    expect(since.status).toBe(304);
    const earlier = new Date(Date.parse(first.headers['last-modified']) - 1000).toUTCString();
    expect((await check(firefox('main@updates.test')).set('If-Modified-Since', earlier)).status).toBe(200);
    expect((await check(firefox('main@updates.test')).set('If-Modified-Since', 'not a date')).status).toBe(200);

    const head = await t.http.head(`/update/?${new URLSearchParams(firefox('main@updates.test'))}`);
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(etag);
  });

  it('one statement for an uncached check, one (the tag) for a cached one', async () => {
    const params = firefox('main@updates.test', { appVersion: '131.0', compatMode: 'strict' });
    let before = statements;
    const first = await check(params);
    expect(statements - before).toBe(1);
    expect(lastStatement).toContain('from addons a');
    before = statements;
    const again = await check(params);
    expect(statements - before).toBe(1);
    expect(lastStatement).toContain('select tag, version::text as version from cache_tags');
    expect(again.text).toBe(first.text);
    expect(again.headers['last-modified']).toBe(first.headers['last-modified']);
    before = statements;
    await check(firefox('nobody-else@updates.test'));
    expect(statements - before).toBe(1);
  });

  it('answers are outdated when a version is deleted, the add-on disabled or re-enabled, or a block changes', async () => {
    const addon = await createAddon(t.em(), {
      guid: 'changing@updates.test',
      authors: [{ id: owner.id }],
      versions: [{ version: '1.0' }, { version: '2.0' }, { version: '3.0' }],
    });
    await signAll(addon);
    const guid = 'changing@updates.test';
    expect(await versionsOf(guid)).toEqual(['3.0']);
    expect(await versionsOf(guid)).toEqual(['3.0']);

    const [v3] = await sql(`select id from versions where addon_id = ? and version = '3.0'`, [addon.id]);
    await gql(
      owner.token,
      'mutation($a: String!, $v: Int!) { deleteAddonVersion(addon: $a, versionId: $v) { __typename } }',
      {
        a: String(addon.id),
        v: v3.id,
      },
    );
    expect(await versionsOf(guid)).toEqual(['2.0']);

    await gql(
      owner.token,
      'mutation($a: String!) { setAddonDisabledByDeveloper(addon: $a, disabled: true) { __typename } }',
      {
        a: String(addon.id),
      },
    );
    expect((await check(firefox(guid))).text).toBe('{}');
    await gql(
      owner.token,
      'mutation($a: String!) { setAddonDisabledByDeveloper(addon: $a, disabled: false) { __typename } }',
      {
        a: String(addon.id),
      },
    );
    expect(await versionsOf(guid)).toEqual(['2.0']);

    await gql(
      reviewsAdmin,
      'mutation($a: String!) { setAddonDisabledByVendor(addon: $a, disabled: true, comment: "policy") { __typename } }',
      { a: String(addon.id) },
    );
    expect((await check(firefox(guid))).text).toBe('{}');
    await gql(
      reviewsAdmin,
      'mutation($a: String!) { setAddonDisabledByVendor(addon: $a, disabled: false, comment: "ok") { __typename } }',
      { a: String(addon.id) },
    );
    expect(await versionsOf(guid)).toEqual(['2.0']);
  });

  it('blocked versions are never offered: the newest unblocked one is, as soon as the block commits', async () => {
    const addon = await createAddon(t.em(), {
      guid: 'blocked@updates.test',
      versions: [{ version: '1.0' }, { version: '2.0' }, { version: '2.5b1' }, { version: '3.0' }],
    });
    await signAll(addon);
    const guid = 'blocked@updates.test';
    const first = await check(firefox(guid));
    expect(first.body.addons[guid].updates[0].version).toBe('3.0');

    const created = await gql(blockAdmin, 'mutation($input: BlockInput!) { createBlock(input: $input) { id } }', {
      input: { guid: 'Blocked@Updates.Test', minVersion: '2.1', maxVersion: '*' },
    });
    // The client's copy is outdated: no 304.
    const after = await check(firefox(guid)).set('If-None-Match', first.headers.etag);
    expect(after.status).toBe(200);
    expect(after.body.addons[guid].updates.map((u: Json) => u.version)).toEqual(['2.0']);

    const id = created.createBlock.id;
    await gql(blockAdmin, 'mutation($id: Int!, $input: BlockInput!) { updateBlock(id: $id, input: $input) { id } }', {
      id,
      input: { minVersion: '0', maxVersion: '*' },
    });
    expect(await versionsOf(guid)).toEqual([]);
    await gql(blockAdmin, 'mutation($id: Int!) { deleteBlock(id: $id) }', { id });
    expect(await versionsOf(guid)).toEqual(['3.0']);
  });

  it('a version signed by the signing pipeline is offered at once, and its link serves bytes of the hash offered', async () => {
    const addon = await createAddon(t.em(), {
      guid: 'signed@updates.test',
      slug: 'signed-updates',
      versions: [{ version: '1.0' }],
    });
    await signAll(addon);
    const guid = 'signed@updates.test';
    const before = await check(firefox(guid));
    expect(before.body.addons[guid].updates[0].version).toBe('1.0');

    const em = t.em();
    const version = em.create(Version, {
      addon: em.getReference(Addon, addon.id),
      version: '1.1',
      channel: Channel.LISTED,
      releaseNotes: null,
    });
    em.create(VersionCompat, {
      version,
      application: App.BROWSER,
      min: '57.0',
      max: '*',
      minInt: versionInt('57.0')!,
      maxInt: versionInt('*')!,
    });
    const file = em.create(AddonFile, {
      version,
      filename: 'signed-updates-1.1.xpi',
      status: FileStatus.AWAITING_REVIEW,
      storageKey: `uploads/updates-test/${addon.id}-1.1.xpi`,
    } as never);
    await em.flush();
    await t.app.services.files.put(file.storageKey, await extension({ id: guid, version: '1.1' }));
    // Awaiting review, unsigned: not offered.
    expect(await versionsOf(guid)).toEqual(['1.0']);

    await t.app.services.processor.signVersion(version.id);
    const after = await check(firefox(guid)).set('If-None-Match', before.headers.etag);
    expect(after.status).toBe(200);
    const [update] = after.body.addons[guid].updates;
    expect(update).toMatchObject({
      version: '1.1',
      update_link: `${SITE}/downloads/file/${file.id}/signed-updates-1.1.xpi`,
    });
    expect(update.update_hash).toMatch(/^sha256:[0-9a-f]{64}$/);

    const download = await t.http
      .get(new URL(update.update_link).pathname)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(download.status).toBe(200);
    expect(
      `sha256:${createHash('sha256')
        .update(download.body as Buffer)
        .digest('hex')}`,
    ).toBe(update.update_hash);
  }, 120_000);
});

describe('release notes page (update_info_url)', () => {
  it('serves the notes in the asked locale, else the default one, escaped, as XHTML', async () => {
    const fr = await t.http.get('/fr/firefox/addon/main-updates/versions/2.0/updateinfo/');
    expect(fr.status).toBe(200);
    expect(fr.headers['content-type']).toBe('application/xhtml+xml; charset=utf-8');
    expect(fr.headers['cache-control']).toBe('public, max-age=3600');
    expect(fr.text).toContain('<p>Plus vite</p>');
    expect(fr.text).toContain('lang="fr"');
    const de = await t.http.get(`/de/firefox/addon/${main.id}/versions/2.0/updateinfo/`);
    expect(de.text).toContain('<p>Faster &lt;b&gt;tabs&lt;/b&gt;<br/>\nand more</p>');
    const byGuid = await t.http.get('/en-US/firefox/addon/main%40updates.test/versions/2.0/updateinfo/');
    expect(byGuid.status).toBe(200);
  });

  it('not found: no notes, unlisted or unknown versions, add-ons that are not public', async () => {
    for (const path of [
      '/en-US/firefox/addon/main-updates/versions/1.0/updateinfo/',
      '/en-US/firefox/addon/main-updates/versions/4.0/updateinfo/',
      '/en-US/firefox/addon/main-updates/versions/8.8/updateinfo/',
      '/en-US/firefox/addon/nobody/versions/2.0/updateinfo/',
      `/en-US/firefox/addon/${'x'.repeat(300)}/versions/2.0/updateinfo/`,
    ]) {
      const res = await t.http.get(path);
      expect([path, res.status]).toEqual([path, 404]);
    }
  });
});
