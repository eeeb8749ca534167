import { PromotedCategory } from '../catalogue/catalogue.enums.js';
import {
  BASE,
  indexOnlyFilters,
  NAMES_DO_NOT_FIT,
  NAMES_FIT,
  EXACT_NAME_BONUS,
  exactFtsSql,
  exactNameSql,
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
  sql,
  tsquery,
  WALKABLE,
  type Sql,
  type TextMatch,
} from './postgres.query.js';
import type { AddonSearchFilters } from './search.port.js';

/**
 * Popularity-ordered walks over the covering index `addons_search_walk` (average_daily_users desc,
 * id desc; the filter columns, names and `search_vector` in the tuple): read index-only, they
 * stop after a few hundred entries for frequent terms and prefixes, where a bitmap scan would visit
 * every match in the heap. Rows too large for that index are fetched by side queries.
 */
export type Execute = <T>(query: Sql) => Promise<T[]>;

export interface Scored {
  id: number;
  score: number;
}

/** First walk size (matching candidates), multiplied by 4 at each pass. */
const WALK_START = 400;
const WALK_PASSES = 3;

/**
 * The `k` best by relevance. Candidates come in popularity order, and a text score is at most 1
 * (`FUZZY_WEIGHT` for a typo-only match), so no document after the walk's last one (ADU `u`) can
 * score above log10(u + 2): when the k-th score beats that bound, the ranking is exact. Recommended
 * add-ons (x1.25), exact names (+4) and rows outside the walk index are fetched by side queries, so
 * the bound holds for the rest. When the first pass fails (few matches in names: a term mostly in
 * descriptions), a single-term query also gets its name matches from `addons_search_name_text`,
 * which lowers the bound to `NON_NAME_TEXT`; then the walk deepens 4 times, twice. Unproven after
 * that (or with typo variants, which are approximate anyway), the best candidates found are
 * returned: the error is limited to unpopular documents whose text beats popular ones' by a wide
 * margin (less popular summary matches against popular description matches).
 * Returns every candidate scoring at least the k-th (ties included).
 */
export async function relevanceWalk(execute: Execute, where: Sql, match: TextMatch, k: number): Promise<Scored[]> {
  const fuzzy = match.fuzzy !== null;
  const scores = new Map<number, number>();
  const add = (rows: Scored[]) => {
    for (const r of rows) scores.set(r.id, Math.max(scores.get(r.id) ?? 0, r.score));
  };
  let unseenText = fuzzy ? FUZZY_WEIGHT : 1;
  let n = Math.max(WALK_START, 8 * k);
  for (let pass = 1; ; pass++, n *= 4) {
    const walk = await execute<Scored & { walked: number; last_adu: number | null; nodes: number }>(sql`
      with w as materialized (
        select a.id, a.average_daily_users as adu, ${scoreSql(match, false)} as score from addons a
        where ${where} and ${WALKABLE} and ${ftsSql(match)}
        order by a.average_daily_users desc, a.id desc limit ${n}
      ), r as materialized (
        select c.id, max(c.score) as score from (
          select id, score from w
          union all
          select a.id, ${scoreSql(match, false)} from addons a
          where ${where} and ${WALKABLE} and a.promoted_category = ${PromotedCategory.RECOMMENDED}::smallint
            and ${ftsSql(match)}
        ) c group by c.id
      )
      select r.id, r.score, (select count(*) from w)::int as walked, (select min(adu) from w) as last_adu,
        numnode(${tsquery(match)}) as nodes
      from r where r.score >= coalesce((select score from r order by score desc offset ${k - 1} limit 1), 0)`);
    add(walk);
    const kth = kthScore(scores, k);
    // Exact names and large rows, when popular enough to reach the k-th score.
    const side: Sql[] = [
      sql`select a.id, ${scoreSql(match)} as score from addons a where ${where} and ${exactNameSql(match)}
        and a.average_daily_users >= ${minUsersFor(kth, 1 + EXACT_NAME_BONUS)}`,
      sql`select a.id, ${scoreSql(match)} as score from addons a where ${where} and ${NOT_WALKABLE}
        and ${ftsSql(match)} and a.average_daily_users >= ${minUsersFor(kth, unseenText)}`,
    ];
    // With typo variants, the few real matches are all scored here (their text may exceed FUZZY_WEIGHT).
    if (fuzzy && pass === 1)
      side.push(sql`select a.id, ${scoreSql(match)} as score from addons a where ${where} and ${exactFtsSql(match)}`);
    if (pass === 2 && Number(walk[0]?.nodes) === 1) {
      side.push(sql`select a.id, ${scoreSql(match)} as score from addons a where ${where} and ${nameFtsSql(match)}
        and a.average_daily_users >= ${minUsersFor(kth, 1)}`);
      unseenText = NON_NAME_TEXT;
    }
    for (const rows of await Promise.all(side.map((part) => execute<Scored>(part)))) add(rows);
    const ranked = [...scores].map(([id, score]) => ({ id, score })).sort(byScore);
    const kthFinal = ranked[k - 1]?.score ?? -Infinity;
    const walked = walk[0]?.walked ?? 0;
    const exhausted = walked < n;
    const proven = exhausted || kthFinal > unseenText * popularity(Number(walk[0].last_adu));
    if (proven || fuzzy || pass === WALK_PASSES) return ranked.filter((r) => r.score >= kthFinal);
  }
}

const byScore = (x: Scored, y: Scored) => y.score - x.score || y.id - x.id;

function kthScore(scores: Map<number, number>, k: number) {
  return [...scores.values()].sort((x, y) => y - x)[k - 1] ?? 0;
}

/** Entries of the names index read by the first autocomplete attempt (~4 ms). */
const PREFIX_WALK = 10_000;

/**
 * Autocomplete: names containing `q` (a word starting with `q` under 3 characters), by popularity,
 * exact names first among them. First the `PREFIX_WALK` most popular add-ons are tested, index-only
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
        order by a.average_daily_users desc, a.id desc limit ${PREFIX_WALK}
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
