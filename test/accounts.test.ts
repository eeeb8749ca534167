import { createHmac } from 'node:crypto';
import { Addon } from '../src/catalogue/addon.entity.js';
import { AddonStatus, AddonType } from '../src/catalogue/catalogue.enums.js';
import { User } from '../src/accounts/user.entity.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { jpeg, png, readImage } from './helpers/images.js';
import * as ratingsHelpers from './helpers/ratings.js';

type ApiVersion = 'v3' | 'v4';
type Method = 'get' | 'post' | 'patch' | 'delete';
type Actor = 'anonymous' | 'self' | 'other' | 'admin';
type Account = 'dev' | 'plain' | 'other' | 'admin' | 'hidden' | 'editable' | 'gone';
type Body = Record<string, unknown>;

const VERSIONS: ApiVersion[] = ['v3', 'v4'];
const SITE = 'https://addons.example.org';
const NOT_FOUND = { detail: 'Not found.' };
const FORBIDDEN = { detail: 'You do not have permission to perform this action.' };
const UNAUTHENTICATED = { detail: 'Authentication credentials were not provided.' };

let t: TestApp;
let queries = 0;
const tokens = {} as Record<Account, string>;
const ids = {} as Record<Account, number>;
let jwtKey: { key: string; secret: string };

const PUBLIC_KEYS = [
  'id',
  'name',
  'url',
  'username',
  'average_addon_rating',
  'created',
  'biography',
  'has_anonymous_display_name',
  'has_anonymous_username',
  'homepage',
  'is_addon_developer',
  'is_artist',
  'location',
  'occupation',
  'num_addons_listed',
  'picture_type',
  'picture_url',
];
const PRIVATE_KEYS = [
  'display_name',
  'email',
  'deleted',
  'last_login',
  'last_login_ip',
  'read_dev_agreement',
  'permissions',
  'is_verified',
];
const V4_PRIVATE_KEYS = [...PRIVATE_KEYS, 'idp_edit_email_url', 'site_status'];

beforeAll(async () => {
  t = await startTestApp({
    env: { SITE_URL: SITE, IDP_EDIT_EMAIL_URL: 'https://idp.example.org/settings', SUPER_CREATE_ENABLED: 'true' },
    onQuery: () => queries++,
  });
  const users: [Account, Parameters<TestApp['createUser']>[0]][] = [
    ['dev', { username: 'dev-person', name: 'Dev Person' }],
    ['plain', {}],
    ['other', {}],
    ['admin', { permission: ['Users:Edit'] }],
    ['hidden', { username: 'hidden-author' }],
    ['editable', { username: 'editable' }],
    ['gone', { username: 'gone-user' }],
  ];
  for (const [account, args] of users) {
    const user = await t.createUser({ session: true, ...args });
    tokens[account] = `Bearer ${user.sessionToken}`;
    ids[account] = user.id;
  }
  const withKey = await t.createUser({ 'api-key': true, username: 'jwt-user' });
  jwtKey = withKey.apiKey!;
  const em = t.em();
  const extension = await createAddon(em, { authors: [{ id: ids.dev }, { id: ids.hidden, listed: false }] });
  const theme = await createAddon(em, { type: AddonType.STATICTHEME, authors: [{ id: ids.dev }] });
  const nominated = await createAddon(em, {
    status: AddonStatus.NOMINATED,
    authors: [{ id: ids.dev }, { id: ids.other }],
  });
  await em.nativeUpdate(Addon, { id: extension.id }, { averageRating: 4 });
  await em.nativeUpdate(Addon, { id: theme.id }, { averageRating: 3 });
  await em.nativeUpdate(Addon, { id: nominated.id }, { averageRating: 1 });
  await em.nativeUpdate(User, { id: ids.gone }, { deleted: true });
});
afterAll(() => t.close());

const accountPath = (v: ApiVersion, user: string | number, rest = '') => `/api/${v}/accounts/account/${user}/${rest}`;

