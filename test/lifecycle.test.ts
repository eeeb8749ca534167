import { randomBytes } from 'node:crypto';
import { Addon, AddonRole, AddonUser } from '../src/catalogue/addon.entity.js';
import { AddonStatus, Channel, FileStatus } from '../src/catalogue/catalogue.enums.js';
import { Version } from '../src/catalogue/version.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { createAddon, type AddonSpec, firstExtensionCategoryId } from './helpers/catalogue.js';
import { extension } from './helpers/signing.js';

/**
 * The add-on lifecycle (src/catalogue/lifecycle/): every transition allowed and refused, with its
 * message, through GraphQL and the REST v3/v4 routes, and what each one changes in detail, search,
 * collections and uploads. Job workers are off: every upload checked here is refused (or accepted)
 * before any job runs.
 */

const UNAUTHENTICATED = 'Authentication credentials were not provided.';
const FORBIDDEN = 'You do not have permission to perform this action.';
const NOT_OWNER = 'Only owners of the add-on can do this.';
const VENDOR_ONLY = 'This add-on has been disabled by an administrator: only an administrator can enable it.';
const TOO_LONG = 'Ensure this field has no more than 3000 characters.';
const DUPLICATE_GUID = { error: 'Duplicate add-on ID found.' };

const STATE = 'id status isDisabledByDeveloper isDisabledByVendor isDeleted isGuidDenied promoted { category apps }';
const SET_DEVELOPER = `mutation($addon: String!, $disabled: Boolean!) {
  setAddonDisabledByDeveloper(addon: $addon, disabled: $disabled) { ${STATE} } }`;
const SET_VENDOR = `mutation($addon: String!, $disabled: Boolean!, $comment: String) {
  setAddonDisabledByVendor(addon: $addon, disabled: $disabled, comment: $comment) { ${STATE} } }`;
const SET_DENIED = `mutation($addon: String!, $denied: Boolean!, $comment: String) {
  setAddonResubmissionDenied(addon: $addon, denied: $denied, comment: $comment) { ${STATE} } }`;
const DELETE_ADDON = 'mutation($addon: String!, $reason: String) { deleteAddon(addon: $addon, reason: $reason) }';
const DELETE_VERSION = `mutation($addon: String!, $versionId: Int!) {
  deleteAddonVersion(addon: $addon, versionId: $versionId) { ${STATE} } }`;
const SET_PROMOTION = `mutation($addon: String!, $promotion: AddonPromotionInput) {
  setAddonPromotion(addon: $addon, promotion: $promotion) { ${STATE} } }`;

type ApiVersion = 'v3' | 'v4';
type ReviewerAction = 'disable' | 'enable' | 'deny_resubmission' | 'allow_resubmission';
const REVIEWER_ACTIONS: ReviewerAction[] = ['disable', 'enable', 'deny_resubmission', 'allow_resubmission'];

type Caller = KeyCaller;

interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions: { code: string; fields?: Record<string, string[]> } }[];
}

interface State {
  id: number;
  status: string;
  isDisabledByDeveloper: boolean;
  isDisabledByVendor: boolean;
  isDeleted: boolean;
  isGuidDenied: boolean;
  promoted: { category: string; apps: string[] } | null;
}

let t: TestApp;
let owner: Caller;
let developerRole: Caller;
let other: Caller;
let admin: Caller;
let editor: Caller;
let curator: Caller;
let categoryId: number;

const caller = (args: Parameters<TestApp['createUser']>[0] = {}) => keyCaller(t, args);

