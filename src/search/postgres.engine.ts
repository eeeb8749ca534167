import { PromotedCategory } from '../catalogue/catalogue.enums.js';
import type { Database } from '../db/database.js';
import { lookupRows } from '../db/rows.js';
import { intArray, numericArray, textArray } from '../db/sql.js';
import {
  BASE,
  filterSql,
  join,
  matchSql,
  orderBy,
  nameFtsSql,
  raw,
  scoreBoundSql,
  scoreSql,
  sortKey,
  sql,
  type Sql,
  type TextMatch,
} from './postgres.query.js';
import {
  autocompleteWalk,
  DEFAULT_WALK_LIMITS,
  estimateRows,
  relevanceWalk,
  type Scored,
  type WalkLimits,
} from './postgres.walk.js';
import { randomPage } from './postgres.random.js';
import { postingsTop } from './postgres.postings.js';
import { plainWords, rankedIndexReady, rankedWalk } from './postgres.ranked.js';
import type { AddonSearchHit, AddonSearchQuery, AddonSearchResult, AddonSort, SearchEngine } from './search.port.js';
import { typoGroups } from './typos.js';
import {
  BOUNDED_LIMIT,
  BOUNDED_RANK,
  BOUNDED_SHARE,
  EXACT_COUNT_LIMIT,
  RANK_ALL_LIMIT,
  type PostgresSearchOptions,
} from './postgres.options.js';

export { EXACT_COUNT_LIMIT, type PostgresSearchOptions } from './postgres.options.js';

/** How long the number of searchable add-ons (a planner estimate) is reused. */
const SEARCHABLE_TTL_MS = 60_000;
/** With fewer real matches than this (and `q` under 20 characters), typo variants are added. */
const FUZZY_BELOW = 10;
const FUZZY_MAX_QUERY_LENGTH = 20;
/** Deeper pages than this are ranked by sorting every match. */
const WALK_MAX_DEPTH = 1_000;

interface HitRow {
  id: number;
  score: number | null;
}

/**
 * The PostgreSQL adapter of the search port: the `addons` table and its partial indexes (see
 * `addon.entity.ts` and the SearchIndexes migration) are the index. Statements are sent with their
 * values inlined (custom plans), so the planner sees each term's frequency. Strategies, by the
 * planner's estimate of the matches:
 * - a few (<= `rankAllLimit`): rank or sort them all, counted in the same statement;
 * - more, by relevance, on PostgreSQL with the rum extension (plain words, above `rankedAbove`):
 *   the ranked text index (`postgres.ranked.ts`), provably exact, reading only the matches that
 *   can reach the k-th score;
 * - more, by relevance: the popularity-ordered walk of `postgres.walk.ts`, provably exact;
 * - more, other sorts: an ordered index walk with a LIMIT;
 * counted in parallel (exact up to `exactCountLimit`, else estimated).
 * `random` alone without `q` walks a fixed random key from a random point (`postgres.random.ts`);
 * with `q` or further sorts (which the search service refuses) it still orders the matches by random().
 */
export class PostgresSearchEngine implements SearchEngine {
  readonly name = 'postgres' as const;

  private readonly exactCountLimit: number;
  private readonly rankAllLimit: number;
  private readonly boundedRank: number;
  private readonly boundedAbove: number;
  private readonly boundedLimit: number;
  private readonly boundedShare: number;
  private searchableRows?: { rows: number; at: number };
  private readonly boundedFactor: number;
  private readonly limits: WalkLimits;
  private rankedIndex?: Promise<boolean>;
  private readonly rankedAbove: number;
  private readonly randomStart?: () => number;
  private readonly postings: boolean;

  constructor(
    private readonly db: Database,
    options: PostgresSearchOptions = {},
  ) {
    this.exactCountLimit = options.exactCountLimit ?? EXACT_COUNT_LIMIT;
    this.rankAllLimit = options.rankAllLimit ?? RANK_ALL_LIMIT;
    this.boundedRank = options.boundedRank ?? BOUNDED_RANK;
    this.boundedAbove = options.boundedAbove ?? 2 * this.boundedRank;
    this.boundedLimit = options.boundedLimit ?? BOUNDED_LIMIT;
    this.boundedShare = options.boundedShare ?? BOUNDED_SHARE;
    this.boundedFactor = options.boundedFactor ?? 4;
    this.limits = { ...DEFAULT_WALK_LIMITS, ...options };
    this.rankedAbove = options.rankedAbove ?? this.rankAllLimit;
    if (options.rankedIndex !== undefined) this.rankedIndex = Promise.resolve(options.rankedIndex);
    this.randomStart = options.randomStart;
    this.postings = options.postings ?? true;
  }

