import { AbuseReport } from '../src/abuse/abuse-report.entity.js';
import { addressKey } from '../src/abuse/abuse.throttle.js';
import { signJwt } from '../src/auth/jwt.js';
import { AddonStatus } from '../src/catalogue/catalogue.enums.js';
import { AddonActivity } from '../src/catalogue/lifecycle/activity.entity.js';
import { Addon } from '../src/catalogue/addon.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { caller, type Caller } from './helpers/ratings.js';

/**
 * Abuse reports (issue 13, item 1; docs/compat-notes.md §4.7): add-on and user reports through REST v3/v4
 * and GraphQL with one set of rules and messages, the daily throttles per user and per client
 * address, and the moderators' list and resolution (which may disable the add-on).
 */

const LIMIT = 3;
let t: TestApp;
let user: Caller;
let moderator: Caller;
let reviewAdmin: Caller;
let reviewer: Caller;

beforeAll(async () => {
  t = await startTestApp({
    env: {
      JOB_WORKERS: 'false',
      SITE_URL: 'http://addons.test',
      // One proxy in front: tests choose their client address with X-Forwarded-For.
      TRUST_PROXY: '1',
      ABUSE_REPORTS_PER_DAY: String(LIMIT),
    },
  });
  user = await caller(t, { name: 'Reporting Person' });
  moderator = await caller(t, { permission: ['AbuseReports:Edit'] });
  reviewAdmin = await caller(t, { permission: ['Reviews:Admin'] });
  reviewer = await caller(t, { permission: ['Addons:Review'] });
}, 120_000);
afterAll(() => t?.close());

const ADDON_V4 = '/api/v4/abuse/report/addon/';
const ADDON_V3 = '/api/v3/abuse/report/addon/';
const USER_V4 = '/api/v4/abuse/report/user/';
const USER_V3 = '/api/v3/abuse/report/user/';

let addresses = 0;
const nextAddress = () => `10.0.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

const clearThrottles = () => t.em().getConnection().execute('delete from abuse_throttles');

/** A report as `who` (a session, `jwt:<token>`, or anonymous) from `ip`, with no throttle taken yet. */
async function post(path: string, who: Caller | string | null, body: object | string, ip = nextAddress()) {
  await clearThrottles();
  return send(path, who, body, ip);
}

function send(path: string, who: Caller | string | null, body: object | string, ip: string) {
  let req = t.http.post(path).set('X-Forwarded-For', ip);
  if (typeof who === 'string') req = req.set('Authorization', who);
  else if (who) req = req.set('Authorization', `Bearer ${who.token}`);
  return typeof body === 'string' ? req.type('form').send(body) : req.send(body);
}

function gql(who: Caller | null, query: string, variables: Record<string, unknown> = {}, ip = nextAddress()) {
  let req = t.http.post('/graphql').set('X-Forwarded-For', ip);
  if (who) req = req.set('Authorization', `Bearer ${who.token}`);
  return req.send({ query, variables });
}

const userObject = (who: { id: number }, name: string, username: string) => ({
  id: who.id,
  name,
  url: `http://addons.test/user/${who.id}/`,
  username,
});

async function usernameOf(id: number): Promise<string> {
  const [row] = await t
    .em()
    .getConnection()
    .execute<{ username: string }[]>('select username from users where id = ?', [id]);
  return row.username;
}

const EMPTY_V4 = {
  addon_install_method: null,
  addon_install_origin: null,
  addon_install_source: null,
  addon_install_source_url: null,
  addon_name: null,
  addon_signature: null,
  addon_summary: null,
  addon_version: null,
  app: 'browser',
  appversion: null,
  client_id: null,
  install_date: null,
  lang: null,
  operating_system: null,
  operating_system_version: null,
  reason: null,
  report_entry_point: null,
};

const tooLong = (max: number) => `Ensure this field has no more than ${max} characters.`;

