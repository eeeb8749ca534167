/**
 * Scoped, expiring API keys: a key limited to operation families is refused (403) by every
 * operation of another family, through REST and GraphQL; a key limited to add-ons acts on those
 * only (others are answered as a stranger's add-on) and creates none; expired and revoked keys are
 * 401; use is recorded; keys are managed from a session only. The default key keeps full scope.
 */
import type { GraphQLObjectType } from 'graphql';
import { User } from '../src/accounts/user.entity.js';
import { signJwt } from '../src/auth/jwt.js';
import { declaredSchemes } from '../src/access/credentials.js';
import { KEY_OPERATIONS, fieldKeyScope } from '../src/access/key-scopes.js';
import { buildAppSchema } from '../src/modules.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { extension, waitFor } from './helpers/signing.js';

let t: TestApp;
let dev: KeyCaller;
const now = () => Math.floor(Date.now() / 1000);
const X = 'scoped-x@example.com';
const Y = 'scoped-y@example.com';
let xId: number;
let xFileUrl: string;

beforeAll(async () => {
  t = await startTestApp({
    env: { SIGNING_CA_KEY_BITS: '2048', SIGNING_KEY_POOL: '1', SITE_URL: 'http://addons.test' },
  });
  dev = await keyCaller(t);
}, 120_000);
afterAll(() => t?.close());

interface Key {
  id: string;
  key: string;
  secret: string;
  jwt: () => string;
}

const jwtOf = (key: string, secret: string) => () =>
  `JWT ${signJwt({ iss: key, iat: now(), exp: now() + 300 }, secret)}`;

async function gql(auth: string | null, query: string, variables: Record<string, unknown> = {}) {
  let req = t.http.post('/graphql').set('Content-Type', 'application/json');
  if (auth) req = req.set('Authorization', auth);
  return req.send({ query, variables });
}

const CREATE = `mutation ($input: CreateApiKeyInput!) {
  createApiKey(input: $input) {
    secret
    apiKey { id key name kind scopeAddonIds scopeOperations expiresAt lastUsedAt created addons { id guid } }
  }
}`;

async function createKey(owner: { session: string }, input: Record<string, unknown>): Promise<Key> {
  const res = await gql(owner.session, CREATE, { input });
  expect(res.body.errors).toBeUndefined();
  const { secret, apiKey } = res.body.data.createApiKey;
  return { id: apiKey.id, key: apiKey.key, secret, jwt: jwtOf(apiKey.key, secret) };
}

const v4Put = (auth: string, guid: string, version: string, file: Buffer) =>
  t.http
    .put(`/api/v4/addons/${encodeURIComponent(guid)}/versions/${version}/`)
    .set('Authorization', auth)
    .attach('upload', file, 'addon.xpi');

const v4Post = (auth: string, file: Buffer) =>
  t.http.post('/api/v4/addons/').set('Authorization', auth).attach('upload', file, 'addon.zip');

const v5Upload = async (auth: string, file: Buffer) =>
  t.http
    .post('/api/v5/addons/upload/')
    .set('Authorization', auth)
    .field('channel', 'unlisted')
    .attach('upload', file, 'addon.zip');

/** A v5 upload made with the default key and processed (valid): its uuid. */
async function validUpload(guid: string, version: string): Promise<string> {
  const res = await v5Upload(dev.jwt(), await extension({ id: guid, version }));
  expect(res.status).toBe(201);
  const uuid = res.body.uuid as string;
  await waitFor('the upload to be validated', async () => {
    const r = await t.http.get(`/api/v5/addons/upload/${uuid}/`).set('Authorization', dev.jwt());
    return r.body.processed ? r.body : null;
  });
  return uuid;
}

const v5Put = (auth: string, guid: string, uuid: string) =>
  t.http
    .put(`/api/v5/addons/addon/${encodeURIComponent(guid)}/`)
    .set('Authorization', auth)
    .send({ version: { upload: uuid } });

const status = (auth: string, guid: string, version: string) =>
  t.http.get(`/api/v4/addons/${encodeURIComponent(guid)}/versions/${version}/`).set('Authorization', auth);

