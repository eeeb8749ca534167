import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { startTestApp, type TestApp } from './helpers/app.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { createAddon } from './helpers/catalogue.js';
import { extension, waitFor } from './helpers/signing.js';

/**
 * Signed webhooks (src/webhooks/): endpoints managed in GraphQL, the lifecycle's events delivered
 * to a real HTTP receiver on 127.0.0.1 and verified there with the Standard Webhooks reference
 * library, retries, timeouts, authorship, and the refusal of private addresses (a second app with
 * WEBHOOKS_ALLOW_PRIVATE_NETWORKS off).
 */

let t: TestApp;
let dev: KeyCaller;
let stranger: KeyCaller;

beforeAll(async () => {
  t = await startTestApp({
    env: {
      SIGNING_CA_KEY_BITS: '2048',
      SIGNING_KEY_POOL: '1',
      SITE_URL: 'http://addons.test',
      WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOKS_RETRY_SCHEDULE: '0.2,0.2,0.2',
      WEBHOOKS_TIMEOUT_MS: '6000',
      WEBHOOKS_SEND_DELAY_MS: '500',
    },
  });
  dev = await keyCaller(t);
  stranger = await keyCaller(t);
}, 120_000);
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await t?.close();
});

// ---- A receiver: a node:http server on 127.0.0.1 ----

interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

interface Receiver {
  url: string;
  requests: Received[];
  close(): Promise<void>;
}

const receivers: Receiver[] = [];

/** `answer(n)` for the n-th request (from 0): a status, or 'hang' (never answers). */
async function receiver(answer: (n: number) => number | 'hang' = () => 200): Promise<Receiver> {
  const requests: Received[] = [];
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = requests.length;
      requests.push({
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
      });
      const status = answer(n);
      if (status === 'hang') return void hanging.push(res);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${n}: ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const r: Receiver = {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  receivers.push(r);
  return r;
}

/** The request verified as a receiver would (throws on a bad signature), parsed. */
function verified(secret: string, request: Received) {
  return new Webhook(secret).verify(request.body, request.headers) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown> & { sequence: number };
  };
}

// ---- GraphQL ----

async function gql(app: TestApp, who: KeyCaller | null, query: string, variables: Record<string, unknown> = {}) {
  const req = app.http.post('/graphql').send({ query, variables });
  const res = await (who ? req.set('Authorization', who.session) : req);
  return res.body as { data?: Record<string, any>; errors?: { message: string; extensions: Record<string, any> }[] };
}

const CREATE = `mutation($input: WebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) { secret endpoint { id url events addonId description isActive } } }`;
const DELIVERIES = `query($endpoint: Int!, $first: Int, $after: String) { webhookDeliveries(endpoint: $endpoint,
  first: $first, after: $after) { endCursor hasNextPage items { id eventId type status sequence attempts
  lastStatusCode lastError responseExcerpt payload delivered } } }`;
const TEST_EVENT = `mutation($endpoint: Int!) { sendTestWebhookEvent(endpoint: $endpoint) { id eventId type status } }`;

const ALL_EVENTS = [
  'version.submitted',
  'version.validated',
  'version.signed',
  'version.approved',
  'version.rejected',
  'version.information_requested',
  'addon.disabled',
  'addon.blocked',
];

async function createEndpoint(
  who: KeyCaller,
  input: Record<string, unknown>,
  app: TestApp = t,
): Promise<{ id: number; secret: string }> {
  const res = await gql(app, who, CREATE, { input: { events: ALL_EVENTS, ...input } });
  expect(res.errors).toBeUndefined();
  const created = res.data!.createWebhookEndpoint;
  return { id: created.endpoint.id, secret: created.secret };
}

async function deliveries(who: KeyCaller, endpoint: number) {
  const res = await gql(t, who, DELIVERIES, { endpoint, first: 50 });
  expect(res.errors).toBeUndefined();
  return res.data!.webhookDeliveries.items as Record<string, any>[];
}

async function publish(type: 'addon.disabled', addonId: number) {
  await t.app.db
    .fork()
    .transactional((tx) => t.app.services.events.publish(tx, type, { addonId, by: 'developer' }, null));
}

let counter = 0;
const uniqueGuid = (tag: string) => `${tag}-${Date.now()}-${++counter}@webhooks.test`;

// ---- Tests ----

