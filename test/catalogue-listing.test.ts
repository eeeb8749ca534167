import { AddonStatus } from '../src/catalogue/catalogue.enums.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { jpeg, png } from './helpers/images.js';

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
        tags: ['Privacy', 'privacy', 'tabs'],
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
      tags: ['privacy', 'tabs'],
      requiresPayment: true,
      currentVersion: { license: { name: { 'en-US': 'The MIT License' }, isCustom: false } },
    });
    const rest = await t.http.get('/api/v4/addons/addon/listed-addon/');
    expect(rest.body).toMatchObject({
      summary: { 'en-US': 'A fine summary' },
      requires_payment: true,
      categories: { browser: ['privacy-security'], android: ['performance'] },
      tags: ['privacy', 'tabs'],
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
      default_locale: ["The language code 'klingon' is invalid."],
      tags: ['You can have a maximum of 10 tags.'],
      categories: ['Invalid category: "no-such-category".'],
    });
    const rest = await t.http.get('/api/v4/addons/addon/listed-addon/');
    expect(rest.body.tags).toEqual(['privacy', 'tabs']);
    const cleared = await gql(owner.token, UPDATE, { addon: 'listed-addon', input: { name: { 'en-US': null } } });
    expect(cleared.body.errors[0].extensions.fields).toEqual({
      name: ['A name is required in the default locale (en-US).'],
    });
    const tooMany = await gql(owner.token, UPDATE, {
      addon: 'listed-addon',
      input: {
        categories: ['tabs', 'shopping', 'bookmarks'].map((slug) => ({ application: 'BROWSER', slug })),
      },
    });
    expect(tooMany.body.errors[0].extensions.fields).toEqual({
      categories: ['You can have only 2 categories per application.'],
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
    addAddonPreview(addon: $addon, image: $image, caption: $caption) { id imageSize thumbnailSize imageUrl caption }
  }`;

  it('stores a preview and serves it under /user-media/', async () => {
    const image = png(64, 40);
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
    const served = await t.http.get(new URL(preview.imageUrl).pathname);
    expect(served.status).toBe(200);
    expect(Buffer.compare(served.body, image)).toBe(0);
    const rest = await t.http.get('/api/v4/addons/addon/listed-addon/');
    expect(rest.body.previews[0]).toMatchObject({
      id: preview.id,
      image_size: [64, 40],
      caption: { 'en-US': 'Main screen' },
    });

    const deleted = await gql(
      owner.token,
      `mutation { deleteAddonPreview(addon: "listed-addon", previewId: ${preview.id}) { previews { id } } }`,
    );
    expect(deleted.body.data.deleteAddonPreview.previews).toEqual([]);
    expect((await t.http.get(new URL(preview.imageUrl).pathname)).status).toBe(404);
  });

  it('refuses non-images, animations and big files', async () => {
    const bad = await upload(owner.token, PREVIEW, { addon: 'listed-addon' }, Buffer.from('GIF89a'), 'x.gif', 'image');
    expect(bad.body.errors[0].extensions.fields).toEqual({ image: ['Images must be either PNG or JPG.'] });
    const animated = await upload(owner.token, PREVIEW, { addon: 'listed-addon' }, png(4, 4, true), 'a.png', 'image');
    expect(animated.body.errors[0].extensions.fields).toEqual({ image: ['Images cannot be animated.'] });
    const big = Buffer.concat([png(4, 4), Buffer.alloc(4 * 1024 * 1024)]);
    const large = await upload(owner.token, PREVIEW, { addon: 'listed-addon' }, big, 'big.png', 'image');
    expect(large.body.errors[0].extensions.fields).toEqual({ image: ['Please use images smaller than 4MB.'] });
    const strangers = await upload(stranger, PREVIEW, { addon: 'listed-addon' }, png(4, 4), 'x.png', 'image');
    expect(strangers.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('sets the icon used by every icon size', async () => {
    const icon = jpeg(128, 128);
    const res = await upload(
      owner.token,
      `mutation($addon: String!, $icon: Upload!) { setAddonIcon(addon: $addon, icon: $icon) { icon64: iconUrl(size: 64) } }`,
      { addon: 'listed-addon' },
      icon,
      'icon.jpg',
      'icon',
    );
    expect(res.body.errors).toBeUndefined();
    const url = new URL(res.body.data.setAddonIcon.icon64);
    expect(url.pathname).toMatch(/^\/user-media\/addon_icons\/\d+\/\d+-64\.jpg$/);
    expect(url.searchParams.get('modified')).toBeTruthy();
    expect((await t.http.get(url.pathname)).status).toBe(200);
    const rest = await t.http.get('/api/v4/addons/addon/listed-addon/');
    expect(rest.body.icons['128']).toMatch(/-128\.jpg\?modified=/);
  });
});

describe('a hidden add-on', () => {
  it('can still be edited by its authors', async () => {
    const hidden = await createAddon(t.em(), { status: AddonStatus.NOMINATED, authors: [{ id: owner.id }] });
    const res = await gql(owner.token, UPDATE, { addon: String(hidden.id), input: { summary: 'Soon' } });
    expect(res.body.errors).toBeUndefined();
  });
});
