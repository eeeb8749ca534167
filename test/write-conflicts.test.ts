import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Addon } from '../src/catalogue/addon.entity.js';
import { CONFLICT_RETRIES } from '../src/db/conflict-retries.js';
import type { RatingAggregates } from '../src/ratings/ratings.aggregates.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { call, caller, clearThrottles, inconsistentAddons, versionsOf, type Caller } from './helpers/ratings.js';

/**
 * Issue 35 item 5: conflicting writes at once never answer a 5xx. On PostgreSQL these requests
 * really run at once (the pool has several connections) and take the same locks: a rating's edits,
 * its deletion and its reply against the deletion of its author's account (whose ratings it
 * removes and recounts). Every answer is one the route documents; the add-ons' rating columns
 * equal a recount afterwards. (On the embedded database they run one after the other.)
 */

let t: TestApp;
let developer: Caller;
/** Statements the app sent (startTestApp's onQuery), to count a mutation's attempts. */
const statements: string[] = [];
const addons: Addon[] = [];
const versions: number[] = [];

const V4 = '/api/v4/ratings/rating/';
const ROUNDS = 6;

beforeAll(async () => {
  t = await startTestApp({ env: { JOB_WORKERS: 'false' }, onQuery: (sql) => void statements.push(sql) });
  developer = await caller(t);
  for (let i = 0; i < 3; i++) {
    const addon = await createAddon(t.em(), { authors: [{ id: developer.id }], versions: [{}] });
    addons.push(addon);
    versions.push((await versionsOf(t.em(), addon))[0].id);
  }
}, 120_000);
afterAll(() => t?.close());

/** A new user with a rating of each add-on (their ids, in add-on order). */
async function raterWithRatings(): Promise<{ rater: Caller; ratings: number[] }> {
  const rater = await caller(t);
  const ratings: number[] = [];
  for (const [i, addon] of addons.entries()) {
    await clearThrottles(t);
    const res = await call(t, 'post', V4, rater, { addon: addon.id, version: versions[i], score: 3, body: 'Fine.' });
    expect(res.status).toBe(201);
    ratings.push(res.body.id);
  }
  return { rater, ratings };
}

describe('conflicting writes at once', () => {
  it('rating edits, deletions and replies against the deletion of the author’s account: no 5xx', async () => {
    const seen = new Map<string, Set<number>>();
    // The lock order alone keeps these from deadlocking: no second attempt here, so a deadlock
    // would answer 409.
    const attempts = CONFLICT_RETRIES.attempts;
    CONFLICT_RETRIES.attempts = 1;
    try {
      await conflictingRounds(seen);
    } finally {
      CONFLICT_RETRIES.attempts = attempts;
    }
    // Each answer is documented: a write before the account went (200/201/204), a rating or an
    // account already gone (404; the rater's session with it: 401), the developer's reply throttle
    // (429).
    const allowed: Record<string, number[]> = {
      edit: [200, 401, 404],
      reply: [200, 201, 404, 429],
      'delete rating': [204, 401, 404],
      'delete account': [204],
    };
    for (const [kind, statuses] of seen) {
      for (const status of statuses) {
        expect({ kind, status, allowed: allowed[kind].includes(status) }).toEqual({ kind, status, allowed: true });
      }
    }
    expect(
      await inconsistentAddons(
        t,
        addons.map((a) => a.id),
      ),
    ).toEqual([]);
  }, 120_000);
});

/** Rounds of a new rater's ratings edited, deleted and replied to while the rater's account is deleted. */
async function conflictingRounds(seen: Map<string, Set<number>>) {
  for (let round = 0; round < ROUNDS; round++) {
    const { rater, ratings } = await raterWithRatings();
    const requests: [string, Promise<{ status: number }>][] = [];
    for (const [i, id] of ratings.entries()) {
      requests.push([
        'edit',
        call(t, 'patch', `${V4}${id}/`, rater, { score: 1 + ((round + i) % 5), body: 'Changed.' }),
      ]);
      requests.push(['edit', call(t, 'patch', `${V4}${id}/`, rater, { score: 5 })]);
      requests.push(['reply', call(t, 'post', `${V4}${id}/reply/`, developer, { body: 'Thanks.' })]);
    }
    requests.push(['delete account', call(t, 'delete', `/api/v4/accounts/account/${rater.id}/`, rater)]);
    requests.push(['edit', call(t, 'patch', `${V4}${ratings[0]}/`, rater, { body: 'Again.' })]);
    requests.push(['delete rating', call(t, 'delete', `${V4}${ratings[1]}/`, rater)]);
    requests.push(['edit', call(t, 'patch', `${V4}${ratings[2]}/`, rater, { score: 2 })]);
    const answers = await Promise.all(requests.map(([, request]) => request));
    for (const [n, [kind]] of requests.entries()) {
      const statuses = seen.get(kind) ?? new Set<number>();
      statuses.add(answers[n].status);
      seen.set(kind, statuses);
    }
  }
}

