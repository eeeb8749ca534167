import { startTestApp, type TestApp } from './helpers/app.js';

/**
 * `POST /api/{v}/activity/mail/`: malformed bodies are a 400 in the `{"detail"}` shape, never a 500
 * (issue 9, item 0), and the address allow-list cannot be passed with a forged X-Forwarded-For
 * (issue 9, item 9: TRUST_PROXY is a hop count or proxy addresses).
 */

const SECRET = 'inbound-secret-0123456789';
const ALLOWED_CLIENT = '203.0.113.7';
const OTHER_CLIENT = '198.51.100.9';

const settings = (extra: Record<string, string> = {}) => ({
  env: {
    JOB_WORKERS: 'false',
    SITE_URL: 'http://addons.test',
    INBOUND_EMAIL_SECRET_KEY: SECRET,
    INBOUND_EMAIL_VALIDATION_KEY: 'validation-key',
    ...extra,
  },
});

/** Posts `body` as raw JSON (so that non-objects are sent as they are). */
function postJson(t: TestApp, body: unknown, version = 'v4') {
  return t.http
    .post(`/api/${version}/activity/mail/`)
    .set('Content-Type', 'application/json')
    .send(JSON.stringify(body));
}

describe('malformed inbound mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(settings());
  }, 120_000);
  afterAll(() => t?.close());

  const message = { TextBody: 'Thanks', To: [{ EmailAddress: 'someone@example.com' }] };
  const CASES: [string, unknown, string][] = [
    ['an array body', [], 'The POST data must be a JSON object.'],
    ['a string body', 'x', 'The POST data must be a JSON object.'],
    ['a number body', 5, 'The POST data must be a JSON object.'],
    ['a null body', null, 'The POST data must be a JSON object.'],
    ['no SecretKey', { Message: message }, 'SecretKey not present in the POST data.'],
    ['a null SecretKey', { SecretKey: null, Message: message }, 'SecretKey must be a string.'],
    ['a numeric SecretKey', { SecretKey: 5, Message: message }, 'SecretKey must be a string.'],
    ['a SecretKey array', { SecretKey: [SECRET], Message: message }, 'SecretKey must be a string.'],
    ['an object Type', { SecretKey: SECRET, Type: {} }, 'Type must be a string.'],
    ['an empty Message', { SecretKey: SECRET, Message: {} }, 'Message.TextBody not present in the POST data.'],
    [
      'a Message without TextBody',
      { SecretKey: SECRET, Message: { Recipients: null } },
      'Message.TextBody not present in the POST data.',
    ],
    ['a string Message', { SecretKey: SECRET, Message: 'x' }, 'Message must be an object.'],
    ['an array Message', { SecretKey: SECRET, Message: [message] }, 'Message must be an object.'],
    ['a numeric TextBody', { SecretKey: SECRET, Message: { TextBody: 5 } }, 'Message.TextBody must be a string.'],
    ['a null TextBody', { SecretKey: SECRET, Message: { TextBody: null } }, 'Message.TextBody must be a string.'],
    ['a string To', { SecretKey: SECRET, Message: message, To: 'a@example.com' }, 'To must be an array.'],
    ['an object To', { SecretKey: SECRET, Message: message, To: { EmailAddress: 'a@b.c' } }, 'To must be an array.'],
    ['a null recipient', { SecretKey: SECRET, Message: message, To: [null] }, 'To[0] must be an object.'],
    [
      'a recipient without address',
      { SecretKey: SECRET, Message: message, To: [{ EmailAddress: 'a@b.c' }, { Name: 'x' }] },
      'To[1].EmailAddress not present in the POST data.',
    ],
    [
      'a numeric address in Message.To',
      { SecretKey: SECRET, Message: { TextBody: 'x', To: [{ EmailAddress: 7 }] } },
      'Message.To[0].EmailAddress must be a string.',
    ],
    ['a string Message.To', { SecretKey: SECRET, Message: { TextBody: 'x', To: 'x' } }, 'Message.To must be an array.'],
  ];

  it.each(CASES)('%s: 400 with a detail', async (_name, body, detail) => {
    for (const version of ['v3', 'v4']) {
      const res = await postJson(t, body, version);
      expect([res.status, res.headers['content-type'], res.body]).toEqual([400, 'application/json', { detail }]);
    }
  });

  it('keeps the answers to well-formed bodies', async () => {
    const probe = await postJson(t, { SecretKey: SECRET, Type: 'Validation' });
    expect([probe.status, probe.body]).toEqual([200, 'validation-key']);
    const form = await t.http
      .post('/api/v4/activity/mail/')
      .type('form')
      .send({ SecretKey: SECRET, Type: 'Validation' });
    expect([form.status, form.body]).toEqual([200, 'validation-key']);
    const wrong = await postJson(t, { SecretKey: 'wrong', Message: { TextBody: 'x' } });
    expect([wrong.status, wrong.body]).toEqual([403, { detail: 'You do not have permission to perform this action.' }]);
    for (const missing of [{ SecretKey: SECRET }, { SecretKey: SECRET, Message: null }]) {
      const res = await postJson(t, missing);
      expect([res.status, res.body]).toEqual([400, { detail: 'Message not present in the POST data.' }]);
    }
    // Accepted and discarded (no reply address): extra fields and nulls are fine, recipients may be in Message.
    const bodies = [
      { SecretKey: SECRET, Type: null, Message: { TextBody: 'Hi', Subject: 'Re: x', To: null }, To: null },
      {
        SecretKey: SECRET,
        Message: { TextBody: '', To: [{ EmailAddress: 'a@b.c', FriendlyName: 'A' }] },
        SpamScore: 1,
      },
      { SecretKey: SECRET, Message: message, To: [] },
    ];
    for (const body of bodies) {
      const res = await postJson(t, body);
      expect([res.status, res.body]).toEqual([201, 'validation-key']);
    }
  });
});

