import { PromotedCategory } from '../catalogue/catalogue.enums.js';
import {
  BASE,
  indexOnlyFilters,
  NAMES_DO_NOT_FIT,
  NAMES_FIT,
  exactFtsSql,
  EXACT_NAME_BONUS,
  exactOtherNameSql,
  exactSingleNameSql,
  filterSql,
  ftsSql,
  FUZZY_WEIGHT,
  likeEscape,
  minUsersFor,
  nameKey,
  nameFtsSql,
  NON_NAME_TEXT,
  NOT_WALKABLE,
  popularity,
  scoreSql,
  raw,
  sql,
  tsquery,
  WALKABLE,
  type Sql,
  type TextMatch,
} from './postgres.query.js';
import type { AddonSearchFilters } from './search.port.js';

/**
 * Popularity-ordered walks over covering indexes (average_daily_users desc, id desc, with the
 * filter columns in the tuple): `addons_search_walk` (plus `search_vector`) for relevance,
 * `addons_search_names` (plus `search_name`) for autocomplete. Read index-only, they stop after a
 * few hundred or thousand entries for frequent terms and prefixes, where a bitmap scan would visit
 * every match in the heap. Rows too large for those indexes are fetched by side queries.
 */
export type Execute = <T>(query: Sql) => Promise<T[]>;

/** The planner's row estimate for the matches of `where` (a fraction of a millisecond). */
export async function estimateRows(execute: Execute, where: Sql): Promise<number> {
  const [row] = await execute<Record<string, unknown>>(
    sql`explain (format json) select 1 from addons a where ${where}`,
  );
  const value = Object.values(row)[0];
  const plan = (typeof value === 'string' ? JSON.parse(value) : value) as { Plan: { 'Plan Rows': number } }[];
  return Math.round(plan[0].Plan['Plan Rows']);
}

export interface Scored {
  id: number;
  score: number;
}

/** Sizes of the walks; the defaults suit ~500k add-ons (tests shrink them to exercise every branch). */
export interface WalkLimits {
  /** First relevance walk size (matching candidates), multiplied by 4 at each of `walkPasses`. */
  walkStart: number;
  walkPasses: number;
  /** Entries of the names index read by the first autocomplete attempt (~4 ms for 10,000). */
  prefixWalk: number;
}

export const DEFAULT_WALK_LIMITS: WalkLimits = { walkStart: 400, walkPasses: 3, prefixWalk: 10_000 };

/**
 * The `k` best by relevance. Candidates come in popularity order, and a text score is bounded, so
 * no document after the walk's last one (ADU `u`) can score above bound x log10(u + 2): when the
 * k-th score beats that, the ranking is exact. The bound is 1 (a name match), `FUZZY_WEIGHT` for
 * typo variants, and `NON_NAME_TEXT` for a single-term query once its name matches (popular enough
 * ones) are fetched from `addons_search_name_text`: always for rows outside the walk index (there
 * are many with long descriptions, so this saves scoring most of them), for every row after a
 * failed pass. Recommended add-ons (x1.25) and exact names (+4) are fetched by side queries too, so
 * the bound holds for the rest. Unproven, the walk deepens 4 times per pass; after the last pass (or
 * with typo variants, approximate anyway) the best candidates found are returned: the error is then
 * limited to unpopular documents whose text beats popular ones' by a wide margin.
 * Returns every candidate scoring at least the k-th (ties included).
 */
