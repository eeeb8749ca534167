/**
 * The acceptance test of the signing API: sign-addon 6.4.0, the client developers already use,
 * drives a running server (its own process, on the test database) with an API key made by the CLI.
 * Then the process is killed while an upload waits in the queue, and a restart completes it.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signAddon } from 'sign-addon';
import { signJwt } from '../src/auth/jwt.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { freePort, runTs, startTs } from './helpers/process.js';
import { extension, readCaPem, verifySignedPackage, waitFor } from './helpers/signing.js';
import { TEST_SECRET_KEY } from './helpers/app.js';

let dataDir: string;
let database: TestDatabase;
let env: Record<string, string>;
let server: ChildProcess | null = null;
let base: string;
let key: { key: string; secret: string };
let sessionToken: string;

async function startServer(extra: Record<string, string> = {}) {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = startTs('src/main.ts', { ...env, PORT: String(port), HOST: '127.0.0.1', ...extra });
  let output = '';
  server.stderr!.on('data', (d) => (output += d));
  server.stdout!.on('data', (d) => (output += d));
  await waitFor(
    'the server to answer /healthz',
    async () => {
      if (server!.exitCode !== null) throw new Error(`server exited:\n${output}`);
      return (await fetch(`${base}/healthz`).catch(() => null))?.ok;
    },
    120_000,
  );
}

async function stopServer(signal: NodeJS.Signals = 'SIGTERM') {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server!.once('exit', resolve));
  server.kill(signal);
  await exited;
  server = null;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sign-addon-'));
  database = await createTestDatabase();
  env = {
    DATA_DIR: dataDir,
    SECRET_KEY: TEST_SECRET_KEY,
    SIGNING_CA_KEY_BITS: '2048',
    SIGNING_KEY_POOL: '2',
    ...(database.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
  };
  // The CLI runs first: on the embedded database only one process may open the data directory.
  const created = await runTs(
    'src/cli.ts',
    ['users:create', '--email', 'dev@example.com', '--api-key', '--session'],
    env,
    120_000,
  );
  expect(created.code).toBe(0);
  ({ apiKey: key, sessionToken } = JSON.parse(created.stdout));
  await startServer();
}, 240_000);

afterAll(async () => {
  await stopServer();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function xpi(name: string, spec: Parameters<typeof extension>[0]) {
  const path = join(dataDir, name);
  writeFileSync(path, await extension(spec));
  return path;
}

const sign = (options: Record<string, unknown>) =>
  signAddon({
    apiKey: key.key,
    apiSecret: key.secret,
    apiUrlPrefix: `${base}/api/v4`,
    downloadDir: mkdtempSync(join(dataDir, 'downloads-')),
    disableProgressBar: true,
    timeout: 120_000,
    ...options,
  } as Parameters<typeof signAddon>[0]);

const jwt = () => {
  const now = Math.floor(Date.now() / 1000);
  return `JWT ${signJwt({ iss: key.key, iat: now, exp: now + 300 }, key.secret)}`;
};

describe('sign-addon 6.4.0 against the running server', () => {
  it('PUT with an id (unlisted): success, and the downloaded file verifies', async () => {
    const guid = 'sign-addon-put@example.com';
    const result = await sign({
      xpiPath: await xpi('put.xpi', { id: guid }),
      version: '1.0.0',
      id: guid,
      channel: 'unlisted',
    });
    expect(result).toMatchObject({ success: true, id: guid });
    expect(result.downloadedFiles).toHaveLength(1);
    const subject = await verifySignedPackage(readFileSync(result.downloadedFiles[0]), readCaPem(dataDir));
    expect(subject).toContain(`CN = ${guid}`);
  }, 180_000);

  it('POST without an id: success with a generated id', async () => {
    const result = await sign({ xpiPath: await xpi('post.xpi', { id: null, version: '3.1' }), version: '3.1' });
    expect(result.success).toBe(true);
    expect(result.id).toMatch(/^\{[0-9a-f-]{36}\}$/);
    await verifySignedPackage(readFileSync(result.downloadedFiles[0]), readCaPem(dataDir));
  }, 180_000);

  it('a duplicate version ends in SERVER_FAILURE with the 409 message', async () => {
    const guid = 'sign-addon-put@example.com';
    const result = await sign({ xpiPath: await xpi('dup.xpi', { id: guid }), version: '1.0.0', id: guid });
    expect(result).toMatchObject({
      success: false,
      errorCode: 'SERVER_FAILURE',
      errorDetails: 'Version 1.0.0 already exists.',
    });
  }, 60_000);

  it('a listed upload ends in ADDON_NOT_AUTO_SIGNED', async () => {
    const guid = 'sign-addon-put@example.com';
    // Listing metadata first (a listed version needs a summary and categories).
    const listing = await fetch(`${base}/graphql`, {
      method: 'POST',
      // Listing edits take the developer's session: API keys reach the signing operations only.
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${sessionToken}` },
      body: JSON.stringify({
        query: `mutation { updateAddonListing(addon: "${guid}", input: { summary: "Summary", categories: [{ application: BROWSER, slug: "privacy-security" }] }) { id } }`,
      }),
    });
    expect(((await listing.json()) as { errors?: unknown }).errors).toBeUndefined();
    const result = await sign({
      xpiPath: await xpi('listed.xpi', { id: guid, version: '2.0.0' }),
      version: '2.0.0',
      id: guid,
      channel: 'listed',
    });
    expect(result).toMatchObject({ success: false, errorCode: 'ADDON_NOT_AUTO_SIGNED' });
  }, 180_000);
});

describe('an upload queued when the process dies', () => {
  it('is validated and signed after a restart', async () => {
    await stopServer();
    await startServer({ JOB_WORKERS: 'false' });
    const guid = 'crash@example.com';
    const form = new FormData();
    form.append('upload', new Blob([await extension({ id: guid, version: '1.0' })]), 'crash.xpi');
    const put = await fetch(`${base}/api/v4/addons/${encodeURIComponent(guid)}/versions/1.0/`, {
      method: 'PUT',
      headers: { Authorization: jwt() },
      body: form,
    });
    expect(put.status).toBe(201);
    const { url } = (await put.json()) as { url: string };
    await stopServer('SIGKILL');

    await startServer();
    const path = new URL(url).pathname;
    const done = await waitFor(
      'the queued upload to be signed',
      async () => {
        const res = await fetch(`${base}${path}`, { headers: { Authorization: jwt() } });
        const body = (await res.json()) as { files: { signed: boolean }[] };
        return body.files[0]?.signed ? body : null;
      },
      120_000,
    );
    expect(done.files).toHaveLength(1);
  }, 300_000);
});