describe('deliveries to a real receiver, verified with the standardwebhooks library', () => {
  it('a version through the signing pipeline: submitted, validated, signed, approved, in order', async () => {
    const r = await receiver();
    const { secret, id } = await createEndpoint(dev, { url: r.url, description: 'CI hook' });
    const guid = uniqueGuid('pipeline');
    const upload = await t.http
      .put(`/api/v4/addons/${encodeURIComponent(guid)}/versions/1.0.0/`)
      .set('Authorization', dev.jwt())
      .attach('upload', await extension({ id: guid }), 'addon.xpi');
    expect(upload.status).toBe(201);
    await waitFor('four webhooks', async () => r.requests.length >= 4, 90_000);
    const events = r.requests.map((request) => verified(secret, request));
    expect(events.map((e) => e.type)).toEqual([
      'version.submitted',
      'version.validated',
      'version.signed',
      'version.approved',
    ]);
    expect(events.map((e) => e.data.sequence)).toEqual([1, 2, 3, 4]);
    const [row] = await t.em().getConnection().execute(`select id, slug from addons where guid = ?`, [guid]);
    const [version] = await t.em().getConnection().execute(`select id from versions where addon_id = ?`, [row.id]);
    for (const event of events) {
      expect(event.data.addon).toEqual({ id: row.id, guid, slug: row.slug });
      expect(Date.parse(event.timestamp)).not.toBeNaN();
    }
    expect(events[0]!.data.version).toEqual({ id: null, version: '1.0.0', channel: 'unlisted' });
    for (const event of events.slice(1)) {
      expect(event.data.version).toEqual({ id: version.id, version: '1.0.0', channel: 'unlisted' });
    }
    expect(events[1]!.data.valid).toBe(true);
    for (const request of r.requests) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/webhooks/);
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(120);
    }
    // The log lists deliveries as recorded (newest first); signed and approved, recorded by two
    // concurrent subscriber jobs, may be in either order there: their sequence is the sending order.
    const log = (await deliveries(dev, id)).sort((x, y) => x.sequence - y.sequence);
    expect(log.map((d) => [d.sequence, d.type, d.status, d.attempts, d.lastStatusCode])).toEqual([
      [1, 'version.submitted', 'SUCCEEDED', 1, 200],
      [2, 'version.validated', 'SUCCEEDED', 1, 200],
      [3, 'version.signed', 'SUCCEEDED', 1, 200],
      [4, 'version.approved', 'SUCCEEDED', 1, 200],
    ]);
    expect(log.map((d) => d.eventId)).toEqual(r.requests.map((q) => q.headers['webhook-id']));
    expect(log[3]!.responseExcerpt).toBe('answer 3: 200');
  }, 120_000);

  it('a healthy endpoint receives a burst of events in the order they occurred, numbered', async () => {
    const author = await keyCaller(t);
    const addons = [];
    for (let i = 0; i < 6; i++) addons.push(await createAddon(t.em(), { authors: [{ id: author.id }] }));
    const r = await receiver();
    const { secret } = await createEndpoint(author, { url: r.url, events: ['addon.disabled'] });
    for (const addon of addons) {
      await publish('addon.disabled', addon.id);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await waitFor('six events', async () => r.requests.length === 6);
    const events = r.requests.map((q) => verified(secret, q));
    expect(events.map((e) => (e.data.addon as { id: number }).id)).toEqual(addons.map((a) => a.id));
    expect(events.map((e) => e.data.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
    const times = events.map((e) => Date.parse(e.timestamp));
    expect([...times].sort((x, y) => x - y)).toEqual(times);
  });

  it('sends the test event', async () => {
    const r = await receiver();
    const { secret, id } = await createEndpoint(dev, { url: r.url, events: ['addon.disabled'] });
    const sent = await gql(t, dev, TEST_EVENT, { endpoint: id });
    expect(sent.data!.sendTestWebhookEvent).toMatchObject({ type: 'webhook.test', status: 'PENDING' });
    await waitFor('the test event', async () => r.requests.length === 1);
    const event = verified(secret, r.requests[0]!);
    expect(event).toMatchObject({ type: 'webhook.test', data: { endpoint: id, sequence: 1 } });
    expect(r.requests[0]!.headers['webhook-id']).toBe(sent.data!.sendTestWebhookEvent.eventId);
  });

  it('retries a failing receiver with the same webhook-id, and the log shows the attempts', async () => {
    const r = await receiver((n) => (n < 2 ? 500 : 200));
    const { secret, id } = await createEndpoint(dev, { url: r.url });
    await gql(t, dev, TEST_EVENT, { endpoint: id });
    await waitFor('three attempts', async () => r.requests.length === 3);
    const ids = r.requests.map((q) => q.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    for (const request of r.requests) expect(verified(secret, request).type).toBe('webhook.test');
    expect(new Set(r.requests.map((q) => q.body)).size).toBe(1);
    const [delivery] = await waitFor('succeeded', async () => {
      const log = await deliveries(dev, id);
      return log[0]!.status === 'SUCCEEDED' && log;
    });
    expect(delivery).toMatchObject({ attempts: 3, lastStatusCode: 200, lastError: null, eventId: ids[0] });
  });

  it('abandons a delivery after the retry schedule, and redelivers it on request', async () => {
    const r = await receiver((n) => (n < 4 ? 503 : 200));
    const { secret, id } = await createEndpoint(dev, { url: r.url });
    await gql(t, dev, TEST_EVENT, { endpoint: id });
    const [abandoned] = await waitFor('abandoned', async () => {
      const log = await deliveries(dev, id);
      return log[0]!.status === 'ABANDONED' && log;
    });
    expect(r.requests).toHaveLength(4);
    expect(abandoned).toMatchObject({ attempts: 4, lastStatusCode: 503, lastError: 'HTTP 503', delivered: null });
    const again = await gql(t, dev, `mutation($d: Int!) { redeliverWebhook(delivery: $d) { id status } }`, {
      d: abandoned!.id,
    });
    expect(again.data!.redeliverWebhook).toEqual({ id: abandoned!.id, status: 'PENDING' });
    await waitFor('redelivered', async () => r.requests.length === 5);
    expect(verified(secret, r.requests[4]!).data.sequence).toBe(1);
    expect(r.requests[4]!.headers['webhook-id']).toBe(r.requests[0]!.headers['webhook-id']);
  });

  it('a receiver that never answers does not delay another endpoint', async () => {
    const slow = await receiver(() => 'hang');
    const fast = await receiver();
    const slowEndpoint = await createEndpoint(dev, { url: slow.url });
    const fastEndpoint = await createEndpoint(dev, { url: fast.url });
    await gql(t, dev, TEST_EVENT, { endpoint: slowEndpoint.id });
    await waitFor('the slow receiver reached', async () => slow.requests.length === 1);
    await gql(t, dev, TEST_EVENT, { endpoint: fastEndpoint.id });
    await waitFor('the fast receiver reached', async () => fast.requests.length === 1);
    // The slow one's first attempt (6 s timeout) is still waiting when the other is delivered.
    expect(fast.requests[0]!.at - slow.requests[0]!.at).toBeLessThan(6_000);
    const [timedOut] = await waitFor('timed out', async () => {
      const log = await deliveries(dev, slowEndpoint.id);
      return log[0]!.attempts >= 1 && log;
    });
    expect(timedOut!.lastError).toMatch(/No answer within 6000 ms/);
    await gql(t, dev, `mutation($id: Int!) { deleteWebhookEndpoint(id: $id) }`, { id: slowEndpoint.id });
  }, 60_000);
});

describe('who receives what', () => {
  it("an add-on's events go only to its authors' endpoints; a removed author stops receiving", async () => {
    const author = await keyCaller(t);
    const coAuthor = await keyCaller(t);
    const addon = await createAddon(t.em(), { authors: [{ id: author.id }, { id: coAuthor.id }] });
    const other = await createAddon(t.em(), { authors: [{ id: author.id }] });
    const mine = await receiver();
    const theirs = await receiver();
    const outsider = await receiver();
    const all = await createEndpoint(author, { url: mine.url, events: ['addon.disabled'] });
    const onlyOther = await createEndpoint(author, { url: mine.url, events: ['addon.disabled'], addon: other.id });
    const co = await createEndpoint(coAuthor, { url: theirs.url, events: ['addon.disabled'] });
    await createEndpoint(stranger, { url: outsider.url, events: ['addon.disabled'] });
    // An endpoint limited to another add-on, or asking for other events, gets nothing either.
    await createEndpoint(author, { url: outsider.url, events: ['version.approved'] });
    const notMine = await gql(t, stranger, CREATE, {
      input: { url: outsider.url, events: ALL_EVENTS, addon: addon.id },
    });
    expect(notMine.errors![0]!.extensions.fields).toEqual({ addon: ['No add-on of yours has this id.'] });

    await publish('addon.disabled', addon.id);
    await waitFor('both authors', async () => mine.requests.length === 1 && theirs.requests.length === 1);
    expect(verified(all.secret, mine.requests[0]!).data.addon).toMatchObject({ id: addon.id });
    expect(verified(co.secret, theirs.requests[0]!)).toMatchObject({
      type: 'addon.disabled',
      data: { by: 'developer' },
    });
    expect(await deliveries(author, onlyOther.id)).toEqual([]);

    // A removed author's endpoint no longer records the add-on's events.
    await t
      .em()
      .getConnection()
      .execute('delete from addon_users where addon_id = ? and user_id = ?', [addon.id, coAuthor.id]);
    await publish('addon.disabled', addon.id);
    await waitFor('the author again', async () => mine.requests.length === 2);
    expect(await deliveries(coAuthor, co.id)).toHaveLength(1);
    expect(theirs.requests).toHaveLength(1);
    expect(outsider.requests).toHaveLength(0);
  });

  it('a reviewer’s information request is `version.information_requested`, with the version; comments are not sent', async () => {
    const author = await keyCaller(t);
    const addon = await createAddon(t.em(), { authors: [{ id: author.id }], versions: [{ version: '2.5' }] });
    const [version] = await t.em().getConnection().execute('select id from versions where addon_id = ?', [addon.id]);
    const r = await receiver();
    const { secret } = await createEndpoint(author, {
      url: r.url,
      events: ['version.information_requested', 'version.rejected'],
      addon: addon.id,
    });
    const decide = (decision: 'comment' | 'requestInformation' | 'reject') =>
      t.app.db.fork().transactional(async (tx) => {
        await t.app.services.events.publish(
          tx,
          'review.decided',
          { addonId: addon.id, versionId: version.id, noteId: 1, decision },
          null,
        );
        if (decision === 'reject') {
          await t.app.services.events.publish(
            tx,
            'version.rejected',
            { addonId: addon.id, versionId: version.id, channel: 2 },
            null,
          );
        }
      });
    await decide('comment');
    await decide('requestInformation');
    await decide('reject');
    await waitFor('two events', async () => r.requests.length === 2);
    const events = r.requests.map((q) => verified(secret, q));
    expect(events.map((e) => e.type)).toEqual(['version.information_requested', 'version.rejected']);
    expect(events[0]!.data).toMatchObject({
      addon: { id: addon.id, guid: addon.guid, slug: addon.slug },
      version: { id: version.id, version: '2.5', channel: 'listed' },
      sequence: 1,
    });
  });

  it("a stranger can neither see nor change another's endpoint; API keys cannot manage webhooks", async () => {
    const r = await receiver();
    const { id } = await createEndpoint(dev, { url: r.url });
    const list = await gql(t, stranger, '{ webhookEndpoints { id } }');
    expect(list.data!.webhookEndpoints.map((e: { id: number }) => e.id)).not.toContain(id);
    const attempts: [string, Record<string, unknown>][] = [
      ['mutation($id: Int!) { updateWebhookEndpoint(id: $id, input: {isActive: false}) { id } }', { id }],
      ['mutation($id: Int!) { deleteWebhookEndpoint(id: $id) }', { id }],
      ['mutation($id: Int!) { rotateWebhookSecret(id: $id) { secret } }', { id }],
      [DELIVERIES, { endpoint: id }],
      [TEST_EVENT, { endpoint: id }],
    ];
    for (const [query, variables] of attempts) {
      const res = await gql(t, stranger, query, variables);
      expect([query, res.errors?.[0]?.extensions.code]).toEqual([query, 'NOT_FOUND']);
    }
    const log = await deliveries(dev, id);
    const sent = await gql(t, dev, TEST_EVENT, { endpoint: id });
    await waitFor('sent', async () => r.requests.length === 1);
    await waitFor('logged', async () => (await deliveries(dev, id)).length === log.length + 1);
    const redeliver = await gql(t, stranger, `mutation($d: Int!) { redeliverWebhook(delivery: $d) { id } }`, {
      d: sent.data!.sendTestWebhookEvent.id,
    });
    expect(redeliver.errors![0]!.extensions.code).toBe('NOT_FOUND');
    expect((await gql(t, null, '{ webhookEndpoints { id } }')).errors![0]!.extensions.code).toBe('UNAUTHENTICATED');
    const withKey = await t.http
      .post('/graphql')
      .set('Authorization', dev.jwt())
      .send({ query: '{ webhookEndpoints { id } }' });
    expect(withKey.status).toBe(403);
    const own = await gql(t, dev, '{ webhookEndpoints { id isActive } }');
    expect(own.data!.webhookEndpoints).toContainEqual({ id, isActive: true });
  });

  it('the secret is shown once: never readable afterwards, and rotation replaces it', async () => {
    const r = await receiver();
    const { id, secret } = await createEndpoint(dev, { url: r.url });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const asked = await gql(t, dev, '{ webhookEndpoints { id secret } }');
    expect(asked.errors![0]!.message).toMatch(/Cannot query field "secret"/);
    const [stored] = await t.em().getConnection().execute('select * from webhook_endpoints where id = ?', [id]);
    expect(JSON.stringify(stored)).not.toContain(secret.slice(6));
    const rotated = await gql(
      t,
      dev,
      'mutation($id: Int!) { rotateWebhookSecret(id: $id) { secret endpoint { id } } }',
      {
        id,
      },
    );
    const fresh = rotated.data!.rotateWebhookSecret.secret as string;
    expect(fresh).not.toBe(secret);
    await gql(t, dev, TEST_EVENT, { endpoint: id });
    await waitFor('sent', async () => r.requests.length === 1);
    expect(verified(fresh, r.requests[0]!).type).toBe('webhook.test');
    expect(() => verified(secret, r.requests[0]!)).toThrow();
  });
});

describe('endpoint input', () => {
  it('validates every field, with field errors', async () => {
    const res = await gql(t, dev, CREATE, {
      input: { url: 'not a url', events: ['version.approved', 'version.exploded'], description: 'd'.repeat(256) },
    });
    expect(res.errors![0]!.extensions.code).toBe('VALIDATION_FAILED');
    expect(res.errors![0]!.extensions.fields).toEqual({
      description: ['Ensure this field has no more than 255 characters.'],
      url: ['Enter a valid URL.'],
      events: [expect.stringMatching(/^Unknown event: "version.exploded"/)],
    });
    const empty = await gql(t, dev, CREATE, { input: { url: 'http://127.0.0.1:1/', events: [] } });
    expect(empty.errors![0]!.extensions.fields).toEqual({ events: ['Choose at least one event.'] });
    const long = await gql(t, dev, CREATE, {
      input: { url: `http://127.0.0.1/${'x'.repeat(2_000)}`, events: ['addon.disabled'] },
    });
    expect(long.errors![0]!.extensions.fields).toEqual({
      url: ['Ensure this field has no more than 2000 characters.'],
    });
  });

  it('updates an endpoint: checked like creation; an inactive endpoint records nothing', async () => {
    const author = await keyCaller(t);
    const addon = await createAddon(t.em(), { authors: [{ id: author.id }] });
    const r = await receiver();
    const { id } = await createEndpoint(author, { url: 'http://127.0.0.1:9/old', events: ['addon.disabled'] });
    const UPDATE = `mutation($id: Int!, $input: WebhookEndpointInput!) { updateWebhookEndpoint(id: $id, input: $input) {
      id url events description isActive addonId } }`;
    const bad = await gql(t, author, UPDATE, { id, input: { url: 'gopher://x', events: [], addon: addon.id } });
    expect(bad.errors![0]!.extensions.fields).toEqual({
      url: ['Only http and https URLs.'],
      events: ['Choose at least one event.'],
      addon: ['An endpoint’s add-on cannot be changed.'],
    });
    const updated = await gql(t, author, UPDATE, {
      id,
      input: { url: r.url, events: ['addon.blocked', 'addon.disabled'], description: ' Deploys ', isActive: false },
    });
    expect(updated.data!.updateWebhookEndpoint).toEqual({
      id,
      url: r.url,
      events: ['addon.disabled', 'addon.blocked'],
      description: 'Deploys',
      isActive: false,
      addonId: null,
    });
    // Another endpoint of the author's witnesses that each event has been recorded.
    const witness = await receiver();
    await createEndpoint(author, { url: witness.url, events: ['addon.disabled'] });
    await publish('addon.disabled', addon.id);
    await waitFor('recorded', async () => witness.requests.length === 1);
    await gql(t, author, UPDATE, { id, input: { isActive: true } });
    await publish('addon.disabled', addon.id);
    await waitFor('one event', async () => r.requests.length === 1 && witness.requests.length === 2);
    expect(await deliveries(author, id)).toHaveLength(1);
  });

  it('creation and update resolve the URL first, then write in a transaction of their own', async () => {
    // Both declare @OwnTransactions (test/operation-transactions.test.ts): the lookup holds no
    // transaction, and a refusal found afterwards (in the writing transaction) leaves nothing.
    const author = await keyCaller(t);
    const othersAddon = await createAddon(t.em(), { authors: [{ id: stranger.id }] });
    const endpoints = async () =>
      (await gql(t, author, '{ webhookEndpoints { url events } }')).data!.webhookEndpoints as unknown[];
    const refused = await gql(t, author, CREATE, {
      input: { url: 'http://127.0.0.1:9/a', events: ['addon.disabled'], addon: othersAddon.id },
    });
    expect(refused.errors![0]!.extensions.fields).toEqual({ addon: ['No add-on of yours has this id.'] });
    expect(await endpoints()).toEqual([]);
    // Outside the executor's transaction, each root field of a document commits on its own.
    const two = await gql(
      t,
      author,
      `mutation($ok: WebhookEndpointInput!, $bad: WebhookEndpointInput!) {
        ok: createWebhookEndpoint(input: $ok) { secret } bad: createWebhookEndpoint(input: $bad) { secret } }`,
      {
        ok: { url: 'http://127.0.0.1:9/ok', events: ['addon.disabled'] },
        bad: { url: 'http://127.0.0.1:9/bad', events: ['addon.disabled'], addon: othersAddon.id },
      },
    );
    expect(two.errors).toMatchObject([{ path: ['bad'], extensions: { code: 'VALIDATION_FAILED' } }]);
    expect(two.errors).toHaveLength(1);
    expect(await endpoints()).toEqual([{ url: 'http://127.0.0.1:9/ok', events: ['addon.disabled'] }]);
    const [{ id }] = (await gql(t, author, '{ webhookEndpoints { id } }')).data!.webhookEndpoints;
    const UPDATE = `mutation($id: Int!, $input: WebhookEndpointInput!) { updateWebhookEndpoint(id: $id, input: $input) { url } }`;
    const bad = await gql(t, author, UPDATE, { id, input: { url: 'http://127.0.0.1:9/new', events: [] } });
    expect(bad.errors![0]!.extensions.fields).toEqual({ events: ['Choose at least one event.'] });
    const good = await gql(t, author, UPDATE, { id, input: { url: 'http://127.0.0.1:9/new' } });
    expect(good.data!.updateWebhookEndpoint).toEqual({ url: 'http://127.0.0.1:9/new' });
    expect(await endpoints()).toEqual([{ url: 'http://127.0.0.1:9/new', events: ['addon.disabled'] }]);
  });

  it('pages the delivery log with first/after', async () => {
    const r = await receiver();
    const { id } = await createEndpoint(stranger, { url: r.url, events: ['addon.disabled'] });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await gql(t, stranger, TEST_EVENT, { endpoint: id })).data!.sendTestWebhookEvent.id);
    const first = await gql(t, stranger, DELIVERIES, { endpoint: id, first: 2 });
    expect(first.data!.webhookDeliveries).toMatchObject({ hasNextPage: true, endCursor: String(ids[1]) });
    expect(first.data!.webhookDeliveries.items.map((d: { id: number }) => d.id)).toEqual([ids[2], ids[1]]);
    const next = await gql(t, stranger, DELIVERIES, {
      endpoint: id,
      first: 2,
      after: first.data!.webhookDeliveries.endCursor,
    });
    expect(next.data!.webhookDeliveries).toMatchObject({ hasNextPage: false, items: [{ id: ids[0] }] });
    for (const [variables, field] of [
      [{ first: 0 }, 'first'],
      [{ first: 51 }, 'first'],
      [{ after: 'abc' }, 'after'],
    ] as const) {
      const res = await gql(t, stranger, DELIVERIES, { endpoint: id, ...variables });
      expect(Object.keys(res.errors![0]!.extensions.fields)).toEqual([field]);
    }
    await waitFor('sent', async () => r.requests.length === 3);
  });

  it('allows 5 endpoints per add-on', async () => {
    const author = await keyCaller(t);
    const coAuthor = await keyCaller(t);
    const addon = await createAddon(t.em(), { authors: [{ id: author.id }, { id: coAuthor.id }] });
    for (let i = 0; i < 5; i++) {
      await createEndpoint(i < 3 ? author : coAuthor, { url: `http://127.0.0.1:9/${i}`, addon: addon.id });
    }
    const res = await gql(t, coAuthor, CREATE, {
      input: { url: 'http://127.0.0.1:9/x', events: ALL_EVENTS, addon: addon.id },
    });
    expect(res.errors![0]!.extensions.fields).toEqual({ addon: ['At most 5 webhook endpoints per add-on.'] });
  });

  it('allows 10 endpoints per user', async () => {
    const user = await keyCaller(t);
    for (let i = 0; i < 10; i++) await createEndpoint(user, { url: `http://127.0.0.1:9/${i}` });
    const res = await gql(t, user, CREATE, { input: { url: 'http://127.0.0.1:9/x', events: ['addon.disabled'] } });
    expect(res.errors![0]!.extensions.fields).toEqual({ non_field_errors: ['At most 10 webhook endpoints per user.'] });
  });
});

