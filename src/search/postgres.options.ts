import type { WalkLimits } from './postgres.walk.js';

/**
 * Tuning of the adapter; the defaults suit ~500k add-ons on a small machine (2 vCPUs).
 *
 * `exactCountLimit`: `total` is exact when the planner expects at most this many matches; above,
 * `total` is the planner's estimate. An exact count reads every matching heap page (PostgreSQL 15
 * cannot count from a bitmap alone): 5-15 µs per match when the heap is not all in shared buffers,
 * 1 µs when it is, so ~130-600 ms for a term in a quarter of 500k add-ons, which no search can pay.
 * 2,000 keeps the count within ~25 ms in the worst case measured (5,000, the first plan, cost up to
 * ~70 ms). The estimate's typical error is a few percent, up to ~40-70% when filters correlate with
 * the text (tags, categories); we may revisit (a cached count per query shape).
 *
 * `rankAllLimit`: up to this many estimated matches, all are ranked (or sorted) and counted
 * (exactly) in one statement.
 *
 * Before that, a page by relevance alone among `boundedAbove` to `boundedLimit` expected matches
 * (and above `rankAllLimit`, at most `boundedShare` of the searchable add-ons) ranks only the `boundedRank` (or 4 x the page's end) with the best score bounds, and counts them
 * all exactly, when that proves the order (`rankBounded`).
 */
export interface PostgresSearchOptions extends Partial<WalkLimits> {
  exactCountLimit?: number;
  rankAllLimit?: number;
  /**
   * Bounded ranking (`rankBounded`): by relevance alone, from `boundedAbove` to `boundedLimit`
   * estimated matches (at most `boundedShare` of the searchable add-ons above `rankAllLimit`), ranking max(boundedRank, boundedFactor x k) of them.
   */
  boundedAbove?: number;
  boundedLimit?: number;
  boundedShare?: number;
  boundedRank?: number;
  boundedFactor?: number;
  /**
   * Rank by relevance from the ranked text index (`postgres.ranked.ts`); default: when
   * `addons_search_rum` is a RUM index (checked once).
   */
  rankedIndex?: boolean;
  /**
   * With the ranked text index: rank by it above this many estimated matches. Default
   * `rankAllLimit`: below, the count is exact, which reads every match's heap row anyway, and
   * ranking them all or by bounds in that same statement costs less (at 500,000 add-ons, words of
   * 1,000 to 2,000 matches took 1.2-1.8x longer through the index and a separate exact count).
   */
  rankedAbove?: number;
  /** One-word searches from the per-term postings (`postgres.postings.ts`; default true). */
  postings?: boolean;
  /** `sort=random`: the start point in the random key (tests; default uniform, see postgres.random.ts). */
  randomStart?: () => number;
}

export const EXACT_COUNT_LIMIT = 2_000;
export const RANK_ALL_LIMIT = 2_000;
/**
 * Matches ranked first by relevance among those `rankAllLimit` (at least 4 x the page's end), when
 * the planner expects more than twice as many: fewer are ranked all at once. 400 proved the order
 * for 94% of 2,000 one- and two-word searches at 500,000 add-ons; 100 for 37%.
 */
export const BOUNDED_RANK = 400;
/**
 * Up to this many expected matches, and this share of the searchable add-ons, bounded ranking
 * comes before the popularity walk: its cost is ~1.7 µs per match (no vector read), where the walk
 * reads ~walkStart / share entries of the covering index (a term in 0.5% of 500,000 add-ons: ~70
 * ms deep). A more frequent term ends the walk early; at 50,000 add-ons a term in 30% of them took
 * bounded ranking 60 ms.
 */
export const BOUNDED_LIMIT = 20_000;
export const BOUNDED_SHARE = 0.04;
