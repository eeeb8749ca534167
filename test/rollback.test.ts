import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Addon } from '../src/catalogue/addon.entity.js';
import { AddonStatus, AddonType, FileStatus } from '../src/catalogue/catalogue.enums.js';
import { AddonActivity } from '../src/catalogue/lifecycle/activity.entity.js';
import { AddonFile, Version } from '../src/catalogue/version.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { createAddon, firstExtensionCategoryId } from './helpers/catalogue.js';
import { extension, readCaPem, signedAndApproved, unzip, verifySignedPackage, waitFor } from './helpers/signing.js';

type Json = Record<string, any>;

let t: TestApp;
let dev: KeyCaller;
let stranger: KeyCaller;
let reviewer: string;
let editor: string;
let blockAdmin: string;
let categoryId: number;

const ROLLBACK = `mutation($addon: String!, $version: Int!, $newVersion: String!) {
  rollbackVersion(addon: $addon, version: $version, newVersion: $newVersion) {
    id version channel releaseNotes license { id } files { id status }
  }
}`;

function gql(auth: string | null, query: string, variables: Json = {}) {
  const req = t.http.post('/graphql').send({ query, variables });
  return auth ? req.set('Authorization', auth) : req;
}

function rollbackGql(auth: string | null, addon: string, version: number, newVersion: string) {
  return gql(auth, ROLLBACK, { addon, version, newVersion });
}

function rollbackRest(auth: string | null, addon: string, version: number | string, body: unknown) {
  const req = t.http.post(`/api/v5/addons/addon/${encodeURIComponent(addon)}/versions/${version}/rollback/`);
  return (auth ? req.set('Authorization', auth) : req).send(body as object);
}

/** The single GraphQL error's code and, for validation, its fields. */
async function refusal(res: Promise<{ body: Json }> | { body: Json }) {
  const body = (await res).body;
  expect(body.errors).toHaveLength(1);
  expect(body.data?.rollbackVersion ?? null).toBeNull();
  return { code: body.errors[0].extensions.code as string, fields: body.errors[0].extensions.fields as Json };
}

async function versionByString(addon: Addon, version: string): Promise<Version> {
  return waitFor(`version ${version}`, () => t.em().findOne(Version, { addon: addon.id, version }));
}

const signedFile = (versionId: number) => signedAndApproved(() => t.em(), versionId);

/** Uploads a version through the signing API; a listed one is approved by a reviewer; returns it signed. */
async function uploadSigned(addon: Addon, version: string, channel: 'listed' | 'unlisted'): Promise<Version> {
  const res = await t.http
    .put(`/api/v4/addons/${encodeURIComponent(addon.guid!)}/versions/${version}/`)
    .set('Authorization', dev.jwt())
    .field('channel', channel)
    .attach('upload', await extension({ id: addon.guid, version }), 'addon.xpi');
  expect(res.status).toBe(202);
  const created = await versionByString(addon, version);
  if (channel === 'listed') {
    const approve = await gql(
      reviewer,
      `mutation { reviewVersion(versionId: ${created.id}, decision: APPROVE) { action } }`,
    );
    expect(approve.body.errors).toBeUndefined();
  }
  await signedFile(created.id);
  return created;
}

/** A fresh add-on of the developer's with listing metadata (so listed uploads are accepted). */
async function freshAddon(word: string, spec: Json = {}): Promise<Addon> {
  return createAddon(t.em(), {
    guid: `${word}@rollback.test`,
    slug: `rollback-${word}`,
    name: { 'en-US': `Rollback ${word}` },
    categoryIds: [categoryId],
    authors: [{ id: dev.id }],
    versions: [],
    ...spec,
  } as never);
}

async function packageOf(versionId: number): Promise<Map<string, Buffer>> {
  const file = await t.em().findOneOrFail(AddonFile, { version: versionId });
  return unzip((await t.app.services.files.get(file.storageKey))!);
}