/** Runs `write` with the statements it sends counted by `pattern`. */
async function counting<T>(pattern: RegExp, write: () => Promise<T>): Promise<{ answer: T; count: number }> {
  const from = statements.length;
  const answer = await write();
  return { answer, count: statements.slice(from).filter((sql) => pattern.test(sql)).length };
}

const RATING_UPDATE = /update ratings set .*score = /i;

const gqlUpdate = (who: Caller, id: number, score: number) =>
  t.http
    .post('/graphql')
    .set('Authorization', `Bearer ${who.token}`)
    .send({ query: `mutation { updateRating(id: ${id}, input: { score: ${score} }) { id score } }` });

const storedScore = async (id: number) =>
  (await t.em().getConnection().execute<{ score: number }[]>('select score from ratings where id = ?', [id]))[0].score;

describe('the executor runs a mutation again after a deadlock or a serialization failure', () => {
  let rater: Caller;
  let ratingId: number;
  beforeAll(async () => {
    ({
      rater,
      ratings: [ratingId],
    } = await raterWithRatings());
  });

  /** The ratings service's update fails with `code` the first `times` calls (as MikroORM's DeadlockException carries it). */
  async function failingUpdates<T>(
    code: string,
    times: number,
    run: () => Promise<T>,
  ): Promise<{ answer: T; calls: number }> {
    const ratings = t.app.services.ratings;
    const update = ratings.update;
    let calls = 0;
    ratings.update = async (...args) => {
      if (++calls > times) return update.apply(ratings, args);
      // A write first: the failed attempt's must be rolled back.
      await args[0].em.execute('update ratings set body = ? where id = ?', ['Written by a failed attempt.', args[1]]);
      throw Object.assign(new Error('deadlock detected'), { code, name: 'DeadlockException' });
    };
    try {
      return { answer: await run(), calls };
    } finally {
      ratings.update = update;
    }
  }

  it('REST and GraphQL: a first attempt that fails with 40P01 or 40001 is run again, and its writes are gone', async () => {
    const rest = await failingUpdates('40P01', 1, () => call(t, 'patch', `${V4}${ratingId}/`, rater, { score: 2 }));
    expect({ status: rest.answer.status, calls: rest.calls }).toEqual({ status: 200, calls: 2 });
    expect(rest.answer.body).toMatchObject({ id: ratingId, score: 2, body: 'Fine.' });
    const graphql = await failingUpdates('40001', 1, () => gqlUpdate(rater, ratingId, 4));
    expect({ errors: graphql.answer.body.errors, calls: graphql.calls }).toEqual({ errors: undefined, calls: 2 });
    expect(graphql.answer.body.data.updateRating).toEqual({ id: ratingId, score: 4 });
    expect(await storedScore(ratingId)).toBe(4);
  });

  it('gives up after a bounded number of attempts: 409 on REST, CONFLICT on GraphQL, nothing written', async () => {
    const attempts = CONFLICT_RETRIES.attempts;
    expect(attempts).toBeGreaterThan(1);
    expect(attempts).toBeLessThanOrEqual(5);
    const rest = await failingUpdates('40P01', Infinity, () =>
      call(t, 'patch', `${V4}${ratingId}/`, rater, { score: 1 }),
    );
    expect({ status: rest.answer.status, body: rest.answer.body, calls: rest.calls }).toEqual({
      status: 409,
      body: { detail: 'The request conflicted with a concurrent change and was not applied; try again.' },
      calls: attempts,
    });
    expect(rest.answer.headers['retry-after']).toBe('1');
    const graphql = await failingUpdates('40001', Infinity, () => gqlUpdate(rater, ratingId, 1));
    expect(graphql.calls).toBe(attempts);
    expect(graphql.answer.body.errors).toEqual([
      expect.objectContaining({
        message: 'The request conflicted with a concurrent change and was not applied; try again.',
        extensions: { code: 'CONFLICT' },
      }),
    ]);
    expect(await storedScore(ratingId)).toBe(4);
    const [{ body }] = await t.em().getConnection().execute('select body from ratings where id = ?', [ratingId]);
    expect(body).toBe('Fine.');
  });

  it('a mutation with its own transactions (createRating): its short transaction is run again', async () => {
    const { aggregates } = t.app.services.ratings as unknown as { aggregates: RatingAggregates };
    const lockAddon = aggregates.lockAddon;
    let calls = 0;
    aggregates.lockAddon = async (...args) => {
      if (++calls === 1) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      return lockAddon.apply(aggregates, args);
    };
    const newcomer = await caller(t);
    try {
      await clearThrottles(t);
      const res = await call(t, 'post', V4, newcomer, { addon: addons[0].id, version: versions[0], score: 4 });
      expect({ status: res.status, calls }).toEqual({ status: 201, calls: 2 });
    } finally {
      aggregates.lockAddon = lockAddon;
    }
    expect(await inconsistentAddons(t, [addons[0].id])).toEqual([]);
  });

  it('other errors are not run again', async () => {
    const ratings = t.app.services.ratings;
    const update = ratings.update;
    let calls = 0;
    ratings.update = async () => {
      calls++;
      throw Object.assign(new Error('duplicate key'), { code: '23505' });
    };
    try {
      expect((await call(t, 'patch', `${V4}${ratingId}/`, rater, { score: 1 })).status).toBe(500);
    } finally {
      ratings.update = update;
    }
    expect(calls).toBe(1);
  });

  // A real deadlock needs two connections: PostgreSQL only (PGlite has one).
  (process.env.DATABASE_URL ? it : it.skip)(
    'a real deadlock with another transaction: the mutation is its victim, runs again and succeeds',
    async () => {
      const other = await otherConnection();
      try {
        for (const api of ['rest', 'graphql'] as const) {
          const score = api === 'rest' ? 1 : 3;
          // The other transaction holds the rating's row, and detects deadlocks after the app's one does.
          await other.query('begin');
          await other.query(`set local deadlock_timeout = '60s'`);
          await other.query('select id from ratings where id = $1 for update', [ratingId]);
          const write = counting(RATING_UPDATE, async () =>
            api === 'rest'
              ? call(t, 'patch', `${V4}${ratingId}/`, rater, { score })
              : gqlUpdate(rater, ratingId, score),
          );
          // The mutation took the add-on's ratings lock and waits for the row …
          while (!(await waitingOnLock(other))) await sleep(10);
          // … which this transaction holds while it waits for the lock: PostgreSQL fails the mutation.
          await other.query(`select pg_advisory_xact_lock(hashtext('addon-ratings'), $1)`, [addons[0].id]);
          await other.query('rollback');
          const { answer, count } = await write;
          expect({ api, status: answer.status, errors: answer.body.errors }).toEqual({
            api,
            status: 200,
            errors: undefined,
          });
          // The first attempt reached the update (and failed there); the second wrote.
          expect(count).toBe(2);
          expect(await storedScore(ratingId)).toBe(score);
        }
      } finally {
        await other.end();
      }
    },
    60_000,
  );
});