beforeAll(async () => {
  t = await startTestApp({ env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test', VENDOR_NAME: 'Vendor' } });
  owner = await caller();
  developerRole = await caller();
  other = await caller();
  admin = await caller({ permission: ['Reviews:Admin'] });
  editor = await caller({ permission: ['Addons:Edit'] });
  curator = await caller({ permission: ['Admin:Curation'] });
  categoryId = await firstExtensionCategoryId(t.em());
}, 120_000);
afterAll(() => t?.close());

/** A random word of ten letters (searched with `q`: far from every other add-on's words, typos included). */
function uniqueWord(): string {
  return [...randomBytes(10)].map((b) => String.fromCharCode(97 + (b % 26))).join('');
}

/**
 * A fresh public add-on with listed metadata (name, summary, a category), owned by `owner`, with a
 * developer-role author: by default one approved listed version 1.0.
 */
async function addon(spec: AddonSpec = {}): Promise<Addon & { word: string }> {
  const word = uniqueWord();
  const created = await createAddon(t.em(), {
    name: { 'en-US': `Lifecycle ${word}` },
    summary: { 'en-US': 'An add-on the lifecycle tests change.' },
    categoryIds: [categoryId],
    authors: [{ id: owner.id }, { id: developerRole.id }],
    versions: [{ version: '1.0' }],
    ...spec,
  });
  await t.em().nativeUpdate(AddonUser, { addon: created.id, user: developerRole.id }, { role: AddonRole.DEVELOPER });
  return Object.assign(created, { word });
}

async function versionIds(a: Addon): Promise<Record<string, number>> {
  const versions = await t.em().find(Version, { addon: a.id });
  return Object.fromEntries(versions.map((v) => [v.version, v.id]));
}

function graphql(who: Caller | null, query: string, variables: Record<string, unknown> = {}) {
  const req = t.http.post('/graphql').send({ query, variables });
  return who ? req.set('Authorization', who.session) : req;
}

/** The mutation's answer, which must have no errors. */
async function ok<T = State>(who: Caller | null, query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await graphql(who, query, variables);
  const body = res.body as GraphqlBody;
  expect(body.errors).toBeUndefined();
  expect(res.status).toBe(200);
  const [value] = Object.values(body.data!);
  return value as T;
}

/** The mutation's first error, which must have this code and message (and no data). */
async function refused(
  who: Caller | null,
  query: string,
  variables: Record<string, unknown>,
  code: string,
  message: string,
) {
  const res = await graphql(who, query, variables);
  const body = res.body as GraphqlBody;
  expect(body.errors).toHaveLength(1);
  expect(body.errors![0]).toMatchObject({ message, extensions: { code } });
  expect(Object.values(body.data ?? {}).every((v) => v === null)).toBe(true);
  return body.errors![0];
}

const get = (path: string, who?: Caller | null) => {
  const req = t.http.get(path);
  return who ? req.set('Authorization', who.session) : req;
};

const detail = (a: Addon, who?: Caller | null, version: ApiVersion = 'v4') =>
  get(`/api/${version}/addons/addon/${a.slug}/`, who);

/** The slugs the public search finds for `a`'s unique word, on v3 and v4 (which must agree). */
async function searched(a: Addon & { word: string }, extra = ''): Promise<string[]> {
  const found: Record<ApiVersion, string[]> = { v3: [], v4: [] };
  for (const version of ['v3', 'v4'] as const) {
    if (version === 'v3' && extra) continue;
    const res = await get(`/api/${version}/addons/search/?q=${a.word}${extra}`);
    expect(res.status).toBe(200);
    found[version] = (res.body.results as { slug: string }[]).map((r) => r.slug);
  }
  if (!extra) expect(found.v3).toEqual(found.v4);
  return found.v4;
}

const reviewerPost = (action: ReviewerAction, id: number | string, who?: Caller | null, version: ApiVersion = 'v4') => {
  const req = t.http.post(`/api/${version}/reviewers/addon/${id}/${action}/`);
  return who ? req.set('Authorization', who.session) : req;
};

/** A 202 with an empty body: what the reviewer routes answer on success. */
async function accepted(action: ReviewerAction, id: number) {
  const res = await reviewerPost(action, id, admin);
  expect({ status: res.status, text: res.text }).toEqual({ status: 202, text: '' });
}

/** PUT /api/v4/addons/<guid>/versions/<version>/ with a valid package of that id and version. */
async function upload(who: Caller, guid: string, version: string, fields: Record<string, string> = {}) {
  let req = t.http
    .put(`/api/v4/addons/${encodeURIComponent(guid)}/versions/${encodeURIComponent(version)}/`)
    .set('Authorization', who.jwt());
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  return req.attach('upload', await extension({ id: guid, version }), 'addon.xpi');
}

async function stateOf(a: Addon): Promise<{ status: number; disabledByUser: boolean }> {
  const row = await t.em().findOneOrFail(Addon, a.id);
  return { status: row.status, disabledByUser: row.disabledByUser };
}

describe('disabled by its developer (setAddonDisabledByDeveloper)', () => {
  it('owners hide an add-on and show it again, idempotently; the answer is its lifecycle state', async () => {
    const a = await addon();
    const hidden = {
      id: a.id,
      status: 'PUBLIC',
      isDisabledByDeveloper: true,
      isDisabledByVendor: false,
      isDeleted: false,
      isGuidDenied: false,
      promoted: null,
    };
    for (const identifier of [a.slug, String(a.id)]) {
      expect(await ok(owner, SET_DEVELOPER, { addon: identifier, disabled: true })).toEqual(hidden);
    }
    expect(await stateOf(a)).toEqual({ status: AddonStatus.PUBLIC, disabledByUser: true });
    for (let i = 0; i < 2; i++) {
      expect(await ok(owner, SET_DEVELOPER, { addon: a.guid!, disabled: false })).toEqual({
        ...hidden,
        isDisabledByDeveloper: false,
      });
    }
    expect(await stateOf(a)).toEqual({ status: AddonStatus.PUBLIC, disabledByUser: false });
  });

  it('a hidden add-on: detail 401/403 with the flags (200 for its author), out of search and collections', async () => {
    const a = await addon();
    const collector = await caller();
    const collectionBase = `/api/v4/accounts/account/${collector.id}/collections/`;
    const made = await t.http
      .post(collectionBase)
      .set('Authorization', collector.session)
      .send({ name: `Picks ${a.word}`, slug: a.word });
    expect(made.status).toBe(201);
    const items = `${collectionBase}${a.word}/addons/`;
    const added = await t.http.post(items).set('Authorization', collector.session).send({ addon: a.id });
    expect(added.status).toBe(201);
    const itemSlugs = async () => {
      const res = await get(items);
      expect(res.status).toBe(200);
      return (res.body.results as { addon: { slug: string } }[]).map((i) => i.addon.slug);
    };
    expect(await itemSlugs()).toEqual([a.slug]);
    expect(await searched(a)).toEqual([a.slug]);

    await ok(owner, SET_DEVELOPER, { addon: a.slug, disabled: true });
    const flags = { is_disabled_by_developer: true, is_disabled_by_vendor: false };
    for (const version of ['v3', 'v4'] as const) {
      const anonymous = await detail(a, null, version);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ detail: UNAUTHENTICATED, ...flags });
      const stranger = await detail(a, other, version);
      expect(stranger.status).toBe(403);
      expect(stranger.body).toEqual({ detail: FORBIDDEN, ...flags });
      for (const author of [owner, developerRole]) {
        const own = await detail(a, author, version);
        expect(own.status).toBe(200);
        expect(own.body).toMatchObject({ id: a.id, slug: a.slug, status: 'public', is_disabled: true });
      }
    }
    expect(await searched(a)).toEqual([]);
    expect(await itemSlugs()).toEqual([]);

    await ok(owner, SET_DEVELOPER, { addon: a.slug, disabled: false });
    expect((await detail(a)).status).toBe(200);
    expect((await detail(a, null, 'v3')).status).toBe(200);
    expect(await searched(a)).toEqual([a.slug]);
    expect(await itemSlugs()).toEqual([a.slug]);
  });

  it('refuses a listed upload while hidden (not an unlisted one), and accepts it once shown again', async () => {
    const a = await addon();
    await ok(owner, SET_DEVELOPER, { addon: a.slug, disabled: true });
    const res = await upload(owner, a.guid!, '2.0', { channel: 'listed' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'You cannot add a listed version to an add-on that is invisible (disabled by its developer).',
    });
    const unlisted = await upload(owner, a.guid!, '1.9', { channel: 'unlisted' });
    expect(unlisted.status).toBe(202);
    await ok(owner, SET_DEVELOPER, { addon: a.slug, disabled: false });
    const again = await upload(owner, a.guid!, '2.0', { channel: 'listed' });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ guid: a.guid, version: '2.0', processed: false });
  });

  it('refuses anonymous callers, non-authors, developer-role authors, unknown add-ons, vendor-disabled add-ons', async () => {
    const a = await addon();
    const vars = { addon: a.slug, disabled: true };
    await refused(null, SET_DEVELOPER, vars, 'UNAUTHENTICATED', UNAUTHENTICATED);
    await refused(other, SET_DEVELOPER, vars, 'FORBIDDEN', FORBIDDEN);
    // Admins of other kinds are not owners either.
    await refused(admin, SET_DEVELOPER, vars, 'FORBIDDEN', FORBIDDEN);
    await refused(editor, SET_DEVELOPER, vars, 'FORBIDDEN', FORBIDDEN);
    await refused(developerRole, SET_DEVELOPER, vars, 'FORBIDDEN', NOT_OWNER);
    await refused(owner, SET_DEVELOPER, { ...vars, addon: 'no-such-addon' }, 'NOT_FOUND', 'Not found.');
    await refused(owner, SET_DEVELOPER, { ...vars, addon: '999999999' }, 'NOT_FOUND', 'Not found.');
    expect(await stateOf(a)).toEqual({ status: AddonStatus.PUBLIC, disabledByUser: false });

    await accepted('disable', a.id);
    for (const disabled of [true, false]) {
      await refused(owner, SET_DEVELOPER, { addon: a.slug, disabled }, 'CONFLICT', VENDOR_ONLY);
    }
    expect(await stateOf(a)).toEqual({ status: AddonStatus.DISABLED, disabledByUser: false });
  });
});

