import { loadConfig, ConfigError } from '../src/config.js';
import type { Addon } from '../src/catalogue/addon.entity.js';
import {
  documentOperationName,
  MAX_OPERATION_NAMES,
  OPERATION_LABEL_IDLE_MS,
  OperationLabels,
  RouteLabels,
} from '../src/ops/labels.js';
import { routes } from '../rest-compat/routes/index.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { parseExposition, sampleValue, type Family } from './helpers/prometheus.js';

/**
 * Issue 23, items 9 and 10: `GET /metrics` in Prometheus's text format (scraped and parsed
 * strictly after real traffic), bounded labels (route templates, GraphQL operation names), who
 * may scrape, and `/readyz`.
 */

const TOKEN = 'metrics-token-0123456789abcdef0123456789';
const DETAIL = '/api/v4/addons/addon/:addon/';

let t: TestApp;
let addon: Addon;

beforeAll(async () => {
  t = await startTestApp({ env: { SITE_URL: 'http://addons.test', METRICS_TOKEN: TOKEN } });
  addon = await createAddon(t.em(), { name: { 'en-US': 'Metered Quokka' } });
}, 120_000);
afterAll(() => t?.close());

async function scrape(): Promise<Map<string, Family>> {
  const res = await t.http.get('/metrics');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-store');
  return parseExposition(res.text);
}

async function graphql(body: object) {
  const res = await t.http.post('/graphql').set('Content-Type', 'application/json').send(body);
  expect(res.status).toBe(200);
  return res;
}

