import { intArray } from '../db/sql.js';
import { filterSql, raw, sql, type Sql } from './postgres.query.js';
import type { AddonSearchFilters, AddonSearchResult } from './search.port.js';

/**
 * `sort=random` without sorting the matches (sorting every match made random pages slow). Every
 * add-on has a fixed pseudo-random key,
 * `hashint4(id)` (Jenkins' hash: uniform over the int4 range, unrelated to the id's order), indexed
 * for the searchable add-ons by `addons_search_random` (the plain public set) and
 * `addons_search_random_promoted` (per promoted category, where the home page's shelves read); see
 * the RandomSort migration. A page starts at a random point of the key and reads, in key order,
 * the next `window` matches, wrapping around to the lowest keys when fewer remain: two ordered
 * index walks with a LIMIT (per promoted category when the filter names any, merged here),
 * so no statement sorts all the matches (only a filter the indexes cannot walk, such as the small
 * featured list, may have its few matches sorted by the planner). The window is larger than the
 * page (`randomWindow`): the page is a random choice among it, shuffled, so that neighbours in key
 * order do not always come together and an add-on after a long gap in the keys is not favoured
 * much (each window spans many gaps).
 *
 * The key is an expression, not a column: it costs no table rewrite (adding a column with a
 * volatile default rewrites the table and rebuilds its ~25 indexes), no write per insert, and
 * nothing for the seed writer to fill. It is never re-drawn (re-drawing would update every row:
 * non-HOT updates into every index, and a cache-tag bump per add-on); the window's choice and the
 * shuffle vary pages instead.
 *
 * `total` is as for any search: exact up to `exactCountLimit`, else the planner's estimate (or
 * `exactCountLimit + 1` when the estimate is lower); the capped exact count comes in the same
 * statement, the estimate after it only when the count reaches the cap.
 */
export const RANDOM_KEY = raw('hashint4(a.id)');

const INT4_VALUES = 2 ** 32;
/** A uniform random point of the key's range (int4). */
export const randomStart = () => Math.floor(Math.random() * INT4_VALUES) - 2 ** 31;

/** Matches read for a page ending at `k`: k plus min(3k, 100) more to choose from. */
export const randomWindow = (k: number) => (k <= 0 ? 0 : k + Math.min(3 * k, 100));

export interface RandomPageOptions {
  exactCountLimit: number;
  estimate(where: Sql): Promise<number>;
  /** The start point (default: `randomStart()`). */
  start?: number;
}

type Execute = <T>(query: Sql) => Promise<T[]>;

interface RandomRow {
  id: number | null;
  g: number | null;
  k: number | null;
  total: number;
}

export async function randomPage(
  execute: Execute,
  filters: AddonSearchFilters,
  offset: number,
  limit: number,
  options: RandomPageOptions,
): Promise<AddonSearchResult> {
  const where = filterSql(filters);
  const n = randomWindow(offset + limit);
  const start = options.start ?? randomStart();
  const count = sql`(select count(*) from (select 1 from addons a where ${where}
    limit ${options.exactCountLimit + 1}) c)::int`;
  // With promoted categories, one walk per category (an equality on the promoted index's first
  // column), planned once as a lateral subquery: ten subqueries took 9-24 ms to plan, this 1.5 ms.
  const categories = filters.promoted?.length ? [...new Set(filters.promoted)] : null;
  const group = categories ? raw(' and a.promoted_category = c.category') : raw('');
  const branch = (g: 0 | 1) => sql`(
    select a.id, ${raw(String(g))} as g, ${RANDOM_KEY} as k from addons a
    where ${where}${group} and ${RANDOM_KEY} ${raw(g === 0 ? '>=' : '<')} (${start})::int
    order by ${RANDOM_KEY} limit ${n})`;
  const walks = sql`${branch(0)} union all ${branch(1)}`;
  const rows =
    n === 0
      ? await execute<RandomRow>(sql`select null::int as id, null::int as g, null::int as k, ${count} as total`)
      : await execute<RandomRow>(sql`
        with w as materialized (${
          categories
            ? sql`select x.* from unnest(${intArray(categories)}::smallint[]) as c(category), lateral (${walks}) x`
            : walks
        })
        select x.id, x.g, x.k, t.total from (select ${count} as total) t
        left join (select w.id, w.g, w.k from w order by w.g, w.k limit ${n}) x on true`);
  // Above the limit, what `count` answers: the estimate, or the capped count when the planner
  // expects fewer (so that `total` is never below what the count saw).
  let total = rows[0]?.total ?? 0;
  if (total > options.exactCountLimit) total = Math.max(total, await options.estimate(where));
  // The window: the first n walked rows in (g, k) order (merged in the statement, which sends only
  // them, and ordered again here since a join does not promise an order).
  const window = rows
    .filter((r) => r.id !== null)
    .sort((x, y) => x.g! - y.g! || x.k! - y.k!)
    .slice(0, n)
    .map((r) => r.id!);
  shuffle(window);
  return { hits: window.slice(offset, offset + limit).map((id) => ({ id, score: null })), total };
}

/** Fisher-Yates, in place. */
function shuffle<T>(items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
}
