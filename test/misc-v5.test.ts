import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Block } from '../src/blocklist/block.entity.js';
import { Version } from '../src/catalogue/version.entity.js';
import { UnsubscribeCodes } from '../src/accounts/unsubscribe-codes.js';
import { Keyring } from '../src/core/secrets.js';
import { mails } from '../src/mail/templates.js';
import { ReviewNote } from '../src/reviews/review.entity.js';
import { ReviewAction } from '../src/reviews/review.enums.js';
import { ScannerAction, ScannerResult } from '../src/scanners/scanner.entity.js';
import { startTestApp, TEST_SECRET_KEY, type TestApp } from './helpers/app.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { createAddon } from './helpers/catalogue.js';
import { call, caller, versionsOf, type Caller } from './helpers/ratings.js';

/**
 * The rest of the original's v5 surface (issue 37): the one-click unsubscribe of notification mails
 * (`POST accounts/unsubscribe/`), registering browser versions (`PUT applications/<app>/<version>/`,
 * and their list), the labelled scanner results export (`GET scanner/results/`) and the debugging
 * helpers (`services/client_info/`, `403/`, `404/`, `500/`), each with its parameters, permissions
 * and refusals as the original documents them.
 */

let t: TestApp;
const codes = new UnsubscribeCodes(new Keyring(TEST_SECRET_KEY).signer('unsubscribe-links'));