describe('no server-side request forgery (WEBHOOKS_ALLOW_PRIVATE_NETWORKS off)', () => {
  let strict: TestApp;
  let user: KeyCaller;

  beforeAll(async () => {
    strict = await startTestApp({ env: { JOB_WORKERS: 'false', WEBHOOKS_SEND_DELAY_MS: '0' } });
    user = await keyCaller(strict);
  }, 120_000);
  afterAll(() => strict?.close());

  it.each([
    ['http://127.0.0.1/hook', /private, loopback/],
    ['http://localhost:8080/hook', /private, loopback/],
    ['http://10.0.0.1/hook', /private, loopback/],
    ['http://169.254.169.254/latest/meta-data/', /private, loopback/],
    ['http://[::1]/hook', /private, loopback/],
    ['http://[::ffff:10.0.0.1]/hook', /private, loopback/],
    ['http://[fe80::1]/hook', /private, loopback/],
    ['http://0x7f000001/hook', /private, loopback/],
    ['http://192.168.1.1/hook', /private, loopback/],
    ['http://100.64.0.1/hook', /private, loopback/],
    ['http://0.0.0.0/hook', /private, loopback/],
    ['http://224.0.0.1/hook', /private, loopback/],
    ['ftp://example.com/hook', /Only http and https/],
    ['file:///etc/passwd', /Only http and https/],
    ['http://user:pass@example.com/hook', /credentials/],
  ])('refuses %s', async (url, message) => {
    const res = await gql(strict, user, CREATE, { input: { url, events: ['addon.disabled'] } });
    expect(res.errors![0]!.extensions.code).toBe('VALIDATION_FAILED');
    expect(res.errors![0]!.extensions.fields.url[0]).toMatch(message);
  });

  it('checks authorship again before each attempt: an author removed meanwhile gets nothing', async () => {
    const author = await keyCaller(strict);
    const addon = await createAddon(strict.em(), { authors: [{ id: author.id }] });
    const { id } = await createEndpoint(
      author,
      { url: 'http://93.184.216.34/hook', events: ['addon.disabled'] },
      strict,
    );
    // No job workers here: the subscriber and the endpoint's run are called as the jobs would.
    await strict.app.services.webhookDeliveries.record({
      id: '00000000-0000-4000-8000-000000000001',
      type: 'addon.disabled',
      data: { addonId: addon.id, by: 'developer' },
      occurredAt: new Date().toISOString(),
      actorId: null,
    });
    const conn = strict.em().getConnection();
    const [recorded] = await conn.execute('select id, status from webhook_deliveries where endpoint_id = ?', [id]);
    expect(recorded.status).toBe('pending');
    await conn.execute('delete from addon_users where addon_id = ? and user_id = ?', [addon.id, author.id]);
    await strict.app.services.webhookDeliveries.runner.run(id, 'test-run');
    const [row] = await conn.execute('select status, attempts, last_error from webhook_deliveries where id = ?', [
      recorded.id,
    ]);
    expect(row).toEqual({
      status: 'abandoned',
      attempts: 0,
      last_error: 'The endpoint’s owner is no longer an author.',
    });
  });

  it('checks the URL again before each attempt: a stored private address is not contacted', async () => {
    const r = await receiver();
    // A public IP literal: registered without any DNS lookup.
    const { id } = await createEndpoint(user, { url: 'http://93.184.216.34/hook' }, strict);
    // As if the address had changed since registration (a row written before a rule, a DNS change).
    await strict.em().getConnection().execute('update webhook_endpoints set url = ? where id = ?', [r.url, id]);
    const sent = await gql(strict, user, TEST_EVENT, { endpoint: id });
    await strict.app.services.webhookDeliveries.runner.run(id, 'test-run');
    const [row] = await strict
      .em()
      .getConnection()
      .execute('select status, attempts, last_error from webhook_deliveries where id = ?', [
        sent.data!.sendTestWebhookEvent.id,
      ]);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row.last_error).toMatch(/^Refused URL: The host resolves to a private, loopback or reserved address/);
    expect(r.requests).toHaveLength(0);
  });
});