describe('add-on reports (v4)', () => {
  it('take an id, a slug or a guid, echo every field and record the reporter and address', async () => {
    const addon = await createAddon(t.em());
    const addonObject = { guid: addon.guid, id: addon.id, slug: addon.slug };
    for (const named of [String(addon.id), addon.slug, addon.guid!.toUpperCase()]) {
      const res = await post(ADDON_V4, null, { addon: named, message: 'abuse!' });
      expect([res.status, res.body]).toEqual([
        201,
        { reporter: null, addon: addonObject, message: 'abuse!', ...EMPTY_V4 },
      ]);
    }
    const numeric = await post(ADDON_V4, null, { addon: addon.id, message: 'by number' });
    expect([numeric.status, numeric.body.addon]).toEqual([201, addonObject]);

    const signedIn = await post(ADDON_V4, user, { addon: addon.slug, message: 'signed in' }, '10.9.9.9');
    expect(signedIn.status).toBe(201);
    expect(signedIn.body.reporter).toEqual(userObject(user, 'Reporting Person', await usernameOf(user.id)));
    const stored = await t.em().findOneOrFail(AbuseReport, { message: 'signed in' });
    expect([stored.reporter?.id, stored.ipAddress, stored.addon?.id, stored.guid]).toEqual([
      user.id,
      '10.9.9.9',
      addon.id,
      addon.guid,
    ]);
  });

  it('record the holder of an API key as the reporter', async () => {
    const developer = await t.createUser({ 'api-key': true });
    const now = Math.floor(Date.now() / 1000);
    const token = signJwt({ iss: developer.apiKey!.key, iat: now, exp: now + 60 }, developer.apiKey!.secret);
    const addon = await createAddon(t.em());
    const res = await post(ADDON_V4, `JWT ${token}`, { addon: addon.id, message: 'from a key' });
    expect([res.status, res.body.reporter?.id]).toEqual([201, developer.id]);
    // Bad credentials of an accepted scheme are a 401, as everywhere.
    expect((await post(ADDON_V4, 'Bearer nonsense', { addon: addon.id, message: 'x' })).status).toBe(401);
  });

  it('accept guids unknown to the site, refuse other unknown names, and take non-public add-ons', async () => {
    const unknown = await post(ADDON_V4, null, { addon: '{12345678-1234-1234-1234-123456789abc}', message: 'm' });
    expect([unknown.status, unknown.body.addon]).toEqual([
      201,
      { guid: '{12345678-1234-1234-1234-123456789abc}', id: null, slug: null },
    ]);
    const email = await post(ADDON_V4, null, { addon: '@mysteryman', message: 'm' });
    expect(email.body.addon).toEqual({ guid: '@mysteryman', id: null, slug: null });
    const missing = await post(ADDON_V4, null, { addon: 'randomnotguid', message: 'm' });
    expect([missing.status, missing.body]).toEqual([404, { detail: 'Not found.' }]);
    expect((await post(ADDON_V4, null, { addon: '99999999', message: 'm' })).status).toBe(404);

    for (const status of [AddonStatus.NOMINATED, AddonStatus.DISABLED, AddonStatus.INCOMPLETE]) {
      const hidden = await createAddon(t.em(), { status });
      const res = await post(ADDON_V4, null, { addon: hidden.slug, message: 'hidden' });
      expect([res.status, res.body.addon]).toEqual([201, { guid: hidden.guid, id: hidden.id, slug: hidden.slug }]);
    }
    // A deleted add-on is unknown: 404 by id, its guid kept as given.
    const deleted = await createAddon(t.em(), { status: AddonStatus.DELETED });
    expect((await post(ADDON_V4, null, { addon: String(deleted.id), message: 'm' })).status).toBe(404);
    const byGuid = await post(ADDON_V4, null, { addon: deleted.guid!, message: 'm' });
    expect([byGuid.status, byGuid.body.addon]).toEqual([201, { guid: deleted.guid, id: null, slug: null }]);
  });

  it('need the add-on, and a message unless a reason is given (DRF messages)', async () => {
    const addon = await createAddon(t.em());
    const cases: [object, object][] = [
      [{ message: 'x' }, { addon: ['This field is required.'] }],
      [{ addon: null, message: 'x' }, { addon: ['This field may not be null.'] }],
      [{ addon: '  ', message: 'x' }, { addon: ['This field may not be blank.'] }],
      [{ addon: addon.id }, { message: ['This field is required.'] }],
      [{ addon: addon.id, message: '' }, { message: ['This field may not be blank.'] }],
      [{ addon: addon.id, message: '   ' }, { message: ['This field may not be blank.'] }],
      [{ addon: addon.id, message: null, reason: 'spam' }, { message: ['This field may not be null.'] }],
      [
        { addon: true, message: ['x'] },
        { addon: ['Not a valid string.'], message: ['Not a valid string.'] },
      ],
    ];
    for (const [body, expected] of cases) {
      const res = await post(ADDON_V4, null, body);
      expect([body, res.status, res.body]).toEqual([body, 400, expected]);
    }
    const reasonOnly = await post(ADDON_V4, null, { addon: addon.id, reason: 'spam' });
    expect([reasonOnly.status, reasonOnly.body.message, reasonOnly.body.reason]).toEqual([201, '', 'spam']);
    const blankWithReason = await post(ADDON_V4, null, { addon: addon.id, reason: 'other', message: '' });
    expect(blankWithReason.status).toBe(201);
    // An invalid reason is not a reason: the message rule waits until the fields are valid.
    const badReason = await post(ADDON_V4, null, { addon: addon.id, reason: 'nope' });
    expect([badReason.status, badReason.body]).toEqual([400, { reason: ['"nope" is not a valid choice.'] }]);
  });

  it('normalise the enumerations, store unknown install methods and sources as other, refuse other bad choices', async () => {
    const addon = await createAddon(t.em());
    const all = {
      addon: addon.guid,
      message: 'everything',
      reason: 'Damage',
      report_entry_point: 'TOOLBAR-CONTEXT-MENU',
      addon_install_method: 'Install-From-File',
      addon_install_origin: 'http://origin.example/',
      addon_install_source: 'about:addons',
      addon_install_source_url: 'http://source.example/',
      addon_name: 'Name',
      addon_signature: 'curated-and-partner',
      addon_summary: 'Summary',
      addon_version: '1.2',
      app: 'android',
      appversion: '120.0',
      lang: 'fr',
      client_id: 'a'.repeat(64),
      install_date: '2024-02-03T04:05:06+01:00',
      operating_system: 'Linux',
      operating_system_version: '6.1',
    };
    const res = await post(ADDON_V4, null, all);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      ...all,
      reporter: null,
      addon: { guid: addon.guid, id: addon.id, slug: addon.slug },
      reason: 'damage',
      report_entry_point: 'toolbar_context_menu',
      addon_install_method: 'install_from_file',
      addon_install_source: 'about_addons',
      addon_signature: 'curated_and_partner',
      install_date: '2024-02-03T03:05:06Z',
    });

    const lenient = await post(ADDON_V4, null, {
      addon: addon.id,
      message: 'm',
      addon_install_method: 'carrier-pigeon',
      addon_install_source: '',
    });
    expect([lenient.status, lenient.body.addon_install_method, lenient.body.addon_install_source]).toEqual([
      201,
      'other',
      'other',
    ]);
    const nulls = await post(ADDON_V4, null, { addon: addon.id, message: 'm', reason: null, app: null, lang: null });
    expect([nulls.status, nulls.body.reason, nulls.body.app, nulls.body.lang]).toEqual([201, null, null, null]);

    const bad = await post(ADDON_V4, null, {
      addon: addon.id,
      message: 'm',
      reason: 'boredom',
      report_entry_point: 'nowhere',
      addon_signature: '',
      app: 'Browser',
      install_date: '03/02/2024',
    });
    expect([bad.status, bad.body]).toEqual([
      400,
      {
        reason: ['"boredom" is not a valid choice.'],
        report_entry_point: ['"nowhere" is not a valid choice.'],
        addon_signature: ['"" is not a valid choice.'],
        app: ['"Browser" is not a valid choice.'],
        install_date: [
          'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
        ],
      },
    ]);
    for (const date of ['2024-02-30T00:00:00Z', '2024-02-03', 'yesterday', '2024-02-03T25:00']) {
      expect((await post(ADDON_V4, null, { addon: addon.id, message: 'm', install_date: date })).status).toBe(400);
    }
    const noSeconds = await post(ADDON_V4, null, { addon: addon.id, message: 'm', install_date: '2024-02-03T04:05' });
    expect(noSeconds.body.install_date).toBe('2024-02-03T04:05:00Z');
  });

  it('refuse texts over their limits before any other check, every field at once', async () => {
    const addon = await createAddon(t.em());
    const long = 'x'.repeat(256);
    const body: Record<string, unknown> = { addon: addon.id, message: 'm'.repeat(10_001) };
    const names = [
      'reason',
      'report_entry_point',
      'addon_install_method',
      'addon_install_origin',
      'addon_install_source',
      'addon_install_source_url',
      'addon_name',
      'addon_signature',
      'addon_summary',
      'addon_version',
      'app',
      'appversion',
      'lang',
      'install_date',
      'operating_system',
      'operating_system_version',
    ];
    for (const name of names) body[name] = long;
    body.client_id = 'c'.repeat(65);
    const res = await post(ADDON_V4, null, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: [tooLong(10_000)],
      client_id: [tooLong(64)],
      ...Object.fromEntries(names.map((n) => [n, [tooLong(255)]])),
    });
    // The add-on's name too, before any lookup; characters are counted, not code units.
    const named = await post(ADDON_V4, null, { addon: `${'a'.repeat(250)}@${'b'.repeat(5)}`, message: 'm' });
    expect([named.status, named.body]).toEqual([400, { addon: [tooLong(255)] }]);
    const emoji = await post(ADDON_V4, null, { addon: addon.id, message: 'm', addon_name: '😀'.repeat(255) });
    expect([emoji.status, emoji.body.addon_name]).toEqual([201, '😀'.repeat(255)]);
    const maximum = await post(ADDON_V4, null, { addon: addon.id, message: 'm'.repeat(10_000) });
    expect(maximum.status).toBe(201);
  });

  it('refuse bad bodies with the usual 400s', async () => {
    const bad = await t.http.post(ADDON_V4).set('Content-Type', 'application/json').send('{"addon": ');
    expect(bad.status).toBe(400);
    expect(bad.text).not.toMatch(/at .*\.(ts|js)/);
    const nul = await post(ADDON_V4, null, { addon: 'a\u0000b@x', message: 'm' });
    expect(nul.status).toBe(400);
    expect((await t.http.get(ADDON_V4)).status).toBe(405);
  });
});