describe('a row deleted by a concurrent transaction', () => {
  // Two transactions at once: PostgreSQL only.
  (process.env.DATABASE_URL ? it : it.skip)(
    'an add-on added to a collection being deleted: run again, the answer is 404 (was a 500)',
    async () => {
      const owner = await caller(t);
      const path = `/api/v4/accounts/account/${owner.id}/collections/`;
      expect((await call(t, 'post', path, owner, { name: 'Race', slug: 'race' })).status).toBe(201);
      const other = await otherConnection();
      try {
        await other.query('begin');
        await other.query(`delete from collections where author_id = $1 and slug = 'race'`, [owner.id]);
        // The insert's foreign key check waits for the deletion, then finds the collection gone.
        const adding = call(t, 'post', `${path}race/addons/`, owner, { addon: addons[0].id }).then((answer) => answer);
        while (!(await waitingOnLock(other))) await sleep(10);
        await other.query('commit');
        const answer = await adding;
        expect({ status: answer.status, body: answer.body }).toEqual({ status: 404, body: { detail: 'Not found.' } });
      } finally {
        await other.end();
      }
    },
    60_000,
  );
});

/** A connection of its own to the test app's database. */
async function otherConnection(): Promise<pg.Client> {
  const database = String(t.app.db.location).split('/').pop();
  const other = new pg.Client({ connectionString: process.env.DATABASE_URL!.replace(/\/[^/]*$/, `/${database}`) });
  await other.connect();
  return other;
}

/** Whether another backend of the database waits on a lock (the other connection's aside). */
async function waitingOnLock(other: pg.Client): Promise<boolean> {
  const { rows } = await other.query(
    `select count(*)::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
  );
  return rows[0].n > 0;
}