const download = (auth: string) =>
  t.http
    .get(new URL(xFileUrl).pathname)
    .set('Authorization', auth)
    .buffer(true)
    .parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });

const profile = (auth: string) => t.http.get('/api/v5/accounts/profile/').set('Authorization', auth);
const patchProfile = (auth: string, biography: string) =>
  t.http.patch(`/api/v5/accounts/account/${dev.id}/`).set('Authorization', auth).send({ biography });

const ADDON_UPLOAD = `query ($guid: String, $version: String) { addonUpload(guid: $guid, version: $version) { uuid } }`;
const ME = `{ me { id } }`;
const SUBMIT = `mutation ($uuid: String!, $guid: String) {
  submitAddonVersion(uploadUuid: $uuid, guid: $guid) { addonCreated upload { version } }
}`;
const VERSIONS = `query ($addon: String!) { addonVersions(addon: $addon) { count } }`;

const code = (res: { body: { errors?: { extensions: { code: string } }[] } }) => res.body.errors?.[0]?.extensions.code;

describe('every operation accepting API keys declares its family', () => {
  it('beside @Accepts, with a known family', async () => {
    const schema = await buildAppSchema(null);
    const missing: string[] = [];
    let count = 0;
    for (const type of [schema.getQueryType(), schema.getMutationType()] as GraphQLObjectType[]) {
      for (const field of Object.values(type.getFields())) {
        if (!declaredSchemes(field).includes('jwt')) continue;
        count++;
        const family = fieldKeyScope(field);
        if (!family || !KEY_OPERATIONS.includes(family)) missing.push(`${type.name}.${field.name}`);
      }
    }
    expect(missing).toEqual([]);
    expect(count).toBeGreaterThanOrEqual(13);
  });
});

describe('the default (full-scope) key', () => {
  it('still does everything: uploads, status, files, profile', async () => {
    const put = await v4Put(dev.jwt(), X, '1.0.0', await extension({ id: X }));
    expect(put.status).toBe(201);
    const done = await waitFor(
      'X 1.0.0 to be signed',
      async () => {
        const r = await status(dev.jwt(), X, '1.0.0');
        expect(r.status).toBe(200);
        return r.body.files?.[0]?.signed ? r.body : null;
      },
      90_000,
    );
    xFileUrl = done.files[0].download_url;
    expect((await download(dev.jwt())).status).toBe(200);
    expect((await v4Put(dev.jwt(), Y, '1.0.0', await extension({ id: Y }))).status).toBe(201);
    expect((await profile(dev.jwt())).status).toBe(200);
    expect((await patchProfile(dev.jwt(), 'Made with the default key')).status).toBe(200);
    const ids = await t
      .em()
      .getConnection()
      .execute<{ id: number; guid: string }[]>('select id, guid from addons where guid in (?, ?)', [X, Y]);
    xId = ids.find((r) => r.guid === X)!.id;
  }, 120_000);
});