  async search(query: AddonSearchQuery): Promise<AddonSearchResult> {
    const where = filterSql(query.filters);
    const q = query.filters.q?.trim();
    if (!q && query.sort.length === 1 && query.sort[0] === 'random') {
      const { exactCountLimit, randomStart: start } = this;
      return randomPage(this.execute, query.filters, query.offset, query.limit, {
        exactCountLimit,
        estimate: (w) => this.estimate(w),
        start: start?.(),
      });
    }
    if (!q) {
      const [hits, total] = await Promise.all([
        this.ordered(where, query.sort, null, query.offset, query.limit),
        this.count(where),
      ]);
      return { hits, total };
    }
    let result = await this.textSearch(where, { q, fuzzy: null }, query);
    if (result.exact && result.total < FUZZY_BELOW && q.length < FUZZY_MAX_QUERY_LENGTH) {
      const fuzzy = await this.typoQuery(q);
      if (fuzzy) result = await this.textSearch(where, { q, fuzzy }, query);
    }
    return { hits: result.hits, total: result.total };
  }

  async autocomplete(query: AddonSearchQuery): Promise<AddonSearchHit[]> {
    const q = query.filters.q?.trim();
    if (!q) {
      const sort = query.sort.filter((s) => s !== 'relevance');
      return this.ordered(filterSql(query.filters), sort.length ? sort : ['users'], null, 0, query.limit);
    }
    const ids = await autocompleteWalk(this.execute, query.filters, q, query.limit, this.limits);
    return ids.map((id) => ({ id, score: null }));
  }

  /**
   * A no-op: the `addons` table is the index. Its generated columns (`search_vector`,
   * `search_name`) and the denormalised filter columns are current once the row is written, and
   * PostgreSQL maintains the indexes in the same transaction.
   */
  async index(_addonIds: readonly number[]): Promise<void> {}

  /** Whether the ranked text index is there (a RUM index: PostgreSQL with rum), checked once. */
  private ranked(): Promise<boolean> {
    this.rankedIndex ??=
      this.db.kind === 'postgres'
        ? rankedIndexReady(this.execute).catch(() => {
            this.rankedIndex = undefined; // asked again by the next search
            return false;
          })
        : Promise.resolve(false);
    return this.rankedIndex;
  }

  private async textSearch(where: Sql, match: TextMatch, query: AddonSearchQuery) {
    const { offset, limit, sort } = query;
    const all = sql`${where} and ${matchSql(match)}`;
    const k = offset + limit;
    const rankable =
      match.fuzzy === null &&
      sort[0] === 'relevance' &&
      limit > 0 &&
      k <= WALK_MAX_DEPTH &&
      plainWords(match.q) !== null &&
      (await this.ranked());
    // One word, no filter: from the postings, counted there up to rankAllLimit. Where the ranked index
    // would rank, they come first (no estimate below the limit); else where the estimate says all
    // matches would be counted.
    const postable = this.postings && where.text === BASE.text;
    const postings = () => postingsTop(this.lookup, match, query, WALK_MAX_DEPTH, this.rankAllLimit);
    let posted = postable && rankable ? await postings() : null;
    if (posted?.total != null)
      return { hits: posted.hits.slice(offset, offset + limit), total: posted.total, exact: true };
    const estimate = await this.estimate(all);
    if (!posted && postable && !rankable && estimate <= this.rankAllLimit) posted = await postings();
    if (posted) {
      const total = posted.total ?? (await this.count(all, estimate));
      return {
        hits: posted.hits.slice(offset, offset + limit),
        total,
        exact: posted.total !== null || total <= this.exactCountLimit,
      };
    }
    if (rankable && estimate > this.rankedAbove) {
      // Counted exactly where all matches would be ranked (as they are counted there), else as walks are.
      const [ranked, total] = await Promise.all([
        rankedWalk(this.execute, where, match, k),
        estimate <= this.rankAllLimit ? this.count(all, 0, false) : this.count(all, estimate),
      ]);
      return { hits: await this.page(ranked, query), total, exact: total <= this.exactCountLimit };
    }
    const bounded =
      match.fuzzy === null &&
      sort.length === 1 &&
      sort[0] === 'relevance' &&
      limit > 0 &&
      estimate > Math.max(this.boundedAbove, 2 * this.boundedSize(k)) &&
      estimate <= this.boundedLimit &&
      (estimate <= this.rankAllLimit || estimate <= this.boundedShare * (await this.searchable()));
    const ranked = bounded ? await this.rankBounded(where, match, k) : null;
    if (ranked) return { hits: ranked.hits.slice(offset, offset + limit), total: ranked.total, exact: true };
    if (estimate <= this.rankAllLimit) {
      const rows = await this.execute<HitRow & { total: number }>(sql`
        select a.id, ${scoreOf(sort, match)} as score, count(*) over ()::int as total from addons a
        where ${all} order by ${orderBy(sort)} limit ${limit} offset ${offset}`);
      const total = rows[0]?.total ?? (offset > 0 || limit <= 0 ? await this.count(all) : 0);
      return { hits: rows.map(hit), total, exact: true };
    }
    const [hits, total] = await Promise.all([this.textHits(where, match, query), this.count(all, estimate)]);
    return { hits, total, exact: total <= this.exactCountLimit };
  }