beforeAll(async () => {
  t = await startTestApp({ env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test', TRUST_PROXY: '1' } });
}, 120_000);
afterAll(() => t?.close());

const notifications = async (who: Caller) => {
  const res = await call(t, 'get', `/api/v5/accounts/account/${who.id}/notifications/`, who);
  expect(res.status).toBe(200);
  return Object.fromEntries((res.body as { name: string; enabled: boolean }[]).map((n) => [n.name, n.enabled]));
};

describe('POST accounts/unsubscribe/', () => {
  let user: Caller;
  let email: string;

  beforeAll(async () => {
    const created = await t.createUser({ session: true });
    user = { id: created.id, token: created.sessionToken! };
    email = created.email;
  });

  it('turns the named notification off for the address of the token, without signing in', async () => {
    expect((await notifications(user)).reply).toBe(true);
    const res = await t.http
      .post('/api/v5/accounts/unsubscribe/')
      .send({ ...codes.create(email), notification: 'reply' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'reply', enabled: false, mandatory: false });
    expect((await notifications(user)).reply).toBe(false);
    // Again: still off, same answer.
    const again = await t.http
      .post('/api/v5/accounts/unsubscribe/')
      .send({ ...codes.create(email), notification: 'reply' });
    expect(again.body).toEqual({ name: 'reply', enabled: false, mandatory: false });
  });

  it('takes the token as the original writes it: URL-safe base64 of the address, padded', async () => {
    const { token } = codes.create(email);
    expect(Buffer.from(token, 'base64url').toString()).toBe(email);
    expect(token.length % 4).toBe(0);
    // Without its padding, or in the standard alphabet, it is the same token.
    const res = await t.http
      .post('/api/v4/accounts/unsubscribe/')
      .send({ token: token.replace(/=+$/, ''), hash: codes.create(email).hash, notification: 'new_features' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'new_features', enabled: false, mandatory: false });
  });

  it('turns developer notifications off too, and ignores an Authorization header', async () => {
    const res = await t.http
      .post('/api/v5/accounts/unsubscribe/')
      .set('Authorization', 'Bearer not-a-session')
      .send({ ...codes.create(email), notification: 'new_review' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'new_review', enabled: false, mandatory: false });
  });

  it('refuses a code it did not make, or a missing one, with 403', async () => {
    const { token, hash } = codes.create(email);
    const forged = new UnsubscribeCodes(new Keyring('another-key').signer('unsubscribe-links')).create(email);
    const other = codes.create('someone-else@example.com');
    for (const body of [
      { token, hash: forged.hash },
      { token: other.token, hash },
      { token, hash: hash.slice(1) },
      { token: '%%%', hash },
      { token, hash: 'h'.repeat(10_000) },
      { token: 't'.repeat(10_000), hash },
      {},
      { token: 5, hash: [hash] },
    ]) {
      const res = await t.http.post('/api/v5/accounts/unsubscribe/').send({ ...body, notification: 'reply' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'Invalid token or hash.' });
    }
  });

  it('refuses the address of no account with 403', async () => {
    const res = await t.http
      .post('/api/v5/accounts/unsubscribe/')
      .send({ ...codes.create('nobody-here@example.com'), notification: 'reply' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'Email address not found.' });
  });

  it('refuses an unknown notification, and a mandatory one, with 400', async () => {
    const code = codes.create(email);
    const unknown = await t.http.post('/api/v5/accounts/unsubscribe/').send({ ...code, notification: 'nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(['Notification [nope] does not exist']);
    const missing = await t.http.post('/api/v5/accounts/unsubscribe/').send(code);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(['Notification [None] does not exist']);
    const long = await t.http.post('/api/v5/accounts/unsubscribe/').send({ ...code, notification: 'x'.repeat(5000) });
    expect(long.status).toBe(400);
    const mandatory = await t.http
      .post('/api/v5/accounts/unsubscribe/')
      .send({ ...code, notification: 'individual_contact' });
    expect(mandatory.status).toBe(400);
    expect(mandatory.body).toEqual([
      "Attempting to set [individual_contact] to False. Mandatory notifications can't be modified",
    ]);
  });

  it('is the GraphQL mutation unsubscribeNotification', async () => {
    const other = await caller(t);
    const [row] = await t
      .em()
      .getConnection()
      .execute<{ email: string }[]>('select email from users where id = ?', [other.id]);
    const res = await t.http.post('/graphql').send({
      query: `mutation($token: String, $hash: String) {
        unsubscribeNotification(token: $token, hash: $hash, notification: "reply") { name enabled mandatory }
      }`,
      variables: codes.create(row.email),
    });
    expect(res.body.data.unsubscribeNotification).toEqual({ name: 'reply', enabled: false, mandatory: false });
    expect((await notifications(other)).reply).toBe(false);
  });
});

describe('notification mails carry a one-click unsubscribe link the endpoint accepts', () => {
  const outbox = () => join(t.app.services.config.dataDir, 'mail', 'outbox');
  const mailsTo = (email: string) =>
    existsSync(outbox())
      ? readdirSync(outbox())
          .sort()
          .map((f) => readFileSync(join(outbox(), f), 'utf8'))
          .filter((m) => m.includes(`\r\nTo: ${email}\r\n`))
      : [];
  const unsubscribeLink = (mail: string) => {
    const match = /http:\/\/addons\.test\/users\/unsubscribe\/([^/\s]+)\/([^/\s]+)\/([a-z_]+)\//.exec(mail);
    expect(match).not.toBeNull();
    return { token: decodeURIComponent(match![1]), hash: match![2], notification: match![3] };
  };
  const queued = async (ratingId: number) => {
    const [row] = await t
      .em()
      .getConnection()
      .execute<{ n: string | number }[]>(
        `select count(*) as n from pgboss.job where name = 'rating-mail' and data->>'ratingId' = ?`,
        [String(ratingId)],
      );
    return Number(row.n);
  };

  it('a new rating mails the authors (new_review); the link turns that off, and the next one is not sent', async () => {
    const author = await t.createUser({ session: true });
    const authorCaller = { id: author.id, token: author.sessionToken! };
    const addon = await createAddon(t.em(), { name: { 'en-US': 'Mailed Add-on' }, authors: [{ id: author.id }] });
    const rater = await caller(t, { name: 'Rating Person' });
    const [version] = await versionsOf(t.em(), addon);
    const rated = await call(t, 'post', '/api/v5/ratings/rating/', rater, {
      addon: addon.id,
      version: version.id,
      score: 4,
      body: 'Works well',
    });
    expect(rated.status).toBe(201);
    // Queued with the rating (sent by the job once it commits); delivered here by hand.
    expect(await queued(rated.body.id)).toBe(1);
    await t.app.services.ratingMails.mail(rated.body.id);
    const [mail] = mailsTo(author.email);
    expect(mail).toContain('Subject: New rating of Mailed Add-on');
    expect(mail).toContain('Rating Person rated Mailed Add-on 4 out of 5:');
    expect(mail).toContain(`http://addons.test/addon/${addon.slug}/reviews/${rated.body.id}/`);
    expect(mail).toContain('All your notification settings: http://addons.test/users/edit');
    const link = unsubscribeLink(mail);
    expect(link.notification).toBe('new_review');
    expect(Buffer.from(link.token, 'base64url').toString()).toBe(author.email);
    const res = await t.http.post('/api/v5/accounts/unsubscribe/').send(link);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'new_review', enabled: false, mandatory: false });
    expect((await notifications(authorCaller)).new_review).toBe(false);

    const second = await call(t, 'post', '/api/v5/ratings/rating/', await caller(t), {
      addon: addon.id,
      version: version.id,
      score: 5,
    });
    expect(second.status).toBe(201);
    await t.app.services.ratingMails.mail(second.body.id);
    expect(mailsTo(author.email)).toHaveLength(1);
  });

  it("a developer's first reply mails the rating's author (reply), with its own link", async () => {
    const author = await caller(t);
    const addon = await createAddon(t.em(), { name: { 'en-US': 'Replying Add-on' }, authors: [{ id: author.id }] });
    const rater = await t.createUser({ session: true });
    const raterCaller = { id: rater.id, token: rater.sessionToken! };
    const [version] = await versionsOf(t.em(), addon);
    const rated = await call(t, 'post', '/api/v5/ratings/rating/', raterCaller, {
      addon: addon.id,
      version: version.id,
      score: 2,
      body: 'Meh',
    });
    const replied = await call(t, 'post', `/api/v5/ratings/rating/${rated.body.id}/reply/`, author, {
      body: 'Fixed in 2.0',
    });
    expect(replied.status).toBe(201);
    expect(await queued(replied.body.id)).toBe(1);
    await t.app.services.ratingMails.mail(replied.body.id);
    const [mail] = mailsTo(rater.email);
    expect(mail).toContain('Subject: Reply to your rating of Replying Add-on');
    expect(mail).toContain('Fixed in 2.0');
    const link = unsubscribeLink(mail);
    expect(link.notification).toBe('reply');
    expect((await t.http.post('/api/v5/accounts/unsubscribe/').send(link)).body).toEqual({
      name: 'reply',
      enabled: false,
      mandatory: false,
    });
    expect((await notifications(raterCaller)).reply).toBe(false);
    // Editing the reply queues nothing more.
    await call(t, 'post', `/api/v5/ratings/rating/${rated.body.id}/reply/`, author, { body: 'Fixed in 2.1' });
    expect(await queued(replied.body.id)).toBe(1);
  });

  it("authors' mails about their versions say they are mandatory, without a link", () => {
    const decision = mails.reviewApproved.render({
      addonName: 'A',
      version: '1.0',
      comments: 'ok',
      versionUrl: 'http://addons.test/v',
      serviceName: 'Test',
    });
    expect(decision.text).toContain('Authors always get these mails: they cannot be turned off.');
    expect(decision.text).not.toContain('unsubscribe');
  });
});

describe('PUT applications/<app>/<version>/', () => {
  let releaser: KeyCaller;
  let plain: KeyCaller;

  beforeAll(async () => {
    releaser = await keyCaller(t, { permission: ['AppVersions:Create'] });
    plain = await keyCaller(t);
  });

  const put = (path: string, auth: string | null) => {
    const req = t.http.put(`/api/v5/applications/${path}`);
    return auth ? req.set('Authorization', auth) : req;
  };
  const listed = async (app: string) => {
    const res = await t.http.get(`/api/v5/applications/${app}/`);
    expect(res.status).toBe(200);
    return res.body as { guid: string; versions: string[] };
  };

  it('creates the version and its X.* for both browsers: 201, then 202 once they exist', async () => {
    const first = await put('firefox/128.0/', releaser.jwt());
    expect(first.status).toBe(201);
    expect(first.text).toBe('');
    for (const app of ['firefox', 'android']) expect((await listed(app)).versions).toEqual(['128.0', '128.*']);
    const again = await put('firefox/128.0/', releaser.jwt());
    expect(again.status).toBe(202);
    expect(again.text).toBe('');
  });

  it('adds the release version of a pre-release, and a new major from Android', async () => {
    expect((await put('firefox/129.0a1/', releaser.jwt())).status).toBe(201);
    expect((await listed('firefox')).versions).toEqual(['128.0', '128.*', '129.0a1', '129.0', '129.*']);
    expect((await put('android/129.0.1/', releaser.jwt())).status).toBe(201);
    const firefox = await listed('firefox');
    expect(firefox.guid).toBe('{ec8030f7-c20a-464f-9b0e-13a3a9e97384}');
    expect(firefox.versions).toEqual(['128.0', '128.*', '129.0a1', '129.0', '129.0.1', '129.*']);
    expect((await listed('android')).guid).toBe('{aa3c5121-dab2-40e2-81ca-7ea25febc110}');
    // Every part existed already.
    expect((await put('android/129.0/', releaser.jwt())).status).toBe(202);
  });

  it('needs an API key with AppVersions:Create', async () => {
    const anonymous = await put('firefox/130.0/', null);
    expect(anonymous.status).toBe(401);
    const denied = await put('firefox/130.0/', plain.jwt());
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    // The original takes API keys only: a session of the same permitted account is anonymous here.
    const user = await t.createUser({ session: true, permission: ['AppVersions:Create'] });
    const session = await put('firefox/130.0/', `Bearer ${user.sessionToken}`);
    expect(session.status).toBe(401);
    expect((await listed('firefox')).versions).not.toContain('130.0');
  });

  it('refuses an unknown application and a version that is not one with 400', async () => {
    for (const path of ['thunderbird/130.0/', 'chrome/130.0/', 'seamonkey/2.0/']) {
      const res = await put(path, releaser.jwt());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'Invalid application parameter' });
    }
    for (const version of ['abc', '130.*', '*', '1.2.3.4.5', `1${'0'.repeat(40)}`, '130.0-beta', '%20']) {
      const res = await put(`firefox/${encodeURIComponent(version)}/`, releaser.jwt());
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'Invalid version parameter' });
    }
    const list = await t.http.get('/api/v5/applications/thunderbird/');
    expect(list.status).toBe(400);
  });

  it('is the GraphQL mutation registerAppVersion', async () => {
    const res = await t.http.post('/graphql').set('Authorization', releaser.jwt()).send({
      query: 'mutation { registerAppVersion(application: BROWSER, version: "131.0b2") { created versions } }',
    });
    expect(res.body.data.registerAppVersion).toEqual({
      created: true,
      versions: ['1:131.0b2', '1:131.0', '1:131.*', '61:131.0b2', '61:131.0', '61:131.*'],
    });
  });
});