describe('add-on reports (v3, the 2018 form)', () => {
  it('answer the original ParseErrors and echo reporter, addon and message only', async () => {
    const addon = await createAddon(t.em());
    const cases: [object | string, string][] = [
      [{ message: 'abuse!' }, 'Need an addon parameter'],
      [{ addon: '', message: 'abuse!' }, 'Need an addon parameter'],
      [{ addon: String(addon.id) }, 'Abuse reports need a message'],
      [{ addon: String(addon.id), message: '' }, 'Abuse reports need a message'],
      [`addon=${addon.id}&message=`, 'Abuse reports need a message'],
    ];
    for (const [body, detail] of cases) {
      const res = await post(ADDON_V3, null, body);
      expect([body, res.status, res.body]).toEqual([body, 400, { detail }]);
    }
    const form = await post(ADDON_V3, null, `addon=${addon.id}&message=abuse!&reason=nonsense`);
    expect([form.status, form.body]).toEqual([
      201,
      { reporter: null, addon: { guid: addon.guid, id: addon.id, slug: addon.slug }, message: 'abuse!' },
    ]);
    const stored = await t.em().findOneOrFail(AbuseReport, { addon: addon.id }, { orderBy: { id: 'desc' } });
    expect(stored.reason).toBeNull();

    const plain = await caller(t);
    const signedIn = await post(ADDON_V3, plain, { addon: addon.slug, message: 'abuse!' });
    const username = await usernameOf(plain.id);
    expect(signedIn.body.reporter).toEqual(userObject(plain, username, username));
    expect((await post(ADDON_V3, null, { addon: 'randomnotguid', message: 'm' })).status).toBe(404);
    const guid = await post(ADDON_V3, null, { addon: '@mysteryman', message: 'm' });
    expect(guid.body.addon).toEqual({ guid: '@mysteryman', id: null, slug: null });
  });
});