  /**
   * The `k` best matches by relevance without ranking every match: each match's score bound
   * (`scoreBoundSql`: no vector read, name matches from their index) orders them, the `boundedRank`
   * best bounds are ranked, and the ranking is exact when the k-th score beats the next bound; null
   * otherwise (the caller ranks them all). Counted exactly in the same statement. Not for typo
   * variants (their text score has other bounds).
   */
  /** The planner's estimate of the searchable add-ons, reused for a minute. */
  private async searchable(): Promise<number> {
    const now = Date.now();
    if (!this.searchableRows || now - this.searchableRows.at > SEARCHABLE_TTL_MS) {
      this.searchableRows = { rows: await this.estimate(BASE), at: now };
    }
    return this.searchableRows.rows;
  }

  private boundedSize(k: number) {
    return Math.max(this.boundedRank, this.boundedFactor * k, k);
  }

  private async rankBounded(where: Sql, match: TextMatch, k: number) {
    const n = this.boundedSize(k);
    const rows = await this.execute<HitRow & { total: number; next_bound: number | null }>(sql`
      with names as materialized (
        select a.id from addons a where ${where} and ${nameFtsSql(match)}
      ), b as materialized (
        select a.id, ${scoreBoundSql(match, raw('a.id in (select id from names)'))} as bound
        from addons a where ${where} and ${matchSql(match)}
      ), c as materialized (
        select id from b order by bound desc, id desc limit ${n}
      )
      select a.id, ${scoreSql(match)} as score, (select count(*) from b)::int as total,
        (select bound from b order by bound desc, id desc offset ${n} limit 1) as next_bound
      from c join addons a on a.id = c.id`);
    const ranked = rows.map(hit).sort((x, y) => y.score! - x.score! || y.id - x.id);
    const total = rows[0]?.total ?? 0;
    const next = rows[0]?.next_bound ?? null;
    if (next !== null && !(ranked[k - 1].score! > Number(next))) return null;
    return { hits: ranked.slice(0, k), total };
  }

  private async textHits(where: Sql, match: TextMatch, query: AddonSearchQuery): Promise<AddonSearchHit[]> {
    const k = query.offset + query.limit;
    if (query.limit <= 0) return [];
    if (query.sort[0] === 'relevance' && k <= WALK_MAX_DEPTH) {
      return this.page(await relevanceWalk(this.execute, where, match, k, this.limits), query);
    }
    return this.ordered(sql`${where} and ${matchSql(match)}`, query.sort, match, query.offset, query.limit);
  }

  /** The requested page of ranked candidates; further sorts break score ties (they need the rows). */
  private async page(ranked: Scored[], query: AddonSearchQuery): Promise<AddonSearchHit[]> {
    if (query.sort.length === 1 || ranked.length <= query.offset) {
      return ranked.slice(query.offset, query.offset + query.limit);
    }
    const rows = await this.execute<HitRow>(sql`
      select a.id, c.score from unnest(${intArray(ranked.map((r) => r.id))}::int[],
        ${numericArray(ranked.map((r) => r.score))}::float8[]) as c(id, score)
      join addons a on a.id = c.id
      order by ${orderBy(query.sort)} limit ${query.limit} offset ${query.offset}`);
    return rows.map(hit);
  }

