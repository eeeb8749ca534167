import { pino } from 'pino';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { CacheTag } from '../db/cache-tag.entity.js';
import { openDatabase, type Database } from '../db/database.js';
import { databaseSchema } from '../modules.js';
import { createJobQueue } from './pg-boss.queue.js';
import type { Job, JobQueue, QueueDefinitions } from './queue.port.js';

interface TestJobs {
  echo: { n: number };
  flaky: { n: number };
  unique: { key: string };
  upload: { key: string };
  busy: { n: number };
  slow: { n: number };
  late: { n: number };
  nested: { n: number };
}

const queues: QueueDefinitions<TestJobs> = {
  echo: {},
  flaky: { retryLimit: 2 },
  unique: { policy: 'short' },
  upload: {},
  busy: {},
  slow: { retryLimit: 1, expireInSeconds: 1 },
  late: {},
  nested: {},
};

/** Every error the queue reports; the suite expects none. */
const reported: string[] = [];
const logger = pino({ level: 'error' }, { write: (line: string) => void reported.push(line) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let testDb: TestDatabase;
let db: Database;
let queue: JobQueue<TestJobs>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = await openDatabase(testDb.target, { ...databaseSchema, logger });
  queue = createJobQueue<TestJobs>(db, { queues, logger, pollIntervalSeconds: 0.1, maintenanceIntervalSeconds: 1 });
  await queue.start();
});

afterAll(async () => {
  await queue?.stop();
  await db?.close();
  await testDb?.drop();
});

afterEach(() => expect(reported).toEqual([]));

test('a sent job is worked once and completed with the handler result', async () => {
  const seen: Job<TestJobs['echo']>[] = [];
  await queue.work('echo', async (job) => {
    seen.push(job);
    return { doubled: job.data.n * 2 };
  });
  const id = await queue.send('echo', { n: 21 });
  expect(id).toEqual(expect.any(String));

  const job = await waitFor(async () => {
    const info = await queue.getJob('echo', id!);
    return info?.state === 'completed' && info;
  });
  expect(job).toMatchObject({ data: { n: 21 }, retryCount: 0, output: { doubled: 42 } });
  expect(seen.map((j) => [j.id, j.data, j.retryCount])).toEqual([[id, { n: 21 }, 0]]);
});

test('a short queue keeps one waiting job per singleton key', async () => {
  const first = await queue.send('unique', { key: 'a' }, { singletonKey: 'a' });
  const again = await queue.send('unique', { key: 'a' }, { singletonKey: 'a' });
  const other = await queue.send('unique', { key: 'b' }, { singletonKey: 'b' });
  expect(first).toEqual(expect.any(String));
  expect(again).toBeNull();
  expect(other).toEqual(expect.any(String));
  expect((await queue.stats()).unique.created).toBe(2);
});

test('a job whose handler throws is delivered again', async () => {
  const attempts: number[] = [];
  await queue.work('flaky', async (job) => {
    attempts.push(job.retryCount);
    if (job.retryCount === 0) throw new Error('linter crashed');
    return 'ok';
  });
  const id = await queue.send('flaky', { n: 1 });

  const job = await waitFor(async () => {
    const info = await queue.getJob('flaky', id!);
    return info?.state === 'completed' && info;
  });
  expect(attempts).toEqual([0, 1]);
  expect(job).toMatchObject({ retryCount: 1, output: { value: 'ok' } });
});

test('a handler past the expiry is aborted, and the job retried', async () => {
  const attempts: number[] = [];
  await queue.work('slow', async (job) => {
    attempts.push(job.retryCount);
    if (job.retryCount === 0) await new Promise((resolve) => job.signal.addEventListener('abort', resolve));
    return 'fast enough';
  });
  const id = await queue.send('slow', { n: 1 });
  const job = await waitFor(async () => {
    const info = await queue.getJob('slow', id!);
    return info?.state === 'completed' && info;
  });
  expect(attempts).toEqual([0, 1]);
  expect(job.output).toEqual({ value: 'fast enough' });
});

test('queue statements wait for an open application transaction instead of joining it', async () => {
  const runs: string[] = [];
  const id = await queue.send('late', { n: 1 });
  await expect(
    db.fork().transactional(async (em) => {
      em.persist(em.create(CacheTag, { tag: 'jobs-test-late', version: '1' }));
      await em.flush();
      // The worker's first polls happen while this transaction is open, then it rolls back.
      await queue.work('late', async (job) => void runs.push(job.id));
      await sleep(500);
      throw new Error('roll back');
    }),
  ).rejects.toThrow('roll back');
  await waitFor(async () => (await queue.getJob('late', id!))?.state === 'completed');
  await sleep(300);
  expect(runs).toEqual([id]);
});

test('pg-boss maintenance runs on this database', async () => {
  const rows = await waitFor(async () => {
    const result = await db
      .fork()
      .getConnection()
      .execute<{ maintained_on: Date | null }[]>('select maintained_on from pgboss.version');
    return result[0]?.maintained_on && result;
  });
  expect(rows).toHaveLength(1);
});