function call(method: Method, path: string, who: Account | 'anonymous' = 'anonymous', body?: Body) {
  const req = t.http[method](path);
  if (who !== 'anonymous') req.set('Authorization', tokens[who]);
  return body === undefined ? req : req.send(body);
}

/** The account each actor tries: its own (self), or `plain` for the others. */
function actorCall(method: Method, v: ApiVersion, actor: Actor, rest = '', body?: Body) {
  const who: Account | 'anonymous' = actor === 'self' ? 'plain' : actor;
  return call(method, accountPath(v, ids.plain, rest), who, body);
}

async function matrix(run: (v: ApiVersion, actor: Actor) => Promise<{ status: number }>) {
  const result = { v3: {}, v4: {} } as Record<ApiVersion, Record<Actor, number>>;
  for (const v of VERSIONS) {
    for (const actor of ['anonymous', 'self', 'other', 'admin'] as Actor[])
      result[v][actor] = (await run(v, actor)).status;
  }
  return result;
}
const EDIT_STATUSES = { anonymous: 401, self: 200, other: 403, admin: 200 };

function jwt(credentials = jwtKey): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ iss: credentials.key, iat: now, exp: now + 60 })}`;
  return `JWT ${head}.${createHmac('sha256', credentials.secret).update(head).digest('base64url')}`;
}

describe('account detail (GET account/<id or username>/)', () => {
  it('shows a developer to anyone, by id or username, with catalogue statistics', async () => {
    for (const id of [ids.dev, 'dev-person']) {
      const res = await call('get', accountPath('v4', id));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(Object.keys(res.body)).toEqual(PUBLIC_KEYS);
      expect(res.body).toMatchObject({
        id: ids.dev,
        name: 'Dev Person',
        url: `${SITE}/user/${ids.dev}/`,
        username: 'dev-person',
        average_addon_rating: 3.5,
        num_addons_listed: 2,
        is_addon_developer: true,
        is_artist: true,
        has_anonymous_display_name: false,
        has_anonymous_username: false,
        picture_type: null,
        picture_url: null,
      });
    }
  });

  it('answers 404 for non-developers (unlisted authors and authors of non-public add-ons too), deleted and unknown accounts', async () => {
    for (const v of VERSIONS) {
      for (const user of [ids.plain, ids.hidden, ids.other, 'gone-user', ids.gone, 'nobody', 99999999999, 'a;b']) {
        const res = await call('get', accountPath(v, user), 'other');
        if (user === ids.other) continue; // self
        expect([user, res.status, res.body]).toEqual([user, 404, NOT_FOUND]);
      }
    }
  });

  it('shows non-developers to themselves and to Users:Edit, with the private fields', async () => {
    for (const who of ['plain', 'admin'] as const) {
      const v4 = await call('get', accountPath('v4', ids.plain), who);
      expect(v4.status).toBe(200);
      expect(Object.keys(v4.body)).toEqual([...PUBLIC_KEYS, ...V4_PRIVATE_KEYS]);
      expect(v4.body).toMatchObject({
        name: `Browser user ${ids.plain}`,
        has_anonymous_display_name: true,
        has_anonymous_username: true,
        display_name: null,
        deleted: false,
        read_dev_agreement: false,
        permissions: [],
        is_verified: false,
        idp_edit_email_url: 'https://idp.example.org/settings',
        site_status: { read_only: false, notice: null },
        num_addons_listed: 0,
        average_addon_rating: 0,
        is_addon_developer: false,
        is_artist: false,
      });
      const v3 = await call('get', accountPath('v3', ids.plain), who);
      expect(Object.keys(v3.body)).toEqual([...PUBLIC_KEYS, ...PRIVATE_KEYS]);
      expect(v3.body.name).toBe(v3.body.username);
      expect(v3.body.has_anonymous_display_name).toBe(true);
      expect(v3.body.read_dev_agreement).toBe(false);
    }
    const admin = await call('get', accountPath('v4', ids.admin), 'admin');
    expect(admin.body.permissions).toEqual(['Users:Edit']);
  });

  it('applies the v3 name and anonymous display name rules', async () => {
    const v3 = await call('get', accountPath('v3', ids.hidden), 'hidden');
    expect(v3.body).toMatchObject({
      name: 'hidden-author',
      has_anonymous_display_name: false,
      has_anonymous_username: false,
    });
    const v4 = await call('get', accountPath('v4', ids.hidden), 'hidden');
    expect(v4.body).toMatchObject({ name: `Browser user ${ids.hidden}`, has_anonymous_display_name: true });
  });

  it('reads the statistics of a page of authors in a constant number of statements', async () => {
    queries = 0;
    await call('get', accountPath('v4', ids.dev));
    expect(queries).toBeLessThanOrEqual(4);
  });
});

describe('profile (GET profile/)', () => {
  it("is the caller's account object, through a session or a JWT", async () => {
    expect((await call('get', '/api/v4/accounts/profile/')).body).toEqual(UNAUTHENTICATED);
    const session = await call('get', '/api/v4/accounts/profile/', 'plain');
    const detail = await call('get', accountPath('v4', ids.plain), 'plain');
    expect(session.body).toEqual(detail.body);
    const res = await t.http.get('/api/v3/accounts/profile/').set('Authorization', jwt());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: 'jwt-user', is_verified: false, read_dev_agreement: true });
    expect(Object.keys(res.body)).toEqual([...PUBLIC_KEYS, ...PRIVATE_KEYS]);
  });
});

describe('edit (PATCH account/<id>/)', () => {
  it('is for the user and Users:Edit: 401, 403, 404', async () => {
    expect(await matrix((v, actor) => actorCall('patch', v, actor, '', { location: `${v} ${actor}` }))).toEqual({
      v3: EDIT_STATUSES,
      v4: EDIT_STATUSES,
    });
    expect((await call('patch', accountPath('v4', ids.plain), 'anonymous', {})).body).toEqual(UNAUTHENTICATED);
    expect((await call('patch', accountPath('v4', ids.plain), 'other', {})).body).toEqual(FORBIDDEN);
    expect((await call('patch', accountPath('v4', 'nobody'), 'other', {})).body).toEqual(NOT_FOUND);
    expect((await call('patch', accountPath('v4', 'nobody'), 'anonymous', {})).status).toBe(401);
  });

  it('changes the editable fields and ignores the others', async () => {
    const res = await call('patch', accountPath('v4', 'editable'), 'editable', {
      display_name: '  Ed Itor ',
      biography: 'I write code; and "quotes".',
      homepage: 'https://ed.example.com/',
      location: 'Paris',
      occupation: 'Writer',
      email: 'x@example.com',
      username: 'renamed',
      id: 5,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: ids.editable,
      name: 'Ed Itor',
      display_name: 'Ed Itor',
      username: 'editable',
      biography: 'I write code; and "quotes".',
      homepage: 'https://ed.example.com/',
      location: 'Paris',
      occupation: 'Writer',
      has_anonymous_display_name: false,
    });
    expect(res.body.email).not.toBe('x@example.com');
    const cleared = await call('patch', accountPath('v4', ids.editable), 'admin', { display_name: null, location: '' });
    expect(cleared.body).toMatchObject({ display_name: null, location: null, occupation: 'Writer' });
  });

  it('refuses bad values with the original messages', async () => {
    const cases: [Body, Record<string, string[]>][] = [
      [{ display_name: 'a' }, { display_name: ['Ensure this field has at least 2 characters.'] }],
      [{ display_name: 'x'.repeat(51) }, { display_name: ['Ensure this field has no more than 50 characters.'] }],
      [{ display_name: '\u200b\u200b\u200b' }, { display_name: ['Must contain at least one printable character.'] }],
      [{ display_name: '  ' }, { display_name: ['This field may not be blank.'] }],
      [{ biography: 'see https://example.com' }, { biography: ['No links are allowed.'] }],
      [{ biography: 'see <a href="x">me</a>' }, { biography: ['No links are allowed.'] }],
      [{ homepage: 'not a url' }, { homepage: ['Enter a valid URL.'] }],
      [
        { homepage: `${SITE}/user/1/` },
        { homepage: ['The homepage field can only be used to link to external websites.'] },
      ],
      [{ location: 'x'.repeat(256) }, { location: ['Ensure this field has no more than 255 characters.'] }],
      [{ occupation: ['a'] }, { occupation: ['Not a valid string.'] }],
      [
        { display_name: 'a', biography: 'www.example.com' },
        { display_name: ['Ensure this field has at least 2 characters.'], biography: ['No links are allowed.'] },
      ],
    ];
    for (const [body, expected] of cases) {
      const res = await call('patch', accountPath('v4', ids.editable), 'editable', body);
      expect([body, res.status, res.body]).toEqual([body, 400, expected]);
    }
  });

  it('lets v3 change the username, with its rules; v4 ignores it', async () => {
    const cases: [string, string][] = [
      ['12345', 'Usernames cannot contain only digits.'],
      ['bad name!', 'Enter a valid username consisting of letters, numbers, underscores or hyphens.'],
      ['dev-person', 'This username is already in use.'],
    ];
    for (const [username, message] of cases) {
      const res = await call('patch', accountPath('v3', ids.editable), 'editable', { username });
      expect([username, res.status, res.body]).toEqual([username, 400, { username: [message] }]);
    }
    const v4 = await call('patch', accountPath('v4', ids.editable), 'editable', { username: 'v4-name' });
    expect(v4.body.username).toBe('editable');
    const v3 = await call('patch', accountPath('v3', ids.editable), 'editable', { username: 'ed-renamed' });
    expect(v3.status).toBe(200);
    expect(v3.body).toMatchObject({ username: 'ed-renamed', has_anonymous_username: false });
    expect((await call('get', accountPath('v4', 'ed-renamed'), 'editable')).status).toBe(200);
  });
});

describe('picture (PATCH picture_upload, DELETE picture/)', () => {
  const upload = (file: Buffer, name: string, v: ApiVersion = 'v4', who: Account = 'editable') =>
    t.http
      .patch(accountPath(v, ids.editable))
      .set('Authorization', tokens[who])
      .field('location', 'Lyon')
      .attach('picture_upload', file, name);

  const stored = async (url: string) => {
    const res = await t.http.get(new URL(url).pathname).buffer(true);
    expect(res.status).toBe(200);
    return readImage(res.body as Buffer);
  };

  it('stores a PNG or JPEG as a PNG within 200×200 in public media, with the other values', async () => {
    const res = await upload(await png(32, 32), 'me.png');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ picture_type: 'image/png', location: 'Lyon' });
    expect(res.body.picture_url).toMatch(
      new RegExp(
        `^${SITE}/user-media/userpics/${Math.floor(ids.editable / 1000)}/${ids.editable}\\.png\\?modified=[0-9a-f]{8}$`,
      ),
    );
    expect(await stored(res.body.picture_url)).toEqual({ format: 'png', width: 32, height: 32, hasExif: false });
    // The same upload through v3.
    const viaV3 = await upload(await png(16, 16), 'me.png', 'v3');
    expect(viaV3.status).toBe(200);
    expect(await stored(viaV3.body.picture_url)).toMatchObject({ format: 'png', width: 16, height: 16 });

    const photo = await upload(await jpeg(1000, 500, { exif: true }), 'me.jpg');
    expect(photo.body.picture_type).toBe('image/png');
    expect(photo.body.picture_url).not.toBe(res.body.picture_url);
    expect(await stored(photo.body.picture_url)).toEqual({ format: 'png', width: 200, height: 100, hasExif: false });
    const v3 = await call('get', accountPath('v3', ids.editable), 'editable');
    expect(v3.body).toMatchObject({ picture_type: 'image/png', picture_url: photo.body.picture_url });
    const pub = await call('get', accountPath('v4', ids.dev));
    expect(pub.body.picture_url).toBeNull();
  });

  it('refuses other files, malformed images, animations and files over 4 MB', async () => {
    const image = await png(64, 64);
    const big = Buffer.concat([await png(8, 8), Buffer.alloc(4 * 1024 * 1024)]);
    const cases: [Buffer, string][] = [
      [Buffer.from('GIF89a not really'), 'Images must be either PNG or JPG.'],
      [image.subarray(0, image.length - 30), 'Images must be either PNG or JPG.'],
      [(await jpeg(64, 64)).subarray(0, 150), 'Images must be either PNG or JPG.'],
      [await png(8, 8, { animated: true }), 'Images cannot be animated.'],
      [big, 'Please use images smaller than 4MB.'],
    ];
    for (const [file, message] of cases) {
      const res = await upload(file, 'x.png');
      expect([message, res.status, res.body]).toEqual([message, 400, { picture_upload: [message] }]);
    }
    const other = await upload(image, 'x.png', 'v4', 'other');
    expect(other.status).toBe(403);
  });

  it('deletes the picture (self or Users:Edit)', async () => {
    await upload(await png(8, 8), 'x.png');
    expect(await matrix((v, actor) => actorCall('delete', v, actor, 'picture/'))).toEqual({
      v3: EDIT_STATUSES,
      v4: EDIT_STATUSES,
    });
    const res = await call('delete', accountPath('v3', ids.editable, 'picture/'), 'admin');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ids.editable, picture_type: null, picture_url: null });
  });

  it('is also served without the trailing slash, as the contract writes the path', async () => {
    await upload(await png(8, 8), 'x.png');
    for (const v of ['v3', 'v4'] as const) {
      const res = await call('delete', accountPath(v, ids.editable, 'picture'), 'admin');
      expect([v, res.status]).toEqual([v, 200]);
      expect(res.body).toMatchObject({ id: ids.editable, picture_type: null, picture_url: null });
    }
    expect((await call('delete', accountPath('v4', ids.editable, 'picture'))).status).toBe(401);
  });
});

describe('notifications (GET/POST notifications/)', () => {
  const names = (body: { name: string }[]) => body.map((n) => n.name);
  const USER_V4 = ['reply', 'new_features'];
  const DEV_V4 = [
    'upgrade_success',
    'sdk_upgrade_success',
    'new_review',
    'announcements',
    'upgrade_fail',
    'sdk_upgrade_fail',
    'reviewer_reviewed',
    'individual_contact',
  ];

  it('is for the user and Users:Edit', async () => {
    expect(await matrix((v, actor) => actorCall('get', v, actor, 'notifications/'))).toEqual({
      v3: EDIT_STATUSES,
      v4: EDIT_STATUSES,
    });
    expect(await matrix((v, actor) => actorCall('post', v, actor, 'notifications/', { reply: true }))).toEqual({
      v3: EDIT_STATUSES,
      v4: EDIT_STATUSES,
    });
  });

  it('lists defaults: developer ones for developers only; v3 has eleven types, v4 ten', async () => {
    const plain = await call('get', accountPath('v4', ids.plain, 'notifications/'), 'plain');
    expect(plain.body).toEqual([
      { name: 'reply', enabled: true, mandatory: false },
      { name: 'new_features', enabled: true, mandatory: false },
    ]);
    const dev4 = await call('get', accountPath('v4', ids.dev, 'notifications/'), 'dev');
    expect(names(dev4.body)).toEqual([...USER_V4, ...DEV_V4]);
    expect(dev4.body).toContainEqual({ name: 'announcements', enabled: false, mandatory: false });
    expect(dev4.body).toContainEqual({ name: 'upgrade_fail', enabled: true, mandatory: true });
    const dev3 = await call('get', accountPath('v3', ids.dev, 'notifications/'), 'dev');
    expect(names(dev3.body)).toEqual(['dev_thanks', ...USER_V4, ...DEV_V4]);
    // An author of an unlisted-only or non-public add-on is still a developer here.
    const other = await call('get', accountPath('v4', ids.other, 'notifications/'), 'other');
    expect(other.body).toHaveLength(10);
  });

  it('sets the given ones and returns the full list; unknown and non-applicable names are ignored', async () => {
    const res = await call('post', accountPath('v4', ids.plain, 'notifications/'), 'plain', {
      reply: false,
      new_review: false,
      nonsense: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { name: 'reply', enabled: false, mandatory: false },
      { name: 'new_features', enabled: true, mandatory: false },
    ]);
    const again = await call('post', accountPath('v4', ids.plain, 'notifications/'), 'admin', {
      reply: 'true',
      new_features: 0,
    });
    expect(again.body).toEqual([
      { name: 'reply', enabled: true, mandatory: false },
      { name: 'new_features', enabled: false, mandatory: false },
    ]);
    const read = await call('get', accountPath('v3', ids.plain, 'notifications/'), 'plain');
    expect(read.body).toEqual([
      { name: 'dev_thanks', enabled: true, mandatory: false },
      { name: 'reply', enabled: true, mandatory: false },
      { name: 'new_features', enabled: false, mandatory: false },
    ]);
  });

  it('refuses mandatory ones (nothing is changed) and non-booleans', async () => {
    const res = await call('post', accountPath('v4', ids.dev, 'notifications/'), 'dev', {
      new_review: false,
      upgrade_fail: false,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(["Attempting to set [upgrade_fail] to False. Mandatory notifications can't be modified"]);
    const list = await call('get', accountPath('v4', ids.dev, 'notifications/'), 'dev');
    expect(list.body).toContainEqual({ name: 'new_review', enabled: true, mandatory: false });
    const bad = await call('post', accountPath('v4', ids.dev, 'notifications/'), 'dev', { reply: 'maybe' });
    expect([bad.status, bad.body]).toEqual([400, { enabled: ['Must be a valid boolean.'] }]);
  });
});

describe('GraphQL', () => {
  const gql = (query: string, variables: Body, who: Account | 'anonymous' = 'anonymous') => {
    const req = t.http.post('/graphql');
    if (who !== 'anonymous') req.set('Authorization', tokens[who]);
    return req.send({ query, variables });
  };

  it('reads accounts and notifications, and edits with the same rules', async () => {
    const read = await gql(
      'query($u: String!) { user(user: $u) { id numAddonsListed averageAddonRating isArtist private { email } } }',
      { u: 'dev-person' },
    );
    expect(read.body.data.user).toEqual({
      id: ids.dev,
      numAddonsListed: 2,
      averageAddonRating: 3.5,
      isArtist: true,
      private: null,
    });
    const hidden = await gql('query($u: String!) { user(user: $u) { id } }', { u: String(ids.plain) });
    expect(hidden.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const own = await gql(
      'query($u: String!) { user(user: $u) { private { readDevAgreement } } }',
      {
        u: String(ids.plain),
      },
      'plain',
    );
    expect(own.body.data.user.private).toEqual({ readDevAgreement: false });

    const edit = await gql(
      'mutation($u: String!, $i: AccountInput!) { editUser(user: $u, input: $i) { displayName } }',
      { u: String(ids.other), i: { displayName: 'x' } },
      'other',
    );
    expect(edit.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { display_name: ['Ensure this field has at least 2 characters.'] },
    });
    const notifications = await gql(
      'query($u: String!) { notifications(user: $u) { name enabled mandatory } }',
      { u: String(ids.other) },
      'other',
    );
    // Today's ten types: the retired `dev_thanks` is REST v3's only.
    expect(notifications.body.data.notifications).toHaveLength(10);
    expect(notifications.body.data.notifications.map((n: { name: string }) => n.name)).not.toContain('dev_thanks');
    const change = await gql(
      'mutation($u: String!) { updateNotifications(user: $u, changes: [{name: "reply", enabled: false}]) { name enabled } }',
      { u: String(ids.other) },
      'other',
    );
    expect(change.body.data.updateNotifications[0]).toEqual({ name: 'reply', enabled: false });
  });
});

describe('delete (DELETE account/<id>/) and logout (DELETE session/)', () => {
  const DEV_MESSAGE =
    'Developers of add-ons or themes cannot delete their account. You must delete all add-ons and themes ' +
    'linked to this account, or transfer them to other users.';

  it('is for the user and Users:Edit: 401, 403, 404', async () => {
    const victim = await t.createUser({ session: true });
    const path = accountPath('v4', victim.id);
    expect((await call('delete', path)).body).toEqual(UNAUTHENTICATED);
    expect((await call('delete', path, 'other')).body).toEqual(FORBIDDEN);
    expect((await call('delete', accountPath('v4', 'nobody'), 'other')).body).toEqual(NOT_FOUND);
    const res = await call('delete', path, 'admin');
    expect([res.status, res.text]).toEqual([204, '']);
    expect((await call('get', path, 'admin')).status).toBe(404);
  });

  it('v3: refuses developers; clears the details of others, keeping the row', async () => {
    const res = await call('delete', accountPath('v3', ids.dev), 'dev');
    expect([res.status, res.body]).toEqual([400, [DEV_MESSAGE]]);
    const user = await t.createUser({ session: true, username: 'v3-leaver', name: 'Leaver' });
    const token = `Bearer ${user.sessionToken}`;
    const gone = await t.http.delete(accountPath('v3', user.id)).set('Authorization', token);
    expect(gone.status).toBe(204);
    const row = await t.em().findOneOrFail(User, { id: user.id });
    expect(row).toMatchObject({ deleted: true, displayName: null });
    expect(row.username).toMatch(/^anonymous-/);
    expect((await t.http.get('/api/v4/accounts/profile/').set('Authorization', token)).status).toBe(401);
    // v3 too.
    const other = `Bearer ${(await t.createUser({ session: true })).sessionToken}`;
    expect((await t.http.delete('/api/v3/accounts/session/')).status).toBe(401);
    const v3 = await t.http.delete('/api/v3/accounts/session/').set('Authorization', other);
    expect([v3.status, v3.body]).toEqual([200, { ok: true }]);
    expect((await t.http.get('/api/v3/accounts/profile/').set('Authorization', other)).status).toBe(401);
  });

  it('v4: removes the account, its sole-authored add-ons, and its authorship of shared ones', async () => {
    const leaver = await t.createUser({ session: true, username: 'v4-leaver' });
    const partner = await t.createUser({ username: 'partner' });
    const em = t.em();
    const sole = await createAddon(em, { authors: [{ id: leaver.id }] });
    const shared = await createAddon(em, { authors: [{ id: leaver.id }, { id: partner.id }] });
    const prefs = await t.http
      .post(accountPath('v4', leaver.id, 'notifications/'))
      .set('Authorization', `Bearer ${leaver.sessionToken}`)
      .send({ reply: false });
    expect(prefs.status).toBe(200);
    const res = await t.http
      .delete(accountPath('v4', 'v4-leaver'))
      .set('Authorization', `Bearer ${leaver.sessionToken}`);
    expect(res.status).toBe(204);
    const check = t.em();
    expect(await check.findOne(User, { id: leaver.id })).toBeNull();
    expect((await check.findOneOrFail(Addon, { id: sole.id })).status).toBe(AddonStatus.DELETED);
    const kept = await check.findOneOrFail(Addon, { id: shared.id }, { populate: ['authors'] });
    expect(kept.status).toBe(AddonStatus.PUBLIC);
    expect(kept.authors.getItems().map((a) => a.user.id)).toEqual([partner.id]);
  });

  it('v4: the add-ons it rated are recounted', async () => {
    const rater = await ratingsHelpers.caller(t, { username: 'v4-rater' });
    const addon = await createAddon(t.em(), { slug: 'rated-by-leaver', name: { 'en-US': 'Rated' } });
    const [version] = await ratingsHelpers.versionsOf(t.em(), addon);
    const rated = await ratingsHelpers.call(t, 'post', '/api/v4/ratings/rating/', rater, {
      addon: addon.id,
      version: version.id,
      score: 2,
      body: 'Meh',
    });
    expect(rated.status).toBe(201);
    expect((await ratingsHelpers.storedColumns(t, addon.id)).count).toBe(1);
    expect((await ratingsHelpers.call(t, 'delete', `/api/v4/accounts/account/${rater.id}/`, rater)).status).toBe(204);
    expect(await ratingsHelpers.storedColumns(t, addon.id)).toMatchObject({ count: 0, textCount: 0, average: 0 });
  });

  it('logs a browser session out', async () => {
    const user = await t.createUser({ session: true });
    const token = `Bearer ${user.sessionToken}`;
    expect((await t.http.delete('/api/v4/accounts/session/')).status).toBe(401);
    const res = await t.http.delete('/api/v4/accounts/session/').set('Authorization', token);
    expect([res.status, res.body]).toEqual([200, { ok: true }]);
    expect((await t.http.get('/api/v4/accounts/profile/').set('Authorization', token)).status).toBe(401);
  });
});

describe('super-create (POST super-create/)', () => {
  it('creates a test account for Accounts:SuperCreate holders (JWT), with a session cookie', async () => {
    const creator = await t.createUser({ 'api-key': true, permission: ['Accounts:SuperCreate'] });
    const auth = jwt(creator.apiKey!);
    const res = await t.http
      .post('/api/v4/accounts/super-create/')
      .set('Authorization', auth)
      .send({ username: 'tester-1', group: 'reviewer', idp_id: 'abc' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([
      'user_id',
      'username',
      'email',
      'display_name',
      'idp_id',
      'groups',
      'session_cookie',
    ]);
    expect(res.body).toMatchObject({ username: 'tester-1', display_name: null, idp_id: 'abc' });
    expect(res.body.groups[0].rules).toEqual(['Addons:Review']);
    const cookie = res.body.session_cookie as { name: string; value: string; encoded: string };
    expect(cookie.name).toBe('sessionid');
    expect(cookie.encoded).toBe(`sessionid=${cookie.value}`);
    const profile = await t.http.get('/api/v4/accounts/profile/').set('Authorization', `Bearer ${cookie.value}`);
    expect(profile.body).toMatchObject({ username: 'tester-1', permissions: ['Addons:Review'] });

    const defaults = await t.http.post('/api/v3/accounts/super-create/').set('Authorization', auth).send({});
    expect(defaults.status).toBe(201);
    expect(defaults.body).toMatchObject({ idp_id: null, groups: [] });
    expect(defaults.body.email).toMatch(/@/);

    const bad = await t.http
      .post('/api/v4/accounts/super-create/')
      .set('Authorization', auth)
      .send({ email: 'nope', group: 'king', username: 'tester-1' });
    expect([bad.status, bad.body]).toEqual([
      422,
      {
        errors: {
          email: ['Enter a valid email address.'],
          username: ['This username is already in use.'],
          group: ['"king" is not a valid choice.'],
        },
      },
    ]);
  });

  it('is refused without the permission (403), without a JWT (401)', async () => {
    const res = await t.http.post('/api/v4/accounts/super-create/').set('Authorization', jwt()).send({});
    expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
    const session = await call('post', '/api/v4/accounts/super-create/', 'admin', {});
    expect(session.status).toBe(401);
  });

  it('is not found unless enabled', async () => {
    const other = await startTestApp();
    try {
      const creator = await other.createUser({ 'api-key': true, permission: ['Accounts:SuperCreate'] });
      const res = await other.http
        .post('/api/v4/accounts/super-create/')
        .set('Authorization', jwt(creator.apiKey!))
        .send({});
      expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    } finally {
      await other.close();
    }
  });
});