describe('operation families', () => {
  const others = (family: string) => KEY_OPERATIONS.filter((f) => f !== family).map((f) => f.toUpperCase());

  it('upload: v4 PUT, v5 upload and submission, GraphQL submit', async () => {
    const without = await createKey(dev, { name: 'no upload', operations: others('upload') });
    const withIt = await createKey(dev, { name: 'upload only', operations: ['UPLOAD'] });

    const refused = await v4Put(without.jwt(), X, '1.1.0', await extension({ id: X, version: '1.1.0' }));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(
      /may not perform "upload" operations; it is limited to: status, listing, account/,
    );
    const refusedV5 = await v5Upload(without.jwt(), await extension({ id: X, version: '1.1.0' }));
    expect(refusedV5.status).toBe(403);
    expect(refusedV5.body.detail).toMatch(/may not perform "upload" operations/);
    const uuid = await validUpload(X, '1.2.0');
    const refusedSubmit = await v5Put(without.jwt(), X, uuid);
    expect(refusedSubmit.status).toBe(403);
    expect(refusedSubmit.body).toEqual({ detail: expect.stringMatching(/"upload"/) });
    expect(code(await gql(without.jwt(), SUBMIT, { uuid, guid: X }))).toBe('FORBIDDEN');

    expect((await v4Put(withIt.jwt(), X, '1.1.0', await extension({ id: X, version: '1.1.0' }))).status).toBe(202);
    expect((await v5Upload(withIt.jwt(), await extension({ id: X, version: '1.3.0' }))).status).toBe(201);
    const submitted = await v5Put(withIt.jwt(), X, uuid);
    expect(submitted.status).toBe(200);
    const viaGraphql = await gql(withIt.jwt(), SUBMIT, { uuid: await validUpload(X, '1.4.0'), guid: X });
    expect(viaGraphql.body.data.submitAddonVersion.upload.version).toBe('1.4.0');
  }, 120_000);

  it('status: version status, file download, GraphQL upload and versions', async () => {
    const without = await createKey(dev, { name: 'no status', operations: others('status') });
    const withIt = await createKey(dev, { name: 'status only', operations: ['STATUS'] });

    const refused = await status(without.jwt(), X, '1.0.0');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/may not perform "status" operations/);
    const refusedFile = await download(without.jwt());
    expect(refusedFile.status).toBe(403);
    expect(JSON.parse(refusedFile.body.toString())).toEqual({ detail: expect.stringMatching(/"status"/) });
    expect(code(await gql(without.jwt(), ADDON_UPLOAD, { guid: X, version: '1.0.0' }))).toBe('FORBIDDEN');
    expect(code(await gql(without.jwt(), VERSIONS, { addon: X }))).toBe('FORBIDDEN');

    expect((await status(withIt.jwt(), X, '1.0.0')).status).toBe(200);
    expect((await download(withIt.jwt())).status).toBe(200);
    expect((await gql(withIt.jwt(), ADDON_UPLOAD, { guid: X, version: '1.0.0' })).body.data.addonUpload.uuid).toMatch(
      /^[0-9a-f]{32}$/,
    );
    expect((await gql(withIt.jwt(), VERSIONS, { addon: X })).body.data.addonVersions.count).toEqual(expect.any(Number));
    // Its other families are refused: a status key cannot upload.
    expect((await v4Put(withIt.jwt(), X, '1.5.0', await extension({ id: X, version: '1.5.0' }))).status).toBe(403);
  }, 60_000);

  it('account: profile GET and PATCH, GraphQL me', async () => {
    const without = await createKey(dev, { name: 'no account', operations: others('account') });
    const withIt = await createKey(dev, { name: 'account only', operations: ['ACCOUNT'] });

    const refused = await profile(without.jwt());
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: expect.stringMatching(/may not perform "account" operations/) });
    expect((await patchProfile(without.jwt(), 'nope')).status).toBe(403);
    expect(code(await gql(without.jwt(), ME))).toBe('FORBIDDEN');

    expect((await profile(withIt.jwt())).body.id).toBe(dev.id);
    const patched = await patchProfile(withIt.jwt(), 'Edited with an account key');
    expect(patched.status).toBe(200);
    expect(patched.body.biography).toBe('Edited with an account key');
    expect((await gql(withIt.jwt(), ME)).body.data.me.id).toBe(dev.id);
  }, 60_000);

  it('listing: a listing key edits the listing through GraphQL and nothing else; other keys may not edit it', async () => {
    const listing = await createKey(dev, { name: 'listing only', operations: ['LISTING'] });
    const upload = await createKey(dev, { name: 'upload for listing', operations: ['UPLOAD', 'STATUS'] });
    const EDIT = `mutation ($addon: String!, $input: UpdateAddonListingInput!) {
      updateAddonListing(addon: $addon, input: $input) { id summary }
    }`;
    const edit = (auth: string, summary: string) =>
      gql(auth, EDIT, { addon: String(xId), input: { summary: { 'en-US': summary } } });

    const edited = await edit(listing.jwt(), 'Edited from CI with a listing key');
    expect(edited.body.errors).toBeUndefined();
    expect(edited.body.data.updateAddonListing.summary).toEqual({ 'en-US': 'Edited from CI with a listing key' });

    const refused = await edit(upload.jwt(), 'Not with an upload key');
    expect(code(refused)).toBe('FORBIDDEN');
    expect(refused.body.errors[0].message).toMatch(/may not perform "listing" operations/);

    expect((await status(listing.jwt(), X, '1.0.0')).status).toBe(403);
    expect((await profile(listing.jwt())).status).toBe(403);
    expect((await v4Put(listing.jwt(), X, '1.6.0', await extension({ id: X, version: '1.6.0' }))).status).toBe(403);

    const schema = await buildAppSchema(null);
    const listingFields = [schema.getQueryType()!, schema.getMutationType()!]
      .flatMap((type) => Object.values(type.getFields()).filter((f) => fieldKeyScope(f) === 'listing'))
      .map((f) => f.name)
      .sort();
    expect(listingFields).toEqual([
      'addAddonPreview',
      'addonDeleteConfirmation',
      'addonPendingAuthors',
      'cancelAddonPendingAuthor',
      'confirmAddonAuthorInvitation',
      'declineAddonAuthorInvitation',
      'deleteAddon',
      'deleteAddonPreview',
      'inviteAddonAuthor',
      'setAddonDisabledByDeveloper',
      'setAddonIcon',
      'updateAddonListing',
      'updateAddonPendingAuthor',
      'updateAddonPreview',
    ]);
    // Pending invitations take listing keys (as the original's API); confirmed authors' management stays with sessions.
    expect(code(await gql(listing.jwt(), `mutation { removeAddonAuthor(addon: "${xId}", userId: 1) { id } }`))).toBe(
      'FORBIDDEN',
    );
  }, 60_000);
});

