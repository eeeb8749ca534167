import { AddonStatus } from '../src/catalogue/catalogue.enums.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { jpeg, png, readImage } from './helpers/images.js';

let t: TestApp;
let owner: { id: number; token: string };
let developer: { id: number; token: string };
let stranger: string;

beforeAll(async () => {
  t = await startTestApp();
  const make = async (username: string) => {
    const u = await t.createUser({ username, session: true });
    return { id: u.id, token: `Bearer ${u.sessionToken}` };
  };
  owner = await make('owner');
  developer = await make('developer');
  stranger = (await make('stranger')).token;
  await createAddon(t.em(), {
    slug: 'listed-addon',
    name: { 'en-US': 'Listed', fr: 'Listé' },
    authors: [{ id: owner.id }],
  });
});
afterAll(() => t.close());

const gql = (token: string | null, query: string, variables: object = {}, headers: Record<string, string> = {}) => {
  const req = t.http.post('/graphql').set(headers);
  if (token) req.set('Authorization', token);
  return req.send({ query, variables });
};

const UPDATE = `mutation($addon: String!, $input: UpdateAddonListingInput!) {
  updateAddonListing(addon: $addon, input: $input) { id name summary homepage tags categories { slug application } requiresPayment defaultLocale currentVersion { license { name isCustom } } }
}`;

describe('updateAddonListing', () => {
  it('lets an author edit texts, tags, categories, licence and flags; REST shows the result', async () => {
    const res = await gql(owner.token, UPDATE, {
      addon: 'listed-addon',
      input: {
        summary: 'A fine summary',
        name: { de: 'Gelistet' },
        homepage: { 'en-US': 'https://example.com' },
        tags: ['Privacy', 'privacy', 'tab manager'],
        categories: [
          { application: 'BROWSER', slug: 'privacy-security' },
          { application: 'ANDROID', slug: 'performance' },
        ],
        requiresPayment: true,
        license: { builtin: 6 },
      },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateAddonListing).toMatchObject({
      name: { 'en-US': 'Listed', fr: 'Listé', de: 'Gelistet' },
      summary: { 'en-US': 'A fine summary' },
      tags: ['privacy', 'tab manager'],
      requiresPayment: true,
      currentVersion: { license: { name: { 'en-US': 'The MIT License' }, isCustom: false } },
    });
    const rest = await t.http.get('/api/v4/addons/addon/listed-addon/');
    expect(rest.body).toMatchObject({
      summary: { 'en-US': 'A fine summary' },
      requires_payment: true,
      categories: { browser: ['privacy-security'], android: ['performance'] },
      tags: ['privacy', 'tab manager'],
    });
  });

  it('stores a plain string for the request language', async () => {
    await gql(
      owner.token,
      UPDATE,
      { addon: 'listed-addon', input: { summary: 'Résumé' } },
      { 'Accept-Language': 'fr' },
    );
    const rest = await t.http.get('/api/v4/addons/addon/listed-addon/');
    expect(rest.body.summary).toEqual({ 'en-US': 'A fine summary', fr: 'Résumé' });
  });

  it('answers validation problems as field errors and changes nothing', async () => {
    const res = await gql(owner.token, UPDATE, {
      addon: 'listed-addon',
      input: {
        name: { xx: 'Nope' },
        homepage: 'not a url',
        supportEmail: 'nobody',
        tags: Array.from({ length: 11 }, (_, i) => `tag${i}`),
        categories: [{ application: 'BROWSER', slug: 'no-such-category' }],
        defaultLocale: 'klingon',
      },
    });
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors[0].extensions.fields).toEqual({
      name: ["The language code 'xx' is invalid."],
      homepage: ['Enter a valid URL.'],
      support_email: ['Enter a valid email address.'],
      default_locale: ['"klingon" is not a valid choice.'],
      tags: ['You can have a maximum of 10 tags.'],
      categories: ['Invalid category name.'],
    });
    const rest = await t.http.get('/api/v4/addons/addon/listed-addon/');
    expect(rest.body.tags).toEqual(['privacy', 'tab manager']);
    const cleared = await gql(owner.token, UPDATE, { addon: 'listed-addon', input: { name: { 'en-US': null } } });
    expect(cleared.body.errors[0].extensions.fields).toEqual({
      name: ['A value in the default locale of "en-US" is required.'],
    });
    const tooMany = await gql(owner.token, UPDATE, {
      addon: 'listed-addon',
      input: {
        categories: ['tabs', 'shopping', 'bookmarks'].map((slug) => ({ application: 'BROWSER', slug })),
      },
    });
    expect(tooMany.body.errors[0].extensions.fields).toEqual({
      categories: ['Maximum number of categories per application (2) exceeded'],
    });
  });

  it('is for authors only', async () => {
    expect((await gql(null, UPDATE, { addon: 'listed-addon', input: {} })).body.errors[0].extensions.code).toBe(
      'UNAUTHENTICATED',
    );
    expect((await gql(stranger, UPDATE, { addon: 'listed-addon', input: {} })).body.errors[0].extensions.code).toBe(
      'FORBIDDEN',
    );
    expect((await gql(owner.token, UPDATE, { addon: 'nope', input: {} })).body.errors[0].extensions.code).toBe(
      'NOT_FOUND',
    );
  });
});