describe('deleting an add-on (deleteAddon)', () => {
  it('owners delete it: 404 in v3 and v4, out of search, its id stays taken', async () => {
    const a = await addon();
    expect(await searched(a)).toEqual([a.slug]);
    expect(await ok(owner, DELETE_ADDON, { addon: a.slug, reason: 'Not maintained any more.' })).toBe(true);
    for (const version of ['v3', 'v4'] as const) {
      for (const who of [null, owner]) {
        const res = await detail(a, who, version);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: 'Not found.' });
      }
    }
    expect(await searched(a)).toEqual([]);
    expect((await stateOf(a)).status).toBe(AddonStatus.DELETED);
    await refused(owner, DELETE_ADDON, { addon: a.slug }, 'NOT_FOUND', 'Not found.');
    await refused(owner, DELETE_ADDON, { addon: String(a.id) }, 'NOT_FOUND', 'Not found.');
    const res = await upload(owner, a.guid!, '2.0');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(DUPLICATE_GUID);
    // Nothing else changes a deleted add-on.
    const [versionId] = Object.values(await versionIds(a));
    await refused(owner, SET_DEVELOPER, { addon: a.slug, disabled: true }, 'NOT_FOUND', 'Not found.');
    await refused(owner, DELETE_VERSION, { addon: String(a.id), versionId }, 'NOT_FOUND', 'Not found.');
    await refused(admin, SET_VENDOR, { addon: String(a.id), disabled: true }, 'NOT_FOUND', 'Not found.');
    await refused(admin, SET_DENIED, { addon: String(a.id), denied: true }, 'NOT_FOUND', 'Not found.');
    const promotion = { category: 'RECOMMENDED', apps: ['BROWSER'] };
    await refused(curator, SET_PROMOTION, { addon: String(a.id), promotion }, 'NOT_FOUND', 'Not found.');
    expect((await stateOf(a)).status).toBe(AddonStatus.DELETED);
  });

  it('Addons:Edit may delete any add-on; anonymous callers, non-authors and developer-role authors may not', async () => {
    const a = await addon();
    const vars = { addon: a.slug, reason: null };
    await refused(null, DELETE_ADDON, vars, 'UNAUTHENTICATED', UNAUTHENTICATED);
    await refused(other, DELETE_ADDON, vars, 'FORBIDDEN', FORBIDDEN);
    await refused(admin, DELETE_ADDON, vars, 'FORBIDDEN', FORBIDDEN);
    await refused(developerRole, DELETE_ADDON, vars, 'FORBIDDEN', NOT_OWNER);
    await refused(editor, DELETE_ADDON, { addon: 'no-such-addon' }, 'NOT_FOUND', 'Not found.');
    expect((await stateOf(a)).status).toBe(AddonStatus.PUBLIC);
    expect(await ok(editor, DELETE_ADDON, vars)).toBe(true);
    expect((await stateOf(a)).status).toBe(AddonStatus.DELETED);
  });
});

