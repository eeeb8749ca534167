import { AddonStatus, AddonType, App, FileStatus } from '../src/catalogue/catalogue.enums.js';
import { License } from '../src/catalogue/license.entity.js';
import { AddonActivity } from '../src/catalogue/lifecycle/activity.entity.js';
import { AddonFile, Version, VersionCompat } from '../src/catalogue/version.entity.js';
import { type createAddon } from './helpers/catalogue.js';
import type { KeyCaller } from './helpers/callers.js';
import { FORBIDDEN, as, developerCallers, ownedAddon as ownedAddonOf } from './fixtures/developer-callers.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { extension, waitFor } from './helpers/signing.js';

/**
 * v5 version edit (issue 37): `PATCH /api/v5/addons/addon/<addon>/versions/<id>/` with
 * `approval_notes`, `is_disabled`, `license`, `custom_license` and `compatibility`, over
 * `editVersion(fields:)`; and what the version's developer view shows of them.
 */
let t: TestApp;
let owner: KeyCaller;
let developer: string;
let stranger: string;
let reviewer: string;

beforeAll(async () => {
  t = await startTestApp();
  ({ owner, developer, stranger } = await developerCallers(t));
  reviewer = `Bearer ${(await t.createUser({ username: 'reviewer', session: true, permission: ['Addons:Review'] })).sessionToken}`;
  const em = t.em();
  for (const app of [App.BROWSER, App.ANDROID]) {
    for (const [version, int] of [
      ['60.0', 60000000200100],
      ['115.0', 115000000200100],
      ['128.*', 128990000000000],
    ] as const) {
      await em
        .getConnection()
        .execute('insert into app_versions (application, version, version_int) values (?, ?, ?)', [app, version, int]);
    }
  }
}, 120_000);
afterAll(() => t.close());

/** An add-on of the owner and the developer, with its version 1.0. */
async function ownedAddon(spec: Parameters<typeof createAddon>[1] = {}) {
  const addon = await ownedAddonOf(t, owner, { versions: [{ version: '1.0' }], ...spec });
  const version = await t.em().findOneOrFail(Version, { addon: addon.id, version: '1.0' });
  return { addon, versionId: version.id };
}

const patch = (token: string | null, addon: string | number, version: number, body: object) =>
  as(token, t.http.patch(`/api/v5/addons/addon/${addon}/versions/${version}/`)).send(body);

describe('approval_notes', () => {
  it('sets, shows to authors and reviewers only, and clears the notes', async () => {
    const { addon, versionId } = await ownedAddon();
    const res = await patch(owner.session, addon.slug!, versionId, { approval_notes: '  Build with npm run build.  ' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: versionId, approval_notes: 'Build with npm run build.', is_disabled: false });
    // Key order of the developer serializer: approval_notes after id, is_disabled after file.
    expect(Object.keys(res.body).slice(0, 3)).toEqual(['id', 'approval_notes', 'channel']);
    expect(Object.keys(res.body).indexOf('is_disabled')).toBe(Object.keys(res.body).indexOf('file') + 1);

    const path = `/api/v5/addons/addon/${addon.slug}/versions/${versionId}/`;
    expect((await as(developer, t.http.get(path))).body.approval_notes).toBe('Build with npm run build.');
    expect((await as(reviewer, t.http.get(path))).body.approval_notes).toBe('Build with npm run build.');
    const anonymous = await t.http.get(path);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).not.toHaveProperty('approval_notes');
    expect(anonymous.body).not.toHaveProperty('is_disabled');
    const list = await as(owner.session, t.http.get(`/api/v5/addons/addon/${addon.slug}/versions/`));
    expect(list.body.results[0]).toMatchObject({ approval_notes: 'Build with npm run build.', is_disabled: false });
    // Through GraphQL: null for a stranger.
    const gql = await as(stranger, t.http.post('/graphql')).send({
      query: 'query($a: String!, $id: Int) { addonVersion(addon: $a, id: $id) { approvalNotes isDisabled } }',
      variables: { a: addon.slug, id: versionId },
    });
    expect(gql.body.data.addonVersion).toEqual({ approvalNotes: null, isDisabled: false });

    const cleared = await patch(owner.session, addon.slug!, versionId, { approval_notes: null });
    expect(cleared.body.approval_notes).toBe('');
  });

  it('refuses non-strings and notes over 3000 characters, changing nothing', async () => {
    const { addon, versionId } = await ownedAddon();
    const wrong = await patch(owner.session, addon.slug!, versionId, { approval_notes: ['x'] });
    expect([wrong.status, wrong.body]).toEqual([400, { approval_notes: ['Not a valid string.'] }]);
    const long = await patch(owner.session, addon.slug!, versionId, {
      approval_notes: 'x'.repeat(3001),
      release_notes: { 'en-US': 'changed' },
    });
    expect([long.status, long.body]).toEqual([
      400,
      { approval_notes: ['Ensure this field has no more than 3000 characters.'] },
    ]);
    const row = await t.em().findOneOrFail(Version, versionId);
    expect([row.approvalNotes, row.releaseNotes]).toEqual(['', null]);
  });
});