describe('add-on scope', () => {
  it('a key for X uploads to X and reads it, is refused on Y as a stranger is, and creates no add-on', async () => {
    const stranger = await keyCaller(t);
    const xKey = await createKey(dev, { name: 'X only', addons: [String(xId)] });

    expect((await v4Put(xKey.jwt(), X, '2.0.0', await extension({ id: X, version: '2.0.0' }))).status).toBe(202);
    expect((await status(xKey.jwt(), X, '2.0.0')).status).toBe(200);

    const onY = await v4Put(xKey.jwt(), Y, '2.0.0', await extension({ id: Y, version: '2.0.0' }));
    const strangerOnY = await v4Put(stranger.jwt(), Y, '2.0.0', await extension({ id: Y, version: '2.0.0' }));
    expect(onY.status).toBe(403);
    expect(onY.body).toEqual(strangerOnY.body);
    const statusY = await status(xKey.jwt(), Y, '1.0.0');
    expect(statusY.status).toBe(403);
    expect(statusY.body).toEqual((await status(stranger.jwt(), Y, '1.0.0')).body);
    // Y is not public: its versions are refused (403), as to a stranger.
    const versionsY = await gql(xKey.jwt(), VERSIONS, { addon: Y });
    expect(code(versionsY)).toBe('FORBIDDEN');
    expect(versionsY.body.errors[0].message).toBe(
      (await gql(stranger.jwt(), VERSIONS, { addon: Y })).body.errors[0].message,
    );
    const uuid = await validUpload(Y, '2.1.0');
    expect((await v5Put(xKey.jwt(), Y, uuid)).status).toBe(403);
    // The user's own upload, once submitted to Y, is hidden from the key (404) like Y's others.
    expect((await v5Put(dev.jwt(), Y, uuid)).status).toBe(200);
    expect((await t.http.get(`/api/v5/addons/upload/${uuid}/`).set('Authorization', xKey.jwt())).status).toBe(404);
    expect((await t.http.get(`/api/v5/addons/upload/${uuid}/`).set('Authorization', dev.jwt())).status).toBe(200);

    // New add-ons: v4 POST, v4 PUT of an unknown guid, v5 submission without and with a new guid.
    const created = 'This API key is limited to some add-ons and may not create new ones.';
    const post = await v4Post(xKey.jwt(), await extension({ id: null }));
    expect(post.status).toBe(403);
    expect(post.body).toEqual({ error: created });
    const newGuid = await v4Put(
      xKey.jwt(),
      'scoped-new@example.com',
      '1.0',
      await extension({ id: 'scoped-new@example.com', version: '1.0' }),
    );
    expect(newGuid.status).toBe(403);
    expect(newGuid.body).toEqual({ error: created });
    const fresh = await validUpload('scoped-new2@example.com', '1.0');
    const v5New = await t.http
      .post('/api/v5/addons/addon/')
      .set('Authorization', xKey.jwt())
      .send({ version: { upload: fresh } });
    expect(v5New.status).toBe(403);
    expect(v5New.body).toEqual({ detail: created });
    expect((await v5Put(xKey.jwt(), 'scoped-new2@example.com', fresh)).status).toBe(403);
    // A key without add-on limits creates one.
    expect((await v5Put(dev.jwt(), 'scoped-new2@example.com', fresh)).status).toBe(201);
  }, 120_000);
});

