import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { openDatabase, type Database, type DatabaseTarget } from '../db/database.js';
import { databaseSchema } from '../modules.js';
import { crashQueues, type CrashJobs } from './__tests__/crash-jobs.js';
import { createJobQueue } from './pg-boss.queue.js';
import type { JobQueue } from './queue.port.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const reported: string[] = [];
const logger = pino({ level: 'error' }, { write: (line: string) => void reported.push(line) });

async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Runs the crash worker until its handler holds a job, kills it with SIGKILL, returns the job's id. */
async function crashWorker(target: DatabaseTarget): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--no-warnings', '--import', '@swc-node/register/esm-register', 'src/jobs/__tests__/crash-worker.ts'],
    {
      cwd: ROOT,
      env: { ...process.env, JOBS_TEST_TARGET: JSON.stringify(target) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      const { active } = JSON.parse(line) as { active: string };
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      return active;
    }
    throw new Error('The crash worker exited before running its job');
  } finally {
    child.kill('SIGKILL');
  }
}

let testDb: TestDatabase;
let dataDir: string;
let target: DatabaseTarget;
let db: Database | undefined;
let queue: JobQueue<CrashJobs> | undefined;

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'addons-jobs-'));
  // PGlite in memory cannot outlive the child: the embedded case uses a data directory.
  target = testDb.target.kind === 'postgres' ? testDb.target : { kind: 'embedded', dataDir };
});

afterEach(async () => {
  await queue?.stop({ graceful: false });
  await db?.close();
  queue = db = undefined;
  expect(reported).toEqual([]);
});

afterAll(async () => {
  await testDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a job whose process was killed mid-run is delivered again at once, and completed once', async () => {
  const id = await crashWorker(target);

  db = await openDatabase(target, { ...databaseSchema, logger });
  queue = createJobQueue<CrashJobs>(db, { queues: crashQueues, logger, pollIntervalSeconds: 0.1 });
  await queue.start();
  const runs: string[] = [];
  await queue.work('crash', async (job) => {
    runs.push(job.id);
    return { validated: job.data.upload };
  });

  const job = await waitFor(async () => {
    const info = await queue!.getJob('crash', id);
    return info?.state === 'completed' && info;
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(runs).toEqual([id]);
  expect(job).toMatchObject({ retryCount: 1, output: { validated: 'u1' } });
  expect((await queue.stats()).crash).toMatchObject({ active: 0, completed: 1, retry: 0, created: 0 });
});

const onPostgres = process.env.DATABASE_URL ? test : test.skip;

onPostgres('another live instance keeps its job: only dead owners are recovered', async () => {
  db = await openDatabase(target, { ...databaseSchema, logger });
  const options = { queues: crashQueues, logger, pollIntervalSeconds: 0.1, recoverIntervalSeconds: 0.2 };
  const owner = createJobQueue<CrashJobs>(db, options);
  queue = createJobQueue<CrashJobs>(db, options);
  await owner.start();
  let release = () => {};
  const ownerRuns: string[] = [];
  await owner.work('crash', async (job) => {
    ownerRuns.push(job.id);
    await new Promise<void>((resolve) => (release = resolve));
  });
  const id = (await owner.send('crash', { upload: 'u2' }))!;
  await waitFor(async () => ownerRuns.length === 1);

  await queue.start();
  const otherRuns: string[] = [];
  await queue.work('crash', async (job) => void otherRuns.push(job.id));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect((await queue.getJob('crash', id))?.state).toBe('active');
  expect(otherRuns).toEqual([]);

  release();
  await waitFor(async () => (await queue!.getJob('crash', id))?.state === 'completed');
  await owner.stop();
  expect(ownerRuns).toEqual([id]);
  expect(otherRuns).toEqual([]);
});

onPostgres('a lost owner lease is taken again, and work goes on', async () => {
  db = await openDatabase(target, { ...databaseSchema, logger });
  queue = createJobQueue<CrashJobs>(db, { queues: crashQueues, logger, pollIntervalSeconds: 0.1 });
  await queue.start();
  const runs: string[] = [];
  await queue.work('crash', async (job) => void runs.push(job.id));

  await db
    .fork()
    .getConnection()
    .execute(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'addons-jobs-lease' and datname = current_database()`,
    );
  await waitFor(async () => reported.length > 0);
  expect(reported.join('')).toContain('terminating connection due to administrator command');
  reported.length = 0;

  const id = (await queue.send('crash', { upload: 'u3' }))!;
  await waitFor(async () => (await queue!.getJob('crash', id))?.state === 'completed');
  expect(runs).toEqual([id]);
  const leases = await db
    .fork()
    .getConnection()
    .execute(
      `select count(*)::int as n from pg_stat_activity where application_name = 'addons-jobs-lease' and datname = current_database()`,
    );
  expect(leases).toEqual([{ n: 1 }]);
});