describe('backlog, limits and suspension (issue 35)', () => {
  let b: TestApp;
  /** Statements on the webhook tables, counted as the app runs them. */
  let statements = 0;

  beforeAll(async () => {
    b = await startTestApp({
      env: {
        WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOKS_TIMEOUT_MS: '2000',
        WEBHOOKS_RETRY_SCHEDULE: '0.2,0.2,0.2,0.2,0.2',
        WEBHOOKS_SEND_DELAY_MS: '0',
        WEBHOOKS_MAX_PENDING: '5',
        WEBHOOKS_SUSPEND_AFTER_FAILURES: '3',
        WEBHOOKS_TEST_EVENTS_PER_HOUR: '3',
        WEBHOOKS_REDELIVERIES_PER_HOUR: '2',
      },
      onQuery: (sql) => {
        if (/webhook_(deliveries|endpoints)/.test(sql)) statements++;
      },
    });
  }, 120_000);
  afterAll(() => b?.close());

  const log = async (who: KeyCaller, endpoint: number) => {
    const res = await gql(b, who, DELIVERIES, { endpoint, first: 50 });
    expect(res.errors).toBeUndefined();
    return res.data!.webhookDeliveries.items as Record<string, any>[];
  };
  /** Records `count` untried test deliveries for the endpoint, in order, without waking it. */
  const backlog = (endpoint: number, prefix: string, count: number) =>
    b
      .em()
      .getConnection()
      .execute(
        `insert into webhook_deliveries (endpoint_id, event_id, type, occurred_at, payload)
          select ?, ? || g, 'webhook.test', now() + g * interval '1 millisecond',
            '{"type":"webhook.test","data":{}}'::jsonb from generate_series(1, ?) g`,
        [endpoint, `${prefix}-`, count],
      );
  const REDELIVER = `mutation($d: Int!) { redeliverWebhook(delivery: $d) { id status } }`;
  const ENDPOINTS = '{ webhookEndpoints { id suspendedAt suspendedReason } }';
  const deliverJobs = async () =>
    Object.values((await b.app.services.jobs.stats())['webhook-deliver']).reduce((sum, n) => sum + n, 0);

  it('limits test events and redeliveries per user and endpoint (THROTTLED, with retryAfter)', async () => {
    const who = await keyCaller(b);
    const r = await receiver();
    const one = await createEndpoint(who, { url: r.url }, b);
    const two = await createEndpoint(who, { url: r.url }, b);
    const sent = [];
    for (let i = 0; i < 3; i++)
      sent.push((await gql(b, who, TEST_EVENT, { endpoint: one.id })).data!.sendTestWebhookEvent);
    const fourth = await gql(b, who, TEST_EVENT, { endpoint: one.id });
    expect(fourth.errors![0]!.extensions).toMatchObject({ code: 'THROTTLED', retryAfter: expect.any(Number) });
    expect(fourth.errors![0]!.extensions.retryAfter).toBeGreaterThan(3000);
    // Another endpoint has its own allowance.
    expect((await gql(b, who, TEST_EVENT, { endpoint: two.id })).errors).toBeUndefined();
    await waitFor('all sent', async () => {
      const items = await log(who, one.id);
      return items.length === 3 && items.every((d) => d.status === 'SUCCEEDED');
    });
    for (const delivery of sent.slice(0, 2)) {
      expect((await gql(b, who, REDELIVER, { d: delivery.id })).data!.redeliverWebhook.status).toBe('PENDING');
      await waitFor('redelivered', async () => (await log(who, one.id)).every((d) => d.status === 'SUCCEEDED'));
    }
    const third = await gql(b, who, REDELIVER, { d: sent[2].id });
    expect(third.errors![0]!.extensions.code).toBe('THROTTLED');
    expect(r.requests).toHaveLength(6);
  });

  it('caps the deliveries waiting per endpoint: test events refused, events recorded as dropped', async () => {
    const who = await keyCaller(b);
    const addon = await createAddon(b.em(), { authors: [{ id: who.id }] });
    const hang = await receiver(() => 'hang');
    const { id } = await createEndpoint(who, { url: hang.url, events: ['addon.disabled'] }, b);
    const conn = b.em().getConnection();
    // Five deliveries waiting for their retry tomorrow.
    await conn.execute(
      `insert into webhook_deliveries (endpoint_id, event_id, type, occurred_at, payload, status, attempts, next_attempt_at)
        select ?, 'waiting-' || g, 'webhook.test', now(), '{"type":"webhook.test","data":{}}'::jsonb, 'failed', 1,
          now() + interval '1 day' from generate_series(1, 5) g`,
      [id],
    );
    const refused = await gql(b, who, TEST_EVENT, { endpoint: id });
    expect(refused.errors![0]!.extensions.code).toBe('CONFLICT');
    expect(refused.errors![0]!.message).toBe('Refused: the endpoint already has 5 deliveries waiting to be sent.');
    await b.app.db
      .fork()
      .transactional((tx) =>
        b.app.services.events.publish(tx, 'addon.disabled', { addonId: addon.id, by: 'developer' }, null),
      );
    const [dropped] = await waitFor('recorded', async () => {
      const items = await log(who, id);
      return items.length === 6 && items;
    });
    expect(dropped).toMatchObject({
      type: 'addon.disabled',
      status: 'DROPPED',
      attempts: 0,
      lastError: 'Not sent: the endpoint already has 5 deliveries waiting to be sent.',
    });
    // One fewer waiting: a test event is accepted, and the endpoint is full again for a redelivery.
    await conn.execute(`update webhook_deliveries set status = 'succeeded' where event_id = 'waiting-1'`);
    expect((await gql(b, who, TEST_EVENT, { endpoint: id })).errors).toBeUndefined();
    const again = await gql(b, who, REDELIVER, { d: dropped!.id });
    expect(again.errors![0]!.message).toBe('Refused: the endpoint already has 5 deliveries waiting to be sent.');
    await gql(b, who, `mutation($id: Int!) { deleteWebhookEndpoint(id: $id) }`, { id });
  });

  it('suspends an endpoint that keeps failing, with the reason in its log; its owner resumes it', async () => {
    const who = await keyCaller(b);
    let healthy = false;
    const r = await receiver(() => (healthy ? 200 : 500));
    const { id } = await createEndpoint(who, { url: r.url }, b);
    const sent = (await gql(b, who, TEST_EVENT, { endpoint: id })).data!.sendTestWebhookEvent;
    const [endpoint] = await waitFor('suspended', async () => {
      const list = (await gql(b, who, ENDPOINTS)).data!.webhookEndpoints as Record<string, any>[];
      return list[0]!.suspendedAt !== null && list;
    });
    const reason =
      'Suspended after 3 consecutive failed attempts (the last: HTTP 500); resume it with resumeWebhookEndpoint.';
    expect(endpoint).toMatchObject({ id, suspendedReason: reason });
    const [delivery] = await log(who, id);
    expect(delivery).toMatchObject({ id: sent.id, status: 'FAILED', attempts: 3, lastError: reason });
    expect(r.requests).toHaveLength(3);
    // A run of a suspended endpoint attempts nothing, though its delivery's retry time has come.
    const conn = b.em().getConnection();
    await waitFor('released', async () => {
      const [row] = await conn.execute('select send_lease_owner from webhook_endpoints where id = ?', [id]);
      return row.send_lease_owner === null;
    });
    await b.app.services.webhookDeliveries.runner.run(id, 'probe');
    expect(r.requests).toHaveLength(3);
    expect((await log(who, id))[0]).toMatchObject({ attempts: 3, status: 'FAILED' });
    const test = await gql(b, who, TEST_EVENT, { endpoint: id });
    expect(test.errors![0]!.extensions.code).toBe('CONFLICT');
    expect(test.errors![0]!.message).toMatch(/suspended/);
    // Someone else cannot resume it.
    const stranger2 = await keyCaller(b);
    const resume = `mutation($id: Int!) { resumeWebhookEndpoint(id: $id) { id suspendedAt suspendedReason } }`;
    expect((await gql(b, stranger2, resume, { id })).errors![0]!.extensions.code).toBe('NOT_FOUND');
    healthy = true;
    const resumed = await gql(b, who, resume, { id });
    expect(resumed.data!.resumeWebhookEndpoint).toEqual({ id, suspendedAt: null, suspendedReason: null });
    const [done] = await waitFor('delivered', async () => {
      const items = await log(who, id);
      return items[0]!.status === 'SUCCEEDED' && items;
    });
    expect(done).toMatchObject({ id: sent.id, attempts: 4, lastStatusCode: 200, lastError: null });
    expect(r.requests).toHaveLength(4);
  });

  it('300 deliveries waiting behind a receiver that never answers: one attempt at a time, no polling', async () => {
    const who = await keyCaller(b);
    const hang = await receiver(() => 'hang');
    const { id } = await createEndpoint(who, { url: hang.url }, b);
    await backlog(id, 'backlog', 300);
    await b.app.services.webhookDeliveries.runner.wake(id);
    await waitFor('the first attempt', async () => hang.requests.length === 1);
    const [jobsBefore, statementsBefore] = [await deliverJobs(), statements];
    // The first attempt times out (2 s); meanwhile the 299 others wait without being looked at.
    await waitFor('the second attempt', async () => hang.requests.length === 2);
    const jobs = (await deliverJobs()) - jobsBefore;
    const spent = statements - statementsBefore;
    // One attempt's statements (lease, pick, claim, result): not a function of the backlog.
    expect(jobs).toBeLessThanOrEqual(2);
    expect(spent).toBeLessThan(30);
    // The endpoint backed off as long as the first delivery's retry wait: the retry comes first, in order.
    const payloads = hang.requests.map((q) => JSON.parse(q.body).data.sequence);
    expect(payloads).toEqual([1, 1]);
    await gql(b, who, `mutation($id: Int!) { deleteWebhookEndpoint(id: $id) }`, { id });
  });

  it('backs an endpoint off after each failed attempt, doubling; a success clears it', async () => {
    const who = await keyCaller(b);
    let healthy = false;
    const r = await receiver(() => (healthy ? 200 : 503));
    const { id } = await createEndpoint(who, { url: r.url }, b);
    const conn = b.em().getConnection();
    await backlog(id, 'backoff', 4);
    const runner = b.app.services.webhookDeliveries.runner;
    // Holds the back-off an hour longer (so that the run's own timed wake-up finds it still on) and
    // reports what the run left: seconds of back-off and the failures in a row.
    const hold = async () => {
      const [row] = await conn.execute(
        `update webhook_endpoints set backoff_until = backoff_until + interval '1 hour' where id = ?
          returning extract(epoch from backoff_until - interval '1 hour' - now())::float8 as left, consecutive_failures`,
        [id],
      );
      return row as { left: number; consecutive_failures: number };
    };
    // One run: one attempt, then the run ends (four deliveries are due, but the endpoint backs off).
    await runner.run(id, 'probe-1');
    const first = await hold();
    expect(r.requests).toHaveLength(1);
    expect(first.consecutive_failures).toBe(1);
    expect(first.left).toBeGreaterThan(0);
    expect(first.left).toBeLessThanOrEqual(0.2);
    // A run during the back-off attempts nothing.
    await runner.run(id, 'probe-2');
    expect(r.requests).toHaveLength(1);
    // The run's timed wake-up (at 0.2 s) has found the back-off held, and let the lease go.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await waitFor('released', async () => {
      const [row] = await conn.execute('select send_lease_owner from webhook_endpoints where id = ?', [id]);
      return row.send_lease_owner === null;
    });
    // The back-off over, the second failure backs off twice as long (0.4 s).
    await conn.execute(`update webhook_endpoints set backoff_until = now() where id = ?`, [id]);
    await runner.run(id, 'probe-3');
    const second = await hold();
    expect(r.requests).toHaveLength(2);
    expect(second.consecutive_failures).toBe(2);
    expect(second.left).toBeGreaterThan(0.2);
    expect(second.left).toBeLessThanOrEqual(0.4);
    // A success clears it.
    healthy = true;
    await conn.execute(`update webhook_endpoints set backoff_until = now() where id = ?`, [id]);
    await runner.wake(id);
    await waitFor('all delivered', async () => (await log(who, id)).every((d) => d.status === 'SUCCEEDED'));
    const [after] = await conn.execute(
      `select backoff_until, consecutive_failures from webhook_endpoints where id = ?`,
      [id],
    );
    expect(after).toEqual({ backoff_until: null, consecutive_failures: 0 });
    expect(r.requests).toHaveLength(6);
    await gql(b, who, `mutation($id: Int!) { deleteWebhookEndpoint(id: $id) }`, { id });
  });

  it('one user’s endpoints that never answer do not hold up another user’s deliveries', async () => {
    // Ten endpoints (the most one user may have), each with a backlog, against a receiver that
    // never answers: more than the eight sending slots. Without the back-off each would keep its
    // slot for a 60 s run, attempt after timed-out attempt.
    // Not suspended meanwhile (this app suspends after 3 failures): the back-off alone must do it.
    const options = (
      b.app.services.webhookDeliveries.runner as unknown as { options: { suspendAfterFailures: number } }
    ).options;
    const suspendAfter = options.suspendAfterFailures;
    options.suspendAfterFailures = 1000;
    const attacker = await keyCaller(b);
    const hang = await receiver(() => 'hang');
    const hanging: number[] = [];
    for (let i = 0; i < 10; i++) {
      const { id } = await createEndpoint(attacker, { url: hang.url }, b);
      hanging.push(id);
      await backlog(id, 'stall', 5);
      await b.app.services.webhookDeliveries.runner.wake(id);
    }
    await waitFor('every slot taken', async () => hang.requests.length >= 8);
    const victim = await keyCaller(b);
    const ok = await receiver();
    const { id } = await createEndpoint(victim, { url: ok.url }, b);
    const started = Date.now();
    expect((await gql(b, victim, TEST_EVENT, { endpoint: id })).errors).toBeUndefined();
    await waitFor('delivered', async () => ok.requests.length === 1, 30_000);
    // A slot frees after one timeout (2 s); the old runner held each for its 60 s budget.
    expect(Date.now() - started).toBeLessThan(20_000);
    options.suspendAfterFailures = suspendAfter;
    for (const endpoint of [...hanging, id])
      await gql(b, endpoint === id ? victim : attacker, `mutation($id: Int!) { deleteWebhookEndpoint(id: $id) }`, {
        id: endpoint,
      });
  }, 60_000);
});
