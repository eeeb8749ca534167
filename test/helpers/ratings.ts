import type { EntityManager } from '@mikro-orm/postgresql';
import type { Addon } from '../../src/catalogue/addon.entity.js';
import { Version } from '../../src/catalogue/version.entity.js';
import type { TestApp } from './app.js';

/** A signed-in test user (null: anonymous). */
export interface Caller {
  id: number;
  token: string;
}

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** A REST request as `caller`, with a JSON body for writes. */
export function call(t: TestApp, method: Method, path: string, caller: Caller | null, body?: object) {
  let req = t.http[method](path);
  if (caller) req = req.set('Authorization', `Bearer ${caller.token}`);
  return body === undefined ? req : req.send(body);
}

export async function caller(t: TestApp, args: Parameters<TestApp['createUser']>[0] = {}): Promise<Caller> {
  const user = await t.createUser({ session: true, ...args });
  return { id: user.id, token: user.sessionToken! };
}

/** Throttles are kept in the database; tests that do not test them start from none. */
export async function clearThrottles(t: TestApp): Promise<void> {
  await t.em().getConnection().execute('delete from rating_throttles');
}

/** As if `seconds` had passed since every throttled request. */
/** Every throttle's last allowed request as `seconds` ago (now, not counted from when it happened). */
export async function ageThrottles(t: TestApp, seconds: number): Promise<void> {
  await t
    .em()
    .getConnection()
    .execute(`update rating_throttles set last_at = now() - make_interval(secs => ?)`, [seconds]);
}

export async function rewindThrottles(t: TestApp, seconds: number): Promise<void> {
  await t
    .em()
    .getConnection()
    .execute(`update rating_throttles set last_at = last_at - make_interval(secs => ?)`, [seconds]);
}

/** The add-on's versions in creation order. */
export async function versionsOf(em: EntityManager, addon: Addon): Promise<Version[]> {
  return em.find(Version, { addon: addon.id }, { orderBy: { id: 'asc' } });
}

/** What the add-on's rating columns must hold: a recount of the ratings table (each user's latest live rating). */
export async function recount(t: TestApp, addonId: number) {
  const [row] = await t
    .em()
    .getConnection()
    .execute<{ count: number; average: number | null; text_count: number }[]>(
      `select count(*)::int as count, avg(score)::float8 as average, count(body)::int as text_count
         from (select distinct on (user_id) score, body from ratings
                where addon_id = ? and reply_to_id is null and not deleted
                order by user_id, created desc, id desc) latest`,
      [addonId],
    );
  const grouped = await t
    .em()
    .getConnection()
    .execute<{ score: number; count: number }[]>(
      `select score, count(*)::int as count
         from (select distinct on (user_id) score from ratings
                where addon_id = ? and reply_to_id is null and not deleted
                order by user_id, created desc, id desc) latest group by score`,
      [addonId],
    );
  return {
    count: row.count,
    average: row.average ?? 0,
    textCount: row.text_count,
    grouped: Object.fromEntries(
      [1, 2, 3, 4, 5].map((s) => [String(s), grouped.find((g) => g.score === s)?.count ?? 0]),
    ),
  };
}

/** The add-on's stored rating columns. */
export async function storedColumns(t: TestApp, addonId: number) {
  const [row] = await t
    .em()
    .getConnection()
    .execute<{ count: number; average: number; text_count: number; bayesian: number }[]>(
      `select total_ratings as count, average_rating::float8 as average, text_ratings_count as text_count,
              bayesian_rating::float8 as bayesian
         from addons where id = ?`,
      [addonId],
    );
  return { count: row.count, average: row.average, textCount: row.text_count, bayesian: row.bayesian };
}

/** Add-ons whose stored rating count, text count or average differs from a recount of their ratings. */
export async function inconsistentAddons(t: TestApp, addonIds: number[]): Promise<string[]> {
  const problems: string[] = [];
  for (const id of addonIds) {
    const expected = await recount(t, id);
    const stored = await storedColumns(t, id);
    if (
      stored.count !== expected.count ||
      stored.textCount !== expected.textCount ||
      Math.abs(stored.average - expected.average) > 1e-5
    ) {
      problems.push(`add-on ${id}: stored ${JSON.stringify(stored)}, recount ${JSON.stringify(expected)}`);
    }
  }
  return problems;
}