describe('other families and trusted-publishing keys', () => {
  it('abuse reports are "account", review notes and source downloads "status"', async () => {
    const uploadOnly = await createKey(dev, { name: 'upload, for notes', operations: ['UPLOAD'] });
    const accountOnly = await createKey(dev, { name: 'account, for reports', operations: ['ACCOUNT'] });
    const statusOnly = await createKey(dev, { name: 'status, for notes', operations: ['STATUS'] });
    const stranger = await keyCaller(t);
    const REPORT = `mutation ($input: UserAbuseReportInput!) { reportUser(input: $input) { message } }`;
    const input = { user: String(stranger.id), message: 'Spam from this account' };
    const refused = await gql(uploadOnly.jwt(), REPORT, { input });
    expect(code(refused)).toBe('FORBIDDEN');
    expect(refused.body.errors[0].message).toMatch(/may not perform "account" operations; it is limited to: upload/);
    expect((await gql(accountOnly.jwt(), REPORT, { input })).body.data.reportUser.message).toBe(input.message);

    const [{ id: versionId }] = await t
      .em()
      .getConnection()
      .execute<{ id: number }[]>(`select id from versions where addon_id = ? order by id limit 1`, [xId]);
    const NOTES = `query ($addon: String!, $versionId: Int!) { reviewNotes(addon: $addon, versionId: $versionId) { count } }`;
    expect(code(await gql(uploadOnly.jwt(), NOTES, { addon: X, versionId }))).toBe('FORBIDDEN');
    expect((await gql(statusOnly.jwt(), NOTES, { addon: X, versionId })).body.data.reviewNotes.count).toEqual(
      expect.any(Number),
    );

    // The source code download (outside GraphQL) is "status" too: refused before the version is looked up.
    const source = await t.http.get(`/downloads/source/${versionId}`).set('Authorization', uploadOnly.jwt());
    expect(source.status).toBe(403);
    expect(source.body).toEqual({ detail: expect.stringMatching(/may not perform "status" operations/) });
    expect((await t.http.get(`/downloads/source/${versionId}`).set('Authorization', statusOnly.jwt())).status).toBe(
      404, // no source attached
    );
  });

  it('a trusted-publishing key (issueScoped) is enforced as any scoped key', async () => {
    const em = t.em();
    const user = await em.findOneOrFail(User, dev.id);
    const issued = await t.app.services.apiKeys.issueScoped(em, user, {
      kind: 'trusted-publishing',
      name: null,
      addonIds: [xId],
      operations: ['upload', 'status'],
      expiresAt: new Date(Date.now() + 15 * 60_000),
    });
    const tp = jwtOf(issued.key, issued.secret);
    expect((await status(tp(), X, '1.0.0')).status).toBe(200);
    expect((await v4Put(tp(), X, '3.0.0', await extension({ id: X, version: '3.0.0' }))).status).toBe(202);
    expect((await profile(tp())).status).toBe(403);
    expect((await status(tp(), Y, '1.0.0')).status).toBe(403);
    expect((await v4Post(tp(), await extension({ id: null }))).status).toBe(403);
    const listed = await gql(dev.session, `{ apiKeys { key kind } }`);
    expect(listed.body.data.apiKeys).toContainEqual({ key: issued.key, kind: 'trusted-publishing' });
  }, 60_000);
});

