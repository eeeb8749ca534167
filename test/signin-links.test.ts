import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Viewer } from '../src/auth/viewer.js';
import { commands } from '../src/cli/commands.js';
import { createRequestContext } from '../src/core/context.js';
import { Keyring } from '../src/core/secrets.js';
import { startTestApp, TEST_SECRET_KEY, type TestApp } from './helpers/app.js';
import { waitFor } from './helpers/signing.js';

/** One-time sign-in links by mail (src/signin/signin-links.service.ts) and the sign-in pages. */

const SITE = 'http://addons.test';
const COOKIE = 'frontend_auth_token';

let t: TestApp;
/** Each test its own client address (X-Forwarded-For): the per-address limit is 10 an hour. */
let ipCounter = 0;
let ip = '';
let addressCounter = 0;
const address = (name = 'person') => `${name}-${++addressCounter}-${process.pid}@example.com`;

beforeAll(async () => {
  t = await startTestApp({ env: { SITE_URL: SITE, TRUST_PROXY: '1', SIGNIN_LINK_MINUTES: '15' } });
}, 120_000);
afterAll(() => t?.close());
beforeEach(() => {
  ip = `203.0.113.${++ipCounter}`;
});

const outbox = () => join(t.app.services.config.dataDir, 'mail', 'outbox');

/** The mails sent to `to`, oldest first. */
function mailsTo(to: string): string[] {
  if (!existsSync(outbox())) return [];
  return readdirSync(outbox())
    .sort()
    .map((file) => readFileSync(join(outbox(), file), 'utf8'))
    .filter((mail) => mail.includes(`\r\nTo: ${to}\r\n`));
}

/** The token of the `n`th link mailed to `to` (1: the first), waiting for the mail job. */
async function mailedToken(to: string, n = 1): Promise<string> {
  const mail = await waitFor(`link mail ${n} to ${to}`, async () => mailsTo(to)[n - 1]);
  const match = /http:\/\/addons\.test\/signin\/link\/([A-Za-z0-9._-]+)/.exec(mail);
  if (!match) throw new Error(`no link in ${mail}`);
  return match[1];
}

function askForLink(email: string, to?: string, origin: string | null = SITE) {
  let req = t.http.post('/signin/link').set('X-Forwarded-For', ip).type('form');
  if (origin !== null) req = req.set('Origin', origin);
  return req.send({ email, ...(to === undefined ? {} : { to }) });
}

function useLink(token: string, origin: string | null = SITE) {
  let req = t.http.post(`/signin/link/${token}`).set('X-Forwarded-For', ip);
  if (origin !== null) req = req.set('Origin', origin);
  return req.send();
}

function gql(query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) {
  return t.http.post('/graphql').set('X-Forwarded-For', ip).set(headers).send({ query, variables });
}

const REQUEST = `mutation($email: String!, $to: String) { requestSignInLink(email: $email, to: $to) }`;
const USE = `mutation($token: String!) {
  useSignInLink(token: $token) { token returnTo error newAccount expiresIn }
}`;

/** The session cookie a response sets, or null. */
function sessionCookie(res: { headers: Record<string, unknown> }): string | null {
  const cookies = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  const cookie = cookies.find((c) => c.startsWith(`${COOKIE}=`));
  return cookie ? cookie.slice(COOKIE.length + 1, cookie.indexOf(';')) : null;
}

function profile(cookie: string) {
  return t.http.get('/api/v5/accounts/profile/').set('Cookie', `${COOKIE}=${cookie}`);
}

