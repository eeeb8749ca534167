import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from '../db/rows.js';
import { ratingErrors } from './ratings.errors.js';

export interface ThrottleRule {
  /** Key of the rule in `rating_throttles`. */
  readonly scope: string;
  readonly seconds: number;
}

/** The original's rates: one rating post a minute, one reply every 5 seconds, per user. */
export const RATING_POSTS: ThrottleRule = { scope: 'rating', seconds: 60 };
export const REPLIES: ThrottleRule = { scope: 'reply', seconds: 5 };

/**
 * Counts one request of `userId` against `rule`, or refuses it with 429. As in the original, a
 * request counts once it is authenticated and allowed, whatever its outcome; it is recorded in
 * its own statement (not in the request's write transaction, which may roll back). One upsert
 * decides, so concurrent requests of one user, in any process, cannot both pass.
 */
export async function takeThrottle(em: EntityManager, userId: number, rule: ThrottleRule): Promise<void> {
  const passed = await selectRows<{ user_id: number }>(
    em,
    `insert into rating_throttles as t (user_id, scope, last_at) values (?, ?, clock_timestamp())
     on conflict (user_id, scope) do update set last_at = excluded.last_at
       where t.last_at <= excluded.last_at - make_interval(secs => ?)
     returning t.user_id`,
    [userId, rule.scope, rule.seconds],
  );
  if (passed.length) return;
  const [row] = await selectRows<{ wait: number }>(
    em,
    `select extract(epoch from last_at + make_interval(secs => ?) - clock_timestamp())::float8 as wait
       from rating_throttles where user_id = ? and scope = ?`,
    [rule.seconds, userId, rule.scope],
  );
  throw ratingErrors.throttled(Math.max(1, Math.ceil(row?.wait ?? rule.seconds)));
}
