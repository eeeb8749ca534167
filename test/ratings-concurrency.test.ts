import type { Addon } from '../src/catalogue/addon.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { call, caller, clearThrottles, recount, storedColumns, versionsOf, type Caller } from './helpers/ratings.js';

/**
 * The add-on's rating columns are recomputed in each write's transaction, with the add-on row
 * locked: on PostgreSQL these requests really run at once (the pool has several connections).
 */
let t: TestApp;
let author: Caller;

beforeAll(async () => {
  t = await startTestApp();
  author = await caller(t);
});
afterAll(() => t.close());

const V4 = '/api/v4/ratings/rating/';

async function addonWithTwoVersions(): Promise<{ addon: Addon; v1: number; v2: number }> {
  const addon = await createAddon(t.em(), { authors: [{ id: author.id }], versions: [{}, {}] });
  const [v1, v2] = await versionsOf(t.em(), addon);
  return { addon, v1: v1.id, v2: v2.id };
}

/** The stored columns equal a recount of the ratings table; the grouped counts too. */
async function expectConsistent(addonId: number) {
  const expected = await recount(t, addonId);
  const stored = await storedColumns(t, addonId);
  expect({ count: stored.count, textCount: stored.textCount }).toEqual({
    count: expected.count,
    textCount: expected.textCount,
  });
  expect(stored.average).toBeCloseTo(expected.average, 5);
  const detail = await call(t, 'get', `/api/v4/addons/addon/${addonId}/`, null);
  expect(detail.body.ratings).toMatchObject({ count: expected.count, text_count: expected.textCount });
  expect(detail.body.ratings.average).toBeCloseTo(expected.average, 5);
  const grouped = await call(t, 'get', `${V4}?addon=${addonId}&show_grouped_ratings=true`, null);
  expect(grouped.body.grouped_ratings).toEqual(expected.grouped);
  expect(grouped.body.count).toBe(expected.count);
  // Each user has exactly one latest live rating, and earlier ones are counted in creation order.
  const rows = await t
    .em()
    .getConnection()
    .execute<{ user_id: number; latest: number; ordered: boolean }[]>(
      `select user_id, count(*) filter (where is_latest)::int as latest,
              bool_and(previous_count = rank) as ordered
         from (select user_id, is_latest, previous_count,
                      (row_number() over (partition by user_id order by created, id) - 1)::int as rank
                 from ratings where addon_id = ? and reply_to_id is null and not deleted) r
        group by user_id`,
      [addonId],
    );
  for (const row of rows) expect(row).toEqual({ user_id: row.user_id, latest: 1, ordered: true });
}

describe('add-on rating aggregates', () => {
  it('computes the bayesian average from the mean count and mean average of valid add-ons', async () => {
    // Two rated add-ons set the prior (the original keeps it for hours: it is read at the first write).
    const rated = [await addonWithTwoVersions(), await addonWithTwoVersions()];
    await t
      .em()
      .getConnection()
      .execute(
        `update addons set total_ratings = case id when ? then 10 else 30 end,
                           average_rating = case id when ? then 4 else 2 end
          where id in (?, ?)`,
        [rated[0].addon.id, rated[0].addon.id, rated[0].addon.id, rated[1].addon.id],
      );
    const target = await addonWithTwoVersions();
    const [prior] = await t
      .em()
      .getConnection()
      .execute<{ votes: number; mean: number }[]>(
        `select avg(total_ratings)::float8 as votes, avg(average_rating)::float8 as mean
           from addons where status in (3, 4) and not disabled_by_user`,
      );
    expect(prior.votes).toBeGreaterThan(0);
    const bayesian = (n: number, average: number) => (prior.votes * prior.mean + n * average) / (prior.votes + n);

    const [first, second] = [await caller(t), await caller(t)];
    await clearThrottles(t);
    const post = (who: Caller, score: number) =>
      call(t, 'post', V4, who, { addon: target.addon.id, version: target.v1, score });
    expect((await post(first, 5)).status).toBe(201);
    expect((await storedColumns(t, target.addon.id)).bayesian).toBeCloseTo(bayesian(1, 5), 4);
    expect((await post(second, 2)).status).toBe(201);
    expect((await storedColumns(t, target.addon.id)).bayesian).toBeCloseTo(bayesian(2, 3.5), 4);
    const detail = await call(t, 'get', `/api/v4/addons/addon/${target.addon.id}/`, null);
    expect(detail.body.ratings.bayesian_average).toBeCloseTo(bayesian(2, 3.5), 4);
  });

  it('stay equal to a recount when many users rate, edit and delete at once', async () => {
    const { addon, v1, v2 } = await addonWithTwoVersions();
    const users: Caller[] = [];
    for (let i = 0; i < 40; i++) users.push(await caller(t));
    await clearThrottles(t);

    // Everyone rates the first version at the same time.
    const created = await Promise.all(
      users.map((u, i) =>
        call(t, 'post', V4, u, { addon: addon.id, version: v1, score: (i % 5) + 1, body: i % 3 ? `Text ${i}` : null }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(users.map(() => 201));
    await expectConsistent(addon.id);
    expect((await storedColumns(t, addon.id)).count).toBe(40);

    // Then, at once: ten rate the second version (twice each: the throttle lets one through), ten
    // edit, ten delete, ten reply-less readers list.
    await clearThrottles(t);
    const ratingOf = (i: number) => created[i].body.id as number;
    const requests = users.flatMap((u, i) => {
      if (i < 10) {
        const again = { addon: addon.id, version: v2, score: 5, body: `Update ${i}` };
        return [call(t, 'post', V4, u, again), call(t, 'post', V4, u, again)];
      }
      if (i < 20) return [call(t, 'patch', `${V4}${ratingOf(i)}/`, u, { score: 1, body: null })];
      if (i < 30) return [call(t, 'delete', `${V4}${ratingOf(i)}/`, u)];
      return [call(t, 'get', `${V4}?addon=${addon.id}&show_grouped_ratings=1`, u)];
    });
    const answers = await Promise.all(requests);
    const statuses = answers.map((r) => r.status);
    const posts = statuses.slice(0, 20);
    expect(posts.filter((s) => s === 201)).toHaveLength(10);
    expect(posts.filter((s) => s === 429)).toHaveLength(10);
    expect(statuses.slice(20, 30)).toEqual(Array(10).fill(200));
    expect(statuses.slice(30, 40)).toEqual(Array(10).fill(204));
    expect(statuses.slice(40)).toEqual(Array(10).fill(200));
    await expectConsistent(addon.id);
    const stored = await storedColumns(t, addon.id);
    expect(stored.count).toBe(30);
    // Ten 5s (new latest), ten 1s (edited), ten untouched of scores (i % 5) + 1 for i in 30..39.
    expect(stored.average).toBeCloseTo((10 * 5 + 10 * 1 + 2 * (1 + 2 + 3 + 4 + 5)) / 30, 5);
  });
});