beforeAll(async () => {
  t = await startTestApp({
    env: { SIGNING_CA_KEY_BITS: '2048', SIGNING_KEY_POOL: '1', SITE_URL: 'http://addons.test', VENDOR_NAME: 'Vendor' },
  });
  dev = await keyCaller(t);
  stranger = await keyCaller(t);
  reviewer = `Bearer ${(await t.createUser({ session: true, permission: ['Addons:Review'] })).sessionToken}`;
  editor = `Bearer ${(await t.createUser({ session: true, permission: ['Addons:Edit'] })).sessionToken}`;
  blockAdmin = `Bearer ${(await t.createUser({ session: true, permission: ['Blocklist:Create'] })).sessionToken}`;
  categoryId = await firstExtensionCategoryId(t.em());
}, 120_000);
afterAll(() => t?.close());

describe('rolling back a listed release (GraphQL)', () => {
  let addon: Addon;
  let v10: Version;
  let v11: Version;

  beforeAll(async () => {
    addon = await freshAddon('listed');
    v10 = await uploadSigned(addon, '1.0', 'listed');
    v11 = await uploadSigned(addon, '1.1', 'listed');
    await t.em().nativeUpdate(Version, { id: v10.id }, { releaseNotes: { 'en-US': 'The good one.' } });
  }, 240_000);

  it('re-publishes 1.0 as 1.2: manifest rewritten, other files equal, signed anew, current once signed', async () => {
    const res = await rollbackGql(dev.session, addon.guid!, v10.id, '1.2');
    expect(res.body.errors).toBeUndefined();
    const created = res.body.data.rollbackVersion;
    expect(created).toMatchObject({ version: '1.2', channel: 'LISTED', releaseNotes: { 'en-US': 'The good one.' } });
    expect(created.license?.id ?? null).toBe((await t.em().findOneOrFail(Version, v10.id)).license?.id ?? null);

    const file = await signedFile(created.id);
    expect(file.filename).toMatch(/-1\.2\.xpi$/);
    const rolled = await packageOf(created.id);
    const original = await packageOf(v10.id);
    for (const name of ['META-INF/mozilla.rsa', 'META-INF/mozilla.sf', 'META-INF/manifest.mf', 'META-INF/cose.sig']) {
      expect(rolled.has(name)).toBe(true);
    }
    expect(rolled.get('META-INF/mozilla.rsa')!.equals(original.get('META-INF/mozilla.rsa')!)).toBe(false);
    const files = (m: Map<string, Buffer>) => [...m.keys()].filter((n) => !n.startsWith('META-INF/')).sort();
    expect(files(rolled)).toEqual(files(original));
    for (const name of files(original).filter((n) => n !== 'manifest.json')) {
      expect(rolled.get(name)!.equals(original.get(name)!)).toBe(true);
    }
    const manifest = JSON.parse(rolled.get('manifest.json')!.toString());
    const before = JSON.parse(original.get('manifest.json')!.toString());
    expect(manifest).toEqual({ ...before, version: '1.2' });
    const bytes = (await t.app.services.files.get(file.storageKey))!;
    expect(await verifySignedPackage(bytes, readCaPem(t.app.services.config.dataDir))).toContain(addon.guid);

    // No human review: never queued (the source's review date, no review requested), approved by
    // the signing job, and the add-on's current version.
    const copy = await t.em().findOneOrFail(Version, created.id);
    const source = await t.em().findOneOrFail(Version, v10.id);
    expect(source.reviewed).not.toBeNull();
    expect(copy.reviewed?.getTime()).toBe(source.reviewed!.getTime());
    const notes = await t
      .em()
      .getConnection()
      .execute<{ n: number }[]>('select count(*)::int as n from review_notes where version_id = ?', [created.id]);
    expect(Number(notes[0].n)).toBe(0);
    const detail = await t.http.get(`/api/v5/addons/addon/${addon.guid}/`);
    expect(detail.body).toMatchObject({ status: 'public', current_version: { version: '1.2' } });
    const waiting = await t
      .em()
      .getConnection()
      .execute<{ n: number }[]>('select count(*)::int as n from needs_human_review where version_id = ?', [created.id]);
    expect(Number(waiting[0].n)).toBe(0);

    // The audit log, through GraphQL as the authors read it.
    const log = await gql(
      dev.session,
      `query($a: String!) { addonActivity(addon: $a, actions: [VERSION_ROLLBACK]) { items { action user { id } version versionId } } }`,
      { a: addon.guid },
    );
    expect(log.body.errors).toBeUndefined();
    expect(log.body.data.addonActivity.items).toEqual([
      { action: 'VERSION_ROLLBACK', user: { id: dev.id }, version: '1.2', versionId: created.id },
    ]);
    const entry = await t.em().findOneOrFail(AddonActivity, { addon: addon.id, action: 'version_rollback' });
    expect(entry.details).toEqual({ fromVersionId: v10.id, fromVersion: '1.0', version: '1.2' });

    // The authors are mailed.
    const outbox = join(t.app.services.config.dataDir, 'mail', 'outbox');
    const mail = await waitFor('the rollback mail', async () =>
      readdirSync(outbox)
        .map((f) => readFileSync(join(outbox, f), 'utf8'))
        .find((m) => m.includes(`Rollback: Rollback listed 1.2`)),
    );
    expect(mail).toContain('Version 1.0 of Rollback listed is being re-published as version 1.2.');
  }, 120_000);

  it('refuses the latest version, versions before the previous one, and bad, used or smaller strings', async () => {
    const latest = await versionByString(addon, '1.2');
    expect(await refusal(rollbackGql(dev.session, addon.guid!, latest.id, '1.3'))).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { non_field_errors: ['This is already the latest approved version of its channel.'] },
    });
    expect((await refusal(rollbackGql(dev.session, addon.guid!, v10.id, '1.3'))).fields).toEqual({
      non_field_errors: [
        'A listed add-on can only be rolled back to the approved listed version before its latest one.',
      ],
    });
    await t
      .em()
      .getConnection()
      .execute('insert into versions (addon_id, version, channel, deleted) values (?, ?, 1, true)', [addon.id, '7.0']);
    const cases: [string, string][] = [
      ['1.2', 'Version 1.2 already exists.'],
      ['7.0', 'Version 7.0 was uploaded before and deleted.'],
      ['1.1.5', 'Version 1.1.5 must be greater than the latest version 1.2.'],
      ['1.0', 'Version 1.0 already exists.'],
      ['two words', 'Version numbers should only contain letters, numbers, and these punctuation characters: +*.-_.'],
      ['1.'.repeat(20), 'Version numbers should have fewer than 32 characters.'],
      ['  ', 'This field may not be blank.'],
    ];
    for (const [newVersion, message] of cases) {
      const { code, fields } = await refusal(rollbackGql(dev.session, addon.guid!, v11.id, newVersion));
      expect([newVersion, code, fields]).toEqual([newVersion, 'VALIDATION_FAILED', { version: [message] }]);
    }
  });

  it('refuses strangers (forbidden), anonymous callers (401) and unknown versions (404); Addons:Edit may', async () => {
    expect((await refusal(rollbackGql(stranger.session, addon.guid!, v11.id, '1.3'))).code).toBe('FORBIDDEN');
    expect((await refusal(rollbackGql(null, addon.guid!, v11.id, '1.3'))).code).toBe('UNAUTHENTICATED');
    expect((await refusal(rollbackGql(dev.session, addon.guid!, 999_999, '1.3'))).code).toBe('NOT_FOUND');
    expect((await refusal(rollbackGql(dev.session, 'nothing@rollback.test', v11.id, '1.3'))).code).toBe('NOT_FOUND');
    // An admin's rollback (Addons:Edit) is refused only by the rules: 1.1 is no longer the previous one.
    expect((await refusal(rollbackGql(editor, addon.guid!, v10.id, '1.3'))).code).toBe('VALIDATION_FAILED');
  });
});