describe('is_disabled', () => {
  it('disables the version through the lifecycle (status derived again) and enables it again', async () => {
    const { addon, versionId } = await ownedAddon();
    const off = await patch(owner.jwt(), addon.guid!, versionId, { is_disabled: true });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ is_disabled: true, file: { status: 'disabled' } });
    const own = await as(owner.session, t.http.get(`/api/v5/addons/addon/${addon.slug}/`));
    expect(own.body).toMatchObject({ status: 'incomplete', current_version: null });
    // Idempotent: nothing more recorded.
    expect((await patch(owner.session, addon.slug!, versionId, { is_disabled: 'true' })).status).toBe(200);

    const on = await patch(developer, addon.slug!, versionId, { is_disabled: false });
    expect(on.body).toMatchObject({ is_disabled: false, file: { status: 'public' } });
    const detail = await t.http.get(`/api/v5/addons/addon/${addon.slug}/`);
    expect(detail.body).toMatchObject({ status: 'public', current_version: { id: versionId } });
    const actions = (await t.em().find(AddonActivity, { addon: addon.id }, { orderBy: { id: 'asc' } })).map(
      (a) => a.action,
    );
    expect(actions).toEqual(['version_disabled_by_developer', 'version_enabled_by_developer']);
  });

  it('refuses to re-enable a version disabled by someone else, and non-booleans', async () => {
    const { addon, versionId } = await ownedAddon();
    await t.em().nativeUpdate(AddonFile, { version: versionId }, { status: FileStatus.DISABLED });
    const res = await patch(owner.session, addon.slug!, versionId, { is_disabled: false });
    expect([res.status, res.body]).toEqual([
      400,
      { is_disabled: ["Can not re-enable a version disabled by the site's administrators."] },
    ]);
    const bad = await patch(owner.session, addon.slug!, versionId, { is_disabled: 'maybe' });
    expect([bad.status, bad.body]).toEqual([400, { is_disabled: ['Must be a valid boolean.'] }]);
    const nul = await patch(owner.session, addon.slug!, versionId, { is_disabled: null });
    expect([nul.status, nul.body]).toEqual([400, { is_disabled: ['This field may not be null.'] }]);
  });
});