export async function relevanceWalk(
  execute: Execute,
  where: Sql,
  match: TextMatch,
  k: number,
  limits: WalkLimits = DEFAULT_WALK_LIMITS,
): Promise<Scored[]> {
  const fuzzy = match.fuzzy !== null;
  const scores = new Map<number, number>();
  const add = (rows: Scored[]) => {
    for (const r of rows) scores.set(r.id, Math.max(scores.get(r.id) ?? 0, r.score));
  };
  const scored = (condition: Sql, exact: 'test' | 'all' = 'test') =>
    execute<Scored>(sql`select a.id, ${scoreSql(match, exact)} as score from addons a where ${where} and ${condition}`);
  const byUsers = (limit: number) => sql`order by a.average_daily_users desc, a.id desc limit ${limit}`;
  // Other-locale exact names come from their GIN index, all of them, then the most popular: a
  // popularity walk testing each row (the planner's choice when such names are common) costs
  // ~25 µs a row in addons_name_keys.
  const exactOther = (condition: Sql, limit: number | null) =>
    execute<Scored>(sql`select a.id, ${scoreSql(match, 'all')} as score from addons a where a.id in (
      select m.id from (
        select a.id, a.average_daily_users as adu from addons a
        where ${where} and ${exactOtherNameSql(match)} and ${condition} offset 0
      ) m order by m.adu desc, m.id desc ${limit === null ? raw('') : sql`limit ${limit}`})`);
  let n = Math.max(limits.walkStart, 4 * k);
  for (let pass = 1; ; pass++, n *= 4) {
    const walkSql = sql`
      with w as materialized (
        select a.id, a.average_daily_users as adu, ${scoreSql(match, 'none')} as score from addons a
        where ${where} and ${WALKABLE} and ${ftsSql(match)}
        order by a.average_daily_users desc, a.id desc limit ${n}
      ), r as materialized (
        select c.id, max(c.score) as score from (
          select id, score from w
          union all
          select a.id, ${scoreSql(match, 'none')} from addons a
          where ${where} and ${WALKABLE} and a.promoted_category = ${PromotedCategory.RECOMMENDED}::smallint
            and ${ftsSql(match)}
        ) c group by c.id
      )
      select r.id, r.score, (select count(*) from w)::int as walked, (select min(adu) from w) as last_adu,
        numnode(${tsquery(match)}) as nodes
      from r where r.score >= coalesce((select score from r order by score desc offset ${k - 1} limit 1), 0)`;
    // The most popular exact names are scored alongside the first walk: they raise the k-th score early.
    const [walk, ...exact] = await Promise.all([
      execute<Scored & { walked: number; last_adu: number | null; nodes: number }>(walkSql),
      ...(pass > 1 ? [] : [scored(sql`${exactSingleNameSql(match)} ${byUsers(k)}`, 'all'), exactOther(raw('true'), k)]),
    ]);
    add(walk);
    exact.forEach(add);
    const kth = kthScore(scores, k);
    const single = !fuzzy && Number(walk[0]?.nodes) === 1;
    // Bounds of the text score of unseen rows: those of the walk index, and the large ones. For one
    // term, the large rows' name matches are fetched (few), so the others score at most
    // NON_NAME_TEXT; after a failed pass, every name match is fetched, for the walk's bound too.
    const largeText = fuzzy ? FUZZY_WEIGHT : single ? NON_NAME_TEXT : 1;
    const walkText = fuzzy ? FUZZY_WEIGHT : single && pass > 1 ? NON_NAME_TEXT : 1;
    const nameUsers = minUsersFor(kth, 1);
    // Rows outside the walk index, when popular enough to reach the k-th score (with typo variants,
    // approximate anyway, only the k most popular). Large vectors are stored compressed: decompressed
    // once (the copy), not once per use.
    const side: Promise<Scored[]>[] = [
      execute<Scored>(sql`select a.id, ${scoreSql(match)} as score from (
        select a.id, a.average_daily_users, a.promoted_category, a.name, a.search_name,
          a.search_vector || ''::tsvector as search_vector
        from addons a where ${where} and ${NOT_WALKABLE} and ${ftsSql(match)}
          and a.average_daily_users >= ${minUsersFor(kth, largeText)}
        ${fuzzy ? byUsers(k) : raw('offset 0')}
      ) a`),
    ];
    if (single) {
      const large = pass > 1 ? raw('true') : NOT_WALKABLE;
      side.push(scored(sql`${large} and ${nameFtsSql(match)} and a.average_daily_users >= ${nameUsers}`));
    }
    // The other exact names that can still reach the k-th score (+4 on the text).
    const exactUsers = minUsersFor(kth, 1 + EXACT_NAME_BONUS);
    side.push(scored(sql`${exactSingleNameSql(match)} and a.average_daily_users >= ${exactUsers}`, 'all'));
    side.push(exactOther(sql`a.average_daily_users >= ${exactUsers}`, null));
    // With typo variants, the few real matches are all scored here (their text may exceed FUZZY_WEIGHT).
    if (fuzzy && pass === 1) side.push(scored(exactFtsSql(match)));
    for (const rows of await Promise.all(side)) add(rows);
    const ranked = [...scores].map(([id, score]) => ({ id, score })).sort(byScore);
    const kthFinal = ranked[k - 1]?.score ?? -Infinity;
    const walked = walk[0]?.walked ?? 0;
    const proven = walked < n || kthFinal > walkText * popularity(Number(walk[0].last_adu));
    if (proven || fuzzy || pass === limits.walkPasses) return ranked.filter((r) => r.score >= kthFinal);
  }
}