describe('a link by mail', () => {
  it('is mailed, shown behind a button, signs in once and sets a working session cookie', async () => {
    const email = address();
    const asked = await askForLink(email, '/en-US/developers/');
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Check your mail');
    const token = await mailedToken(email);

    const [mail] = mailsTo(email);
    expect(mail).toContain('Subject: Sign in to Vendor Add-ons');
    expect(mail).toContain(`${SITE}/signin/link/${token}`);
    expect(mail).toContain('for 15 minutes');
    expect(mail).toMatch(/If you did not ask to sign in, ignore this mail/);
    expect(mail).toContain('You get this mail because someone asked for a sign-in link');

    // A GET (a mail scanner, a preview) shows the button and never signs in.
    for (let i = 0; i < 3; i++) {
      const page = await t.http.get(`/signin/link/${token}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<form method="post"><button type="submit">Sign in</button></form>');
      expect(sessionCookie(page)).toBeNull();
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['content-security-policy']).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
      );
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
    }

    const used = await useLink(token);
    expect(used.status).toBe(302);
    expect(used.headers.location).toBe('/en-US/developers/');
    const cookie = sessionCookie(used);
    expect(cookie).toBeTruthy();
    expect(String(used.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Lax/);

    const me = await profile(cookie!);
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);

    // A second use: refused, back to the choice page with the error (and where it was to return).
    const again = await useLink(token);
    expect(again.status).toBe(302);
    expect(sessionCookie(again)).toBeNull();
    expect(again.headers.location).toBe(
      `/signin/?to=${encodeURIComponent('/en-US/developers/')}&error=ERROR_LINK_INVALID`,
    );
    const choice = await t.http.get(again.headers.location);
    expect(choice.status).toBe(200);
    expect(choice.text).toContain('it was used already, or it expired');
    // The GET page says so too, without a button.
    const stale = await t.http.get(`/signin/link/${token}`);
    expect(stale.status).toBe(410);
    expect(stale.text).not.toContain('<button');
  });

  it('signs in an unknown address as a new account; a known one as its account', async () => {
    const fresh = address('new');
    expect((await gql(REQUEST, { email: fresh })).body).toEqual({ data: { requestSignInLink: true } });
    const created = await gql(USE, { token: await mailedToken(fresh) });
    expect(created.body.data.useSignInLink).toMatchObject({ error: null, newAccount: true, returnTo: '/' });
    expect(created.body.data.useSignInLink.expiresIn).toBeGreaterThan(0);
    const me = await t.http
      .get('/api/v5/accounts/profile/')
      .set('Authorization', `Session ${created.body.data.useSignInLink.token}`);
    expect(me.body.email).toBe(fresh);

    const known = await t.createUser({ email: address('known') });
    // Addresses are matched case-insensitively, as accounts store them.
    await gql(REQUEST, { email: `  ${known.email.toUpperCase()} ` });
    const signedIn = await gql(USE, { token: await mailedToken(known.email) });
    expect(signedIn.body.data.useSignInLink).toMatchObject({ error: null, newAccount: false });
    const session = await t.http
      .get('/api/v5/accounts/profile/')
      .set('Authorization', `Session ${signedIn.body.data.useSignInLink.token}`);
    expect(session.body.id).toBe(known.id);
    // The session says how it began.
    const sessions = await gql(
      `{ mySessions { origin secondFactor current } }`,
      {},
      {
        Authorization: `Session ${signedIn.body.data.useSignInLink.token}`,
      },
    );
    expect(sessions.body.data.mySessions).toEqual([{ origin: 'email-link', secondFactor: false, current: true }]);
  });

  it('answers the same for known, unknown and deleted addresses', async () => {
    const known = await t.createUser({ email: address('k') });
    const deleted = await t.createUser({ email: address('d') });
    await t.em().getConnection().execute(`update users set deleted = true where id = ?`, [deleted.id]);
    const answers = [];
    for (const email of [known.email, address('u'), deleted.email]) {
      const page = await askForLink(email);
      const api = await gql(REQUEST, { email });
      answers.push([page.status, page.text.replace(email, '<address>'), api.status, api.body]);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('of a deleted account: the address is free again, the link creates a new, empty account', async () => {
    const old = await t.createUser({ email: address('deleted'), session: true });
    const deleted = await gql(
      `mutation($u: String!) { deleteUser(user: $u) }`,
      { u: String(old.id) },
      {
        Authorization: `Session ${old.sessionToken}`,
      },
    );
    expect(deleted.body.errors).toBeUndefined();
    expect((await gql(REQUEST, { email: old.email })).body.data.requestSignInLink).toBe(true);
    const used = await gql(USE, { token: await mailedToken(old.email) });
    expect(used.body.data.useSignInLink).toMatchObject({ error: null, newAccount: true });
    const me = await t.http
      .get('/api/v5/accounts/profile/')
      .set('Authorization', `Session ${used.body.data.useSignInLink.token}`);
    expect(me.body.email).toBe(old.email);
    expect(me.body.id).not.toBe(old.id);
  });

  it('of an account marked deleted (kept, as the legacy rule keeps it): refused, and the link used up', async () => {
    const kept = await t.createUser({ email: address('kept') });
    await t.em().getConnection().execute(`update users set deleted = true where id = ?`, [kept.id]);
    const issue = () =>
      t.app.services.signinLinks.issue(t.em(), kept.email, '/en-US/firefox/').then((l) => l.url.split('/').pop()!);

    const viaApi = await gql(USE, { token: await issue() });
    expect(viaApi.body.data.useSignInLink).toEqual({
      token: null,
      returnTo: '/en-US/firefox/?error=ERROR_ACCOUNT_DELETED',
      error: 'ERROR_ACCOUNT_DELETED',
      newAccount: false,
      expiresIn: 0,
    });
    const token = await issue();
    const viaPage = await useLink(token);
    expect(viaPage.headers.location).toBe(`/signin/?to=%2Fen-US%2Ffirefox%2F&error=ERROR_ACCOUNT_DELETED`);
    expect(sessionCookie(viaPage)).toBeNull();
    // The refusal committed the use (and nothing else): the link is spent.
    expect((await useLink(token)).headers.location).toBe(`/signin/?to=%2Fen-US%2Ffirefox%2F&error=ERROR_LINK_INVALID`);
    const [{ count }] = await t
      .em()
      .getConnection()
      .execute<{ count: number | string }[]>(`select count(*) from sessions where user_id = ?`, [kept.id]);
    expect(Number(count)).toBe(0);
  });

  it('expires', async () => {
    const email = address();
    await askForLink(email);
    const token = await mailedToken(email);
    await t
      .em()
      .getConnection()
      .execute(`update signin_links set expires_at = now() - interval '1 second' where email = ?`, [email]);
    const used = await useLink(token);
    expect(used.status).toBe(302);
    expect(used.headers.location).toBe('/signin/?error=ERROR_LINK_INVALID');
    expect(sessionCookie(used)).toBeNull();
    expect((await gql(USE, { token })).body.data.useSignInLink).toEqual({
      token: null,
      returnTo: '/?error=ERROR_LINK_INVALID',
      error: 'ERROR_LINK_INVALID',
      newAccount: false,
      expiresIn: 0,
    });
    expect((await t.http.get(`/signin/link/${token}`)).status).toBe(410);
    // The mail job of an expired link sends nothing (a retry after the link's minutes).
    const [row] = await t
      .em()
      .getConnection()
      .execute<{ id: string }[]>(`select id from signin_links where email = ?`, [email]);
    const before = readdirSync(outbox()).length;
    await t.app.services.signinLinks.mailLink(row.id);
    expect(readdirSync(outbox()).length).toBe(before);
  });

  it('refuses tampered and foreign tokens, and never errs on garbage', async () => {
    const email = address();
    await askForLink(email);
    const token = await mailedToken(email);
    const [id, signature] = token.split('.');
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    const otherId = `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;
    const bad = [
      `${id}.${flipped}`,
      `${otherId}.${signature}`,
      id,
      `${id}.`,
      `.${signature}`,
      'not-a-token',
      `${id}.${signature}.x`,
      `${'x'.repeat(36)}.${signature}`,
      'a'.repeat(5000),
    ];
    for (const forged of bad) {
      const answer = await gql(USE, { token: forged });
      expect(answer.body.data.useSignInLink).toMatchObject({ token: null, error: 'ERROR_LINK_INVALID' });
      const page = await useLink(encodeURIComponent(forged));
      expect([302, 404, 414]).toContain(page.status);
      expect(sessionCookie(page)).toBeNull();
    }
    // The real one still works.
    expect(sessionCookie(await useLink(token))).toBeTruthy();
  });

  it('is used by one of two simultaneous uses only', async () => {
    const email = address();
    await askForLink(email);
    const token = await mailedToken(email);
    const answers = await Promise.all([useLink(token), useLink(token), gql(USE, { token }), gql(USE, { token })]);
    const signedIn = [
      ...answers.slice(0, 2).map((res) => sessionCookie(res)),
      ...answers.slice(2).map((res) => res.body.data.useSignInLink.token as string | null),
    ].filter(Boolean);
    expect(signedIn).toHaveLength(1);
  });

  it('returns only to this site or a trusted origin', async () => {
    const email = address();
    await askForLink(email, 'https://evil.test/steal');
    expect((await useLink(await mailedToken(email))).headers.location).toBe('/');
    await askForLink(email, `${SITE}/en-US/firefox/`);
    expect((await useLink(await mailedToken(email, 2))).headers.location).toBe(`${SITE}/en-US/firefox/`);
  });

  it('takes its origin from the configuration, never from the request', async () => {
    const email = address();
    const ctx = createRequestContext({
      em: t.em(),
      viewer: Viewer.anonymous,
      locale: 'en-US',
      request: { baseUrl: 'http://evil.test', ip: '198.51.100.1' },
    });
    await t.app.services.signinLinks.request(ctx, email, null);
    await mailedToken(email);
    expect(mailsTo(email)[0]).not.toContain('evil.test');
  });
});

describe('limits', () => {
  it('mails at most 3 links an hour to an address (THROTTLED, a 429 page)', async () => {
    const email = address();
    for (let i = 0; i < 3; i++) {
      ip = `198.18.0.${i + 1}`;
      expect((await askForLink(email)).status).toBe(200);
    }
    ip = '198.18.0.9';
    const page = await askForLink(email);
    expect(page.status).toBe(429);
    expect(Number(page.headers['retry-after'])).toBeGreaterThan(3000);
    expect(page.text).toContain('Too many sign-in links');
    const answer = await gql(REQUEST, { email: email.toUpperCase() });
    expect(answer.body.errors[0].extensions).toMatchObject({ code: 'THROTTLED' });
    await mailedToken(email, 3);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailsTo(email)).toHaveLength(3);
  });

  it('takes at most 10 requests an hour from a client address', async () => {
    for (let i = 0; i < 10; i++) expect((await askForLink(address('ip'))).status).toBe(200);
    expect((await askForLink(address('ip'))).status).toBe(429);
    expect((await gql(REQUEST, { email: address('ip') })).body.errors[0].extensions.code).toBe('THROTTLED');
    // Another client is not held up.
    ip = '203.0.113.250';
    expect((await askForLink(address('ip'))).status).toBe(200);
  });

  it('refuses malformed addresses as a field error (not counted), a polite page in HTML', async () => {
    for (const email of ['', 'no-at-sign', 'a@b', `${'x'.repeat(250)}@example.com`]) {
      const answer = await gql(REQUEST, { email });
      expect(answer.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(Object.keys(answer.body.errors[0].extensions.fields)).toEqual(['email']);
    }
    const page = await askForLink('no-at-sign');
    expect(page.status).toBe(400);
    expect(page.text).toContain('Enter a valid email address.');
    expect(page.text).toContain('value="no-at-sign"');
  });
});

describe('the pages', () => {
  it('the choice page: the link form, the return path kept, errors in words, markup escaped', async () => {
    const page = await t.http.get('/signin/').query({ to: '/en-US/"><script>alert(1)</script>', error: '<b>' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<form method="post" action="/signin/link">');
    expect(page.text).not.toContain('<script>');
    expect(page.text).not.toContain('<b>');
    expect(page.text).toContain('value="/en-US/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    const refused = await t.http.get('/signin/?error=ERROR_ACCOUNT_DELETED');
    expect(refused.text).toContain('This account was deleted');
  });

  it('refuses POSTs from other sites (403) and leaves the link usable', async () => {
    const email = address();
    for (const origin of ['https://evil.test', 'null', 'http://addons.test.evil.test']) {
      const asked = await askForLink(email, undefined, origin);
      expect(asked.status).toBe(403);
    }
    const crossSite = await t.http
      .post('/signin/link')
      .set('Sec-Fetch-Site', 'cross-site')
      .type('form')
      .send({ email });
    expect(crossSite.status).toBe(403);
    expect(mailsTo(email)).toHaveLength(0);

    await askForLink(email);
    const token = await mailedToken(email);
    for (const origin of ['https://evil.test', 'null']) {
      const used = await useLink(token, origin);
      expect(used.status).toBe(403);
      expect(sessionCookie(used)).toBeNull();
    }
    expect(sessionCookie(await t.http.post(`/signin/link/${token}`).set('Sec-Fetch-Site', 'same-site'))).toBeNull();
    expect(sessionCookie(await useLink(token))).toBeTruthy();
  });
});

describe('users:signin-link', () => {
  it('prints a link for the first administrator (no mail), which signs in once', async () => {
    const admin = await t.createUser({ email: address('admin'), group: ['Admins'] });
    const before = mailsTo(admin.email).length;
    const printed = (await commands['users:signin-link'].run(t.app.services, t.em(), {
      email: admin.email,
      to: '/en-US/reviewers/',
    })) as { email: string; url: string; expiresAt: string };
    expect(printed.email).toBe(admin.email);
    expect(printed.url).toMatch(/^http:\/\/addons\.test\/signin\/link\/[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    expect(new Date(printed.expiresAt).getTime()).toBeGreaterThan(Date.now());
    const token = printed.url.split('/').pop()!;
    const used = await useLink(token);
    expect(used.headers.location).toBe('/en-US/reviewers/');
    const me = await profile(sessionCookie(used)!);
    expect(me.body.id).toBe(admin.id);
    expect(me.body.permissions).toContain('*:*');
    expect(sessionCookie(await useLink(token))).toBeNull();
    expect(mailsTo(admin.email).length).toBe(before);
  });
});

describe('with SIGNIN_EMAIL_LINKS=false', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp({
      env: {
        SITE_URL: SITE,
        SIGNIN_EMAIL_LINKS: 'false',
        // Listed on the choice page only: nothing here fetches the provider.
        SIGNIN_PROVIDERS: 'corp,other',
        OIDC_CORP_ISSUER: 'https://idp.corp.test',
        OIDC_CORP_CLIENT_ID: 'addons',
        OIDC_CORP_DISPLAY_NAME: 'Corp <SSO>',
        OIDC_OTHER_ISSUER: 'https://idp.other.test',
        OIDC_OTHER_CLIENT_ID: 'addons',
      },
    });
  }, 120_000);
  afterAll(() => off?.close());

  it('the choice page lists the providers, and no link form', async () => {
    const choice = await off.http.get('/signin/').query({ to: '/en-US/developers/' });
    expect(choice.status).toBe(200);
    expect(choice.text).not.toContain('<form');
    expect(choice.text).toContain(
      '<li><a href="/api/v5/accounts/login/start/?provider=corp&amp;to=%2Fen-US%2Fdevelopers%2F">' +
        'Sign in with Corp &lt;SSO&gt;</a></li>',
    );
    expect(choice.text).toContain('?provider=other&amp;to=%2Fen-US%2Fdevelopers%2F">Sign in with other</a>');
  });

  it('refuses to send or use links', async () => {
    const answer = await off.http.post('/graphql').send({ query: REQUEST, variables: { email: 'a@example.com' } });
    expect(answer.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(answer.body.errors[0].message).toMatch(/turned off.*SIGNIN_EMAIL_LINKS/);
    const page = await off.http.post('/signin/link').set('Origin', SITE).type('form').send({ email: 'a@example.com' });
    expect(page.status).toBe(403);
    expect(page.text).toContain('turned off');
    await expect(
      commands['users:signin-link'].run(off.app.services, off.em(), { email: 'a@example.com' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // A link made while they were on signs no one in once they are off.
    const id = randomUUID();
    await off
      .em()
      .getConnection()
      .execute(
        `insert into signin_links (id, email, return_to, expires_at) values (?, 'a@example.com', '/', now() + interval '5 minutes')`,
        [id],
      );
    const token = `${id}.${new Keyring(TEST_SECRET_KEY).signer('signin-links').sign(id)}`;
    const used = await off.http.post('/graphql').send({ query: USE, variables: { token } });
    expect(used.body.data.useSignInLink.error).toBe('ERROR_LINK_INVALID');
    expect((await off.http.get(`/signin/link/${token}`)).status).toBe(403);
    expect(sessionCookie(await off.http.post(`/signin/link/${token}`).set('Origin', SITE))).toBeNull();
  });
});