describe('GET scanner/results/', () => {
  let admin: KeyCaller;
  let reviewer: Caller;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    admin = await keyCaller(t, { permission: ['Admin:ScannersResultsView'] });
    reviewer = await caller(t, { permission: ['Addons:Review'] });
    const em = t.em();
    const blocked = await createAddon(em, {
      guid: '@scanned-blocked',
      versions: [{ version: '1.0' }, { version: '2.0' }],
    });
    const approved = await createAddon(em, {
      guid: '@scanned-approved',
      versions: [{ version: '1.0' }, { version: '2.0' }],
    });
    const [b1, b2] = await em.find(Version, { addon: blocked.id }, { orderBy: { id: 'asc' } });
    const [a1, a2] = await em.find(Version, { addon: approved.id }, { orderBy: { id: 'asc' } });
    em.create(Block, { guid: '@Scanned-Blocked', minVersion: '2.0', maxVersion: '*' });
    // A person approved a1 (and b2, which the block still makes bad); the service approved a2.
    em.create(ReviewNote, { addon: approved.id, version: a1, user: reviewer.id, action: ReviewAction.APPROVED });
    em.create(ReviewNote, { addon: blocked.id, version: b2, user: reviewer.id, action: ReviewAction.APPROVED });
    em.create(ReviewNote, { addon: approved.id, version: a2, user: null, action: ReviewAction.APPROVED });
    const match = { rule: 'suspicious_eval', file: 'background.js', action: ScannerAction.FLAG_FOR_HUMAN_REVIEW };
    const result = (version: Version, scanner: 'yara' | 'secrets' | 'lookalike') =>
      em.create(ScannerResult, {
        version,
        scanner,
        matches: [match],
        action: ScannerAction.FLAG_FOR_HUMAN_REVIEW,
        created: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
      });
    const results = {
      goodYara: result(a1, 'yara'),
      goodSecrets: result(a1, 'secrets'),
      unjudged: result(a2, 'yara'),
      unblocked: result(b1, 'yara'),
      badYara: result(b2, 'yara'),
      badLookalike: result(b2, 'lookalike'),
    };
    await em.flush();
    for (const [name, row] of Object.entries(results)) ids[name] = row.id;
  });

  const get = (query: string, auth: string | null = admin.jwt()) => {
    const req = t.http.get(`/api/v5/scanner/results/${query}`);
    return auth ? req.set('Authorization', auth) : req;
  };

  it('lists the results of judged versions, newest first, labelled', async () => {
    const res = await get('');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 4, next: null, previous: null, page_count: 1 });
    expect(res.body.results.map((r: { id: number }) => r.id)).toEqual([
      ids.badLookalike,
      ids.badYara,
      ids.goodSecrets,
      ids.goodYara,
    ]);
    expect(res.body.results[1]).toEqual({
      id: ids.badYara,
      scanner: 'yara',
      label: 'bad',
      results: {
        matches: [
          {
            rule: 'suspicious_eval',
            file: 'background.js',
            line: null,
            addon_id: null,
            name: null,
            action: 'flag_for_human_review',
          },
        ],
        action: 'flag_for_human_review',
      },
      created: '2026-01-02T03:04:05Z',
      model_version: null,
    });
    expect(res.body.results[3].label).toBe('good');
  });

  it('filters by label and by scanner, and pages', async () => {
    const good = await get('?label=good');
    expect(good.body.results.map((r: { id: number }) => r.id)).toEqual([ids.goodSecrets, ids.goodYara]);
    const bad = await get('?label=bad&scanner=lookalike');
    expect(bad.body.results.map((r: { id: number }) => r.id)).toEqual([ids.badLookalike]);
    const yara = await get('?scanner=yara');
    expect(yara.body.results.map((r: { label: string }) => r.label)).toEqual(['bad', 'good']);
    const page = await get('?page_size=1&page=2');
    expect(page.body.count).toBe(4);
    expect(page.body.results.map((r: { id: number }) => r.id)).toEqual([ids.badYara]);
    expect(page.body.next).toBe('http://addons.test/api/v5/scanner/results/?page=3&page_size=1');
    expect((await get('?page=9')).status).toBe(404);
  });

  it('refuses an unknown label or scanner with 400', async () => {
    const label = await get('?label=ugly');
    expect(label.status).toBe(400);
    expect(label.body).toEqual({ detail: 'invalid value for label' });
    const scanner = await get('?scanner=customs');
    expect(scanner.status).toBe(400);
    expect(scanner.body).toEqual({ detail: 'invalid value for scanner' });
  });

  it('needs Admin:ScannersResultsView (a session or an API key)', async () => {
    expect((await get('', null)).status).toBe(401);
    expect((await get('', `Bearer ${reviewer.token}`)).status).toBe(403);
    const session = await caller(t, { permission: ['Admin:ScannersResultsView'] });
    expect((await get('', `Bearer ${session.token}`)).status).toBe(200);
  });
});

