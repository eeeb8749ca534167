import { randomUUID } from 'node:crypto';
import { AddonStatus, AddonType, Channel } from '../src/catalogue/catalogue.enums.js';
import { Version } from '../src/catalogue/version.entity.js';
import { FileUpload } from '../src/signing/upload.entity.js';
import { User } from '../src/accounts/user.entity.js';
import { type createAddon } from './helpers/catalogue.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { FORBIDDEN, as, developerCallers, ownedAddon as ownedAddonOf } from './fixtures/developer-callers.js';
import { animate, png } from './helpers/images.js';
import { startTestApp, type TestApp } from './helpers/app.js';

/**
 * v5 developer-hub endpoints (issue 37): version delete, previews (create, edit, delete) and the
 * upload list, over `deleteAddonVersion`, `addAddonPreview`, `updateAddonPreview`,
 * `deleteAddonPreview` and `myAddonUploads`.
 */
let t: TestApp;
let owner: KeyCaller;
let developer: string;
let stranger: string;

beforeAll(async () => {
  t = await startTestApp();
  ({ owner, developer, stranger } = await developerCallers(t));
}, 120_000);
afterAll(() => t.close());

/** An answer without the origin of its URLs (each request of the test client has its own port). */
const local = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replace(/http:\/\/127\.0\.0\.1:\d+/g, ''));

/** An add-on with the owner (and the developer, role developer) as authors. */
const ownedAddon = (spec: Parameters<typeof createAddon>[1] = {}) => ownedAddonOf(t, owner, spec);

async function versionIds(addonId: number): Promise<Record<string, number>> {
  const rows = await t.em().find(Version, { addon: addonId });
  return Object.fromEntries(rows.map((v) => [v.version, v.id]));
}

describe('DELETE /api/v5/addons/addon/<addon>/versions/<id>/', () => {
  const del = (token: string | null, addon: string | number, version: string | number) =>
    as(token, t.http.delete(`/api/v5/addons/addon/${addon}/versions/${version}/`));

  it('soft-deletes the version (204); the add-on status follows its versions', async () => {
    const addon = await ownedAddon({ versions: [{ version: '1.0' }, { version: '1.1' }] });
    const ids = await versionIds(addon.id);
    const res = await del(owner.session, addon.slug!, ids['1.1']);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const row = await t.em().findOneOrFail(Version, ids['1.1']);
    expect(row.deleted).toBe(true);
    const detail = await t.http.get(`/api/v5/addons/addon/${addon.slug}/`);
    expect(detail.body).toMatchObject({ status: 'public', current_version: { id: ids['1.0'], version: '1.0' } });
    // Deleted: unknown afterwards, for a second delete and for reads.
    expect((await del(owner.session, addon.slug!, ids['1.1'])).status).toBe(404);
    const read = await as(owner.session, t.http.get(`/api/v5/addons/addon/${addon.slug}/versions/${ids['1.1']}/`));
    expect(read.status).toBe(404);

    // The last approved listed version: the add-on becomes incomplete.
    expect((await del(owner.jwt(), addon.guid!, ids['1.0'])).status).toBe(204);
    const own = await as(owner.session, t.http.get(`/api/v5/addons/addon/${addon.slug}/`));
    expect(own.body).toMatchObject({ status: 'incomplete', current_version: null });
    expect((await t.http.get(`/api/v5/addons/addon/${addon.slug}/`)).status).toBe(401);
  });

  it('takes a version number as well as an id (with or without a v prefix), and API keys', async () => {
    const addon = await ownedAddon({
      versions: [{ version: '1.0' }, { version: '2.0' }, { version: '3.0', channel: Channel.UNLISTED }],
    });
    expect((await del(owner.jwt(), addon.id, '2.0')).status).toBe(204);
    expect((await del(owner.jwt(), addon.id, 'v3.0')).status).toBe(204);
    expect((await del(owner.jwt(), addon.id, '9.9')).status).toBe(404);
    const rows = await t.em().find(Version, { addon: addon.id }, { orderBy: { version: 'asc' } });
    expect(rows.map((v) => [v.version, v.deleted])).toEqual([
      ['1.0', false],
      ['2.0', true],
      ['3.0', true],
    ]);
  });

  it('refuses anonymous callers (401), strangers and developer-role authors (403), unknown ids (404)', async () => {
    const addon = await ownedAddon({ versions: [{ version: '1.0' }, { version: '1.1' }] });
    const other = await ownedAddon();
    const ids = await versionIds(addon.id);
    expect((await del(null, addon.slug!, ids['1.1'])).status).toBe(401);
    const strangerRes = await del(stranger, addon.slug!, ids['1.1']);
    expect([strangerRes.status, strangerRes.body]).toEqual([403, { detail: FORBIDDEN }]);
    const devRes = await del(developer, addon.slug!, ids['1.1']);
    expect([devRes.status, devRes.body]).toEqual([403, { detail: 'Only owners of the add-on can do this.' }]);
    expect((await del(owner.session, 'no-such-addon', ids['1.1'])).status).toBe(404);
    expect((await del(owner.session, addon.slug!, 999_999_999)).status).toBe(404);
    const otherIds = await versionIds(other.id);
    expect((await del(owner.session, addon.slug!, Object.values(otherIds)[0])).status).toBe(404);
    // Not in v4, where versions are read only.
    const v4 = await as(owner.session, t.http.delete(`/api/v4/addons/addon/${addon.slug}/versions/${ids['1.1']}/`));
    expect(v4.status).toBe(405);
    expect((await t.em().findOneOrFail(Version, ids['1.1'])).deleted).toBe(false);
  });

  it("refuses a version of an add-on disabled by an administrator to its authors (403 with the add-on's flags)", async () => {
    const addon = await ownedAddon({
      status: AddonStatus.DISABLED,
      versions: [{ version: '1.0' }, { version: '1.1' }],
    });
    const ids = await versionIds(addon.id);
    const res = await del(owner.session, addon.id, ids['1.1']);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: FORBIDDEN, is_disabled_by_developer: false, is_disabled_by_vendor: true });
    expect((await t.em().findOneOrFail(Version, ids['1.1'])).deleted).toBe(false);
  });
});