describe('user reports', () => {
  it('take an id or a username and answer reporter, user and message (v3 and v4)', async () => {
    const reported = await t.createUser({ name: 'Bad Actor' });
    const expected = (name: string) => ({
      reporter: null,
      user: userObject(reported, name, reported.username),
      message: 'abuse!',
    });
    for (const named of [String(reported.id), reported.username]) {
      const v4 = await post(USER_V4, null, { user: named, message: 'abuse!' });
      expect([v4.status, v4.body]).toEqual([201, expected('Bad Actor')]);
      const v3 = await post(USER_V3, null, `user=${named}&message=abuse!`);
      expect([v3.status, v3.body]).toEqual([201, expected('Bad Actor')]);
    }
    const signedIn = await post(USER_V4, user, { user: reported.id, message: 'abuse!' });
    expect(signedIn.body.reporter).toEqual(userObject(user, 'Reporting Person', await usernameOf(user.id)));
    const stored = await t.em().findOneOrFail(AbuseReport, { user: reported.id, reporter: user.id });
    expect([stored.addon, stored.guid, stored.app]).toEqual([null, null, null]);

    const unnamed = await t.createUser();
    const v3Name = await post(USER_V3, null, { user: unnamed.id, message: 'm' });
    const v4Name = await post(USER_V4, null, { user: unnamed.id, message: 'm' });
    expect([v3Name.body.user.name, v4Name.body.user.name]).toEqual([unnamed.username, `Browser user ${unnamed.id}`]);
  });

  it('refuse unknown users and missing fields (v4 field maps, v3 ParseErrors)', async () => {
    const reported = await t.createUser();
    expect((await post(USER_V4, null, { user: 'nobody-like-this', message: 'm' })).status).toBe(404);
    expect((await post(USER_V4, null, { user: '99999999', message: 'm' })).status).toBe(404);
    expect((await post(USER_V3, null, { user: 'nobody-like-this', message: 'm' })).status).toBe(404);
    const cases: [string, object, object][] = [
      [USER_V4, {}, { user: ['This field is required.'], message: ['This field is required.'] }],
      [USER_V4, { user: reported.id, message: ' ' }, { message: ['This field may not be blank.'] }],
      [USER_V4, { user: reported.id, message: null }, { message: ['This field may not be null.'] }],
      [
        USER_V4,
        { user: 'u'.repeat(256), message: 'm'.repeat(10_001) },
        { user: [tooLong(255)], message: [tooLong(10_000)] },
      ],
      [USER_V3, { message: 'm' }, { detail: 'Need a user parameter' }],
      [USER_V3, { user: reported.id, message: '' }, { detail: 'Abuse reports need a message' }],
      [USER_V3, { user: reported.id }, { detail: 'Abuse reports need a message' }],
    ];
    for (const [path, body, expected] of cases) {
      const res = await post(path, null, body);
      expect([path, body, res.status, res.body]).toEqual([path, body, 400, expected]);
    }
  });
});