describe('deleting a version (deleteAddonVersion)', () => {
  it('deleting the current version moves current_version to the previous approved listed one', async () => {
    const a = await addon({
      versions: [
        { version: '1.0' },
        { version: '1.1' },
        { version: '1.2', channel: Channel.UNLISTED },
        { version: '1.3', fileStatus: FileStatus.AWAITING_REVIEW },
      ],
    });
    const ids = await versionIds(a);
    expect((await detail(a)).body.current_version).toMatchObject({ id: ids['1.1'], version: '1.1' });
    const state = await ok(owner, DELETE_VERSION, { addon: a.slug, versionId: ids['1.1'] });
    expect(state).toMatchObject({ id: a.id, status: 'PUBLIC', isDeleted: false });
    const after = await detail(a);
    expect(after.status).toBe(200);
    expect(after.body.current_version).toMatchObject({ id: ids['1.0'], version: '1.0' });

    const again = await upload(owner, a.guid!, '1.1', { channel: 'unlisted' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'Version 1.1 was uploaded before and deleted.' });
    await refused(owner, DELETE_VERSION, { addon: a.slug, versionId: ids['1.1'] }, 'NOT_FOUND', 'Not found.');
  });

  it('deleting the only approved listed version leaves the add-on incomplete and not public', async () => {
    const a = await addon({ versions: [{ version: '1.0' }, { version: '1.1', channel: Channel.UNLISTED }] });
    const ids = await versionIds(a);
    const state = await ok(editor, DELETE_VERSION, { addon: String(a.id), versionId: ids['1.0'] });
    expect(state).toMatchObject({ status: 'INCOMPLETE', isDisabledByDeveloper: false, isDisabledByVendor: false });
    const anonymous = await detail(a);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({
      detail: UNAUTHENTICATED,
      is_disabled_by_developer: false,
      is_disabled_by_vendor: false,
    });
    const own = await detail(a, owner);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ status: 'incomplete', current_version: null });
    expect(await searched(a)).toEqual([]);
    const res = await upload(owner, a.guid!, '1.0', { channel: 'unlisted' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Version 1.0 was uploaded before and deleted.' });
  });

  it('…or nominated when a listed version awaits review', async () => {
    const a = await addon({
      versions: [{ version: '1.0' }, { version: '1.1', fileStatus: FileStatus.AWAITING_REVIEW }],
    });
    const ids = await versionIds(a);
    const state = await ok(owner, DELETE_VERSION, { addon: a.guid!, versionId: ids['1.0'] });
    expect(state.status).toBe('NOMINATED');
    expect((await detail(a)).status).toBe(401);
    expect((await detail(a, owner)).body).toMatchObject({ status: 'nominated', current_version: null });
  });

  it('refuses anonymous callers, non-authors, developer-role authors, and versions it does not have', async () => {
    const a = await addon({ versions: [{ version: '1.0' }, { version: '1.1' }] });
    const elsewhere = await addon();
    const ids = await versionIds(a);
    const vars = { addon: a.slug, versionId: ids['1.1'] };
    await refused(null, DELETE_VERSION, vars, 'UNAUTHENTICATED', UNAUTHENTICATED);
    await refused(other, DELETE_VERSION, vars, 'FORBIDDEN', FORBIDDEN);
    await refused(curator, DELETE_VERSION, vars, 'FORBIDDEN', FORBIDDEN);
    await refused(developerRole, DELETE_VERSION, vars, 'FORBIDDEN', NOT_OWNER);
    await refused(owner, DELETE_VERSION, { ...vars, addon: 'no-such-addon' }, 'NOT_FOUND', 'Not found.');
    await refused(owner, DELETE_VERSION, { ...vars, versionId: 999_999_999 }, 'NOT_FOUND', 'Not found.');
    const otherIds = await versionIds(elsewhere);
    await refused(owner, DELETE_VERSION, { ...vars, versionId: otherIds['1.0'] }, 'NOT_FOUND', 'Not found.');
    expect((await detail(a)).body.current_version).toMatchObject({ version: '1.1' });
    expect((await detail(elsewhere)).body.current_version).toMatchObject({ version: '1.0' });
  });
});

