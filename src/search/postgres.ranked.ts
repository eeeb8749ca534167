import { PromotedCategory } from '../catalogue/catalogue.enums.js';
import {
  EXACT_NAME_BONUS,
  exactFtsSql,
  exactOtherNameSql,
  exactSingleNameSql,
  join,
  minUsersFor,
  nameFtsSql,
  NON_NAME_TEXT,
  raw,
  scoreSql,
  sql,
  tsquery,
  type Sql,
  type TextMatch,
} from './postgres.query.js';
import type { Execute, Scored } from './postgres.walk.js';

/**
 * Relevance top-k from the ranked text index, `addons_search_rum` (the RankedSearchIndex migration):
 * a RUM index on `search_vector` carrying `average_daily_users`, so that it returns a query's
 * matches in popularity order (`<=|`), or only those above a popularity (an index condition),
 * without reading the others. Used on PostgreSQL when the index is a real RUM index; PGlite and a
 * server without the rum extension keep the other paths of the adapter.
 */

/** Whether `addons_search_rum` is a valid RUM index (elsewhere it is an empty B-tree stand-in). */
export async function rankedIndexReady(execute: Execute): Promise<boolean> {
  const rows = await execute<{ ready: boolean }>(sql`
    select exists (
      select 1 from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
      where c.oid = to_regclass('addons_search_rum') and am.amname = 'rum' and i.indisvalid and i.indisready
    ) as ready`);
  return rows[0]?.ready === true;
}

/**
 * Whether `q` is plain words (letters and digits, `or` aside), which `websearch_to_tsquery` turns
 * into a conjunction of at most one lexeme each (none for a stop word). Phrases (quotes, hyphenated
 * or dotted words), `or` and `-word` keep the other paths: the index would recheck phrases in the
 * heap, and cannot walk a negation alone.
 */
export function plainWords(q: string): string[] | null {
  const words = q.trim().split(/\s+/);
  return words.every((w) => /^[\p{L}\p{N}]+$/u.test(w) && w.toLowerCase() !== 'or') ? words : null;
}

/** Lowest ADU at which a non-recommended add-on with this text score bound can still reach `score`. */
const minPlainUsers = (score: number, maxText: number) => Math.max(0, Math.floor(10 ** (score / maxText) - 2));

/**
 * Text score bounds are widened by this factor: scores are computed in float4 and float8, so a
 * computed score may exceed the bound it has in exact arithmetic by a rounding step. Reading a few
 * more rows is harmless; missing one would change the answer.
 */
const BOUND_MARGIN = 1 + 1e-6;

/**
 * The `k` best matches by relevance, exactly (every candidate scoring at least the k-th, ties
 * included, as `relevanceWalk` returns them), reading only the matches that can reach the k-th
 * score. Two statements:
 *
 * 1. Candidates: the `k` most popular matches from the ranked index, for a one-term query the `k`
 *    most popular name matches (text score 1), and the `k` most popular exact names. Their k-th
 *    best score `s` is a lower bound of the answer's k-th score.
 * 2. Every other row that can score `s` or more, by its text score bound x popularity: matches
 *    whose popularity reaches `s` / bound (an ADU range of the ranked index; the bound is 1, or
 *    NON_NAME_TEXT outside names for one term), name matches (bound 1), exact names (1 + the bonus).
 *    Recommended add-ons (x1.25) are kept down to their own, lower, ADU threshold.
 * No other row can reach `s`, so the k best of these are the k best matches.
 */
export async function rankedWalk(execute: Execute, where: Sql, match: TextMatch, k: number): Promise<Scored[]> {
  const scores = new Map<number, number>();
  const add = (rows: Scored[]) => {
    for (const r of rows) scores.set(r.id, Math.max(scores.get(r.id) ?? 0, Number(r.score)));
  };
  const score = scoreSql(match);
  const exactScore = scoreSql(match, 'all');
  const byUsers = (limit: number) => sql`order by a.average_daily_users desc, a.id desc limit ${limit}`;
  // Other-locale exact names from their GIN index, then by popularity (as in relevanceWalk).
  const exactOther = (condition: Sql, limit: number | null) => sql`
    select a.id, ${exactScore} as score from addons a where a.id in (
      select m.id from (
        select a.id, a.average_daily_users as adu from addons a
        where ${where} and ${exactOtherNameSql(match)} and ${condition} offset 0
      ) m order by m.adu desc, m.id desc ${limit === null ? raw('') : sql`limit ${limit}`})`;

  const first = await execute<Scored & { walked: number | null; nodes: number | null }>(sql`
    with t as materialized (
      select a.id from addons a where ${where} and ${exactFtsSql(match)}
      order by a.average_daily_users <=| 2147483647 limit ${k}
    ), n as materialized (
      select a.id from addons a where ${where} and numnode(${tsquery(match)}) = 1 and ${nameFtsSql(match)}
      ${byUsers(k)}
    )
    select a.id, ${score} as score, (select count(*) from t)::int as walked, numnode(${tsquery(match)}) as nodes
    from addons a where a.id in (select id from t union select id from n)
    union all
    (select a.id, ${exactScore}, null, null from addons a where ${where} and ${exactSingleNameSql(match)} ${byUsers(k)})
    union all
    select e.id, e.score, null, null from (${exactOther(raw('true'), k)}) e`);
  add(first);
  const walked = first.find((r) => r.walked !== null);
  const s = [...scores.values()].sort((x, y) => y - x)[k - 1] ?? 0;
  const users = (maxText: number) => {
    const bound = maxText * BOUND_MARGIN;
    return { any: minUsersFor(s, bound), plain: minPlainUsers(s, bound) };
  };
  // Rows of `condition` whose popularity can reach `s` with a text score up to `maxText`. The test
  // of recommended rows is no index condition (the planner would OR in the promoted index, whose
  // rows then have their vectors read): those of the ADU range are read from the heap, no vector.
  const reaching = (condition: Sql, maxText: number) => {
    const u = users(maxText);
    return sql`${where} and ${condition} and a.average_daily_users >= ${u.any}
      and (a.average_daily_users >= ${u.plain} or a.promoted_category is not distinct from ${RECOMMENDED})`;
  };
  const exactUsers = users(1 + EXACT_NAME_BONUS).any;
  const branches: Sql[] = [
    sql`select a.id, ${exactScore} as score from addons a
      where ${where} and ${exactSingleNameSql(match)} and a.average_daily_users >= ${exactUsers}`,
    sql`select e.id, e.score from (${exactOther(sql`a.average_daily_users >= ${exactUsers}`, null)}) e`,
  ];
  // With fewer than k matches, every one was scored.
  if (walked && walked.walked! >= k) {
    const single = Number(walked.nodes) === 1;
    branches.push(sql`(select a.id, ${score} from addons a where ${reaching(exactFtsSql(match), single ? NON_NAME_TEXT : 1)}
      order by a.average_daily_users <=| 2147483647)`);
    if (single) branches.push(sql`select a.id, ${score} from addons a where ${reaching(nameFtsSql(match), 1)}`);
  }
  add(await execute<Scored>(join(branches, ' union all ')));
  const ranked = [...scores].map(([id, value]) => ({ id, score: value })).sort(byScore);
  const kth = ranked[k - 1]?.score ?? -Infinity;
  return ranked.filter((r) => r.score >= kth);
}

const RECOMMENDED = raw(`${PromotedCategory.RECOMMENDED}::smallint`);

const byScore = (x: Scored, y: Scored) => y.score - x.score || y.id - x.id;
