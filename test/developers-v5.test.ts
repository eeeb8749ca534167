import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEVELOPER_AGREEMENT_FALLBACK, DeveloperAgreementService } from '../src/accounts/developer-agreement.js';
import { User } from '../src/accounts/user.entity.js';
import { SupportTicket } from '../src/developers/support-ticket.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';

/**
 * The original's internal developer endpoints (issue 37, v5 `developers/`): the developer agreement
 * (GET the caller's standing, POST accept it with the agreement's date and, for an account without
 * one, a display name) and support tickets (kept, mailed to SUPPORT_EMAIL, throttled), for signed-in
 * callers with a session or an API key; GraphQL `developerAgreement`, `acceptDeveloperAgreement`
 * and `submitSupportTicket` are the same rules.
 */

const CHANGED = '2025-08-04T00:00:00Z';
const AGREEMENT = '/api/v5/developers/agreement';
const SUPPORT = '/api/v5/developers/support';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    env: {
      SITE_URL: 'http://addons.test',
      TRUST_PROXY: '1',
      SUPPORT_EMAIL: 'help@addons.test',
      SUPPORT_TICKETS_PER_DAY: '3',
      DEVELOPER_AGREEMENT_CHANGED: CHANGED,
    },
  });
}, 120_000);
afterAll(() => t?.close());