async function waitForJob(name: 'sign-version' | 'index-addon', id: string, state: string) {
  const deadline = Date.now() + 20_000;
  while ((await t.app.services.jobs.getJob(name, id))?.state !== state) {
    if (Date.now() > deadline) {
      const job = await t.app.services.jobs.getJob(name, id);
      throw new Error(`job ${name} ${id} never reached ${state}: ${JSON.stringify(job)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('GET /metrics after traffic', () => {
  let families: Map<string, Family>;
  const detailQuery = 'query MeteredDetail($id: String!) { addon(id: $id) { id slug } }';

  beforeAll(async () => {
    // REST detail by slug and by id: the first is a miss, the others hits; one unknown add-on, one unknown path.
    for (const id of [addon.slug, addon.slug, addon.slug, String(addon.id)]) {
      expect((await t.http.get(`/api/v4/addons/addon/${id}/`)).status).toBe(200);
    }
    expect((await t.http.get('/api/v4/addons/addon/no-such-addon-anywhere/')).status).toBe(404);
    expect((await t.http.get(`/api/v4/no/such/path/${addon.slug}/`)).status).toBe(404);
    // GraphQL: a named query twice (miss, then hit), once naming itself only in the document, an anonymous one.
    await graphql({ query: detailQuery, variables: { id: addon.slug }, operationName: 'MeteredDetail' });
    await graphql({ query: detailQuery, variables: { id: addon.slug }, operationName: 'MeteredDetail' });
    await graphql({ query: detailQuery, variables: { id: addon.slug } });
    await graphql({ query: `{ addon(id: "${addon.slug}") { id } }` });
    // Jobs: one that completes, one whose handler fails (a version id that is not a number) with no retries left.
    const jobs = t.app.services.jobs;
    const done = (await jobs.send('index-addon', { addonId: addon.id }))!;
    const notAnId = 'not-a-number' as unknown as number;
    const failed = (await jobs.send('sign-version', { versionId: notAnId }, { retryLimit: 0 }))!;
    await waitForJob('index-addon', done, 'completed');
    await waitForJob('sign-version', failed, 'failed');
    families = await scrape();
  }, 60_000);

  it('counts requests per route template, method and status, never per raw path', () => {
    expect(sampleValue(families, 'addons_http_requests_total', { route: DETAIL, method: 'GET', status: '200' })).toBe(
      4,
    );
    expect(sampleValue(families, 'addons_http_requests_total', { route: DETAIL, method: 'GET', status: '404' })).toBe(
      1,
    );
    expect(
      sampleValue(families, 'addons_http_requests_total', { route: '/api/(unmatched)', method: 'GET', status: '404' }),
    ).toBe(1);
    const routesSeen = families.get('addons_http_requests_total')!.samples.map((s) => s.labels.route);
    for (const route of routesSeen) {
      expect(route).not.toContain(addon.slug);
      expect(route).not.toMatch(new RegExp(`/${addon.id}/`));
      expect(route).not.toContain('no-such-addon');
    }
    // The histogram's count agrees with the counter.
    expect(
      sampleValue(families, 'addons_http_request_duration_seconds_count', {
        route: DETAIL,
        method: 'GET',
        status: '200',
      }),
    ).toBe(4);
    expect(families.get('addons_http_request_duration_seconds')!.type).toBe('histogram');
    // The scrape itself is in flight while it is being answered.
    expect(sampleValue(families, 'addons_http_requests_in_flight')).toBe(1);
  });

  it('labels GraphQL requests by operation name, anonymous ones as "(other)"', () => {
    const count = (operation: string) =>
      sampleValue(families, 'addons_graphql_requests_total', { operation, method: 'POST', status: '200' });
    expect(count('MeteredDetail')).toBe(3);
    expect(count('(other)')).toBe(1);
    expect(sampleValue(families, 'addons_http_requests_total', { route: '/graphql', status: '200' })).toBe(4);
  });

  it('counts answer-cache hits, misses and stored bytes for REST and GraphQL', () => {
    const lookups = (cache: string, result: string) =>
      sampleValue(families, 'addons_answer_cache_lookups_total', { cache, result });
    // REST: slug (stored; not looked up: the route's parameters were not known yet), slug (hit),
    // slug (hit), id (another key: miss, stored), the unknown add-on (miss, a 404 is not stored).
    expect(lookups('rest', 'hit')).toBe(2);
    expect(lookups('rest', 'miss')).toBe(2);
    // GraphQL: four lookups: the named query (miss, then hit), the same document without
    // operationName (a hit or a miss, as the key names the operation), the anonymous one (miss).
    const graphqlHits = lookups('graphql', 'hit')!;
    expect(graphqlHits).toBeGreaterThanOrEqual(1);
    expect(graphqlHits + lookups('graphql', 'miss')!).toBe(4);
    // Every miss was stored.
    expect(sampleValue(families, 'addons_answer_cache_stores_total', { cache: 'graphql' })).toBe(4 - graphqlHits);
    expect(sampleValue(families, 'addons_answer_cache_stores_total', { cache: 'rest' })).toBe(2);
    expect(sampleValue(families, 'addons_answer_cache_stored_bytes_total', { cache: 'rest' })).toBeGreaterThan(100);
    expect(sampleValue(families, 'addons_answer_cache_bytes')).toBe(t.app.services.responseCache.bytes);
    expect(sampleValue(families, 'addons_answer_cache_entries')).toBe(t.app.services.responseCache.size);
  });

  it('reports job queue depth, durations and failures per queue', () => {
    expect(sampleValue(families, 'addons_job_queue_up')).toBe(1);
    expect(sampleValue(families, 'addons_jobs', { queue: 'sign-version', state: 'failed' })).toBe(1);
    expect(sampleValue(families, 'addons_jobs', { queue: 'validate-upload', state: 'created' })).toBe(0);
    expect(sampleValue(families, 'addons_job_failures_total', { queue: 'sign-version' })).toBe(1);
    const duration = (queue: string, outcome: string) =>
      sampleValue(families, 'addons_job_duration_seconds_count', { queue, outcome });
    expect(duration('index-addon', 'completed')).toBe(1);
    expect(duration('sign-version', 'failed')).toBe(1);
  });

  it("reports the database pool and the process's memory (prom-client's default metrics)", () => {
    expect(sampleValue(families, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
    expect(sampleValue(families, 'nodejs_heap_size_used_bytes', {})).toBeGreaterThan(0);
    if (t.app.db.kind === 'postgres') {
      expect(sampleValue(families, 'addons_db_pool_max')).toBe(5);
      expect(sampleValue(families, 'addons_db_pool_connections', { state: 'used' })).toBeGreaterThanOrEqual(0);
      expect(sampleValue(families, 'addons_db_pool_connections', { state: 'pending_acquire' })).toBe(0);
    }
  });
});

describe('who may scrape', () => {
  it('answers loopback callers without a token, and others only with METRICS_TOKEN', async () => {
    // supertest connects over loopback; a forwarding header marks a request a proxy relayed.
    const relayed = await t.http.get('/metrics').set('X-Forwarded-For', '203.0.113.9');
    expect(relayed.status).toBe(401);
    expect(relayed.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect(relayed.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    const wrong = await t.http
      .get('/metrics')
      .set('X-Forwarded-For', '203.0.113.9')
      .set('Authorization', `Bearer ${TOKEN}x`);
    expect([wrong.status, wrong.body]).toEqual([401, { detail: 'Invalid token.' }]);
    const right = await t.http
      .get('/metrics')
      .set('X-Forwarded-For', '203.0.113.9')
      .set('Authorization', `Bearer ${TOKEN}`);
    expect(right.status).toBe(200);
    expect(right.text).toContain('# TYPE addons_http_requests_total counter');
  });

  it('refuses callers from elsewhere when no token is configured, and is absent with METRICS=off', async () => {
    const open = await startTestApp({ env: { JOB_WORKERS: 'false' } });
    const off = await startTestApp({ env: { JOB_WORKERS: 'false', METRICS: 'off' } });
    try {
      const relayed = await open.http.get('/metrics').set('Forwarded', 'for=203.0.113.9');
      expect([relayed.status, relayed.body]).toEqual([
        403,
        { detail: 'You do not have permission to perform this action.' },
      ]);
      expect((await open.http.get('/metrics')).status).toBe(200);
      const absent = await off.http.get('/metrics');
      expect([absent.status, absent.body]).toEqual([404, { detail: 'Not found.' }]);
      expect(off.app.ops.metrics).toBeNull();
    } finally {
      await open.close();
      await off.close();
    }
  }, 120_000);

  it('checks the settings', () => {
    expect(() => loadConfig({ METRICS: 'maybe' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 32 characters/);
    expect(loadConfig({}).METRICS).toBe('on');
  });
});

describe('bounded labels', () => {
  it('labels every REST path by its template, and unknown paths by one label', () => {
    const labels = new RouteLabels(routes, [1]);
    expect(labels.of('/api/v4/addons/addon/some-slug/').value).toBe(DETAIL);
    expect(labels.of('/api/v3/addons/addon/123/versions/').value).toBe('/api/v3/addons/addon/:addon/versions/');
    expect(labels.of('/api/v4//addons//addon/x/').value).toBe(DETAIL);
    expect(labels.of('/api/v4/addons/addon/x/y/z/').value).toBe('/api/(unmatched)');
    expect(labels.of('/api/v9/anything/').value).toBe('/api/(unmatched)');
    expect(labels.of('/user-media/addon_icons/1/1-64.png').value).toBe('/user-media/*');
    expect(labels.of('/downloads/file/12/a.xpi').value).toBe('/downloads/file/:id/:name');
    expect(labels.of('/developers/upload/abc/json').value).toBe('/developers/upload/:uuid/json');
    expect(labels.of('/wp-login.php').value).toBe('(unmatched)');
    // Each template is one label object, whatever the raw paths.
    expect(labels.of('/api/v4/addons/addon/a/')).toBe(labels.of('/api/v4/addons/addon/b/'));
  });

  it(`gives names of their own to the first ${MAX_OPERATION_NAMES} operations answered, the rest share one`, () => {
    const labels = new OperationLabels([1]);
    expect(labels.of(null, 200).value).toBe('(other)');
    expect(labels.of('Refused', 400).value).toBe('(other)');
    expect(labels.of('not a name!', 200).value).toBe('(other)');
    for (let i = 0; i < MAX_OPERATION_NAMES; i++) expect(labels.of(`Op${i}`, 200).value).toBe(`Op${i}`);
    expect(labels.of('OneTooMany', 200).value).toBe('(other)');
    expect(labels.of('Op7', 500).value).toBe('Op7');
    expect([...labels.all()]).toHaveLength(MAX_OPERATION_NAMES + 1);
  });

  it("labels the operations the server knows (the route table's documents) whatever other names came first", () => {
    const labels = new OperationLabels([1], routes);
    for (let i = 1; i <= 150; i++) labels.of(`Op${i}`, 200);
    expect(labels.of('Op150', 200).value).toBe('(other)');
    expect(labels.of('RestSiteStatus', 200).value).toBe('RestSiteStatus');
    expect(labels.of('RestExchangeOidcToken', 403).value).toBe('RestExchangeOidcToken');
    const values = [...labels.all()].map((label) => label.value);
    expect(values).toContain('RestSiteStatus');
    expect(values.filter((value) => /^Op\d+$/.test(value))).toHaveLength(MAX_OPERATION_NAMES);
  });

  it('gives the place of a name unused for 15 minutes (the least recently used) to a new one', () => {
    let now = 1_000_000;
    const labels = new OperationLabels([1], [], () => now);
    for (let i = 0; i < MAX_OPERATION_NAMES; i++) labels.of(`Burst${i}`, 200);
    now += OPERATION_LABEL_IDLE_MS - 1;
    labels.of('Burst7', 200); // still in use
    expect(labels.of('Real', 200).value).toBe('(other)');
    now += 1;
    expect(labels.of('Real', 200).value).toBe('Real');
    const values = [...labels.all()].map((label) => label.value);
    expect(values).toHaveLength(MAX_OPERATION_NAMES + 1);
    expect(values).toContain('Burst7');
    expect(values).not.toContain('Burst0');
    // Every other burst name expires in turn; the one in use stays.
    for (let i = 0; i < MAX_OPERATION_NAMES - 2; i++) expect(labels.of(`Later${i}`, 200).value).toBe(`Later${i}`);
    expect(labels.of('OneTooMany', 200).value).toBe('(other)');
    expect(labels.of('Burst7', 200).value).toBe('Burst7');
  });

  it("reads a document's operation name with a bounded linear scan", () => {
    expect(documentOperationName('  # a comment\n,query  Named($a: Int) { x }')).toBe('Named');
    expect(documentOperationName('mutation M { x }')).toBe('M');
    expect(documentOperationName('{ x }')).toBeNull();
    expect(documentOperationName('fragment F on T { x } query Q { x }')).toBeNull();
    expect(documentOperationName('#'.repeat(1_000_000) + '\nquery Late { x }')).toBeNull();
  });
});

describe('operation names made up by anonymous callers', () => {
  it('150 of them leave a known operation labelled by its name', async () => {
    for (let i = 1; i <= 150; i++) await graphql({ query: `query Op${i} { __typename }` });
    const site = routes.find((route) => route.document.includes('query RestSiteStatus'))!;
    await graphql({ query: site.document, operationName: 'RestSiteStatus' });
    const families = await scrape();
    const count = (operation: string) =>
      sampleValue(families, 'addons_graphql_requests_total', { operation, method: 'POST', status: '200' });
    expect(count('RestSiteStatus')).toBe(1);
    expect(count('Op150')).toBeUndefined();
  });
});

describe('GET /readyz', () => {
  it('is ready while the database and the job queue answer, and not once the process drains', async () => {
    const app = await startTestApp({ env: { JOB_WORKERS: 'false' } });
    try {
      const ready = await app.http.get('/readyz');
      expect([ready.status, ready.body]).toEqual([200, { status: 'ready', database: 'ok', jobs: 'ok' }]);
      expect(ready.headers['cache-control']).toBe('no-store');
      app.app.ops.readiness.drain();
      const draining = await app.http.get('/readyz');
      expect([draining.status, draining.body]).toEqual([503, { status: 'draining' }]);
      // Liveness is another question: the process still answers.
      expect((await app.http.get('/healthz')).status).toBe(200);
    } finally {
      await app.close();
    }
  }, 120_000);

  it('is 503 while the job queue is unreachable', async () => {
    const app = await startTestApp({ env: { JOB_WORKERS: 'false' } });
    try {
      await app.app.services.jobs.stop();
      const res = await app.http.get('/readyz');
      expect([res.status, res.body]).toEqual([503, { status: 'unavailable', database: 'ok', jobs: 'unavailable' }]);
      await app.app.services.jobs.start();
      expect((await app.http.get('/readyz')).status).toBe(200);
    } finally {
      await app.close();
    }
  }, 120_000);
});