describe('disabled by the vendor (REST v4 reviewer routes, setAddonDisabledByVendor)', () => {
  it('the reviewer routes: 401 anonymous, 403 without Reviews:Admin, 404 unknown or non-numeric ids and v3', async () => {
    const a = await addon();
    for (const action of REVIEWER_ACTIONS) {
      const anonymous = await reviewerPost(action, a.id);
      expect({ action, status: anonymous.status, body: anonymous.body }).toEqual({
        action,
        status: 401,
        body: { detail: UNAUTHENTICATED },
      });
      for (const who of [owner, other, editor, curator]) {
        const res = await reviewerPost(action, a.id, who);
        expect({ action, status: res.status, body: res.body }).toEqual({
          action,
          status: 403,
          body: { detail: FORBIDDEN },
        });
      }
      for (const id of [999_999_999, a.slug, 'abc', '-1', '12345678901']) {
        const res = await reviewerPost(action, id, admin);
        expect({ action, id, status: res.status, body: res.body }).toEqual({
          action,
          id,
          status: 404,
          body: { detail: 'Not found.' },
        });
      }
      expect((await reviewerPost(action, a.id, admin, 'v3')).status).toBe(404);
    }
    expect(await stateOf(a)).toEqual({ status: AddonStatus.PUBLIC, disabledByUser: false });
    expect((await detail(a)).status).toBe(200);
  });

  it('disable: 202, detail 401/403 with is_disabled_by_vendor, author sees "disabled", out of search, uploads refused', async () => {
    const a = await addon();
    expect(await searched(a)).toEqual([a.slug]);
    await accepted('disable', a.id);
    await accepted('disable', a.id);
    const flags = { is_disabled_by_developer: false, is_disabled_by_vendor: true };
    const anonymous = await detail(a);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ detail: UNAUTHENTICATED, ...flags });
    const stranger = await detail(a, other);
    expect(stranger.status).toBe(403);
    expect(stranger.body).toEqual({ detail: FORBIDDEN, ...flags });
    const own = await detail(a, owner);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: a.id, status: 'disabled', is_disabled: true });
    expect((await detail(a, owner, 'v3')).body).toMatchObject({ status: 'disabled', is_disabled: true });
    expect(await searched(a)).toEqual([]);

    for (const channel of ['listed', 'unlisted']) {
      const res = await upload(owner, a.guid!, '2.0', { channel });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'You cannot add versions to an addon that has status: Disabled by Vendor.' });
    }

    await accepted('enable', a.id);
    await accepted('enable', a.id);
    expect((await detail(a)).status).toBe(200);
    expect((await detail(a)).body).toMatchObject({ status: 'public' });
    expect(await searched(a)).toEqual([a.slug]);
  });

  it.each([
    ['public with an approved listed version', {}, AddonStatus.PUBLIC, 'public'],
    [
      'nominated when only a listed version awaits review',
      { status: AddonStatus.NOMINATED, versions: [{ version: '1.0', fileStatus: FileStatus.AWAITING_REVIEW }] },
      AddonStatus.NOMINATED,
      'nominated',
    ],
    [
      'incomplete with no listed version',
      { status: AddonStatus.INCOMPLETE, versions: [{ version: '1.0', channel: Channel.UNLISTED }] },
      AddonStatus.INCOMPLETE,
      'incomplete',
    ],
    [
      'incomplete when its listed versions were rejected',
      { status: AddonStatus.PUBLIC, versions: [{ version: '1.0', fileStatus: FileStatus.DISABLED }] },
      AddonStatus.INCOMPLETE,
      'incomplete',
    ],
  ] as [string, AddonSpec, number, string][])('enable restores the status: %s', async (_name, spec, status, shown) => {
    const a = await addon(spec);
    await accepted('disable', a.id);
    expect((await stateOf(a)).status).toBe(AddonStatus.DISABLED);
    await accepted('enable', a.id);
    expect((await stateOf(a)).status).toBe(status);
    const own = await detail(a, owner);
    expect(own.status).toBe(200);
    expect(own.body.status).toBe(shown);
    expect((await detail(a)).status).toBe(status === AddonStatus.PUBLIC ? 200 : 401);
  });

  it('a developer-hidden add-on stays hidden through a vendor disable and enable', async () => {
    const a = await addon();
    await ok(owner, SET_DEVELOPER, { addon: a.slug, disabled: true });
    const disabled = await ok(admin, SET_VENDOR, { addon: a.slug, disabled: true });
    expect(disabled).toMatchObject({ status: 'DISABLED', isDisabledByDeveloper: true, isDisabledByVendor: true });
    const anonymous = await detail(a);
    expect(anonymous.body).toEqual({
      detail: UNAUTHENTICATED,
      is_disabled_by_developer: true,
      is_disabled_by_vendor: true,
    });
    const enabled = await ok(admin, SET_VENDOR, { addon: a.slug, disabled: false });
    expect(enabled).toMatchObject({ status: 'PUBLIC', isDisabledByDeveloper: true, isDisabledByVendor: false });
    expect((await detail(a)).status).toBe(401);
    expect(await searched(a)).toEqual([]);
  });

  it('GraphQL: admins disable and enable with a comment, idempotently; others are refused', async () => {
    const a = await addon();
    const vars = { addon: a.guid!, disabled: true, comment: 'Malware.' };
    await refused(null, SET_VENDOR, vars, 'UNAUTHENTICATED', UNAUTHENTICATED);
    for (const who of [owner, other, editor, curator]) await refused(who, SET_VENDOR, vars, 'FORBIDDEN', FORBIDDEN);
    await refused(admin, SET_VENDOR, { ...vars, addon: 'no-such-addon' }, 'NOT_FOUND', 'Not found.');
    const expected = {
      id: a.id,
      status: 'DISABLED',
      isDisabledByDeveloper: false,
      isDisabledByVendor: true,
      isDeleted: false,
      isGuidDenied: false,
      promoted: null,
    };
    expect(await ok(admin, SET_VENDOR, vars)).toEqual(expected);
    expect(await ok(admin, SET_VENDOR, { addon: a.slug, disabled: true })).toEqual(expected);
    const enabled = { ...expected, status: 'PUBLIC', isDisabledByVendor: false };
    expect(await ok(admin, SET_VENDOR, { addon: String(a.id), disabled: false, comment: 'False alarm.' })).toEqual(
      enabled,
    );
    expect(await ok(admin, SET_VENDOR, { addon: a.slug, disabled: false })).toEqual(enabled);
  });

  it('deleted add-ons are not found', async () => {
    const a = await addon();
    await ok(owner, DELETE_ADDON, { addon: a.slug });
    for (const action of REVIEWER_ACTIONS) {
      const res = await reviewerPost(action, a.id, admin);
      expect({ action, status: res.status, body: res.body }).toEqual({
        action,
        status: 404,
        body: { detail: 'Not found.' },
      });
    }
  });
});

