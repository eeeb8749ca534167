import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signJwt } from '../src/auth/jwt.js';
import { TEST_SECRET_KEY } from './helpers/app.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { freePort, runTs, startTs } from './helpers/process.js';
import { startTestS3, type TestS3 } from './helpers/s3.js';
import { extension, waitFor } from './helpers/signing.js';

/**
 * Scale-out (issue 11, item 7): two service processes share one PostgreSQL database and one
 * object store. The web process takes an upload (its own job workers off); the other process's
 * workers validate and sign it; the signed file is downloadable from both, and both answer the
 * same state. Each process has its own DATA_DIR, so nothing goes through a shared local disk.
 */

const postgres = process.env.DATABASE_URL;
const now = () => Math.floor(Date.now() / 1000);

(postgres ? describe : describe.skip)('two processes, one database, one object store', () => {
  let db: TestDatabase;
  let s3: TestS3;
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  let web: string;
  let worker: string;
  let env: Record<string, string>;

  async function start(jobWorkers: boolean, extra: Record<string, string> = {}): Promise<string> {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'addons-scale-'));
    dirs.push(dataDir);
    const child = startTs('src/main.ts', {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      JOB_WORKERS: String(jobWorkers),
      ...extra,
    });
    let output = '';
    child.stderr?.on('data', (d) => (output += d));
    children.push(child);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      `process on ${port} (${output})`,
      () =>
        fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        ),
      90_000,
    );
    return base;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    s3 = await startTestS3();
    const url = (db.target as { url: string }).url;
    env = { ...s3.env, DATABASE_URL: url, SECRET_KEY: TEST_SECRET_KEY, SITE_URL: 'http://addons.test' };
    // The web process first (it applies the migrations), then the worker process.
    web = await start(false);
    worker = await start(true);
  }, 180_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map((c) => new Promise((resolve) => (c.exitCode !== null ? resolve(null) : c.once('exit', resolve)))),
    );
    await s3?.close();
    await db?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("an upload accepted by one process is signed by the other's worker and downloadable from both", async () => {
    const created = await runTs('src/cli.ts', ['users:create', '--email', 'scale@example.com', '--api-key'], {
      ...env,
      DATA_DIR: dirs[0],
    });
    expect(created.code).toBe(0);
    const { apiKey } = JSON.parse(created.stdout) as { apiKey: { key: string; secret: string } };
    const auth = () => `JWT ${signJwt({ iss: apiKey.key, iat: now(), exp: now() + 300 }, apiKey.secret)}`;

    const guid = 'scale-out@example.com';
    const form = new FormData();
    form.append('upload', new Blob([await extension({ id: guid, version: '1.0.0' })]), 'addon.xpi');
    const put = await fetch(`${web}/api/v4/addons/${guid}/versions/1.0.0/`, {
      method: 'PUT',
      headers: { Authorization: auth() },
      body: form,
    });
    expect(put.status).toBe(201);

    type Status = {
      processed: boolean;
      valid: boolean;
      reviewed: boolean;
      files: { download_url: string; hash: string; signed: boolean }[];
    };
    const status = (base: string) =>
      fetch(`${base}/api/v4/addons/${guid}/versions/1.0.0/`, { headers: { Authorization: auth() } }).then(
        (r) => r.json() as Promise<Status>,
      );
    // Only the worker process runs jobs: the web process's answer changes because the other signed
    // and then approved it (two steps: the answers are compared once both are done).
    const signed = await waitFor(
      'the upload to be signed and approved',
      async () => {
        const s = await status(web);
        return s.files[0]?.signed && s.reviewed ? s : null;
      },
      90_000,
    );
    expect(signed).toMatchObject({ processed: true, valid: true });
    expect(await status(worker)).toEqual(signed);

    const path = new URL(signed.files[0].download_url).pathname;
    const downloads = await Promise.all(
      [web, worker].map(async (base) => {
        const res = await fetch(`${base}${path}`, { headers: { Authorization: auth() } });
        expect(res.status).toBe(200);
        return Buffer.from(await res.arrayBuffer());
      }),
    );
    expect(downloads[0].equals(downloads[1])).toBe(true);
    expect(`sha256:${createHash('sha256').update(downloads[0]).digest('hex')}`).toBe(signed.files[0].hash);

    // A reviewer browses the signed package: the tree is computed by one process (the whole package
    // read once from the object store), then each process reads single files by ranged GETs.
    const reviewer = await runTs(
      'src/cli.ts',
      ['users:create', '--email', 'reviewer@example.com', '--permission', 'Addons:ReviewUnlisted', '--session'],
      { ...env, DATA_DIR: dirs[0] },
    );
    expect(reviewer.code).toBe(0);
    const { sessionToken } = JSON.parse(reviewer.stdout) as { sessionToken: string };
    const asReviewer = { Authorization: `Bearer ${sessionToken}` };
    const addon = (await fetch(`${web}/api/v4/addons/addon/${guid}/`, { headers: asReviewer }).then((r) =>
      r.json(),
    )) as { id: number };
    const versionsUrl = `/api/v4/reviewers/addon/${addon.id}/versions/`;
    const versions = (await fetch(`${web}${versionsUrl}`, { headers: asReviewer }).then((r) => r.json())) as {
      id: number;
    }[];
    expect(versions).toHaveLength(1);
    const browse = async (base: string, file: string) => {
      const res = await fetch(`${base}${versionsUrl}${versions[0].id}/?file=${file}`, { headers: asReviewer });
      expect(res.status).toBe(200);
      return (await res.json()) as { file: { content: string; sha256: string } };
    };
    const manifest = await browse(web, 'manifest.json');
    expect(JSON.parse(manifest.file.content).browser_specific_settings.gecko.id).toBe(guid);
    for (const base of [worker, web]) {
      const util = await browse(base, 'lib/util.js');
      expect(util.file.content).toBe('export const answer = 42;\n');
      expect(util.file.sha256).toBe(createHash('sha256').update(util.file.content).digest('hex'));
    }
  }, 150_000);

  it('WEB_PROCESSES=2 serves one port from two processes and stops them together', async () => {
    const base = await start(false, { WEB_PROCESSES: '2' });
    const supervisor = children[children.length - 1];
    const pid = supervisor.pid!;
    const webProcesses = () =>
      readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    const pids = await waitFor('two web processes', async () => (webProcesses().length === 2 ? webProcesses() : null));
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${base}/api/v4/addons/search/?q=scale`).then((r) => r.status)),
    );
    expect(answers.every((status) => status === 200)).toBe(true);
    const exited = new Promise((resolve) => supervisor.once('exit', (code) => resolve(code)));
    supervisor.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const child of pids) expect(() => process.kill(child, 0)).toThrow();
  }, 120_000);
});
