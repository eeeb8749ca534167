import { jest } from '@jest/globals';
import { AddonType } from '../src/catalogue/catalogue.enums.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { createAddon } from './helpers/catalogue.js';
import { animate, jpeg, png } from './helpers/images.js';
import { CATALOGUE_TEXT_LIMITS } from '../src/catalogue/text-limits.js';

/**
 * The developer hub's v5 add-on endpoints (issue 37), after the original's `addons.rst` ("Edit",
 * "Addon Icon", "Delete", "Delete Confirm", "EULA and Privacy Policy Edit") and the messages its
 * API tests expect: `PATCH /addons/addon/<addon>/`, `GET …/delete_confirm/`, `DELETE …/`,
 * `PATCH …/eula_policy/`.
 */
let t: TestApp;
let owner: KeyCaller;
let developer: string;
let stranger: string;
let editor: string;

beforeAll(async () => {
  t = await startTestApp();
  owner = await keyCaller(t, { username: 'owner' });
  const session = async (username: string, permission?: string[]) =>
    `Bearer ${(await t.createUser({ username, session: true, ...(permission ? { permission } : {}) })).sessionToken}`;
  developer = await session('developer');
  stranger = await session('stranger');
  editor = await session('editor', ['Addons:Edit']);
  const devId = (await t.http.get('/api/v5/accounts/profile/').set('Authorization', developer)).body.id;
  await createAddon(t.em(), {
    slug: 'edited',
    guid: 'edited@example.com',
    name: { 'en-US': 'Edited', fr: 'Modifié' },
    summary: { 'en-US': 'A summary', fr: 'Un résumé' },
    authors: [{ id: owner.id }],
  });
  await createAddon(t.em(), { slug: 'taken-slug', authors: [{ id: owner.id }] });
  await createAddon(t.em(), { slug: 'a-theme', type: AddonType.STATICTHEME, authors: [{ id: owner.id }] });
  for (const slug of ['doomed', 'doomed-too']) await createAddon(t.em(), { slug, authors: [{ id: owner.id }] });
  const added = await t.http
    .post('/graphql')
    .set('Authorization', owner.session)
    .send({ query: `mutation { addAddonAuthor(addon: "edited", user: "${devId}", role: DEVELOPER) { id } }` });
  expect(added.body.errors).toBeUndefined();
  const addedToo = await t.http
    .post('/graphql')
    .set('Authorization', owner.session)
    .send({ query: `mutation { addAddonAuthor(addon: "doomed", user: "${devId}", role: DEVELOPER) { id } }` });
  expect(addedToo.body.errors).toBeUndefined();
}, 120_000);
afterAll(() => t.close());

const url = (addon = 'edited', rest = '') => `/api/v5/addons/addon/${addon}/${rest}`;
/** An answer with its URLs' test ports left out (each request of the test client has its own). */
const portless = (body: unknown) => JSON.parse(JSON.stringify(body).replace(/127\.0\.0\.1:\d+/g, 'host'));
/** The owner's view of the add-on. */
const detail = async () => portless((await t.http.get(url()).set('Authorization', owner.session)).body);
const patch = (token: string | null, body: object, addon = 'edited') => {
  const req = t.http.patch(url(addon)).set('Content-Type', 'application/json');
  return (token ? req.set('Authorization', token) : req).send(JSON.stringify(body));
};