describe('the inbound mail allow-list behind proxies', () => {
  const probe = (t: TestApp, forwardedFor?: string) => {
    const req = t.http.post('/api/v4/activity/mail/').send({ SecretKey: SECRET, Type: 'Validation' });
    return forwardedFor === undefined ? req : req.set('X-Forwarded-For', forwardedFor);
  };
  const allowList = { INBOUND_EMAIL_ALLOWED_IPS: ALLOWED_CLIENT };

  describe('TRUST_PROXY=1 (one proxy in front)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(settings({ ...allowList, TRUST_PROXY: '1' }));
    }, 120_000);
    afterAll(() => t?.close());

    it('sees the client the proxy appended, so a forged first entry does not pass', async () => {
      expect((await probe(t, ALLOWED_CLIENT)).status).toBe(200);
      expect((await probe(t, `${ALLOWED_CLIENT}, ${OTHER_CLIENT}`)).status).toBe(403);
      expect((await probe(t, `${OTHER_CLIENT}, ${ALLOWED_CLIENT}`)).status).toBe(200);
      expect((await probe(t)).status).toBe(403);
    });
  });

  describe('TRUST_PROXY with the proxies’ addresses', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(settings({ ...allowList, TRUST_PROXY: '10.0.0.1, 127.0.0.1/8, ::1' }));
    }, 120_000);
    afterAll(() => t?.close());

    it('honours the header from those proxies, up to the first address that is not one', async () => {
      expect((await probe(t, ALLOWED_CLIENT)).status).toBe(200);
      expect((await probe(t, `${ALLOWED_CLIENT}, 10.0.0.1`)).status).toBe(200);
      expect((await probe(t, `${ALLOWED_CLIENT}, ${OTHER_CLIENT}`)).status).toBe(403);
    });
  });

  describe('TRUST_PROXY naming other proxies', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(settings({ ...allowList, TRUST_PROXY: '10.0.0.1' }));
    }, 120_000);
    afterAll(() => t?.close());

    it('ignores the header from a peer that is not one of them', async () => {
      expect((await probe(t, ALLOWED_CLIENT)).status).toBe(403);
      expect((await probe(t, `${ALLOWED_CLIENT}, 10.0.0.1`)).status).toBe(403);
    });
  });

  it('refuses TRUST_PROXY=true at boot', async () => {
    const outcome = await startTestApp(settings({ TRUST_PROXY: 'true' })).then(
      async (booted) => {
        await booted.close();
        return 'booted';
      },
      (error: Error) => error.message,
    );
    expect(outcome).toMatch(/TRUST_PROXY: true would believe an X-Forwarded-For header sent by any client/);
  });
});