describe('services/', () => {
  it('client_info is off by default (it echoes addresses): 403', async () => {
    const res = await t.http.get('/api/v5/services/client_info/');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'You do not have permission to perform this action.' });
  });

  it('403, 404 and 500 answer those errors, the 500 without a traceback', async () => {
    const forbidden = await t.http.get('/api/v5/services/403/');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    const missing = await t.http.get('/api/v5/services/404/');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Not found.' });
    const failed = await t.http.get('/api/v5/services/500/');
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ detail: 'Internal Server Error' });
    const graphql = await t.http.post('/graphql').send({ query: '{ failWith(error: INTERNAL) }' });
    expect(graphql.body.errors[0].extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR' });
    expect(JSON.stringify(graphql.body)).not.toMatch(/stack|at \w+ \(/);
  });
});

describe('services/client_info/ enabled', () => {
  let enabled: TestApp;

  beforeAll(async () => {
    enabled = await startTestApp({
      env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test', TRUST_PROXY: '1', CLIENT_INFO_ENABLED: 'true' },
    });
  }, 120_000);
  afterAll(() => enabled?.close());

  it('echoes what the service sees behind a proxy, and the query', async () => {
    const res = await enabled.http
      .get('/api/v5/services/client_info/?a=1&b=two&a=3')
      .set('User-Agent', 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')
      .set('X-Forwarded-For', '203.0.113.9')
      .set('X-Country-Code', 'FR');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      HTTP_USER_AGENT: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
      HTTP_X_COUNTRY_CODE: 'FR',
      HTTP_X_FORWARDED_FOR: '203.0.113.9',
      REMOTE_ADDR: '203.0.113.9',
      POST: {},
      GET: { a: '3', b: 'two' },
    });
    const bare = await enabled.http.get('/api/v5/services/client_info/').set('User-Agent', '');
    expect(bare.body).toMatchObject({ HTTP_X_COUNTRY_CODE: null, HTTP_X_FORWARDED_FOR: null, GET: {} });
  });
});