describe('sending in a transaction', () => {
  const key = (name: string) => `jobs-test-${name}`;

  test('the job commits with the entity write, and is invisible to other sessions before', async () => {
    const id = await db.fork().transactional(async (em) => {
      em.persist(em.create(CacheTag, { tag: key('commit'), version: '1' }));
      await em.flush();
      const sent = await queue.send('upload', { key: key('commit') }, { transaction: em });
      // PGlite has one session, held by this transaction: only PostgreSQL has another one to ask.
      if (db.kind === 'postgres') expect((await queue.stats()).upload.created).toBe(0);
      else await expect(queue.stats()).rejects.toThrow('cannot serve queue reads from inside a transaction');
      return sent;
    });
    expect((await queue.stats()).upload.created).toBe(1);
    expect((await queue.getJob('upload', id!))?.state).toBe('created');
    expect(await db.fork().findOne(CacheTag, { tag: key('commit') })).not.toBeNull();
  });

  test('a rollback discards both', async () => {
    const before = (await queue.stats()).upload.created;
    let id: string | null = null;
    await expect(
      db.fork().transactional(async (em) => {
        em.persist(em.create(CacheTag, { tag: key('rollback'), version: '1' }));
        await em.flush();
        id = await queue.send('upload', { key: key('rollback') }, { transaction: em });
        throw new Error('upload rejected');
      }),
    ).rejects.toThrow('upload rejected');
    expect(id).toEqual(expect.any(String));
    expect(await queue.getJob('upload', id!)).toBeNull();
    expect((await queue.stats()).upload.created).toBe(before);
    expect(await db.fork().findOne(CacheTag, { tag: key('rollback') })).toBeNull();
  });

  test('a send from a nested transaction wakes the worker when the outermost one commits', async () => {
    const seen: number[] = [];
    // Its idle poll is far beyond the wait below: only the wake-up after the commit can run the job.
    await queue.work('nested', async (job) => void seen.push(job.data.n), { pollIntervalSeconds: 60 });
    await db.fork().transactional(async (outer) => {
      await outer.transactional((inner) => queue.send('nested', { n: 1 }, { transaction: inner }));
      // The savepoint is released; the commit is still to come. A worker woken now finds nothing.
      await sleep(500);
    });
    await waitFor(async () => seen.length === 1, 10_000);
    expect(seen).toEqual([1]);
  });

  test('a send inside a transaction without it is refused', async () => {
    await expect(db.fork().transactional(() => queue.send('upload', { key: key('ambient') }))).rejects.toThrow(
      'must pass { transaction: em }',
    );
  });
});

test('concurrency runs several handlers at once, and a graceful stop waits for them', async () => {
  const other = createJobQueue<TestJobs>(db, { queues, logger, pollIntervalSeconds: 0.1 });
  // Two queues on one embedded database would each take the other's jobs for orphans: reuse ours there.
  const q = db.kind === 'postgres' ? other : queue;
  if (q === other) await other.start();
  let active = 0;
  let peak = 0;
  const release: (() => void)[] = [];
  await q.work(
    'busy',
    async () => {
      peak = Math.max(peak, ++active);
      await new Promise<void>((resolve) => release.push(resolve));
      active--;
    },
    { concurrency: 3 },
  );
  const ids = await Promise.all([1, 2, 3, 4].map((n) => q.send('busy', { n })));
  await waitFor(async () => release.length === 3);
  expect(peak).toBe(3);
  expect((await q.stats()).busy.active).toBe(3);
  release.splice(0).forEach((r) => r());
  await waitFor(async () => release.length === 1);
  setTimeout(() => release.splice(0).forEach((r) => r()), 200);
  if (q === other) await other.stop({ graceful: true, timeoutMs: 5000 });
  else await waitFor(async () => (await queue.stats()).busy.completed === 4);
  const states = await Promise.all(ids.map(async (id) => (await queue.getJob('busy', id!))?.state));
  expect(states).toEqual(['completed', 'completed', 'completed', 'completed']);
});

test('a start creates the declared queues the database lacks and updates those stored with other options', async () => {
  type More = TestJobs & { added: { n: number } };
  const changed: QueueDefinitions<More> = { ...queues, flaky: { retryLimit: 5 }, added: { retryDelaySeconds: 7 } };
  const stored = () =>
    db
      .fork()
      .getConnection()
      .execute<{ name: string; retry_limit: number; retry_delay: number }[]>(
        `select name, retry_limit, retry_delay from pgboss.queue where name in ('flaky', 'added', 'echo') order by name`,
      );
  expect(await stored()).toEqual([
    { name: 'echo', retry_limit: 3, retry_delay: 0 },
    { name: 'flaky', retry_limit: 2, retry_delay: 0 },
  ]);
  // Stopped first on the embedded database, whose one queue takes every active job for its own.
  if (db.kind === 'embedded') await queue.stop();
  const other = createJobQueue<More>(db, { queues: changed, logger });
  await other.start();
  await other.stop();
  expect(await stored()).toEqual([
    { name: 'added', retry_limit: 3, retry_delay: 7 },
    { name: 'echo', retry_limit: 3, retry_delay: 0 },
    { name: 'flaky', retry_limit: 5, retry_delay: 0 },
  ]);
});