let addresses = 0;
const nextAddress = () => `10.9.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

/** A signed-in user with a session (no API key: the agreement is not accepted yet). */
async function sessionUser(args: Parameters<TestApp['createUser']>[0] = {}) {
  const user = await t.createUser({ session: true, ...args });
  return { id: user.id, email: user.email, auth: `Bearer ${user.sessionToken}` };
}

function get(path: string, auth: string | null) {
  const req = t.http.get(path).set('X-Forwarded-For', nextAddress());
  return auth ? req.set('Authorization', auth) : req;
}

function post(path: string, auth: string | null, body: object, ip = nextAddress()) {
  const req = t.http.post(path).set('X-Forwarded-For', ip);
  return (auth ? req.set('Authorization', auth) : req).send(body);
}

function gql(auth: string, query: string, variables: Record<string, unknown> = {}) {
  return t.http
    .post('/graphql')
    .set('X-Forwarded-For', nextAddress())
    .set('Authorization', auth)
    .send({ query, variables });
}

const clearThrottles = () => t.em().getConnection().execute('delete from abuse_throttles');

async function readAgreement(userId: number): Promise<Date | null> {
  const user = await t.em().findOneOrFail(User, userId);
  return user.readDevAgreement;
}

describe('the developer agreement', () => {
  it('refuses anonymous callers on both methods and paths', async () => {
    for (const path of [AGREEMENT, `${AGREEMENT}/`]) {
      const read = await get(path, null);
      expect(read.status).toBe(401);
      expect(read.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect((await post(path, null, { last_developer_agreement_change: CHANGED })).status).toBe(401);
    }
  });

  it("answers the caller's standing, with or without the trailing slash", async () => {
    const user = await sessionUser();
    for (const path of [AGREEMENT, `${AGREEMENT}/`]) {
      const res = await get(path, user.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        display_name: null,
        has_read_developer_agreement: false,
        last_developer_agreement_change: CHANGED,
      });
    }
  });

  it("checks the agreement's date: required, a date-time, the one in force", async () => {
    const user = await sessionUser();
    const missing = await post(AGREEMENT, user.auth, { display_name: 'Dev Person' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ last_developer_agreement_change: ['This field is required.'] });

    const wrong = await post(AGREEMENT, user.auth, {
      display_name: 'Dev Person',
      last_developer_agreement_change: '2025-08-05T00:00:00Z',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ last_developer_agreement_change: ['Invalid last_developer_agreement_change.'] });

    for (const bad of ['yesterday', '2025-13-04T00:00:00Z', 'x'.repeat(100_000), 20250804]) {
      const res = await post(AGREEMENT, user.auth, {
        display_name: 'Dev Person',
        last_developer_agreement_change: bad,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        last_developer_agreement_change: [
          'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
        ],
      });
    }
    expect(await readAgreement(user.id)).toBeNull();
  });

  it('requires a display name of an account without one, checked as profile edits check it', async () => {
    const user = await sessionUser();
    const none = await post(AGREEMENT, user.auth, { last_developer_agreement_change: CHANGED });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ display_name: ['display_name is required.'] });

    const short = await post(AGREEMENT, user.auth, { display_name: 'x', last_developer_agreement_change: CHANGED });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ display_name: ['Ensure this field has at least 2 characters.'] });

    const long = await post(AGREEMENT, user.auth, {
      display_name: 'a-'.repeat(30_000),
      last_developer_agreement_change: CHANGED,
    });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ display_name: ['Ensure this field has no more than 50 characters.'] });

    // Every field's problem at once.
    const both = await post(AGREEMENT, user.auth, { display_name: ' ', last_developer_agreement_change: 'soon' });
    expect(both.status).toBe(400);
    expect(Object.keys(both.body).sort()).toEqual(['display_name', 'last_developer_agreement_change']);
    expect(await readAgreement(user.id)).toBeNull();
  });

  it('accepts the agreement with a display name, then refuses another name', async () => {
    const user = await sessionUser();
    const before = Date.now();
    const res = await post(AGREEMENT, user.auth, {
      display_name: '  Dev Person ',
      last_developer_agreement_change: '2025-08-04T00:00:00',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ display_name: 'Dev Person', last_developer_agreement_change: CHANGED });
    const accepted = await readAgreement(user.id);
    expect(accepted!.getTime()).toBeGreaterThanOrEqual(before - 1000);

    const standing = await get(`${AGREEMENT}/`, user.auth);
    expect(standing.body).toEqual({
      display_name: 'Dev Person',
      has_read_developer_agreement: true,
      last_developer_agreement_change: CHANGED,
    });
    // The profile shows the name and the accepted agreement too.
    const profile = await get('/api/v5/accounts/profile/', user.auth);
    expect(profile.body).toMatchObject({ display_name: 'Dev Person', read_dev_agreement: true });

    const rename = await post(AGREEMENT, user.auth, {
      display_name: 'Someone Else',
      last_developer_agreement_change: CHANGED,
    });
    expect(rename.status).toBe(400);
    expect(rename.body).toEqual({ display_name: ['User already has display_name.'] });

    // Without a name it is accepted again (nothing changes: it was accepted after the change).
    const again = await post(`${AGREEMENT}/`, user.auth, { last_developer_agreement_change: CHANGED });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ display_name: 'Dev Person', last_developer_agreement_change: CHANGED });
    expect((await readAgreement(user.id))!.getTime()).toBe(accepted!.getTime());
  });

  it('asks API key holders who accepted an older agreement to accept the new one', async () => {
    const dev: KeyCaller = await keyCaller(t, { name: 'Key Holder' });
    const em = t.em();
    const user = await em.findOneOrFail(User, dev.id);
    user.readDevAgreement = new Date('2024-01-01T00:00:00Z');
    await em.flush();

    const standing = await get(AGREEMENT, dev.jwt());
    expect(standing.status).toBe(200);
    expect(standing.body).toEqual({
      display_name: 'Key Holder',
      has_read_developer_agreement: false,
      last_developer_agreement_change: CHANGED,
    });
    const res = await post(AGREEMENT, dev.jwt(), { last_developer_agreement_change: CHANGED });
    expect(res.status).toBe(200);
    expect((await readAgreement(dev.id))!.getTime()).toBeGreaterThan(new Date(CHANGED).getTime());
    expect((await get(AGREEMENT, dev.session)).body.has_read_developer_agreement).toBe(true);
  });

  it('GraphQL: developerAgreement, and acceptDeveloperAgreement with or without input', async () => {
    const user = await sessionUser({ name: 'Graph Dev' });
    const query = '{ developerAgreement { displayName hasReadDeveloperAgreement lastDeveloperAgreementChange } }';
    const standing = await gql(user.auth, query);
    expect(standing.body).toEqual({
      data: {
        developerAgreement: {
          displayName: 'Graph Dev',
          hasReadDeveloperAgreement: false,
          lastDeveloperAgreementChange: '2025-08-04T00:00:00.000Z',
        },
      },
    });
    const accept = 'mutation ($input: DeveloperAgreementInput) { acceptDeveloperAgreement(input: $input) { id } }';
    const refused = await gql(user.auth, accept, { input: { lastDeveloperAgreementChange: '2020-01-01T00:00:00Z' } });
    expect(refused.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(await readAgreement(user.id)).toBeNull();
    // The older form (no input) accepts the agreement in force.
    const plain = await gql(user.auth, accept);
    expect(plain.body).toEqual({ data: { acceptDeveloperAgreement: { id: user.id } } });
    expect((await gql(user.auth, query)).body.data.developerAgreement.hasReadDeveloperAgreement).toBe(true);
  });

  it('uses the fallback date when none is configured, or until a configured one is reached', () => {
    const check = (value: string | null) => (value ? value : null);
    const now = new Date('2026-01-01T00:00:00Z');
    const unset = new DeveloperAgreementService(check, null, () => now);
    expect(unset.lastChange()).toEqual(DEVELOPER_AGREEMENT_FALLBACK);
    const future = new DeveloperAgreementService(check, new Date('2026-06-01T00:00:00Z'), () => now);
    expect(future.lastChange()).toEqual(DEVELOPER_AGREEMENT_FALLBACK);
    const past = new DeveloperAgreementService(check, new Date(CHANGED), () => now);
    expect(past.lastChange()).toEqual(new Date(CHANGED));
    expect(past.hasRead({ readDevAgreement: new Date('2025-08-03T00:00:00Z') })).toBe(false);
    expect(past.hasRead({ readDevAgreement: new Date('2025-08-05T00:00:00Z') })).toBe(true);
    expect(past.hasRead({ readDevAgreement: null })).toBe(false);
  });
});

describe('support tickets', () => {
  const ticket = { summary: 'Cannot upload', body: 'The upload stops at 50%.', category: 'technical' };

  beforeEach(clearThrottles);

  it('refuses anonymous callers', async () => {
    for (const path of [SUPPORT, `${SUPPORT}/`]) {
      const res = await post(path, null, ticket);
      expect(res.status).toBe(401);
    }
  });

  it('keeps the ticket, echoes it and mails it to the support address', async () => {
    const user = await sessionUser({ name: 'Needs Help' });
    const res = await post(SUPPORT, user.auth, { ...ticket, summary: '  Cannot upload  ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(ticket);

    const stored = await t.em().find(SupportTicket, { user: user.id });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ summary: 'Cannot upload', body: ticket.body, category: 'technical' });

    const outbox = join(t.app.services.config.dataDir, 'mail', 'outbox');
    const mail = await waitFor(() =>
      existsSync(outbox)
        ? readdirSync(outbox)
            .map((f) => readFileSync(join(outbox, f), 'utf8'))
            .find((m) => m.includes(`[Support #${stored[0].id}]`))
        : undefined,
    );
    expect(mail).toContain('\r\nTo: help@addons.test\r\n');
    expect(mail).toContain(`\r\nReply-To: ${user.email}\r\n`);
    expect(mail).toContain('technical: Cannot upload');
    expect(mail).toContain('The upload stops at 50%.');
    expect(mail).toContain(`http://addons.test/api/v5/accounts/account/${user.id}/`);
    const mailed = await waitFor(async () => (await t.em().findOneOrFail(SupportTicket, stored[0].id)).mailedAt);
    expect(mailed).toBeInstanceOf(Date);
  });

  it('takes API keys, and the path with a trailing slash', async () => {
    const dev = await keyCaller(t, { name: 'Key Dev' });
    const res = await post(`${SUPPORT}/`, dev.jwt(), { ...ticket, category: 'policy' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ...ticket, category: 'policy' });
  });

  it("refuses bad fields all at once, in DRF's words, lengths before anything else", async () => {
    const user = await sessionUser();
    const empty = await post(SUPPORT, user.auth, {});
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({
      summary: ['This field is required.'],
      body: ['This field is required.'],
      category: ['This field is required.'],
    });
    await clearThrottles();
    const bad = await post(SUPPORT, user.auth, {
      summary: 'a-'.repeat(50_000),
      body: 'b'.repeat(10_001),
      category: 'billing',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      summary: ['Ensure this field has no more than 255 characters.'],
      body: ['Ensure this field has no more than 10000 characters.'],
      category: ['"billing" is not a valid choice.'],
    });
    await clearThrottles();
    const blank = await post(SUPPORT, user.auth, { summary: '   ', body: null, category: 'other' });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ summary: ['This field may not be blank.'], body: ['This field may not be null.'] });
    await clearThrottles();
    const atLimit = await post(SUPPORT, user.auth, {
      summary: 's'.repeat(255),
      body: 'b'.repeat(10_000),
      category: 'other',
    });
    expect(atLimit.status).toBe(201);
    expect(await t.em().count(SupportTicket, { user: user.id })).toBe(1);
  });

  it('throttles per user and per client address (SUPPORT_TICKETS_PER_DAY)', async () => {
    const user = await sessionUser();
    for (let i = 0; i < 3; i++) expect((await post(SUPPORT, user.auth, ticket)).status).toBe(201);
    const fourth = await post(SUPPORT, user.auth, ticket);
    expect(fourth.status).toBe(429);
    expect(fourth.headers['retry-after']).toBeDefined();
    expect(fourth.body.detail).toMatch(/^Request was throttled\. Expected available in \d+ seconds?\.$/);

    await clearThrottles();
    const ip = nextAddress();
    for (let i = 0; i < 3; i++) {
      const other = await sessionUser();
      expect((await post(SUPPORT, other.auth, ticket, ip)).status).toBe(201);
    }
    const fromSameAddress = await sessionUser();
    expect((await post(SUPPORT, fromSameAddress.auth, ticket, ip)).status).toBe(429);
  });

  it('GraphQL: submitSupportTicket is the same rules', async () => {
    const user = await sessionUser();
    const mutation =
      'mutation ($input: SupportTicketInput!) { submitSupportTicket(input: $input) { id summary category } }';
    const ok = await gql(user.auth, mutation, { input: ticket });
    expect(ok.body.data.submitSupportTicket).toEqual({
      id: expect.any(Number),
      summary: ticket.summary,
      category: 'technical',
    });
    const bad = await gql(user.auth, mutation, { input: { ...ticket, category: 'nope' } });
    expect(bad.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });
});

async function waitFor<T>(probe: () => T | undefined | null | Promise<T | undefined | null>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out');
}