describe('throttles', () => {
  const THROTTLED = /^Request was throttled\. Expected available in (\d+) seconds\.$/;

  async function expectThrottled(res: { status: number; body: { detail: string }; headers: Record<string, string> }) {
    expect(res.status).toBe(429);
    const wait = Number(res.headers['retry-after']);
    expect(wait).toBeGreaterThan(86_000);
    expect(wait).toBeLessThanOrEqual(86_400);
    expect(res.body).toEqual({ detail: `Request was throttled. Expected available in ${wait} seconds.` });
    expect(res.body.detail).toMatch(THROTTLED);
  }

  it('allow a signed-in user the daily limit from any address, add-on and user reports together', async () => {
    const addon = await createAddon(t.em());
    const reported = await t.createUser();
    const who = await caller(t);
    await clearThrottles();
    expect((await send(ADDON_V4, who, { addon: addon.id, message: 'm' }, nextAddress())).status).toBe(201);
    expect((await send(USER_V4, who, { user: reported.id, message: 'm' }, nextAddress())).status).toBe(201);
    expect((await send(ADDON_V3, who, { addon: addon.id, message: 'm' }, nextAddress())).status).toBe(201);
    await expectThrottled(await send(ADDON_V4, who, { addon: addon.id, message: 'm' }, nextAddress()));
    await expectThrottled(await send(USER_V3, who, { user: reported.id, message: 'm' }, nextAddress()));
    const viaGraphql = await gql(who, 'mutation($i: UserAbuseReportInput!) { reportUser(input: $i) { id } }', {
      i: { user: String(reported.id), message: 'm' },
    });
    expect(viaGraphql.body.errors[0].extensions).toMatchObject({ code: 'THROTTLED', retryAfter: expect.any(Number) });
    expect(viaGraphql.body.errors[0].extensions.retryAfter).toBeGreaterThan(86_000);
    // Another user is not throttled; a day later the first one may report again.
    expect((await send(ADDON_V4, await caller(t), { addon: addon.id, message: 'm' }, nextAddress())).status).toBe(201);
    await t
      .em()
      .getConnection()
      .execute(`update abuse_throttles set hits = array(select h - interval '1 day' from unnest(hits) h)`);
    expect((await send(ADDON_V4, who, { addon: addon.id, message: 'm' }, nextAddress())).status).toBe(201);
  });

  it('allow a client address the daily limit, whoever sends from it', async () => {
    const addon = await createAddon(t.em());
    await clearThrottles();
    const ip = nextAddress();
    for (let i = 0; i < LIMIT - 1; i++) {
      expect((await send(ADDON_V4, null, { addon: addon.id, message: 'm' }, ip)).status).toBe(201);
    }
    // Refused requests count too, as DRF counts every request that passes its throttles.
    expect((await send(ADDON_V4, null, { message: 'invalid, counted' }, ip)).status).toBe(400);
    await expectThrottled(await send(ADDON_V4, null, { addon: addon.id, message: 'm' }, ip));
    await expectThrottled(await send(ADDON_V4, await caller(t), { addon: addon.id, message: 'm' }, ip));
    expect((await send(ADDON_V4, null, { addon: addon.id, message: 'm' }, nextAddress())).status).toBe(201);
  });

  it('let concurrent requests of one address pass only up to the limit', async () => {
    const addon = await createAddon(t.em());
    await clearThrottles();
    const ip = nextAddress();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => send(ADDON_V4, null, { addon: addon.id, message: 'm' }, ip)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(LIMIT).fill(201), ...Array(8 - LIMIT).fill(429)]);
  });

  it('count an IPv6 client per /64, an IPv4 one per address, IPv4-mapped IPv6 as IPv4', async () => {
    const addon = await createAddon(t.em());
    const report = (ip: string) => send(ADDON_V4, null, { addon: addon.id, message: 'm' }, ip);
    await clearThrottles();
    // One /64, a different address (and spelling) each time.
    const network = ['2001:db8:a:b::1', '2001:DB8:A:B:ffff::2', '2001:db8:a:b:0:0:0:3', '2001:db8:a:b:1:2:3:4'];
    for (const ip of network.slice(0, LIMIT)) expect((await report(ip)).status).toBe(201);
    await expectThrottled(await report(network[LIMIT]));
    expect((await report('2001:db8:a:c::1')).status).toBe(201); // the next /64
    // IPv4: per address; its IPv4-mapped spelling is the same client.
    for (let i = 0; i < LIMIT; i++) expect((await report('192.0.2.7')).status).toBe(201);
    await expectThrottled(await report('::ffff:192.0.2.7'));
    expect((await report('192.0.2.8')).status).toBe(201);
  });

  it('key addresses by their /64, IPv4 as is', () => {
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('2001:DB8:0:1:2:3:4:5')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('::ffff:c000:201')).toBe('192.0.2.1');
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64'); // NAT64: not IPv4-mapped
    expect(addressKey('not an address')).toBe('not an address');
  });
});