describe('authors', () => {
  const AUTHORS = '{ authors { user { id username } } }';

  it('are managed by owners, keeping an owner and a listed author', async () => {
    const added = await gql(
      owner.token,
      `mutation { addAddonAuthor(addon: "listed-addon", user: "developer", role: DEVELOPER) ${AUTHORS} }`,
    );
    expect(added.body.data.addAddonAuthor.authors.map((a: { user: { username: string } }) => a.user.username)).toEqual([
      'owner',
      'developer',
    ]);
    const twice = await gql(
      owner.token,
      `mutation { addAddonAuthor(addon: "listed-addon", user: "developer") { id } }`,
    );
    expect(twice.body.errors[0].extensions.fields).toEqual({ user: ['An author can only be present once.'] });
    const unknown = await gql(owner.token, `mutation { addAddonAuthor(addon: "listed-addon", user: "ghost") { id } }`);
    expect(unknown.body.errors[0].extensions.fields).toEqual({ user: ['Account not found.'] });

    const byDeveloper = await gql(
      developer.token,
      `mutation { removeAddonAuthor(addon: "listed-addon", userId: ${owner.id}) { id } }`,
    );
    expect(byDeveloper.body.errors[0]).toMatchObject({
      message: 'Only owners can manage the authors of an add-on.',
      extensions: { code: 'FORBIDDEN' },
    });
    const lastOwner = await gql(
      owner.token,
      `mutation { removeAddonAuthor(addon: "listed-addon", userId: ${owner.id}) { id } }`,
    );
    expect(lastOwner.body.errors[0].extensions.fields).toEqual({
      non_field_errors: ['An add-on must have at least one owner.'],
    });
    const moved = await gql(
      owner.token,
      `mutation { updateAddonAuthor(addon: "listed-addon", userId: ${developer.id}, position: 0) ${AUTHORS} }`,
    );
    expect(moved.body.data.updateAddonAuthor.authors.map((a: { user: { id: number } }) => a.user.id)).toEqual([
      developer.id,
      owner.id,
    ]);
    const hidden = await gql(
      owner.token,
      `mutation { updateAddonAuthor(addon: "listed-addon", userId: ${owner.id}, listed: false) ${AUTHORS} }`,
    );
    expect(hidden.body.data.updateAddonAuthor.authors.map((a: { user: { id: number } }) => a.user.id)).toEqual([
      developer.id,
    ]);
    const rest = await t.http.get('/api/v4/addons/addon/listed-addon/');
    expect(rest.body.authors.map((a: { username: string }) => a.username)).toEqual(['developer']);
    const removed = await gql(
      owner.token,
      `mutation { removeAddonAuthor(addon: "listed-addon", userId: ${developer.id}) { id } }`,
    );
    expect(removed.body.errors[0].extensions.fields).toEqual({
      non_field_errors: ['At least one author must be listed.'],
    });
  });

  it('lets a developer edit the listing but not the authors', async () => {
    const res = await gql(developer.token, UPDATE, { addon: 'listed-addon', input: { summary: 'By the developer' } });
    expect(res.body.errors).toBeUndefined();
  });
});