describe('refusals of versions and add-ons (v5 REST)', () => {
  /** Seeded add-ons (approved files marked signed): the refusals come before any package is read. */
  async function seeded(word: string, versions: Json[], spec: Json = {}) {
    const addon = await freshAddon(word, { versions, ...spec });
    await t
      .em()
      .getConnection()
      .execute('update files set is_signed = true where version_id in (select id from versions where addon_id = ?)', [
        addon.id,
      ]);
    const ids = Object.fromEntries(
      (await t.em().find(Version, { addon: addon.id })).map((v) => [v.version, v.id] as const),
    );
    return { addon, ids };
  }

  it('answers field errors, 401, 403 and 404 in the original shapes', async () => {
    const { addon, ids } = await seeded('rest', [
      { version: '1.0' },
      { version: '1.1', fileStatus: FileStatus.AWAITING_REVIEW },
      { version: '1.5' },
      { version: '2.0' },
    ]);
    const guid = addon.guid!;
    // Not approved.
    const pending = await rollbackRest(dev.jwt(), guid, ids['1.1'], { version: '3.0' });
    expect([pending.status, pending.body]).toEqual([
      400,
      { non_field_errors: ['Only an approved, signed version can be rolled back to.'] },
    ]);
    const smaller = await rollbackRest(dev.jwt(), guid, ids['1.5'], { version: '1.9' });
    expect([smaller.status, smaller.body]).toEqual([
      400,
      { version: ['Version 1.9 must be greater than the latest version 2.0.'] },
    ]);
    const missing = await rollbackRest(dev.jwt(), guid, ids['1.5'], {});
    expect([missing.status, missing.body]).toEqual([400, { version: ['This field is required.'] }]);
    const notString = await rollbackRest(dev.jwt(), guid, ids['1.5'], { version: 3 });
    expect([notString.status, notString.body]).toEqual([400, { version: ['Not a valid string.'] }]);
    expect((await rollbackRest(stranger.jwt(), guid, ids['1.5'], { version: '3.0' })).status).toBe(403);
    expect((await rollbackRest(null, guid, ids['1.5'], { version: '3.0' })).status).toBe(401);
    expect((await rollbackRest(dev.jwt(), guid, 'abc', { version: '3.0' })).status).toBe(404);
    expect((await rollbackRest(dev.jwt(), guid, 999_999, { version: '3.0' })).status).toBe(404);
    const other = await seeded('other', [{ version: '1.0' }, { version: '2.0' }]);
    expect((await rollbackRest(dev.jwt(), guid, other.ids['1.0'], { version: '3.0' })).status).toBe(404);
  });

  it('refuses unlisted add-ons to strangers as unknown (404)', async () => {
    const { addon, ids } = await seeded('hidden', [
      { version: '1.0', channel: 2 },
      { version: '2.0', channel: 2 },
    ]);
    await t.em().nativeUpdate(Addon, { id: addon.id }, { status: AddonStatus.INCOMPLETE });
    expect((await rollbackRest(stranger.jwt(), addon.guid!, ids['1.0'], { version: '3.0' })).status).toBe(404);
  });

  it('refuses disabled add-ons, and deleted ones as unknown', async () => {
    const { addon, ids } = await seeded('disabled', [{ version: '1.0' }, { version: '2.0' }]);
    await t.em().nativeUpdate(Addon, { id: addon.id }, { disabledByUser: true });
    const hidden = await rollbackRest(dev.jwt(), addon.guid!, ids['1.0'], { version: '3.0' });
    expect([hidden.status, hidden.body]).toEqual([
      400,
      { non_field_errors: ['You cannot roll back a version of a disabled add-on.'] },
    ]);
    await t.em().nativeUpdate(Addon, { id: addon.id }, { disabledByUser: false, status: AddonStatus.DISABLED });
    expect((await rollbackRest(dev.jwt(), addon.guid!, ids['1.0'], { version: '3.0' })).body).toEqual({
      non_field_errors: ['You cannot roll back a version of a disabled add-on.'],
    });
    // A deleted add-on is unknown, to its authors too.
    await t.em().nativeUpdate(Addon, { id: addon.id }, { status: AddonStatus.DELETED });
    expect((await rollbackRest(dev.jwt(), addon.guid!, ids['1.0'], { version: '3.0' })).status).toBe(404);
  });

  it('refuses add-ons that are not extensions, as the original does', async () => {
    const { addon, ids } = await seeded('theme', [{ version: '1.0' }, { version: '2.0' }], {
      type: AddonType.STATICTHEME,
    });
    const res = await rollbackRest(dev.jwt(), addon.guid!, ids['1.0'], { version: '3.0' });
    expect([res.status, res.body]).toEqual([400, { non_field_errors: ['Only extensions can be rolled back.'] }]);
  });

  it('refuses across a block: a blocked source version, or a new version in the block range', async () => {
    const { addon, ids } = await seeded('blocked', [{ version: '1.0' }, { version: '2.0' }]);
    const block = await gql(blockAdmin, `mutation($input: BlockInput!) { createBlock(input: $input) { id } }`, {
      input: { guid: addon.guid, minVersion: '0.5', maxVersion: '1.0', reason: 'Bad' },
    });
    expect(block.body.errors).toBeUndefined();
    const source = await rollbackRest(dev.jwt(), addon.guid!, ids['1.0'], { version: '3.0' });
    expect([source.status, source.body]).toEqual([
      400,
      { non_field_errors: ['Version 1.0 is blocked: it cannot be re-published.'] },
    ]);
    await t
      .em()
      .getConnection()
      .execute(`update blocks set min_version = '2.5', max_version = '*' where lower(guid) = lower(?)`, [addon.guid]);
    const target = await rollbackRest(dev.jwt(), addon.guid!, ids['1.0'], { version: '3.0' });
    expect([target.status, target.body]).toEqual([
      400,
      { version: ['Version 3.0 is covered by a block of this add-on.'] },
    ]);
  });
});

