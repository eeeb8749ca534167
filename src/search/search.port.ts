import type { AddonType, App, Platform, PromotedCategory } from '../catalogue/catalogue.enums.js';

/**
 * The search port. Two adapters implement it: PostgreSQL full-text (default) and Meilisearch.
 * Input is already validated (`rest-compat/params/search.ts` or GraphQL's types, and the search service): adapters only query.
 *
 * Base filter, always applied: status public (4), not disabled by its developer, has a current
 * version (`current_version_id is not null`).
 */
export interface AddonSearchFilters {
  /** Lower-cased, trimmed, at most 100 characters. */
  q?: string;
  /** Any of these stored types. */
  types?: AddonType[];
  /** Compatible with this application (its current version has compatibility for it). */
  app?: App;
  /** With `app`: compatible with this application version (min <= v and max >= v + "a"). */
  appVersion?: { min: number; max: number };
  /** Any of these listed authors. */
  authorIds?: number[];
  authorUsernames?: string[];
  /** Has this category (id). */
  categoryId?: number;
  excludeIds?: number[];
  excludeSlugs?: string[];
  /** Any of these guids (compared case-insensitively). */
  guids?: string[];
  /** v3: has a file for this platform or for all platforms. */
  platform?: Platform;
  /** Promoted in any of these categories; with `app`, promoted for that application. */
  promoted?: PromotedCategory[];
  /** Has every one of these tags. */
  tags?: string[];
  /**
   * v3: in the featured list of this application. `locale` undefined: any list; a string: that
   * locale's list or the global one; null: the global list only.
   */
  featured?: { app?: App; locale?: string | null };
  /** Static themes with a dominant colour close to this one. */
  color?: { h: number; s: number; l: number };
  /** Average daily users within these bounds. */
  users?: Range<number>;
  /** Average rating (not the Bayesian one) within these bounds. */
  ratings?: Range<number>;
  /** Creation date within these bounds. */
  created?: Range<Date>;
  /** Last update within these bounds (an add-on never updated matches none). */
  updated?: Range<Date>;
}

/** Bounds of a value: at least one is set, every one set must hold. */
export interface Range<T> {
  gt?: T;
  gte?: T;
  lt?: T;
  lte?: T;
}

/** The range filters, by filter name. */
export const RANGE_FILTERS = ['users', 'ratings', 'created', 'updated'] as const;

/** Every sort is descending. `recommended` is only ever a prefix; `random` only alone. */
export type AddonSort =
  'created' | 'downloads' | 'hotness' | 'rating' | 'relevance' | 'updated' | 'users' | 'recommended' | 'random';

export interface AddonSearchQuery {
  filters: AddonSearchFilters;
  sort: AddonSort[];
  offset: number;
  limit: number;
}

export interface AddonSearchHit {
  id: number;
  /** Relevance (null when not sorting by relevance). */
  score: number | null;
}

export interface AddonSearchResult {
  hits: AddonSearchHit[];
  /** Total matches (exact, or an estimate above `SearchEngine.exactCountLimit`; see the adapter). */
  total: number;
}

export interface SearchEngine {
  readonly name: 'postgres' | 'meilisearch';
  search(query: AddonSearchQuery): Promise<AddonSearchResult>;
  /** At most `limit` hits: name matches (prefix/typo tolerant) with `q`, else the default order. */
  autocomplete(query: AddonSearchQuery): Promise<AddonSearchHit[]>;
  /** Brings the index up to date for these add-ons (a no-op where the database is the index). */
  index(addonIds: readonly number[]): Promise<void>;
}
