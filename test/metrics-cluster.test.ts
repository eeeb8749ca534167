import { once } from 'node:events';
import { get as httpGet } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SECRET_KEY } from './helpers/app.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { freePort, startTs } from './helpers/process.js';
import { parseExposition, sampleValue } from './helpers/prometheus.js';
import { waitFor } from './helpers/signing.js';

/**
 * Metrics with WEB_PROCESSES=2 (issue 23, item 9): connections are shared out between the web
 * processes, yet every scrape, whichever process answers it, counts the requests of both.
 * Needs DATABASE_URL (several processes cannot share the embedded database).
 */

const postgres = process.env.DATABASE_URL;

/** A GET on a connection of its own, so that node:cluster hands each to the next process. */
function getOnce(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { agent: false }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    }).on('error', reject);
  });
}

(postgres ? describe : describe.skip)('metrics of several web processes', () => {
  let database: TestDatabase;
  let dataDir: string;
  let child: ReturnType<typeof startTs>;
  let stderr = '';

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'addons-metrics-cluster-'));
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('answers every scrape with the sum over all processes', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = startTs('src/main.ts', {
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DATABASE_URL: (database.target as { url: string }).url,
      SECRET_KEY: TEST_SECRET_KEY,
      WEB_PROCESSES: '2',
      DATABASE_POOL_MAX: '3',
      JOB_WORKERS: 'false',
    });
    child.stderr!.on('data', (d) => (stderr += d));
    const scrape = async () => {
      const res = await getOnce(`${base}/metrics`);
      expect(res.status).toBe(200);
      return parseExposition(res.text);
    };
    // Both processes answer once the pools of both are summed: 2 x DATABASE_POOL_MAX.
    await waitFor(
      'two web processes',
      async () => {
        const res = await getOnce(`${base}/metrics`).catch(() => null);
        return res?.status === 200 && sampleValue(parseExposition(res.text), 'addons_db_pool_max') === 6;
      },
      120_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${stderr}`);
    });

    for (let i = 0; i < 20; i++) expect((await getOnce(`${base}/api/v4/site/`)).status).toBe(200);
    for (let i = 0; i < 4; i++) {
      const families = await scrape();
      const site = { route: '/api/v4/site/', method: 'GET', status: '200' };
      expect(sampleValue(families, 'addons_http_requests_total', site)).toBe(20);
      expect(sampleValue(families, 'addons_http_request_duration_seconds_count', site)).toBe(20);
    }
  }, 180_000);
});