describe('PATCH /api/v5/addons/addon/<addon>/', () => {
  it('edits the documented fields and answers the add-on detail, as GET does', async () => {
    const res = await patch(owner.session, {
      name: { 'en-US': 'Edited name', de: 'Bearbeitet' },
      summary: { 'en-US': 'A new summary' },
      description: { 'en-US': 'Some **description**' },
      developer_comments: { 'en-US': 'Comments' },
      homepage: { 'en-US': 'https://example.com/home' },
      support_url: { 'en-US': 'https://example.com/support' },
      support_email: { 'en-US': 'help@example.com' },
      contributions_url: 'https://www.patreon.com/someone',
      categories: ['privacy-security', 'tabs'],
      tags: ['bookmarks', 'chat'],
      is_experimental: true,
      requires_payment: true,
      slug: 'edited-two',
    });
    expect([res.status, res.body.detail ?? res.body.slug]).toEqual([200, 'edited-two']);
    expect(res.body).toMatchObject({
      slug: 'edited-two',
      name: { 'en-US': 'Edited name', de: 'Bearbeitet', fr: 'Modifié' },
      summary: { 'en-US': 'A new summary', fr: 'Un résumé' },
      developer_comments: { 'en-US': 'Comments' },
      support_email: { 'en-US': 'help@example.com' },
      categories: ['privacy-security', 'tabs'],
      tags: ['bookmarks', 'chat'],
      is_experimental: true,
      requires_payment: true,
      is_disabled: false,
    });
    expect(res.body.contributions_url.url).toMatch(/^https:\/\/www\.patreon\.com\/someone/);
    const detail = await t.http.get(url('edited-two')).set('Authorization', owner.session);
    expect(detail.status).toBe(200);
    expect(portless(res.body)).toEqual(portless(detail.body));
    // With an API key too, by id; back to the old slug.
    const id = res.body.id;
    const byKey = await patch(owner.jwt(), { slug: 'edited' }, String(id));
    expect(byKey.status).toBe(200);
    expect(byKey.body.slug).toBe('edited');
  });

  it('lets authors of any role edit, and Addons:Edit; 401 anonymous, 403 others, 404 unknown', async () => {
    expect((await patch(developer, { tags: ['chat'] })).status).toBe(200);
    expect((await patch(editor, { tags: ['bookmarks'] })).status).toBe(200);
    const anonymous = await patch(null, { tags: ['x'] });
    expect(anonymous.status).toBe(401);
    const forbidden = await patch(stranger, { tags: ['x'] });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    expect((await patch(owner.session, { tags: ['x'] }, 'no-such-addon')).status).toBe(404);
  });

  it('hides and shows the add-on with is_disabled (owners)', async () => {
    const hidden = await patch(owner.session, { is_disabled: true, summary: { 'en-US': 'Hidden now' } });
    expect([hidden.status, hidden.body.detail]).toEqual([200, undefined]);
    expect(hidden.body).toMatchObject({ is_disabled: true, summary: { 'en-US': 'Hidden now' } });
    expect((await t.http.get(url())).status).toBe(401);
    const shown = await patch(owner.session, { is_disabled: 'false' });
    expect(shown.body.is_disabled).toBe(false);
    expect((await t.http.get(url())).status).toBe(200);
    // A refused listing changes nothing, not even the flag.
    const refused = await patch(owner.session, { is_disabled: true, name: { 'en-US': '****' } });
    expect(refused.status).toBe(400);
    expect((await t.http.get(url())).body.is_disabled).toBe(false);
  });

  it.each([
    [{ name: { 'en-US': '' } }, { name: ['This field may not be blank.'] }],
    [{ name: { 'en-US': null } }, { name: ['A value in the default locale of "en-US" is required.'] }],
    [{ name: { 'en-US': '****' } }, { name: ['Ensure this field contains at least one letter or number character.'] }],
    [{ name: 'plain' }, { name: ['You must provide an object of {lang-code:value}.'] }],
    [{ name: { xx: 'Nope' } }, { name: ["The language code 'xx' is invalid."] }],
    [{ summary: { 'en-US': 'x'.repeat(251) } }, { summary: ['Ensure this field has no more than 250 characters.'] }],
    [{ summary: { 'en-US': null } }, { summary: ['A value in the default locale of "en-US" is required.'] }],
    [{ homepage: { 'en-US': 'example.com' } }, { homepage: ['Enter a valid URL.'] }],
    [{ homepage: { 'en-US': 'http://not-valid' } }, { homepage: ['Enter a valid URL.'] }],
    [{ support_url: { 'en-US': 'ftp://example.com/' } }, { support_url: ['Enter a valid URL.'] }],
    [{ support_email: { 'en-US': 'abc@defg' } }, { support_email: ['Enter a valid email address.'] }],
    [{ support_email: { 'en-US': 123 } }, { support_email: ['Enter a valid email address.'] }],
    [
      { support_email: { fr: 'aide@example.com', 'en-US': null } },
      { support_email: ['A value in the default locale of "en-US" is required if other translations are set.'] },
    ],
    [{ is_experimental: 'abc123' }, { is_experimental: ['Must be a valid boolean.'] }],
    [{ requires_payment: null }, { requires_payment: ['This field may not be null.'] }],
    [{ is_disabled: 123 }, { is_disabled: ['Must be a valid boolean.'] }],
    [{ contributions_url: '' }, { contributions_url: ['This field may not be blank.'] }],
    [
      { contributions_url: 'https://patreon.com/x' },
      { contributions_url: [expect.stringMatching(/^URL domain must be one of \[buymeacoffee\.com, /)] },
    ],
    [{ contributions_url: 'http://donate.mozilla.org/' }, { contributions_url: ['URLs must start with https://.'] }],
    [
      { contributions_url: 'abc123' },
      { contributions_url: [expect.stringMatching(/^URL domain must be/), 'URLs must start with https://.'] },
    ],
    [
      { contributions_url: 'https://github.com/someone' },
      { contributions_url: ['URL path for GitHub Sponsors must contain /sponsors/.'] },
    ],
    [{ slug: 102030 }, { slug: ['This slug cannot be used. Please choose another.'] }],
    [{ slug: '?name' }, { slug: ['Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.'] }],
    [{ slug: '---' }, { slug: ['Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.'] }],
    [{ slug: null }, { slug: ['This field may not be null.'] }],
    [{ slug: 'taken-slug' }, { slug: ['addon with this slug already exists.'] }],
    [{ slug: 's'.repeat(31) }, { slug: ['Ensure this field has no more than 30 characters.'] }],
    [{ default_locale: 'foo' }, { default_locale: ['"foo" is not a valid choice.'] }],
    [{ default_locale: null }, { default_locale: ['This field may not be null.'] }],
    [
      { default_locale: 'pl' },
      {
        name: ['A value in the default locale of "pl" is required.'],
        summary: ['A value in the default locale of "pl" is required.'],
      },
    ],
    [{ tags: null }, { tags: ['This field may not be null.'] }],
    [{ tags: true }, { tags: ['Expected a list of items but got type "bool".'] }],
    [{ categories: ['fashion'] }, { categories: ['Invalid category name.'] }],
    [
      { categories: ['tabs', 'shopping', 'bookmarks'] },
      { categories: ['Maximum number of categories per application (2) exceeded'] },
    ],
    [
      { categories: { firefox: ['other', 'bookmarks'] } },
      { categories: ['The "other" category cannot be combined with another category'] },
    ],
    [{ categories: 'tabs' }, { categories: ['Expected a list of items but got type "str".'] }],
    [{ icon: 'not-a-file' }, { icon: ['The submitted data was not a file. Check the encoding type on the form.'] }],
  ])('refuses %j with the original’s field errors', async (body, fields) => {
    const before = await detail();
    const res = await patch(owner.session, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fields);
    expect(await detail()).toEqual(before);
  });

  it('checks a text’s length before its pattern, and names every field refused at once', async () => {
    const long = `https://${'a'.repeat(CATALOGUE_TEXT_LIMITS.addonHomepage)}.com/`;
    const res = await patch(owner.session, {
      homepage: { 'en-US': long },
      support_email: { 'en-US': `${'a'.repeat(CATALOGUE_TEXT_LIMITS.supportEmail)}@example.com` },
      description: { 'en-US': 'd'.repeat(CATALOGUE_TEXT_LIMITS.addonDescription + 1) },
      slug: `-${'?'.repeat(40)}`,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      homepage: [`Ensure this field has no more than ${CATALOGUE_TEXT_LIMITS.addonHomepage} characters.`],
      support_email: [`Ensure this field has no more than ${CATALOGUE_TEXT_LIMITS.supportEmail} characters.`],
      description: [`Ensure this field has no more than ${CATALOGUE_TEXT_LIMITS.addonDescription} characters.`],
      slug: ['Ensure this field has no more than 30 characters.'],
    });
  });

  it('refuses links to the service itself', async () => {
    // The service's own host (the tests' base URL is the request's: 127.0.0.1 on a port of its own).
    const res = await patch(owner.session, { homepage: { 'en-US': 'http://127.0.0.1:1/en-US/firefox/' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      homepage: [
        expect.stringMatching(
          /^This field can only be used to link to external websites\. URLs on http:\/\/127\.0\.0\.1:\d+ are not allowed\.$/,
        ),
      ],
    });
  });

  it('changes the default locale when the required fields have it', async () => {
    const res = await patch(owner.session, { default_locale: 'fr' });
    expect(res.status).toBe(200);
    expect(res.body.default_locale).toBe('fr');
    expect((await patch(owner.session, { default_locale: 'en-US' })).status).toBe(200);
  });
});

describe('the icon (multipart PATCH)', () => {
  const upload = (file: Buffer, name: string, token = owner.session) =>
    t.http.patch(url()).set('Authorization', token).attach('icon', file, name);

  it('stores an uploaded PNG or JPEG as the icon, with other flat fields', async () => {
    const res = await t.http
      .patch(url())
      .set('Authorization', owner.session)
      .field('is_experimental', 'false')
      .attach('icon', await png(128, 128), 'icon.png');
    expect(res.status).toBe(200);
    expect(res.body.is_experimental).toBe(false);
    for (const size of ['32', '64', '128']) {
      expect(new URL(res.body.icons[size]).pathname).toMatch(
        new RegExp(`^/user-media/addon_icons/\\d+/\\d+-${size}\\.png$`),
      );
    }
    const jpg = await upload(await jpeg(64, 64), 'icon.jpg');
    expect(jpg.status).toBe(200);
    expect(jpg.body.icon_url).toMatch(/\/user-media\/addon_icons\//);
  });

  it('refuses other formats, animations and non-images', async () => {
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary');
    expect((await upload(gif, 'icon.gif')).body).toEqual({ icon: ['Images must be either PNG or JPG.'] });
    const animated = await upload(animate(await png(32, 32)), 'icon.png');
    expect(animated.status).toBe(400);
    expect(animated.body).toEqual({ icon: ['Images cannot be animated.'] });
    expect((await upload(Buffer.from('not an image'), 'icon.png')).body).toEqual({
      icon: ['Images must be either PNG or JPG.'],
    });
    expect((await upload(await png(32, 32), 'icon.png', stranger)).status).toBe(403);
    // All or nothing: the fields sent with a refused icon are not written either.
    const before = await detail();
    const withFields = await t.http
      .patch(url())
      .set('Authorization', owner.session)
      .field('is_experimental', 'true')
      .attach('icon', gif, 'icon.gif');
    expect(withFields.status).toBe(400);
    expect(await detail()).toEqual(before);
  });

  it('goes back to the default icon with icon null (JSON) or empty (multipart)', async () => {
    const cleared = await patch(owner.session, { icon: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.icon_url).toMatch(/\/static\/img\/addon-icons\/default-64\.png$/);
    expect((await upload(await png(32, 32), 'icon.png')).body.icon_url).toMatch(/user-media/);
    const empty = await t.http.patch(url()).set('Authorization', owner.session).field('icon', '');
    expect(empty.status).toBe(200);
    expect(empty.body.icon_url).toMatch(/default-64\.png$/);
  });
});

describe('delete with delete_confirm', () => {
  const confirm = (token: string | null, addon = 'doomed') => {
    const req = t.http.get(url(addon, 'delete_confirm/'));
    return token ? req.set('Authorization', token) : req;
  };
  const remove = (token: string, addon: string, confirmation?: unknown) => {
    const query = confirmation === undefined ? '' : `?delete_confirm=${encodeURIComponent(String(confirmation))}`;
    return t.http.delete(`${url(addon)}${query}`).set('Authorization', token);
  };

  it('gives owners a token; developers, others and anonymous callers get none; unknown add-ons 404', async () => {
    const res = await confirm(owner.session);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ delete_confirm: expect.any(String) });
    expect((await confirm(developer)).status).toBe(403);
    expect((await confirm(stranger)).body).toEqual({ detail: 'You do not have permission to perform this action.' });
    expect((await confirm(editor)).status).toBe(403);
    expect((await confirm(null)).status).toBe(401);
    expect((await confirm(owner.session, 'rand-om123')).status).toBe(404);
  });

  it('refuses a missing, empty, wrong, foreign or expired token (400), and non-owners (403)', async () => {
    const token = (await confirm(owner.session)).body.delete_confirm as string;
    const missing = await remove(owner.session, 'doomed');
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(['"delete_confirm" token must be supplied for add-on delete.']);
    expect((await remove(owner.session, 'doomed', '')).body).toEqual([
      '"delete_confirm" token must be supplied for add-on delete.',
    ]);
    for (const wrong of ['random-string', 123, `${token}x`]) {
      const res = await remove(owner.session, 'doomed', wrong);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(['"delete_confirm" token is invalid.']);
    }
    // Another add-on's token.
    const other = (await confirm(owner.session, 'doomed-too')).body.delete_confirm;
    expect((await remove(owner.session, 'doomed', other)).body).toEqual(['"delete_confirm" token is invalid.']);
    // Non-owners, Addons:Edit included: 403 whatever the token.
    expect((await remove(developer, 'doomed', token)).status).toBe(403);
    expect((await remove(editor, 'doomed', token)).status).toBe(403);
    // Expired after 60 seconds.
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    try {
      const expired = await remove(owner.session, 'doomed', token);
      expect(expired.status).toBe(400);
      expect(expired.body).toEqual(['"delete_confirm" token is invalid.']);
    } finally {
      clock.mockRestore();
    }
    expect((await t.http.get(url('doomed')).set('Authorization', owner.session)).status).toBe(200);
  });

  it('deletes with a fresh token of the owner (204); the add-on is then 404', async () => {
    const token = (await confirm(owner.jwt())).body.delete_confirm;
    const res = await remove(owner.jwt(), 'doomed', token);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await t.http.get(url('doomed')).set('Authorization', owner.session)).status).toBe(404);
    expect((await confirm(owner.session)).status).toBe(404);
  });
});