  /**
   * Hits in sort order, no count. A leading `recommended` sort is a union of the recommended
   * matches and the others, each in the remaining order, so that both can walk a sort index.
   */
  private async ordered(
    where: Sql,
    sort: AddonSort[],
    match: TextMatch | null,
    offset: number,
    limit: number,
  ): Promise<AddonSearchHit[]> {
    const score = scoreOf(sort, match);
    if (sort[0] !== 'recommended' || sort.length === 1) {
      const rows = await this.execute<HitRow>(sql`
        select a.id, ${score} as score from addons a where ${where}
        order by ${orderBy(sort)} limit ${limit} offset ${offset}`);
      return rows.map(hit);
    }
    const rest = sort.slice(1);
    const keys = rest.map((s, i) => sql`${s === 'relevance' ? score : raw(sortKey(s).expr)} as k${raw(String(i))}`);
    const outer = rest.map((s, i) => `u.k${i} ${sortKey(s).dir}`);
    const branch = (g: number, condition: Sql) => sql`(
      select a.id, ${score} as score, ${g} as g, ${join(keys, ', ')} from addons a
      where ${where} and ${condition} order by ${orderBy(rest)} limit ${offset + limit})`;
    const recommended = PromotedCategory.RECOMMENDED;
    const rows = await this.execute<HitRow>(sql`
      select u.id, u.score from (
        ${branch(0, sql`a.promoted_category = ${recommended}::smallint`)}
        union all
        ${branch(1, sql`a.promoted_category is distinct from ${recommended}::smallint`)}
      ) u order by u.g, ${raw(outer.join(', '))}, u.id desc limit ${limit} offset ${offset}`);
    return rows.map(hit);
  }

  /**
   * Exact when the planner expects at most `exactCountLimit` matches, else its estimate. The exact
   * count is capped (unless `capped` is false): if the estimate was far too low, it stops just above
   * the limit.
   */
  private async count(where: Sql, knownEstimate?: number, capped = true): Promise<number> {
    const estimate = knownEstimate ?? (await this.estimate(where));
    if (estimate > this.exactCountLimit) return estimate;
    const cap = capped ? sql`limit ${this.exactCountLimit + 1}` : raw('');
    const [row] = await this.execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 from addons a where ${where} ${cap}) x`);
    return row.n;
  }

  private estimate(where: Sql): Promise<number> {
    return estimateRows(this.execute, where);
  }

  /**
   * Typo variants of `q` (`typos.ts`) reduced to the lexemes that occur in searchable add-ons, as
   * a `to_tsquery('simple', …)` text; null when some word has none. One GIN probe per lexeme.
   */
  private async typoQuery(q: string): Promise<string | null> {
    const groups = typoGroups(q);
    if (!groups) return null;
    // Lexemes in the statistics' most common elements exist; the others are probed in the index, or
    // (plain ASCII lexemes) in the postings: one B-tree probe instead of a text index probe and recheck.
    const inIndex = sql`exists (select 1 from addons a where ${BASE} and a.search_vector @@ plainto_tsquery('simple', l.lexeme))`;
    const indexed = this.postings
      ? sql`case when l.lexeme ~ '^[a-z0-9]+$' then exists (select 1 from addon_search_postings p where p.lexeme = l.lexeme)
          else ${inIndex} end`
      : inIndex;
    const rows = await this.execute<{ i: number; lexeme: string; indexed: boolean }>(sql`
      with common as (
        select coalesce((select most_common_elems::text::text[] from pg_stats
          where schemaname = current_schema() and tablename = 'addons' and attname = 'search_vector'), '{}') as lexemes
      )
      select g.i::int as i, l.lexeme, (l.lexeme in (select unnest(common.lexemes)) or ${indexed}) as indexed
      from common, unnest(${textArray(groups.map((g) => g.join(' ')))}::text[]) with ordinality as g(words, i),
        lateral unnest(tsvector_to_array(to_tsvector('english', g.words))) as l(lexeme)`);
    // Words without lexemes (stop words) are left out, as the full-text query does.
    const lexemes = groups
      .map((_, i) => rows.filter((r) => r.i === i + 1))
      .filter((group) => group.length)
      .map((group) => group.filter((r) => r.indexed).map((r) => r.lexeme));
    if (!lexemes.length || lexemes.some((l) => !l.length)) return null;
    return lexemes.map((l) => `(${l.join(' | ')})`).join(' & ');
  }

  private readonly execute = <T>(query: Sql): Promise<T[]> =>
    this.db
      .fork()
      .getConnection()
      .execute<T[]>(query.text, [...query.params]);

  /**
   * A statement of fixed text run for most searches (a word's postings): a key lookup
   * (src/db/rows.ts), on a PostgreSQL server a named prepared statement, parsed and planned once
   * per connection (its planning cost as much as its execution).
   */
  private readonly lookup = <T>(query: Sql): Promise<T[]> => lookupRows<T>(this.db.fork(), query.text, query.params);
}

const scoreOf = (sort: AddonSort[], match: TextMatch | null) =>
  match && sort.includes('relevance') ? scoreSql(match) : raw('null::float8');

const hit = (r: HitRow): AddonSearchHit => ({ id: r.id, score: r.score === null ? null : Number(r.score) });