describe('denied resubmission (REST v4 reviewer routes, setAddonResubmissionDenied)', () => {
  it('deny: 202, then 409; uploads refused; allow: 202, then 409; uploads accepted again', async () => {
    const a = await addon();
    await accepted('deny_resubmission', a.id);
    const twice = await reviewerPost('deny_resubmission', a.id, admin);
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ detail: 'Resubmission of this add-on ID is already denied.' });
    for (const channel of ['listed', 'unlisted']) {
      const res = await upload(owner, a.guid!, '2.0', { channel });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(DUPLICATE_GUID);
    }
    // The add-on itself is unchanged.
    expect((await detail(a)).status).toBe(200);

    await accepted('allow_resubmission', a.id);
    const again = await reviewerPost('allow_resubmission', a.id, admin);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'Resubmission of this add-on ID is not denied.' });
    const res = await upload(owner, a.guid!, '2.0', { channel: 'unlisted' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ guid: a.guid, version: '2.0' });
  });

  it('an add-on without an add-on id: 409', async () => {
    const a = await addon({ guid: null });
    for (const action of ['deny_resubmission', 'allow_resubmission'] as const) {
      const res = await reviewerPost(action, a.id, admin);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: 'This add-on has no add-on ID to deny or allow.' });
    }
    for (const denied of [true, false]) {
      await refused(
        admin,
        SET_DENIED,
        { addon: a.slug, denied },
        'CONFLICT',
        'This add-on has no add-on ID to deny or allow.',
      );
    }
  });

  it('GraphQL: admins deny and allow with a comment; CONFLICT when already so; others are refused', async () => {
    const a = await addon();
    const vars = { addon: a.slug, denied: true, comment: 'Repeated policy violations.' };
    await refused(null, SET_DENIED, vars, 'UNAUTHENTICATED', UNAUTHENTICATED);
    for (const who of [owner, other, editor, curator]) await refused(who, SET_DENIED, vars, 'FORBIDDEN', FORBIDDEN);
    await refused(admin, SET_DENIED, { ...vars, addon: 'no-such-addon' }, 'NOT_FOUND', 'Not found.');
    await refused(
      admin,
      SET_DENIED,
      { ...vars, denied: false },
      'CONFLICT',
      'Resubmission of this add-on ID is not denied.',
    );
    expect(await ok(admin, SET_DENIED, vars)).toMatchObject({ id: a.id, status: 'PUBLIC', isGuidDenied: true });
    await refused(admin, SET_DENIED, vars, 'CONFLICT', 'Resubmission of this add-on ID is already denied.');
    expect((await upload(owner, a.guid!, '2.0', { channel: 'unlisted' })).body).toEqual(DUPLICATE_GUID);
    expect(await ok(admin, SET_DENIED, { addon: a.guid!, denied: false })).toMatchObject({ isGuidDenied: false });
  });
});