describe('license and custom_license', () => {
  it('sets a built-in licence by slug; refuses unknown slugs and the wrong add-on type', async () => {
    const { addon, versionId } = await ownedAddon();
    const res = await patch(owner.session, addon.slug!, versionId, { license: 'MIT' });
    expect(res.status).toBe(200);
    expect(res.body.license).toMatchObject({ is_custom: false, slug: 'MIT' });
    const unknown = await patch(owner.session, addon.slug!, versionId, { license: 'nope' });
    expect([unknown.status, unknown.body]).toEqual([400, { license: ['License with slug=nope does not exist.'] }]);
    const cc = await patch(owner.session, addon.slug!, versionId, { license: 'cc-by-3.0' });
    expect([cc.status, cc.body]).toEqual([400, { license: ['Wrong add-on type for this license.'] }]);
    const wrongType = await patch(owner.session, addon.slug!, versionId, { license: 12 });
    expect([wrongType.status, wrongType.body]).toEqual([400, { license: ['Incorrect type. Expected slug value.'] }]);
  });

  it('creates a custom licence (name and text required), then edits it in place', async () => {
    const { addon, versionId } = await ownedAddon();
    const missing = await patch(owner.session, addon.slug!, versionId, {
      custom_license: { name: { 'en-US': 'Mine' } },
    });
    expect([missing.status, missing.body]).toEqual([400, { custom_license: ['text: This field is required.'] }]);
    const created = await patch(owner.session, addon.slug!, versionId, {
      custom_license: { name: { 'en-US': 'Mine' }, text: { 'en-US': 'Do what you like.' } },
    });
    expect(created.status).toBe(200);
    expect(created.body.license).toMatchObject({
      is_custom: true,
      name: { 'en-US': 'Mine' },
      text: { 'en-US': 'Do what you like.' },
    });
    const id = created.body.license.id;
    const edited = await patch(owner.session, addon.slug!, versionId, {
      custom_license: { text: { 'en-US': 'Changed.' } },
    });
    expect(edited.body.license).toMatchObject({ id, name: { 'en-US': 'Mine' }, text: { 'en-US': 'Changed.' } });
    expect(await t.em().count(License, { builtin: 0, id })).toBe(1);
  });

  it('refuses both together, non-objects, and custom licences for themes', async () => {
    const { addon, versionId } = await ownedAddon();
    const both = await patch(owner.session, addon.slug!, versionId, { license: 'MIT', custom_license: { name: 'x' } });
    expect([both.status, both.body]).toEqual([
      400,
      { non_field_errors: ['Both `license` and `custom_license` cannot be provided together.'] },
    ]);
    const str = await patch(owner.session, addon.slug!, versionId, { custom_license: 'mine' });
    expect([str.status, str.body]).toEqual([
      400,
      { custom_license: ['Invalid data. Expected a dictionary, but got str.'] },
    ]);
    const theme = await ownedAddon({ type: AddonType.STATICTHEME });
    const res = await patch(owner.session, theme.addon.slug!, theme.versionId, {
      custom_license: { name: 'x', text: 'y' },
    });
    expect([res.status, res.body]).toEqual([
      400,
      { custom_license: ['Custom licenses are not supported for themes.'] },
    ]);
  });
});