describe('previews and icon', () => {
  const upload = (token: string, query: string, variables: object, file: Buffer, name: string, field: string) =>
    t.http
      .post('/graphql')
      .set('Authorization', token)
      .set('apollo-require-preflight', 'true')
      .field('operations', JSON.stringify({ query, variables: { ...variables, [field]: null } }))
      .field('map', JSON.stringify({ 0: [`variables.${field}`] }))
      .attach('0', file, name);

  const PREVIEW = `mutation($addon: String!, $image: Upload!, $caption: TranslatedInput) {
    addAddonPreview(addon: $addon, image: $image, caption: $caption) { id imageSize thumbnailSize imageUrl thumbnailUrl caption }
  }`;

  /** A URL without its origin (each request of the test client has its own port). */
  const local = (url: string) => {
    const { pathname, search } = new URL(url);
    return pathname + search;
  };
  const localUrls = (urls: Record<string, string>) =>
    Object.fromEntries(Object.entries(urls).map(([key, url]) => [key, local(url)]));
  /** A served file, decoded: its real format and size. */
  const served = async (url: string) => {
    const res = await t.http.get(new URL(url).pathname).buffer(true);
    expect(res.status).toBe(200);
    return readImage(res.body as Buffer);
  };

  it('stores a preview and its thumbnail, re-encoded at their reported sizes, under /user-media/', async () => {
    const image = await png(64, 40);
    const res = await upload(
      owner.token,
      PREVIEW,
      { addon: 'listed-addon', caption: 'Main screen' },
      image,
      'shot.png',
      'image',
    );
    expect(res.body.errors).toBeUndefined();
    const preview = res.body.data.addAddonPreview;
    expect(preview).toMatchObject({
      imageSize: [64, 40],
      thumbnailSize: [64, 40],
      caption: { 'en-US': 'Main screen' },
    });
    expect(preview.imageUrl).toMatch(/\/user-media\/previews\/full\/\d+\/\d+\.png\?modified=\d+$/);
    expect(await served(preview.imageUrl)).toMatchObject({ format: 'png', width: 64, height: 40 });
    expect(await served(preview.thumbnailUrl)).toMatchObject({ format: 'jpeg', width: 64, height: 40 });
    const rest = await t.http.get('/api/v4/addons/addon/listed-addon/');
    expect(rest.body.previews[0]).toMatchObject({
      id: preview.id,
      image_size: [64, 40],
      thumbnail_size: [64, 40],
      caption: { 'en-US': 'Main screen' },
    });
    expect(local(rest.body.previews[0].image_url)).toBe(local(preview.imageUrl));
    expect(local(rest.body.previews[0].thumbnail_url)).toBe(local(preview.thumbnailUrl));

    const deleted = await gql(
      owner.token,
      `mutation { deleteAddonPreview(addon: "listed-addon", previewId: ${preview.id}) { previews { id } } }`,
    );
    expect(deleted.body.data.deleteAddonPreview.previews).toEqual([]);
    expect((await t.http.get(new URL(preview.imageUrl).pathname)).status).toBe(404);
    expect((await t.http.get(new URL(preview.thumbnailUrl).pathname)).status).toBe(404);
  });

  it('keeps a large photo within 2400×1800 with a 640×480 thumbnail, without its EXIF', async () => {
    const res = await upload(
      owner.token,
      PREVIEW + ' ',
      { addon: 'listed-addon' },
      await jpeg(3000, 2000, { exif: true }),
      'photo.jpg',
      'image',
    );
    expect(res.body.errors).toBeUndefined();
    const preview = res.body.data.addAddonPreview;
    expect(preview).toMatchObject({ imageSize: [2400, 1600], thumbnailSize: [640, 427] });
    expect(preview.imageUrl).toMatch(/\/\d+\.jpg\?modified=/);
    expect(await served(preview.imageUrl)).toEqual({ format: 'jpeg', width: 2400, height: 1600, hasExif: false });
    expect(await served(preview.thumbnailUrl)).toEqual({ format: 'jpeg', width: 640, height: 427, hasExif: false });
    const rest = await t.http.get('/api/v3/addons/addon/listed-addon/');
    expect(rest.body.previews.at(-1)).toMatchObject({ image_size: [2400, 1600], thumbnail_size: [640, 427] });
    await gql(owner.token, `mutation { deleteAddonPreview(addon: "listed-addon", previewId: ${preview.id}) { id } }`);
  });

  it('refuses non-images, malformed images, animations and big files', async () => {
    const refuse = async (file: Buffer, message: string) => {
      const res = await upload(owner.token, PREVIEW, { addon: 'listed-addon' }, file, 'x.png', 'image');
      expect([message, res.body.errors?.[0].extensions.fields]).toEqual([message, { image: [message] }]);
    };
    const image = await png(64, 64);
    await refuse(Buffer.from('GIF89a'), 'Images must be either PNG or JPG.');
    await refuse(image.subarray(0, image.length - 30), 'Images must be either PNG or JPG.');
    await refuse(Buffer.concat([image.subarray(0, 33), Buffer.alloc(300, 1)]), 'Images must be either PNG or JPG.');
    await refuse(await png(4, 4, { animated: true }), 'Images cannot be animated.');
    await refuse(
      Buffer.concat([await png(4, 4), Buffer.alloc(4 * 1024 * 1024)]),
      'Please use images smaller than 4MB.',
    );
    const strangers = await upload(stranger, PREVIEW, { addon: 'listed-addon' }, image, 'x.png', 'image');
    expect(strangers.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const rest = await t.http.get('/api/v4/addons/addon/listed-addon/');
    expect(rest.body.previews).toEqual([]);
  });

  const ICON = `mutation($addon: String!, $icon: Upload!) {
    setAddonIcon(addon: $addon, icon: $icon) { icon32: iconUrl(size: 32) icon64: iconUrl(size: 64) icon128: iconUrl(size: 128) icon48: iconUrl(size: 48) }
  }`;

  it('stores the icon as a square PNG of each size, each served at its URL', async () => {
    const res = await upload(owner.token, ICON, { addon: 'listed-addon' }, await jpeg(300, 200), 'icon.jpg', 'icon');
    expect(res.body.errors).toBeUndefined();
    const urls = res.body.data.setAddonIcon;
    for (const size of [32, 64, 128]) {
      const url = new URL(urls[`icon${size}`]);
      expect(url.pathname).toMatch(new RegExp(`^/user-media/addon_icons/\\d+/\\d+-${size}\\.png$`));
      expect(url.searchParams.get('modified')).toBeTruthy();
      expect(await served(url.href)).toEqual({ format: 'png', width: size, height: size, hasExif: false });
    }
    expect(local(urls.icon48)).toBe(local(urls.icon32)); // snapped to the largest stored size not over it
    const v4 = await t.http.get('/api/v4/addons/addon/listed-addon/');
    expect(localUrls(v4.body.icons)).toEqual(localUrls({ 32: urls.icon32, 64: urls.icon64, 128: urls.icon128 }));
    expect(local(v4.body.icon_url)).toBe(local(urls.icon64));
    const v3 = await t.http.get('/api/v3/addons/addon/listed-addon/');
    expect(localUrls(v3.body.icons)).toEqual(localUrls({ 32: urls.icon32, 64: urls.icon64 }));
  });

  it('replaces an icon stored as an uploaded JPEG (before re-encoding) and removes its files', async () => {
    const addon = await createAddon(t.em(), {
      iconType: 'image/jpeg',
      iconHash: 'legacy',
      authors: [{ id: owner.id }],
    });
    const storage = t.app.services.storage;
    const key = (size: number, extension: string) =>
      `addon_icons/${Math.floor(addon.id / 1000)}/${addon.id}-${size}.${extension}`;
    for (const size of [32, 64, 128]) await storage.put(key(size, 'jpg'), await jpeg(128, 128));
    const before = await t.http.get(`/api/v4/addons/addon/${addon.slug}/`);
    expect(before.body.icons['64']).toMatch(/-64\.jpg\?modified=legacy$/);

    const res = await upload(owner.token, ICON, { addon: addon.slug }, await png(500, 500), 'icon.png', 'icon');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.setAddonIcon.icon128).toMatch(/-128\.png\?modified=/);
    for (const size of [32, 64, 128]) {
      expect(await storage.get(key(size, 'jpg'))).toBeNull();
      expect(await readImage((await storage.get(key(size, 'png')))!)).toMatchObject({ width: size, height: size });
    }
  });

  it('refuses a malformed icon and keeps the previous one', async () => {
    const icons = async () => localUrls((await t.http.get('/api/v4/addons/addon/listed-addon/')).body.icons);
    const before = await icons();
    expect(before[64]).toMatch(/-64\.png\?modified=/);
    const truncated = (await jpeg(128, 128)).subarray(0, 200);
    const res = await upload(owner.token, ICON, { addon: 'listed-addon' }, truncated, 'icon.jpg', 'icon');
    expect(res.body.errors[0].extensions.fields).toEqual({ icon: ['Images must be either PNG or JPG.'] });
    expect(await icons()).toEqual(before);
  });
});

describe('a hidden add-on', () => {
  it('can still be edited by its authors', async () => {
    const hidden = await createAddon(t.em(), { status: AddonStatus.NOMINATED, authors: [{ id: owner.id }] });
    const res = await gql(owner.token, UPDATE, { addon: String(hidden.id), input: { summary: 'Soon' } });
    expect(res.body.errors).toBeUndefined();
  });
});