describe('previews: POST, PATCH and DELETE /api/v5/addons/addon/<addon>/previews/', () => {
  const url = (addon: string | number, id?: number) =>
    `/api/v5/addons/addon/${addon}/previews/${id === undefined ? '' : `${id}/`}`;
  const create = async (token: string | null, addon: string | number, fields: Record<string, string> = {}) => {
    let req = as(token, t.http.post(url(addon)));
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    return req.attach('image', await png(64, 48), 'shot.png');
  };
  const previewIds = async (addon: string) =>
    ((await t.http.get(`/api/v5/addons/addon/${addon}/`)).body.previews as { id: number }[]).map((p) => p.id);

  it('creates a preview (201, the detail’s preview object), placed by position, and edits and deletes it', async () => {
    const addon = await ownedAddon();
    const first = await create(owner.session, addon.slug!);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(Number),
      caption: null,
      image_size: [64, 48],
      image_url: expect.stringMatching(/\/user-media\/previews\/full\/\d+\/\d+\.png\?modified=\d+$/),
      position: 0,
      thumbnail_size: [64, 48],
      thumbnail_url: expect.stringMatching(/\/user-media\/previews\/thumbs\/\d+\/\d+\.jpg\?modified=\d+$/),
    });
    const detail = await t.http.get(`/api/v5/addons/addon/${addon.slug}/`);
    expect(local(detail.body.previews)).toEqual(local([first.body]));

    // Default: after the others; `position` places it.
    const second = await create(owner.jwt(), addon.id);
    expect(second.status).toBe(201);
    expect(second.body.position).toBe(1);
    const front = await create(developer, addon.guid!, { position: '0' });
    expect(front.status).toBe(201);
    expect(front.body.position).toBe(0);
    expect(await previewIds(addon.slug!)).toEqual([first.body.id, front.body.id, second.body.id]);

    const edited = await as(owner.session, t.http.patch(url(addon.slug!, second.body.id))).send({
      caption: { 'en-US': 'Main window', fr: 'Fenêtre' },
      position: -0,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      id: second.body.id,
      caption: { 'en-US': 'Main window', fr: 'Fenêtre' },
      position: 0,
      image_size: [64, 48],
    });
    const moved = await as(owner.jwt(), t.http.patch(url(addon.id, first.body.id))).send({ position: 5 });
    expect(moved.body).toMatchObject({ id: first.body.id, position: 5, caption: null });
    // Equal positions: the older first.
    expect(await previewIds(addon.slug!)).toEqual([second.body.id, front.body.id, first.body.id]);
    // A caption's locale set to null goes; the others stay.
    const dropped = await as(owner.session, t.http.patch(url(addon.slug!, second.body.id))).send({
      caption: { fr: null },
    });
    expect(dropped.body.caption).toEqual({ 'en-US': 'Main window' });
    const lang = await as(owner.session, t.http.patch(`${url(addon.slug!, second.body.id)}?lang=en-US`)).send({});
    // As the original's translated fields: `lang` flattens them in GET answers only.
    expect(lang.body.caption).toEqual({ 'en-US': 'Main window' });

    const gone = await as(developer, t.http.delete(url(addon.slug!, first.body.id)));
    expect([gone.status, gone.text]).toEqual([204, '']);
    expect(await previewIds(addon.slug!)).toEqual([second.body.id, front.body.id]);
    expect((await t.http.get(new URL(first.body.image_url).pathname)).status).toBe(404);
    expect((await as(developer, t.http.delete(url(addon.slug!, first.body.id)))).status).toBe(404);
  });

  it('answers field errors: no image, not an image, animated, bad positions, long captions', async () => {
    const addon = await ownedAddon();
    const missing = await as(owner.session, t.http.post(url(addon.id))).field('position', '1');
    expect([missing.status, missing.body]).toEqual([400, { image: ['This field is required.'] }]);
    const notImage = await as(owner.session, t.http.post(url(addon.id))).attach('image', Buffer.from('hello'), 'x.png');
    expect([notImage.status, notImage.body]).toEqual([400, { image: ['Images must be either PNG or JPG.'] }]);
    const animated = await as(owner.session, t.http.post(url(addon.id))).attach(
      'image',
      animate(await png(8, 8)),
      'a.png',
    );
    expect([animated.status, animated.body]).toEqual([400, { image: ['Images cannot be animated.'] }]);
    const word = await create(owner.session, addon.id, { position: 'first' });
    expect([word.status, word.body]).toEqual([400, { position: ['A valid integer is required.'] }]);
    const negative = await create(owner.session, addon.id, { position: '-1' });
    expect([negative.status, negative.body]).toEqual([
      400,
      { position: ['Ensure this value is greater than or equal to 0.'] },
    ]);
    expect(await previewIds(addon.slug!)).toEqual([]);

    const made = await create(owner.session, addon.id);
    const patch = (payload: object) => as(owner.session, t.http.patch(url(addon.id, made.body.id))).send(payload);
    expect((await patch({ caption: 'x'.repeat(281) })).body).toEqual({
      caption: ['Ensure this field has no more than 280 characters.'],
    });
    expect((await patch({ caption: ['x'] })).body).toEqual({
      caption: ['You must provide an object of {lang-code:value}.'],
    });
    expect((await patch({ caption: { xx_YY: 'x' } })).status).toBe(400);
    expect((await patch({ position: 1.5 })).body).toEqual({ position: ['A valid integer is required.'] });
    const after = await t.http.get(`/api/v5/addons/addon/${addon.slug}/`);
    expect(local(after.body.previews)).toEqual(local([made.body]));
  });

  it('refuses anonymous callers (401), non-authors (403), unknown add-ons and previews (404)', async () => {
    const addon = await ownedAddon();
    const other = await ownedAddon();
    const made = await create(owner.session, addon.id);
    const elsewhere = await create(owner.session, other.id);
    expect((await create(null, addon.id)).status).toBe(401);
    expect((await t.http.patch(url(addon.id, made.body.id)).send({ position: 1 })).status).toBe(401);
    expect((await t.http.delete(url(addon.id, made.body.id))).status).toBe(401);
    const denied = await create(stranger, addon.id);
    expect([denied.status, denied.body]).toEqual([403, { detail: FORBIDDEN }]);
    expect((await as(stranger, t.http.patch(url(addon.id, made.body.id))).send({ position: 1 })).status).toBe(403);
    expect((await as(stranger, t.http.delete(url(addon.id, made.body.id)))).status).toBe(403);
    expect((await create(owner.session, 'no-such-addon')).status).toBe(404);
    expect((await as(owner.session, t.http.patch(url(addon.id, elsewhere.body.id))).send({ position: 1 })).status).toBe(
      404,
    );
    expect((await as(owner.session, t.http.delete(url(addon.id, elsewhere.body.id)))).status).toBe(404);
    expect((await as(owner.session, t.http.delete(`${url(addon.id)}abc/`))).status).toBe(404);
    expect(await previewIds(addon.slug!)).toEqual([made.body.id]);
  });

  it('refuses static themes (their previews are generated) and add-ons disabled by an administrator', async () => {
    const theme = await ownedAddon({ type: AddonType.STATICTHEME, previews: 1 });
    const [generated] = await previewIds(theme.slug!);
    const added = await create(owner.session, theme.id);
    expect(added.status).toBe(403);
    expect(added.body).toEqual({
      detail: 'Themes have generated previews only: previews cannot be added, edited or deleted.',
    });
    expect((await as(owner.session, t.http.patch(url(theme.id, generated))).send({ position: 3 })).status).toBe(403);
    expect((await as(owner.session, t.http.delete(url(theme.id, generated)))).status).toBe(403);
    expect(await previewIds(theme.slug!)).toEqual([generated]);

    const disabled = await ownedAddon({ status: AddonStatus.DISABLED, previews: 1 });
    const res = await create(owner.session, disabled.id);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: FORBIDDEN, is_disabled_by_developer: false, is_disabled_by_vendor: true });
  });
});