const REPORT_FIELDS = `id message reason app addon { guid id slug } user { id username } reporter { id }
  state resolvedAt resolvedBy { id } resolutionNote created`;

describe('GraphQL reporting', () => {
  it('applies the same rules, with messages keyed by the REST field names', async () => {
    const addon = await createAddon(t.em());
    const report = `mutation($i: AddonAbuseReportInput!) { reportAddon(input: $i) { ${REPORT_FIELDS} addonInstallSource installDate } }`;
    await clearThrottles();
    const ok = await gql(user, report, {
      i: { addon: addon.slug, reason: 'SPAM', addonInstallSource: 'weird', installDate: '2024-01-02T03:04:05Z' },
    });
    expect(ok.body.data.reportAddon).toMatchObject({
      message: '',
      reason: 'spam',
      app: 'browser',
      addon: { guid: addon.guid, id: addon.id, slug: addon.slug },
      reporter: { id: user.id },
      addonInstallSource: 'other',
      installDate: '2024-01-02T03:04:05.000Z',
      state: 'OPEN',
      resolvedAt: null,
    });
    await clearThrottles();
    const bad = await gql(null, report, { i: { addon: 'x'.repeat(300), reason: 'nope', clientId: 'c'.repeat(65) } });
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { addon: [tooLong(255)], reason: ['"nope" is not a valid choice.'], client_id: [tooLong(64)] },
    });
    await clearThrottles();
    const missing = await gql(null, report, { i: { addon: String(addon.id) } });
    expect(missing.body.errors[0].extensions.fields).toEqual({ message: ['This field is required.'] });
    await clearThrottles();
    const unknown = await gql(null, report, { i: { addon: 'no-such-addon', message: 'm' } });
    expect(unknown.body.errors[0].extensions.code).toBe('NOT_FOUND');

    const reported = await t.createUser();
    const reportUser = `mutation($i: UserAbuseReportInput!) { reportUser(input: $i) { ${REPORT_FIELDS} } }`;
    await clearThrottles();
    const userReport = await gql(null, reportUser, { i: { user: reported.username, message: 'spammer' } });
    expect(userReport.body.data.reportUser).toMatchObject({
      message: 'spammer',
      addon: null,
      app: null,
      user: { id: reported.id, username: reported.username },
      reporter: null,
    });
    await clearThrottles();
    const noUser = await gql(null, reportUser, { i: { message: '' } });
    expect(noUser.body.errors[0].extensions.fields).toEqual({
      user: ['This field is required.'],
      message: ['This field may not be blank.'],
    });
  });
});