const byScore = (x: Scored, y: Scored) => y.score - x.score || y.id - x.id;

function kthScore(scores: Map<number, number>, k: number) {
  return [...scores.values()].sort((x, y) => y - x)[k - 1] ?? 0;
}

/**
 * Autocomplete: names containing `q` (a word starting with `q` under 3 characters), by popularity,
 * exact names first among them. First the `prefixWalk` most popular add-ons are tested, index-only
 * in `addons_search_names`: frequent patterns end there. If fewer than `limit` match, the pattern is
 * rare among popular add-ons and every match is fetched (trigram and filter indexes) and sorted
 * (exact names first then means among all matches, not only popular ones).
 * Planner estimates for LIKE patterns are too coarse to choose between the two by themselves.
 */
export async function autocompleteWalk(
  execute: Execute,
  filters: AddonSearchFilters,
  q: string,
  limit: number,
  limits: WalkLimits = DEFAULT_WALK_LIMITS,
): Promise<number[]> {
  const where = filterSql(filters);
  const like =
    [...q].length < 3
      ? sql`(a.search_name like ${`${likeEscape(q)}%`} or a.search_name like ${`% ${likeEscape(q)}%`})`
      : sql`a.search_name like ${`%${likeEscape(q)}%`}`;
  const exact = sql`a.search_name = ${nameKey(q)}`;
  if (indexOnlyFilters(filters)) {
    // Rows whose names do not fit the index (over ~2 KB of names and tags: in practice none) are
    // added whatever their popularity.
    const rows = await execute<{ id: number }>(sql`
      select t.id, t.exact, t.adu from (
        select a.id, a.average_daily_users as adu, (${like} and ${filterSql(filters, false)}) as hit, ${exact} as exact
        from addons a where ${BASE} and ${NAMES_FIT}
        order by a.average_daily_users desc, a.id desc limit ${limits.prefixWalk}
      ) t where t.hit
      union all
      select a.id, ${exact}, a.average_daily_users from addons a where ${where} and ${NAMES_DO_NOT_FIT} and ${like}
      order by exact desc, adu desc, id desc limit ${limit}`);
    if (rows.length >= limit) return rows.map((r) => r.id);
  }
  // Rare among popular add-ons: all matches (OFFSET 0 keeps the planner from walking a sort index).
  const rows = await execute<{ id: number }>(sql`
    select m.id, m.adu, m.exact from (
      select a.id, a.average_daily_users as adu, ${exact} as exact from addons a where ${where} and ${like} offset 0
    ) m order by m.exact desc, m.adu desc, m.id desc limit ${limit}`);
  return rows.map((r) => r.id);
}