describe('compatibility', () => {
  it('replaces the ranges from an object or a list; bounds left out take the defaults', async () => {
    const { addon, versionId } = await ownedAddon();
    const res = await patch(owner.session, addon.slug!, versionId, {
      compatibility: { firefox: { min: '60.0', max: '128.*' }, android: { min: '115.0' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.compatibility).toEqual({
      android: { min: '115.0', max: '*' },
      firefox: { min: '60.0', max: '128.*' },
    });
    const list = await patch(owner.session, addon.slug!, versionId, { compatibility: ['firefox'] });
    expect(list.body.compatibility).toEqual({ firefox: { min: '42.0', max: '*' } });
    const rows = await t.em().find(VersionCompat, { version: versionId });
    expect(rows.map((r) => [r.application, r.min, r.max])).toEqual([[App.BROWSER, '42.0', '*']]);
  });

  it("refuses the original's invalid values", async () => {
    const { addon, versionId } = await ownedAddon();
    const cases: [unknown, string][] = [
      [{}, 'Invalid value'],
      ['firefox', 'Invalid value'],
      [{ thunderbird: {} }, 'Invalid app specified'],
      [{ firefox: { max: '999.0' } }, 'Unknown max app version specified'],
      [{ firefox: { min: '128.*' } }, 'Unknown min app version specified'],
    ];
    for (const [compatibility, message] of cases) {
      const res = await patch(owner.session, addon.slug!, versionId, { compatibility });
      expect([res.status, res.body]).toEqual([400, { compatibility: [message] }]);
    }
    const dict = await ownedAddon({ type: AddonType.DICTIONARY });
    const res = await patch(owner.session, dict.addon.slug!, dict.versionId, { compatibility: ['firefox'] });
    expect([res.status, res.body]).toEqual([
      400,
      { compatibility: ['This type of add-on does not allow custom compatibility.'] },
    ]);
  });
});

describe('permissions', () => {
  it('refuses anonymous callers, strangers, and authors of an add-on disabled by an administrator', async () => {
    const { addon, versionId } = await ownedAddon();
    expect((await patch(null, addon.slug!, versionId, { approval_notes: 'x' })).status).toBe(401);
    const res = await patch(stranger, addon.slug!, versionId, { approval_notes: 'x' });
    expect([res.status, res.body]).toEqual([403, { detail: FORBIDDEN }]);
    await t.em().nativeUpdate('Addon' as never, { id: addon.id } as never, { status: AddonStatus.DISABLED } as never);
    const disabled = await patch(owner.session, addon.slug!, versionId, { is_disabled: true });
    expect(disabled.status).toBe(403);
    expect(disabled.body).toMatchObject({ is_disabled_by_vendor: true });
    expect((await t.em().findOneOrFail(Version, versionId)).approvalNotes).toBe('');
  });
});

describe('GraphQL editVersion(fields:)', () => {
  it('takes the same fields', async () => {
    const { addon, versionId } = await ownedAddon();
    const res = await as(owner.session, t.http.post('/graphql')).send({
      query: `mutation($a: String!, $id: Int!, $f: VersionFieldsInputType) {
        editVersion(addon: $a, id: $id, fields: $f) { approvalNotes isDisabled compatibility { application min max } license { slug } }
      }`,
      variables: {
        a: addon.slug,
        id: versionId,
        f: { approvalNotes: 'hi', license: 'MIT', compatibility: [{ application: 'browser', min: '60.0' }] },
      },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.editVersion).toEqual({
      approvalNotes: 'hi',
      isDisabled: false,
      compatibility: [{ application: 'BROWSER', min: '60.0', max: '*' }],
      license: { slug: 'MIT' },
    });
  });
});

describe('POST …/versions/ with the same fields', () => {
  async function validUpload(channel: string, guid: string, version: string): Promise<string> {
    const res = await t.http
      .post('/api/v5/addons/upload/')
      .set('Authorization', owner.jwt())
      .field('channel', channel)
      .attach('upload', await extension({ id: guid, version }), 'addon.zip');
    expect(res.status).toBe(201);
    const uuid = res.body.uuid as string;
    await waitFor('the upload to be validated', async () => {
      const r = await t.http.get(`/api/v5/addons/upload/${uuid}/`).set('Authorization', owner.jwt());
      return r.body.processed ? r.body : null;
    });
    return uuid;
  }

  it('creates the version with notes, a custom licence and compatibility; a refused field creates nothing', async () => {
    const guid = 'version-fields@example.com';
    const first = await t.http
      .put(`/api/v5/addons/addon/${encodeURIComponent(guid)}/`)
      .set('Authorization', owner.jwt())
      .send({ version: { upload: await validUpload('unlisted', guid, '1.0') } });
    expect(first.status).toBe(201);
    const path = `/api/v5/addons/addon/${encodeURIComponent(guid)}/versions/`;
    const uuid = await validUpload('unlisted', guid, '2.0');
    const refused = await as(owner.jwt(), t.http.post(path)).send({
      upload: uuid,
      compatibility: { firefox: { max: '1.0' } },
    });
    expect([refused.status, refused.body]).toEqual([400, { compatibility: ['Unknown max app version specified'] }]);
    expect(await t.em().count(Version, { version: '2.0', addon: first.body.id })).toBe(0);

    const created = await as(owner.jwt(), t.http.post(path)).send({
      upload: uuid,
      approval_notes: 'no build step',
      release_notes: { 'en-US': 'Second.' },
      custom_license: { name: { 'en-US': 'Own' }, text: { 'en-US': 'Own text.' } },
      compatibility: { firefox: { min: '60.0' } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      version: '2.0',
      approval_notes: 'no build step',
      is_disabled: false,
      release_notes: { 'en-US': 'Second.' },
      compatibility: { firefox: { min: '60.0', max: '*' } },
      license: { is_custom: true, name: { 'en-US': 'Own' } },
    });
  }, 120_000);
});