describe('moderation (GraphQL)', () => {
  const list = `query($filter: AbuseReportFilter, $page: Int, $pageSize: Int) {
    abuseReports(filter: $filter, page: $page, pageSize: $pageSize) { count page pageSize pageCount items { ${REPORT_FIELDS} } }
  }`;
  const one = `query($id: Int!) { abuseReport(id: $id) { id } }`;
  const resolve = `mutation($id: Int!, $note: String, $disable: Boolean) {
    resolveAbuseReport(id: $id, note: $note, disableAddon: $disable) { ${REPORT_FIELDS} }
  }`;

  async function reportOn(addon: string, reason: string | null = null) {
    const res = await post(ADDON_V4, null, { addon, message: `about ${addon}`, ...(reason ? { reason } : {}) });
    expect(res.status).toBe(201);
    return (await t.em().findOneOrFail(AbuseReport, { message: `about ${addon}` }, { orderBy: { id: 'desc' } })).id;
  }

  it('is open to AbuseReports:Edit and Reviews:Admin only', async () => {
    const addon = await createAddon(t.em());
    const id = await reportOn(addon.slug);
    const matrix: [Caller | null, string | null][] = [
      [null, 'UNAUTHENTICATED'],
      [user, 'FORBIDDEN'],
      [reviewer, 'FORBIDDEN'],
      [moderator, null],
      [reviewAdmin, null],
    ];
    for (const [who, code] of matrix) {
      for (const [query, variables] of [
        [list, {}],
        [one, { id }],
      ] as const) {
        const res = await gql(who, query, variables);
        expect([who?.id, res.body.errors?.[0]?.extensions?.code ?? null]).toEqual([who?.id, code]);
      }
    }
    for (const [who, code] of matrix.slice(0, 3)) {
      const res = await gql(who, resolve, { id });
      expect(res.body.errors[0].extensions.code).toBe(code);
    }
    const resolved = await gql(moderator, resolve, { id, note: '  Looked at it.  ' });
    expect(resolved.body.data.resolveAbuseReport).toMatchObject({
      id,
      state: 'RESOLVED',
      resolvedBy: { id: moderator.id },
      resolutionNote: 'Looked at it.',
    });
    expect(resolved.body.data.resolveAbuseReport.resolvedAt).toEqual(expect.any(String));
    const again = await gql(reviewAdmin, resolve, { id });
    expect(again.body.errors[0]).toMatchObject({
      message: 'This report is already resolved.',
      extensions: { code: 'CONFLICT' },
    });
    expect((await gql(moderator, one, { id: 99_999_999 })).body.errors[0].extensions.code).toBe('NOT_FOUND');
    const longNote = await gql(moderator, resolve, { id, note: 'n'.repeat(2001) });
    expect(longNote.body.errors[0].extensions.fields).toEqual({ note: [tooLong(2000)] });
  });

  it('lists reports newest first, filtered by add-on, user, reason and state, paginated', async () => {
    const addon = await createAddon(t.em());
    const other = await createAddon(t.em());
    const first = await reportOn(String(addon.id), 'spam');
    const second = await reportOn(addon.guid!.toUpperCase(), 'damage');
    const third = await reportOn(addon.slug);
    const elsewhere = await reportOn(other.slug, 'spam');
    const byAddon = await gql(moderator, list, { filter: { addon: addon.guid } });
    expect(byAddon.body.data.abuseReports.items.map((r: { id: number }) => r.id)).toEqual([third, second, first]);
    for (const named of [String(addon.id), addon.slug]) {
      expect((await gql(moderator, list, { filter: { addon: named } })).body.data.abuseReports.count).toBe(3);
    }
    const spam = await gql(moderator, list, { filter: { addon: addon.slug, reason: 'SPAM' } });
    expect(spam.body.data.abuseReports.items.map((r: { id: number }) => r.id)).toEqual([first]);

    await gql(moderator, resolve, { id: second });
    const open = await gql(moderator, list, { filter: { addon: addon.id.toString(), state: 'OPEN' } });
    expect(open.body.data.abuseReports.items.map((r: { id: number }) => r.id)).toEqual([third, first]);
    const done = await gql(moderator, list, { filter: { addon: addon.slug, state: 'RESOLVED' } });
    expect(done.body.data.abuseReports.items.map((r: { id: number }) => r.id)).toEqual([second]);

    const paged = await gql(moderator, list, { filter: { addon: addon.slug }, page: 2, pageSize: 1 });
    expect(paged.body.data.abuseReports).toMatchObject({ count: 3, page: 2, pageSize: 1, pageCount: 3 });
    expect(paged.body.data.abuseReports.items.map((r: { id: number }) => r.id)).toEqual([second]);
    const past = await gql(moderator, list, { filter: { addon: addon.slug }, page: 9, pageSize: 1 });
    expect(past.body.errors[0].extensions.code).toBe('INVALID_PAGE');

    // Reports about a guid unknown to the site, and about users.
    const guidOnly = await reportOn('@only-a-guid.example');
    const byGuid = await gql(moderator, list, { filter: { addon: '@ONLY-A-GUID.example' } });
    expect(byGuid.body.data.abuseReports.items.map((r: { id: number }) => r.id)).toEqual([guidOnly]);
    expect((await gql(moderator, list, { filter: { addon: 'no-such-slug' } })).body.data.abuseReports.count).toBe(0);
    const reported = await t.createUser();
    await post(USER_V4, null, { user: reported.id, message: 'user one' });
    const byUser = await gql(moderator, list, { filter: { user: reported.username } });
    expect(byUser.body.data.abuseReports.items.map((r: { message: string }) => r.message)).toEqual(['user one']);
    expect(elsewhere).toBeGreaterThan(third);

    const bad = await gql(moderator, list, { filter: { reason: 'boredom', user: 'u'.repeat(256) } });
    expect(bad.body.errors[0].extensions.fields).toEqual({
      user: [tooLong(255)],
      reason: ['"boredom" is not a valid choice.'],
    });
  });

  it('may disable the add-on through the lifecycle (Reviews:Admin), which records the audit log', async () => {
    const addon = await createAddon(t.em());
    const id = await reportOn(addon.slug);
    // A moderator without Reviews:Admin cannot disable: the report stays open.
    const refused = await gql(moderator, resolve, { id, disable: true });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await t.em().findOneOrFail(AbuseReport, id)).resolvedAt).toBeNull();

    const res = await gql(reviewAdmin, resolve, { id, note: 'Malware confirmed.', disable: true });
    expect(res.body.data.resolveAbuseReport.state).toBe('RESOLVED');
    expect((await t.em().findOneOrFail(Addon, addon.id)).status).toBe(AddonStatus.DISABLED);
    const [entry] = await t.em().find(AddonActivity, { addon: addon.id }, { orderBy: { id: 'desc' } });
    expect([entry.action, entry.user?.id, entry.comments]).toEqual([
      'disabled_by_admin',
      reviewAdmin.id,
      `Abuse report #${id}: Malware confirmed.`,
    ]);

    const guidOnly = await reportOn('@no-addon-here.example');
    const noAddon = await gql(reviewAdmin, resolve, { id: guidOnly, disable: true });
    expect(noAddon.body.errors[0].extensions.fields).toEqual({
      disableAddon: ['This report is not about an add-on of the site.'],
    });
  });
});