describe('expiry, revocation and use', () => {
  it('an expired key is 401 "expired" (with a valid signature only); a revoked one is unknown', async () => {
    const key = await createKey(dev, { name: 'short-lived', expiresInDays: 1 });
    expect((await profile(key.jwt())).status).toBe(200);
    await t
      .em()
      .getConnection()
      .execute(`update api_keys set expires_at = now() - interval '1 minute' where key = ?`, [key.key]);
    const expired = await profile(key.jwt());
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ detail: 'API key has expired.' });
    const forged = await profile(jwtOf(key.key, 'not-the-secret')());
    expect(forged.status).toBe(401);
    expect(forged.body.detail).not.toMatch(/expired/);

    const revoked = await createKey(dev, { name: 'to revoke' });
    expect((await profile(revoked.jwt())).status).toBe(200);
    const res = await gql(dev.session, `mutation ($id: ID) { revokeApiKey(id: $id) }`, { id: revoked.id });
    expect(res.body.data.revokeApiKey).toBe(true);
    const after = await profile(revoked.jwt());
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ detail: 'Unknown JWT iss (issuer).' });
  });

  it('records lastUsedAt on use, at most once a minute', async () => {
    const key = await createKey(dev, { name: 'used' });
    const before = await gql(dev.session, `{ apiKeys { id lastUsedAt } }`);
    expect(before.body.data.apiKeys.find((k: { id: string }) => k.id === key.id).lastUsedAt).toBeNull();
    expect((await profile(key.jwt())).status).toBe(200);
    const read = async () =>
      (await gql(dev.session, `{ apiKeys { id lastUsedAt } }`)).body.data.apiKeys.find(
        (k: { id: string }) => k.id === key.id,
      ).lastUsedAt as string;
    const first = await read();
    expect(Date.now() - Date.parse(first)).toBeLessThan(60_000);
    expect((await profile(key.jwt())).status).toBe(200);
    expect(await read()).toBe(first);
  });
});