describe('rolling back an unlisted version (v5 REST)', () => {
  it('answers 201 with the v5 version detail of the new unlisted version, signed anew', async () => {
    const addon = await freshAddon('unlisted');
    const v10 = await uploadSigned(addon, '1.0', 'unlisted');
    await uploadSigned(addon, '1.1', 'unlisted');
    const v12 = await uploadSigned(addon, '1.2', 'unlisted');
    const latest = await rollbackRest(dev.jwt(), addon.guid!, v12.id, { version: '1.3' });
    expect([latest.status, latest.body]).toEqual([
      400,
      { non_field_errors: ['This is already the latest approved version of its channel.'] },
    ]);
    // Without its upload the signed file is copied, its signature files dropped.
    await t.em().getConnection().execute('delete from file_uploads where created_version_id = ?', [v10.id]);
    const res = await rollbackRest(dev.jwt(), addon.guid!, v10.id, { version: '1.3' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      version: '1.3',
      channel: 'unlisted',
      file: { id: expect.any(Number) },
    });
    const file = await signedFile(res.body.id);
    const rolled = await packageOf(res.body.id);
    const original = await packageOf(v10.id);
    expect(JSON.parse(rolled.get('manifest.json')!.toString())).toEqual({
      ...JSON.parse(original.get('manifest.json')!.toString()),
      version: '1.3',
    });
    expect(rolled.get('background.js')!.equals(original.get('background.js')!)).toBe(true);
    expect([...rolled.keys()].sort()).toEqual([...original.keys()].sort());
    expect(rolled.get('META-INF/cose.sig')!.equals(original.get('META-INF/cose.sig')!)).toBe(false);
    const bytes = (await t.app.services.files.get(file.storageKey))!;
    expect(await verifySignedPackage(bytes, readCaPem(t.app.services.config.dataDir))).toContain(addon.guid);
    expect(file.isSigned).toBe(true);
    const logged = await t.em().count(AddonActivity, { addon: addon.id, action: 'version_rollback' });
    expect(logged).toBe(1);
    const detail = await t.http
      .get(`/api/v5/addons/addon/${addon.guid}/versions/${res.body.id}/`)
      .set('Authorization', dev.jwt());
    expect(detail.body).toMatchObject({ version: '1.3', file: { status: 'public' } });

    // Addons:Edit rolls back an add-on it does not author (and whose unlisted versions it does not review).
    const v11 = await versionByString(addon, '1.1');
    const byEditor = await rollbackGql(editor, addon.guid!, v11.id, '1.4');
    expect(byEditor.body.errors).toBeUndefined();
    expect(byEditor.body.data.rollbackVersion).toMatchObject({ version: '1.4', channel: 'UNLISTED' });
    await signedFile(byEditor.body.data.rollbackVersion.id);
  }, 180_000);
});
