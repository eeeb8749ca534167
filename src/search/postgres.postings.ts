import { publicAddonSql } from '../catalogue/public.js';
import { BASE, exactNameSql, exactFtsSql, raw, scoreSql, sql, tsquery, type TextMatch } from './postgres.query.js';
import { plainWords } from './postgres.ranked.js';
import type { Execute, Scored } from './postgres.walk.js';
import type { AddonSearchQuery } from './search.port.js';

/**
 * Relevance top-k of a one-word search from the per-term postings (`addon_search_postings`, the
 * SearchPostings migration): each searchable add-on's lexemes with the score a search for that
 * lexeme gives it, exact-name bonus aside, in (lexeme, score desc, id desc) order. The k best are
 * the first k postings of the word's lexeme, merged with the exact names (scored in full from their
 * rows: the bonus only adds): no other match can rank above the k-th posting. Exact, with the order
 * and scores of ranking every match; reads k postings and the exact names, not every match.
 *
 * For a plain-word query of one lexeme (postings have no lexeme with a quote or a backslash), with no filter but the base one; null
 * otherwise (the caller takes its other paths). `countUpTo`: the exact number of matches too when
 * it is at most this (read from the lexeme's postings, no more than this many), else `total` null.
 */
export async function postingsTop(
  execute: Execute,
  match: TextMatch,
  query: Pick<AddonSearchQuery, 'sort' | 'offset' | 'limit'>,
  maxDepth: number,
  countUpTo: number,
): Promise<{ hits: Scored[]; total: number | null } | null> {
  const k = query.offset + query.limit;
  const relevance = query.sort.length === 1 && query.sort[0] === 'relevance';
  if (match.fuzzy !== null || !relevance || query.limit <= 0 || k > maxDepth || !plainWords(match.q)) return null;
  const lexeme = sql`(select l.lexeme from (select btrim(querytree(${tsquery(match)}), '''') as lexeme) l
    where numnode(${tsquery(match)}) = 1 and strpos(l.lexeme, '''') = 0 and strpos(l.lexeme, '\\') = 0)`;
  // Exact names are few: all of them, scored in full (a name that is the word without its lexeme
  // in the vector, as another locale's stemming may give, is a match all the same).
  const rows = await execute<Scored & { kind: 'p' | 'x' | 'n'; total: number | null; lexeme: string | null }>(sql`
    with l as materialized (select ${lexeme} as lexeme)
    select 'n' as kind, null::int as id, null::float8 as score, (select lexeme from l) as lexeme,
      (select count(*) from (select 1 from addon_search_postings p where p.lexeme = (select lexeme from l)
        limit ${countUpTo + 1}) c)::int as total
    union all
    (select 'p', p.addon_id, p.score, null, null from addon_search_postings p where p.lexeme = (select lexeme from l)
      order by p.score desc, p.addon_id desc limit ${k})
    union all
    select 'x', a.id, ${scoreSql(match)}, null, (not (${exactFtsSql(match)}))::int from addons a
    where (select lexeme from l) is not null and ${BASE} and ${exactNameSql(match)}`);
  const head = rows.find((r) => r.kind === 'n');
  if (!head?.lexeme) return null;
  const scores = new Map<number, number>();
  let extra = 0;
  for (const r of rows) {
    if (r.kind === 'n') continue;
    // An exact name's full score replaces its posting's (the same plus the bonus).
    if (r.kind === 'x') {
      scores.set(r.id, Number(r.score));
      extra += Number(r.total);
    } else if (!scores.has(r.id)) scores.set(r.id, Number(r.score));
  }
  const hits = [...scores].map(([id, score]) => ({ id, score })).sort(byScore);
  const total = Number(head.total) + extra;
  return { hits: hits.slice(0, k), total: total <= countUpTo ? total : null };
}

/** Every searchable add-on's postings computed from its row: (lexeme, score, id). */
const computedPostings = sql`select s.lexeme, s.score, r.id from (
      select r.id, r.search_vector || ''::tsvector as v, r.average_daily_users as adu, r.promoted_category as promoted
      from addons r where ${raw(publicAddonSql('r'))} offset 0
    ) r, lateral addon_search_postings_of(r.v, r.adu, r.promoted) s`;

/** Rebuilds the postings from `addons` (reindex --rebuild-postings): the table emptied, every searchable add-on's filled anew. */
export async function rebuildPostings(execute: Execute): Promise<void> {
  await execute(sql`truncate addon_search_postings`);
  await execute(sql`insert into addon_search_postings (lexeme, score, addon_id) ${computedPostings}`);
  await execute(sql`analyze addon_search_postings`);
}

/**
 * Brings the postings to exactly what `rebuildPostings` would write, writing only the difference:
 * every posting computed from `addons` is matched against the table by its full key (one hash
 * join); the ones the table lacks are inserted, the ones nothing computes any more deleted (by
 * their key, one index probe each). The triggers keep the postings in step, so after a seed or a
 * migration this is usually a read of both sides and no write; searches meanwhile keep reading
 * the postings (a truncate would leave them empty until the insert commits). Returns the number
 * of postings inserted and deleted.
 */
export async function syncPostings(execute: Execute): Promise<{ inserted: number; deleted: number }> {
  const [counts] = await execute<{ inserted: number; deleted: number }>(sql`
    with d as materialized (
      select f.lexeme as new_lexeme, f.score as new_score, f.id as new_id,
             p.lexeme as old_lexeme, p.score as old_score, p.addon_id as old_id
      from (${computedPostings}) f full join addon_search_postings p
        on p.lexeme = f.lexeme and p.score = f.score and p.addon_id = f.id
      where f.id is null or p.addon_id is null
    ), gone as (
      delete from addon_search_postings p using d
      where d.new_id is null and p.lexeme = d.old_lexeme and p.score = d.old_score and p.addon_id = d.old_id
      returning 1
    ), added as (
      insert into addon_search_postings (lexeme, score, addon_id)
      select new_lexeme, new_score, new_id from d where old_id is null
      returning 1
    )
    select (select count(*) from added)::int as inserted, (select count(*) from gone)::int as deleted`);
  if (counts.inserted || counts.deleted) await execute(sql`analyze addon_search_postings`);
  return { inserted: Number(counts.inserted), deleted: Number(counts.deleted) };
}

const byScore = (x: Scored, y: Scored) => y.score - x.score || y.id - x.id;