describe('PATCH /api/v5/addons/addon/<addon>/eula_policy/', () => {
  const edit = (token: string | null, body: object, addon = 'edited') => {
    const req = t.http.patch(url(addon, 'eula_policy/')).set('Content-Type', 'application/json');
    return (token ? req.set('Authorization', token) : req).send(JSON.stringify(body));
  };

  it('sets the licence agreement and privacy policy, answered as GET answers them', async () => {
    const res = await edit(developer, {
      eula: { 'en-US': 'Be nice.', fr: 'Soyez sympa.' },
      privacy_policy: { 'en-US': 'We keep nothing.' },
      name: { 'en-US': 'Ignored here' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      eula: { 'en-US': 'Be nice.', fr: 'Soyez sympa.' },
      privacy_policy: { 'en-US': 'We keep nothing.' },
    });
    expect((await t.http.get(url(undefined, 'eula_policy/'))).body).toEqual(res.body);
    const detail = (await t.http.get(url())).body;
    expect(detail).toMatchObject({ has_eula: true, has_privacy_policy: true, name: { 'en-US': 'Edited name' } });
    const removed = await edit(owner.session, { privacy_policy: null });
    expect(removed.body).toEqual({ eula: res.body.eula, privacy_policy: null });
  });

  it('checks lengths, blanks and the default locale; refuses themes', async () => {
    expect(
      (await edit(owner.session, { eula: { 'en-US': 'x'.repeat(CATALOGUE_TEXT_LIMITS.addonEula + 1) } })).body,
    ).toEqual({
      eula: [`Ensure this field has no more than ${CATALOGUE_TEXT_LIMITS.addonEula} characters.`],
    });
    expect((await edit(owner.session, { eula: { 'en-US': ' ' } })).body).toEqual({
      eula: ['This field may not be blank.'],
    });
    expect((await edit(owner.session, { eula: { 'en-US': null } })).body).toEqual({
      eula: ['A value in the default locale of "en-US" is required if other translations are set.'],
    });
    const theme = await edit(owner.session, { eula: { 'en-US': 'Terms' } }, 'a-theme');
    expect(theme.status).toBe(400);
    expect(theme.body).toEqual({ eula: ['Themes have no licence agreement or privacy policy.'] });
  });

  it('is for authors and Addons:Edit', async () => {
    expect((await edit(null, { eula: { 'en-US': 'x' } })).status).toBe(401);
    expect((await edit(stranger, { eula: { 'en-US': 'x' } })).status).toBe(403);
    expect((await edit(editor, { eula: { 'en-US': 'Edited by staff' } })).status).toBe(200);
    expect((await edit(owner.session, { eula: { 'en-US': 'x' } }, 'nope')).status).toBe(404);
  });
});
