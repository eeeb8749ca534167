import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from '../db/rows.js';

/** A rate: at most `requests` per `seconds`, per key of `scope` (`user`: an account, `ip`: a client address). */
export interface AbuseRate {
  readonly scope: 'user' | 'ip';
  readonly requests: number;
  readonly seconds: number;
}

/** Every this many takes, a process removes the keys whose last request left the window. */
const CLEANUP_EVERY = 200;
let takes = 0;

/**
 * Counts one request of `key` against `rate` (a sliding window, as DRF's throttles), or returns
 * the seconds until one of its requests leaves the window. One upsert decides: the key's row is
 * locked by it, so concurrent requests of one key, in any process, cannot pass the limit together.
 */
export async function takeAbuseThrottle(em: EntityManager, rate: AbuseRate, key: string): Promise<number | null> {
  if (++takes % CLEANUP_EVERY === 0) {
    await em.execute(`delete from abuse_throttles where last_at < clock_timestamp() - make_interval(secs => ?)`, [
      rate.seconds,
    ]);
  }
  const passed = await selectRows<{ scope: string }>(
    em,
    `with now as (select clock_timestamp() as at)
     insert into abuse_throttles as t (scope, key, hits, last_at)
       select ?, ?, array[now.at], now.at from now
     on conflict (scope, key) do update
       set hits = array(select h from unnest(t.hits) h
                         where h > excluded.last_at - make_interval(secs => ?) order by h) || excluded.last_at,
           last_at = excluded.last_at
       where (select count(*) from unnest(t.hits) h where h > excluded.last_at - make_interval(secs => ?)) < ?
     returning t.scope`,
    [rate.scope, key, rate.seconds, rate.seconds, rate.requests],
  );
  if (passed.length) return null;
  const [row] = await selectRows<{ wait: number | null }>(
    em,
    `select extract(epoch from min(h) + make_interval(secs => ?) - clock_timestamp())::float8 as wait
       from abuse_throttles t, unnest(t.hits) h
      where t.scope = ? and t.key = ? and h > clock_timestamp() - make_interval(secs => ?)`,
    [rate.seconds, rate.scope, key, rate.seconds],
  );
  return Math.max(1, Math.ceil(row?.wait ?? 1));
}