describe('promotion (setAddonPromotion)', () => {
  const RECOMMENDED = { category: 'RECOMMENDED', apps: ['BROWSER'] };

  it('curators promote: detail shows it, search promoted=recommended finds it; null clears both', async () => {
    const a = await addon();
    expect(await searched(a, '&promoted=recommended')).toEqual([]);
    const state = await ok(curator, SET_PROMOTION, { addon: a.slug, promotion: RECOMMENDED });
    expect(state).toMatchObject({ id: a.id, status: 'PUBLIC', promoted: RECOMMENDED });
    expect((await detail(a)).body.promoted).toEqual({ category: 'recommended', apps: ['browser'] });
    expect(await searched(a, '&promoted=recommended')).toEqual([a.slug]);
    expect(await searched(a, '&promoted=line')).toEqual([]);
    // Again: the same state.
    expect(await ok(curator, SET_PROMOTION, { addon: a.slug, promotion: RECOMMENDED })).toEqual(state);

    const both = { category: 'LINE', apps: ['ANDROID', 'BROWSER', 'ANDROID'] };
    expect((await ok(curator, SET_PROMOTION, { addon: a.guid!, promotion: both })).promoted).toEqual({
      category: 'LINE',
      apps: ['BROWSER', 'ANDROID'],
    });
    expect((await detail(a)).body.promoted).toEqual({ category: 'line', apps: ['browser', 'android'] });
    expect(await searched(a, '&promoted=recommended')).toEqual([]);
    expect(await searched(a, '&promoted=line')).toEqual([a.slug]);

    const cleared = await ok(curator, SET_PROMOTION, { addon: String(a.id), promotion: null });
    expect(cleared.promoted).toBeNull();
    expect((await detail(a)).body.promoted).toBeNull();
    expect(await searched(a, '&promoted=line')).toEqual([]);
    expect(await searched(a)).toEqual([a.slug]);
  });

  it('refuses no applications, anonymous callers, non-curators and unknown add-ons', async () => {
    const a = await addon();
    const error = await refused(
      curator,
      SET_PROMOTION,
      { addon: a.slug, promotion: { category: 'RECOMMENDED', apps: [] } },
      'VALIDATION_FAILED',
      'apps: Choose at least one application.',
    );
    expect(error.extensions.fields).toEqual({ apps: ['Choose at least one application.'] });
    const vars = { addon: a.slug, promotion: RECOMMENDED };
    await refused(null, SET_PROMOTION, vars, 'UNAUTHENTICATED', UNAUTHENTICATED);
    for (const who of [owner, other, admin, editor]) await refused(who, SET_PROMOTION, vars, 'FORBIDDEN', FORBIDDEN);
    await refused(curator, SET_PROMOTION, { ...vars, addon: 'no-such-addon' }, 'NOT_FOUND', 'Not found.');
    expect((await detail(a)).body.promoted).toBeNull();
  });
});

describe('comments and reasons', () => {
  const long = 'x'.repeat(3001);

  it.each([
    ['setAddonDisabledByVendor', 'comment', SET_VENDOR, { disabled: true }],
    ['setAddonResubmissionDenied', 'comment', SET_DENIED, { denied: true }],
    ['deleteAddon', 'reason', DELETE_ADDON, {}],
  ] as [string, string, string, Record<string, unknown>][])(
    '%s refuses a %s over 3,000 characters and accepts 3,000',
    async (_name, field, query, extra) => {
      const a = await addon();
      const who = query === DELETE_ADDON ? owner : admin;
      const error = await refused(
        who,
        query,
        { addon: a.slug, ...extra, [field]: long },
        'VALIDATION_FAILED',
        `${field}: ${TOO_LONG}`,
      );
      expect(error.extensions.fields).toEqual({ [field]: [TOO_LONG] });
      expect(await stateOf(a)).toEqual({ status: AddonStatus.PUBLIC, disabledByUser: false });
      expect((await detail(a)).status).toBe(200);
      // Characters, not UTF-16 code units: 3,000 emoji are 6,000 code units.
      await ok(who, query, { addon: a.slug, ...extra, [field]: '😀'.repeat(3000) });
    },
  );
});
