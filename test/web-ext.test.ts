/**
 * The acceptance test of the v5 submission API: the real web-ext 10.7.0 and 7.12.0 (with
 * `--use-submission-api`) run as child processes against a running server (its own process, on
 * the test database) with an API key made by the CLI: unlisted signing ends with a downloaded file
 * that verifies, a listed submission waits for review as web-ext reports it, and an add-on without
 * an id gets one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signJwt } from '../src/auth/jwt.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { freePort, ROOT, runTs, startTs } from './helpers/process.js';
import { readCaPem, verifyCoseSignedPackage, verifySignedPackage, waitFor, zipFiles } from './helpers/signing.js';
import { TEST_SECRET_KEY } from './helpers/app.js';

let dataDir: string;
let database: TestDatabase;
let server: ChildProcess | null = null;
let base: string;
let key: { key: string; secret: string };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'web-ext-'));
  database = await createTestDatabase();
  const env = {
    DATA_DIR: dataDir,
    SECRET_KEY: TEST_SECRET_KEY,
    SIGNING_CA_KEY_BITS: '2048',
    SIGNING_KEY_POOL: '2',
    ...(database.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
  };
  // The CLI runs first: on the embedded database only one process may open the data directory.
  const created = await runTs('src/cli.ts', ['users:create', '--email', 'dev@example.com', '--api-key'], env, 120_000);
  expect(created.code).toBe(0);
  ({ apiKey: key } = JSON.parse(created.stdout));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = startTs('src/main.ts', { ...env, PORT: String(port), HOST: '127.0.0.1' });
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
}, 240_000);

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  output: string;
}

const CLIENTS = [
  { name: 'web-ext 10.7.0', script: 'node_modules/web-ext/bin/web-ext.js', flags: [] as string[], v10: true },
  {
    name: 'web-ext 7.12.0',
    script: 'node_modules/web-ext-7/bin/web-ext.js',
    flags: ['--use-submission-api'],
    v10: false,
  },
] as const;
type Client = (typeof CLIENTS)[number];

/** `web-ext sign` against the server, offline: no config discovery, no update check, no prompts. */
function webExtSign(client: Client, sourceDir: string, args: string[], timeoutMs = 170_000): Promise<Run> {
  const artifacts = join(sourceDir, '..', 'artifacts');
  const argv = [
    join(ROOT, client.script),
    'sign',
    '--no-config-discovery',
    '--no-input',
    '--source-dir',
    sourceDir,
    '--artifacts-dir',
    artifacts,
    '--amo-base-url',
    `${base}/api/v5/`,
    '--api-key',
    key.key,
    '--api-secret',
    key.secret,
    ...client.flags,
    ...args,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, {
      cwd: join(sourceDir, '..'),
      env: { ...process.env, NO_UPDATE_NOTIFIER: '1', WEB_EXT_NO_CONFIG_DISCOVERY: 'true', NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`web-ext timed out:\n${output}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** A small MV2 extension in its own directory (`<tmp>/src`), with `id` in its manifest unless null. */
function sourceDir(label: string, id: string | null, version = '1.0.0'): string {
  const root = mkdtempSync(join(dataDir, `${label}-`));
  const dir = join(root, 'src');
  mkdirSync(dir);
  const gecko = {
    ...(id ? { id } : {}),
    strict_min_version: '91.0',
    data_collection_permissions: { required: ['none'] },
  };
  const manifest = {
    manifest_version: 2,
    name: `Web-ext test ${label}`,
    version,
    description: 'Signed by the real web-ext.',
    background: { scripts: ['background.js'] },
    browser_specific_settings: { gecko },
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, 'background.js'), 'console.log("hello from the background");\n');
  return dir;
}

function downloaded(dir: string): string[] {
  const artifacts = join(dir, '..', 'artifacts');
  return existsSync(artifacts) ? readdirSync(artifacts).filter((f) => f.endsWith('.xpi')) : [];
}

const jwt = () => {
  const now = Math.floor(Date.now() / 1000);
  return `JWT ${signJwt({ iss: key.key, iat: now, exp: now + 300 }, key.secret)}`;
};

async function api(path: string) {
  const response = await fetch(`${base}/api/v5${path}`, { headers: { Authorization: jwt() } });
  return { status: response.status, body: (await response.json()) as any };
}

const slug = (client: Client) => (client.v10 ? 'v10' : 'v7');

describe.each(CLIENTS)('$name against the v5 submission API', (client) => {
  it('signs an unlisted add-on: the downloaded file verifies (PKCS#7 with openssl cms -verify, and COSE)', async () => {
    const guid = `web-ext-${slug(client)}-unlisted@example.com`;
    const dir = sourceDir(`${slug(client)}-unlisted`, guid);
    const run = await webExtSign(client, dir, ['--channel', 'unlisted', '--timeout', '150000']);
    expect({ code: run.code, output: run.output }).toMatchObject({ code: 0 });
    const files = downloaded(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.xpi$/);
    const bytes = readFileSync(join(dir, '..', 'artifacts', files[0]));
    expect(await verifySignedPackage(bytes, readCaPem(dataDir))).toContain(`CN = ${guid}`);
    // The COSE signature too (the browser checks both).
    expect(await verifyCoseSignedPackage(bytes, readCaPem(dataDir))).toContain(guid);
    // What the server recorded: one unlisted version, its file approved (public) and signed.
    const versions = await api(`/addons/addon/${encodeURIComponent(guid)}/versions/?filter=all_with_unlisted`);
    expect(versions.status).toBe(200);
    expect(versions.body.results).toHaveLength(1);
    expect(versions.body.results[0]).toMatchObject({ version: '1.0.0', channel: 'unlisted' });
    expect(versions.body.results[0].file.status).toBe('public');
  }, 200_000);

  it('gives an add-on without an id one, and signs it', async () => {
    const dir = sourceDir(`${slug(client)}-noid`, null, '2.0');
    const run = await webExtSign(client, dir, ['--channel', 'unlisted', '--timeout', '150000']);
    expect({ code: run.code, output: run.output }).toMatchObject({ code: 0 });
    const id = /Generated extension ID: (\{[0-9a-f-]{36}\})/.exec(run.output)?.[1];
    expect(id).toBeDefined();
    // web-ext keeps the generated id next to the sources.
    expect(readFileSync(join(dir, '.web-extension-id'), 'utf8')).toContain(id!);
    const files = downloaded(dir);
    expect(files).toHaveLength(1);
    const bytes = readFileSync(join(dir, '..', 'artifacts', files[0]));
    expect(await verifySignedPackage(bytes, readCaPem(dataDir))).toContain(`CN = ${id}`);
    expect(await verifyCoseSignedPackage(bytes, readCaPem(dataDir))).toContain(id);
  }, 200_000);

  it('submits a listed version, which waits for review as web-ext reports it', async () => {
    const guid = `web-ext-${slug(client)}-listed@example.com`;
    const dir = sourceDir(`${slug(client)}-listed`, guid);
    const metadata = join(dir, '..', 'metadata.json');
    writeFileSync(
      metadata,
      JSON.stringify({
        categories: ['other'],
        summary: { 'en-US': 'A listed add-on submitted by web-ext.' },
        version: { license: 'MPL-2.0' },
      }),
    );
    const args = ['--channel', 'listed', '--amo-metadata', metadata];
    // web-ext 10 can stop waiting for approval at once; 7 waits until its overall timeout.
    const run = await webExtSign(
      client,
      dir,
      client.v10 ? [...args, '--timeout', '150000', '--approval-timeout', '0'] : [...args, '--timeout', '20000'],
    );
    const versions = await api(`/addons/addon/${encodeURIComponent(guid)}/versions/?filter=all_with_unlisted`);
    expect(versions.status).toBe(200);
    expect(versions.body.results).toHaveLength(1);
    const [version] = versions.body.results;
    expect(version).toMatchObject({ version: '1.0.0', channel: 'listed', license: { name: expect.anything() } });
    expect(version.file.status).toBe('unreviewed');
    if (client.v10) {
      expect(run.code).toBe(0);
      expect(run.output).toContain(
        'Waiting for approval and download of signed XPI skipped. ' +
          `When approved the signed XPI file can be downloaded from ${version.edit_url}`,
      );
    } else {
      expect(run.code).toBe(1);
      expect(run.output).toContain('Approval: timeout.');
    }
    expect(downloaded(dir)).toHaveLength(0);
  }, 200_000);
});

describe('web-ext 10.7.0: a listed submission without its listing', () => {
  it("fails with v5's field errors, printed by web-ext", async () => {
    const dir = sourceDir('v10-listed-bare', 'web-ext-v10-bare@example.com');
    const run = await webExtSign(CLIENTS[0], dir, ['--channel', 'listed', '--timeout', '150000']);
    expect(run.code).toBe(1);
    expect(run.output).toContain('Submission failed (2): Bad Request');
    expect(run.output).toContain('This field is required for add-ons with listed versions.');
    expect(run.output).toContain('This field is required for listed versions.');
    // The upload was not submitted: no add-on.
    expect((await api('/addons/addon/web-ext-v10-bare@example.com/versions/')).status).toBe(404);
  }, 200_000);
});

describe('web-ext 10.7.0: sign --upload-source-code', () => {
  it('attaches the source archive to the new version (PATCH), which its author then downloads', async () => {
    const guid = 'web-ext-v10-source@example.com';
    const dir = sourceDir('v10-source', guid);
    const archive = join(dir, '..', 'source.zip');
    const sourceBytes = await zipFiles({ 'src/background.js': 'console.log("hello");\n', 'BUILD.md': 'npm ci\n' });
    writeFileSync(archive, sourceBytes);
    const run = await webExtSign(CLIENTS[0], dir, [
      '--channel',
      'unlisted',
      '--upload-source-code',
      archive,
      '--timeout',
      '150000',
    ]);
    expect({ code: run.code, output: run.output }).toMatchObject({ code: 0 });
    expect(run.output).toContain('Submitting source to version');
    expect(downloaded(dir)).toHaveLength(1);
    const versions = await api(`/addons/addon/${encodeURIComponent(guid)}/versions/?filter=all_with_unlisted`);
    expect(versions.body.results).toHaveLength(1);
    const [version] = versions.body.results;
    expect(version).toMatchObject({ version: '1.0.0', has_source: true });
    const source = await fetch(`${base}/downloads/source/${version.id}`, { headers: { Authorization: jwt() } });
    expect(source.status).toBe(200);
    expect(source.headers.get('content-disposition')).toMatch(/^attachment; filename=".+-1\.0\.0-src\.zip"$/);
    expect(Buffer.from(await source.arrayBuffer())).toEqual(sourceBytes);
    // Not for anyone else.
    expect((await fetch(`${base}/downloads/source/${version.id}`)).status).toBe(401);
  }, 200_000);
});

describe('v5 paths', () => {
  it('serves the whole v5 table beside the submission routes; unknown v5 paths are the usual 404', async () => {
    const profile = await fetch(`${base}/api/v5/accounts/profile/`, { headers: { Authorization: jwt() } });
    expect(profile.status).toBe(200);
    expect(await profile.json()).toMatchObject({ site_status: { read_only: false } });
    expect((await fetch(`${base}/api/v5/addons/search/`)).status).toBe(200);
    for (const path of ['/addons/addon/x/versions/1/nope/', '/nothing/']) {
      const response = await fetch(`${base}/api/v5${path}`, { headers: { Authorization: jwt() } });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ detail: 'Not found.' });
    }
  });

  it("answers v5's field errors and DRF's authentication error", async () => {
    const form = new FormData();
    form.set('upload', new Blob([Buffer.from('not a zip')]), 'bad.zip');
    const noChannel = await fetch(`${base}/api/v5/addons/upload/`, {
      method: 'POST',
      headers: { Authorization: jwt() },
      body: form,
    });
    expect(noChannel.status).toBe(400);
    expect(noChannel.headers.get('content-type')).toBe('application/json');
    expect(await noChannel.json()).toEqual({ channel: ['This field is required.'] });

    const unknown = await fetch(`${base}/api/v5/addons/addon/`, {
      method: 'POST',
      headers: { Authorization: jwt(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ version: { upload: 'f'.repeat(32) } }),
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ upload: [`Object with uuid=${'f'.repeat(32)} does not exist.`] });

    const anonymous = await fetch(`${base}/api/v5/addons/upload/${'f'.repeat(32)}/`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
  });
});