describe('management', () => {
  it('lists the caller’s keys with their scope, never a secret', async () => {
    const key = await createKey(dev, {
      name: 'listed',
      addons: [String(xId)],
      operations: ['STATUS', 'UPLOAD'],
      expiresAt: new Date(Date.now() + 10 * 86_400_000).toISOString(),
    });
    const res = await gql(
      dev.session,
      `{ apiKeys { id key name kind scopeAddonIds scopeOperations expiresAt lastUsedAt created addons { guid } } }`,
    );
    const listed = res.body.data.apiKeys.find((k: { id: string }) => k.id === key.id);
    expect(listed).toMatchObject({
      key: key.key,
      name: 'listed',
      kind: 'scoped',
      scopeAddonIds: [xId],
      scopeOperations: ['UPLOAD', 'STATUS'],
      addons: [{ guid: X }],
    });
    expect(res.body.data.apiKeys.find((k: { kind: string }) => k.kind === 'default')).toMatchObject({
      name: null,
      scopeAddonIds: null,
      scopeOperations: null,
      addons: null,
    });
    expect(JSON.stringify(res.body)).not.toContain(key.secret);
    const secret = await gql(dev.session, `{ apiKeys { secret } }`);
    expect(secret.status).toBe(400);
  });

  it('validates the input with field errors', async () => {
    const other = await keyCaller(t);
    const otherAddon = await v4Put(
      other.jwt(),
      'scoped-foreign@example.com',
      '1.0',
      await extension({ id: 'scoped-foreign@example.com', version: '1.0' }),
    );
    expect(otherAddon.status).toBe(201);
    const [{ id: foreignId }] = await t
      .em()
      .getConnection()
      .execute<{ id: number }[]>('select id from addons where guid = ?', ['scoped-foreign@example.com']);
    const fields = async (input: Record<string, unknown>) => {
      const res = await gql(dev.session, CREATE, { input });
      expect(code(res)).toBe('VALIDATION_FAILED');
      return res.body.errors[0].extensions.fields;
    };
    expect(await fields({ name: '  ' })).toEqual({ name: ['This field is required.'] });
    expect(await fields({ name: 'x'.repeat(101) })).toEqual({
      name: ['Ensure this field has no more than 100 characters.'],
    });
    await createKey(dev, { name: 'CI' });
    expect(await fields({ name: 'ci' })).toEqual({ name: ['You already have an active API key with this name.'] });
    expect(await fields({ name: 'foreign', addons: [String(xId), String(foreignId), 'abc'] })).toEqual({
      addons: [`You are not an author of these add-ons: ${foreignId}, abc.`],
    });
    expect(await fields({ name: 'empty', operations: [] })).toEqual({
      operations: ['Give at least one, or leave the field out for no limit.'],
    });
    expect(await fields({ name: 'past', expiresAt: new Date(Date.now() - 1000).toISOString() })).toEqual({
      expiresAt: ['The expiry must be in the future.'],
    });
    expect(await fields({ name: 'far', expiresInDays: 367 })).toEqual({
      expiresInDays: ['The expiry must be at most 366 days ahead.'],
    });
    expect(await fields({ name: 'both', expiresInDays: 3, expiresAt: new Date().toISOString() })).toEqual({
      expiresAt: ['Give expiresAt or expiresInDays, not both.'],
    });
    // An unknown family is not a KeyOperation: GraphQL refuses the variables.
    const unknown = await gql(dev.session, CREATE, { input: { name: 'unknown', operations: ['DELETE'] } });
    expect(unknown.status).toBe(400);
    // Without an expiry, 90 days.
    const defaulted = await gql(dev.session, CREATE, { input: { name: 'default expiry' } });
    const expiresAt = Date.parse(defaulted.body.data.createApiKey.apiKey.expiresAt);
    expect(Math.round((expiresAt - Date.now()) / 86_400_000)).toBe(90);
  }, 60_000);

  it('is for sessions of developers who accepted the agreement; a key cannot mint keys', async () => {
    const viaKey = await gql(dev.jwt(), CREATE, { input: { name: 'minted' } });
    expect(viaKey.status).toBe(403);
    expect(code(viaKey)).toBe('FORBIDDEN');
    expect(code(await gql(dev.jwt(), `{ apiKeys { id } }`))).toBe('FORBIDDEN');
    const newcomer = await t.createUser({ session: true });
    const res = await gql(`Bearer ${newcomer.sessionToken}`, CREATE, { input: { name: 'too early' } });
    expect(code(res)).toBe('FORBIDDEN');
    expect(res.body.errors[0].message).toBe('User has not read developer agreement.');
    expect(code(await gql(null, CREATE, { input: { name: 'anonymous' } }))).toBe('UNAUTHENTICATED');
  });

  it('a stranger cannot revoke another’s key', async () => {
    const key = await createKey(dev, { name: 'mine' });
    const stranger = await keyCaller(t);
    const res = await gql(stranger.session, `mutation ($id: ID) { revokeApiKey(id: $id) }`, { id: key.id });
    expect(res.body.data.revokeApiKey).toBe(false);
    expect((await profile(key.jwt())).status).toBe(200);
  });

  it('limits the active scoped keys per user; the default key’s flow leaves scoped keys alone', async () => {
    const owner = await keyCaller(t);
    const first = await createKey(owner, { name: 'key 0' });
    for (let i = 1; i < 20; i++) await createKey(owner, { name: `key ${i}` });
    const over = await gql(owner.session, CREATE, { input: { name: 'key 20' } });
    expect(code(over)).toBe('FORBIDDEN');
    expect(over.body.errors[0].message).toBe('You have 20 active scoped API keys; revoke one first.');

    const issued = await gql(owner.session, `mutation { issueApiKey { key secret } }`);
    const fresh = issued.body.data.issueApiKey;
    expect((await profile(jwtOf(fresh.key, fresh.secret)())).status).toBe(200);
    expect((await profile(owner.jwt())).status).toBe(401); // the previous default key
    expect((await profile(first.jwt())).status).toBe(200);
    expect((await gql(owner.session, `mutation { revokeApiKey }`)).body.data.revokeApiKey).toBe(true);
    expect((await profile(first.jwt())).status).toBe(200);
  }, 60_000);
});
