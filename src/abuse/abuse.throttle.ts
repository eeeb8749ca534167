import { isIP } from 'node:net';
import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from '../db/rows.js';

/**
 * A rate: at most `requests` per `seconds`, per key of `scope` (`user`: an account, `ip`: a client
 * address; `webhook-test`, `webhook-resend`: `<user>:<endpoint>`, src/webhooks/; `signin-email`:
 * an address's HMAC, `signin-ip`: a client address's `addressKey`, src/signin/; `support-user`, `support-ip`:
 * developers' support tickets, src/developers/).
 */
export interface AbuseRate {
  readonly scope:
    'user' | 'ip' | 'webhook-test' | 'webhook-resend' | 'signin-email' | 'signin-ip' | 'support-user' | 'support-ip';
  readonly requests: number;
  readonly seconds: number;
}

/** Every this many takes, a process removes the keys whose last request left the window. */
const CLEANUP_EVERY = 200;
let takes = 0;

/**
 * Counts one request of `client` (an account id, or a client address: see `addressKey`) against
 * `rate` (a sliding window, as DRF's throttles), or returns the seconds until one of its requests
 * leaves the window. One upsert decides: the key's row is locked by it, so concurrent requests of
 * one key, in any process, cannot pass the limit together.
 */
export async function takeAbuseThrottle(em: EntityManager, rate: AbuseRate, client: string): Promise<number | null> {
  const key = rate.scope === 'ip' ? addressKey(client) : client;
  if (++takes % CLEANUP_EVERY === 0) {
    // Per scope: each has its own window.
    await em.execute(
      `delete from abuse_throttles where scope = ? and last_at < clock_timestamp() - make_interval(secs => ?)`,
      [rate.scope, rate.seconds],
    );
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

/** Longer than any address (45 characters); what is longer is no address and is kept as given. */
const ADDRESS_CHARS = 64;

/**
 * The throttle key of a client address: an IPv4 address as is; an IPv6 address by its /64 (one
 * subscriber's network: a client given a /64 can use any of its 2^64 addresses), written
 * `a:b:c:d::/64` in lower-case hex; an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) as the IPv4
 * address it maps. Anything else (no IP address) is kept as given.
 */
export function addressKey(address: string): string {
  if (address.length > ADDRESS_CHARS || isIP(address) !== 6) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The 8 groups of an IPv6 address (zone index dropped; URL parsing writes embedded IPv4 in hex). */
function ipv6Groups(address: string): number[] | null {
  const zone = address.indexOf('%');
  const bare = zone < 0 ? address : address.slice(0, zone);
  const host = URL.canParse(`http://[${bare}]/`) ? new URL(`http://[${bare}]/`).hostname.slice(1, -1) : null;
  if (host === null) return null;
  const [head, tail] = host.includes('::') ? host.split('::') : [host, null];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const first = parse(head);
  const last = tail === null ? [] : parse(tail);
  const groups = [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}