describe('GET /api/v5/addons/upload/', () => {
  it("lists the caller's uploads, newest first, paginated, each as the upload detail answers it", async () => {
    const me = await keyCaller(t, { username: 'uploader' });
    const em = t.em();
    const user = await em.findOneOrFail(User, me.id);
    const someone = await em.findOneOrFail(User, { username: 'stranger' });
    const make = (who: User, version: string, minutesAgo: number) =>
      em.create(FileUpload, {
        uuid: randomUUID().replace(/-/g, ''),
        user: who,
        version,
        channel: Channel.UNLISTED,
        addonType: AddonType.EXTENSION,
        automatedSigning: true,
        filename: `${version}.zip`,
        storageKey: `uploads/${version}.zip`,
        hash: 'sha256:00',
        created: new Date(Date.now() - minutesAgo * 60_000),
      });
    const oldest = make(user, '1.0', 30);
    const newest = make(user, '3.0', 1);
    const middle = make(user, '2.0', 10);
    make(someone, '9.0', 0);
    await em.flush();

    const all = await t.http.get('/api/v5/addons/upload/').set('Authorization', me.jwt());
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ count: 3, next: null, previous: null });
    expect(all.body.results.map((u: { uuid: string }) => u.uuid)).toEqual([newest.uuid, middle.uuid, oldest.uuid]);
    const detail = await t.http.get(`/api/v5/addons/upload/${middle.uuid}/`).set('Authorization', me.session);
    expect(detail.status).toBe(200);
    expect(local(all.body.results[1])).toEqual(local(detail.body));
    expect(detail.body).toEqual({
      uuid: middle.uuid,
      channel: 'unlisted',
      processed: false,
      submitted: false,
      url: expect.stringMatching(new RegExp(`/api/v5/addons/upload/${middle.uuid}/$`)),
      valid: false,
      validation: null,
      version: '2.0',
    });

    const page = await t.http.get('/api/v5/addons/upload/?page_size=2&page=2').set('Authorization', me.session);
    expect(page.body).toMatchObject({ count: 3, next: null });
    expect(page.body.previous).toMatch(/\/api\/v5\/addons\/upload\/\?page_size=2$/);
    expect(page.body.results.map((u: { uuid: string }) => u.uuid)).toEqual([oldest.uuid]);

    const none = await t.http.get('/api/v5/addons/upload/').set('Authorization', developer);
    expect(none.body).toMatchObject({ count: 0, results: [] });
    expect((await t.http.get('/api/v5/addons/upload/')).status).toBe(401);
    expect((await t.http.get('/api/v5/addons/upload/?page=9').set('Authorization', me.session)).status).toBe(404);
    expect((await t.http.get('/api/v4/addons/upload/').set('Authorization', me.session)).status).toBe(404);
  });
});
