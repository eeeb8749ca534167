import type { AddonRecord } from '../catalogue/catalogue.records.js';
import { addonById } from '../catalogue/catalogue.loaders.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import type { CategoriesService } from '../catalogue/categories.service.js';
import { AddonType, versionInt } from '../catalogue/catalogue.enums.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { canonicalLocale } from '../core/i18n/locales.js';
import { pageRequest, toPage, type Page } from '../core/pagination.js';
import type {
  AddonSearchFilters,
  AddonSearchHit,
  AddonSearchQuery,
  AddonSort,
  Range,
  SearchEngine,
} from './search.port.js';
import type { AddonSearchInput, AddonSortField } from './search.types.js';
import { SEARCH_TEXT_LIMITS } from './text-limits.js';

export const AUTOCOMPLETE_LIMIT = 10;
export const MAX_QUERY_LENGTH = SEARCH_TEXT_LIMITS.searchQuery;
/** The featured list's size (v3 `page_size`): 25 by default, 0 counts as 1, at most 50. */
export const FEATURED_LIMIT = { default: 25, max: 50 } as const;

export interface SearchHit {
  addon: AddonRecord;
  score: number | null;
}

/**
 * Search rules shared by REST and GraphQL, independent of the engine: query length, appversion,
 * category resolution, sort defaults and combinations, the result window. The engine only queries.
 */
export class SearchService {
  constructor(
    private readonly engine: SearchEngine,
    private readonly categories: CategoriesService,
    private readonly catalogue: CatalogueService,
    /** Only this many results are reachable by paging (SEARCH_MAX_RESULT_WINDOW). */
    private readonly maxResultWindow = 25_000,
  ) {}

  get engineName() {
    return this.engine.name;
  }

  async search(
    ctx: RequestContext,
    input: AddonSearchInput,
    sort: AddonSortField[] | null | undefined,
    page?: number | null,
    pageSize?: number | null,
  ): Promise<Page<SearchHit>> {
    const request = pageRequest(page, pageSize);
    if (request.offset >= this.maxResultWindow) throw errors.invalidPage();
    const filters = await this.filters(ctx, input);
    const result = await this.engine.search({
      filters,
      sort: this.sorts(filters, sort),
      offset: request.offset,
      limit: Math.min(request.limit, this.maxResultWindow - request.offset),
    });
    return toPage(request, result.total, await this.load(ctx, result.hits), this.maxResultWindow);
  }

  /**
   * Checks a search (its filters and sort) as `search` would, without running it: for searches
   * stored to run later (home shelves), checked inside a write, where the engine is not asked.
   */
  async check(ctx: RequestContext, input: AddonSearchInput, sort: AddonSortField[] | null | undefined): Promise<void> {
    this.sorts(await this.filters(ctx, input), sort);
  }

  /** Brings the search index up to date for these add-ons after a change. */
  indexAddons(addonIds: readonly number[]): Promise<void> {
    return this.engine.index(addonIds);
  }

  /** At most 10 hits, no pagination. */
  async autocomplete(
    ctx: RequestContext,
    input: AddonSearchInput,
    sort?: AddonSortField[] | null,
  ): Promise<SearchHit[]> {
    const filters = await this.filters(ctx, input);
    const query: AddonSearchQuery = { filters, sort: this.sorts(filters, sort), offset: 0, limit: AUTOCOMPLETE_LIMIT };
    return this.load(ctx, await this.engine.autocomplete(query));
  }

  /**
   * v3 featured list: random order, `limit` results (see FEATURED_LIMIT; a negative one is refused
   * with the original's page_size message). `app` is required; a category counts only with app and
   * one type. Problems answer with the original's single message.
   */
  async featured(ctx: RequestContext, input: AddonSearchInput, limit: number): Promise<SearchHit[]> {
    const invalid = () => errors.badRequest('Invalid app, category and/or type parameter(s).');
    if (!input.app) throw invalid();
    if (!Number.isInteger(limit) || limit < 0) throw errors.badRequest('Invalid page_size parameter');
    const size = Math.min(Math.max(limit, 1), FEATURED_LIMIT.max);
    let filters: AddonSearchFilters;
    try {
      filters = await this.filters(ctx, { ...input, q: null, featured: true });
    } catch {
      throw invalid();
    }
    // Without a language, the featured list is the global one only.
    filters.featured = { app: input.app, locale: canonicalLocale(input.featuredLocale) ?? null };
    const result = await this.engine.search({ filters, sort: ['random'], offset: 0, limit: size });
    return this.load(ctx, result.hits);
  }

  private async filters(ctx: RequestContext, input: AddonSearchInput): Promise<AddonSearchFilters> {
    const filters: AddonSearchFilters = {};
    const q = input.q?.trim().toLowerCase();
    if (q) {
      if (q.length > MAX_QUERY_LENGTH) throw errors.badParameter('Maximum query length exceeded.');
      filters.q = q;
    }
    if (input.types?.length) filters.types = [...new Set(input.types)];
    if (input.app) filters.app = input.app;
    if (input.appVersion !== null && input.appVersion !== undefined) {
      if (!input.app) throw errors.badParameter('Invalid combination of "app" and "appversion" parameters.');
      filters.appVersion = parseAppVersion(input.appVersion);
    }
    // An id no row can have (a fraction, beyond 32 bits) matches nobody, rather than failing the query.
    if (input.authorIds?.length) filters.authorIds = input.authorIds.map((id) => (isRowId(id) ? id : -1));
    if (input.authorUsernames?.length) filters.authorUsernames = input.authorUsernames;
    if (input.category !== null && input.category !== undefined && input.app && filters.types?.length === 1) {
      const category = await this.categories.find(ctx.em, input.app, filters.types[0], input.category);
      if (!category) throw errors.badParameter('Invalid "category" parameter.');
      filters.categoryId = category.id;
    }
    const exclude = input.excludeAddons ?? [];
    if (exclude.some((e) => /^\d+$/.test(e))) {
      filters.excludeIds = exclude
        .filter((e) => /^\d+$/.test(e))
        .map(Number)
        .filter(isRowId);
    }
    if (exclude.some((e) => !/^\d+$/.test(e))) filters.excludeSlugs = exclude.filter((e) => !/^\d+$/.test(e));
    if (input.guids?.length) filters.guids = input.guids;
    if (input.platform) filters.platform = input.platform;
    if (input.promoted?.length) filters.promoted = input.promoted;
    if (input.tags?.length) filters.tags = input.tags;
    if (input.featured) {
      filters.featured = { app: input.app ?? undefined, locale: canonicalLocale(input.featuredLocale) ?? undefined };
    }
    if (input.color !== null && input.color !== undefined) {
      filters.color = hexToHsl(input.color);
      filters.types = [AddonType.STATICTHEME];
    }
    const users = range(input.users, 'users', Number.isFinite);
    if (users) filters.users = users;
    const ratings = range(input.ratings, 'ratings', Number.isFinite);
    if (ratings) filters.ratings = ratings;
    const isDate = (d: Date) => d instanceof Date && !Number.isNaN(d.getTime());
    const created = range(input.created, 'created', isDate);
    if (created) filters.created = created;
    const updated = range(input.updated, 'updated', isDate);
    if (updated) filters.updated = updated;
    return filters;
  }

  /**
   * Sort rules: default relevance with a query, else promoted-recommended first then users;
   * `random` only alone, without a query, with featured or promoted; `recommended` is a prefix
   * (alone it means the default; beside relevance it is ignored); `relevance` needs a query.
   */
  private sorts(filters: AddonSearchFilters, requested: AddonSortField[] | null | undefined): AddonSort[] {
    const fallback: AddonSort[] = filters.q ? ['relevance'] : ['recommended', 'users'];
    let sorts = [...new Set(requested ?? [])] as AddonSort[];
    if (sorts.includes('random')) {
      if (sorts.length > 1) throw errors.badParameter('The "random" "sort" parameter can not be combined.');
      if (filters.q || !(filters.featured || filters.promoted)) {
        throw errors.badParameter(
          'The "sort" parameter "random" can only be specified when the "featured" or "recommended" parameter is also present, and the "q" parameter absent.',
        );
      }
      return sorts;
    }
    if (!filters.q) sorts = sorts.filter((s) => s !== 'relevance');
    if (sorts.includes('recommended')) {
      const rest = sorts.filter((s) => s !== 'recommended');
      sorts = !rest.length || rest.includes('relevance') ? rest : ['recommended', ...rest];
    }
    return sorts.length ? sorts : fallback;
  }

  /** The hits' add-ons in hit order (one query), leaving out any that stopped being public. */
  private async load(ctx: RequestContext, hits: AddonSearchHit[]): Promise<SearchHit[]> {
    const addons = await ctx.loaders.get(addonById).loadMany(hits.map((h) => h.id));
    return hits.flatMap((hit, i) => {
      const addon = addons[i];
      return addon && !(addon instanceof Error) && this.catalogue.isPublic(addon) ? [{ addon, score: hit.score }] : [];
    });
  }
}

type RangeInput<T> = { gt?: T | null; gte?: T | null; lt?: T | null; lte?: T | null } | null | undefined;

/** The bounds given (none: no filter); a bound that is not a value (NaN, an invalid date) is refused. */
function range<T>(input: RangeInput<T>, name: string, valid: (value: T) => boolean): Range<T> | undefined {
  if (!input) return undefined;
  const out: Range<T> = {};
  for (const key of ['gt', 'gte', 'lt', 'lte'] as const) {
    const value = input[key];
    if (value === null || value === undefined) continue;
    if (!valid(value)) throw errors.badParameter(`Invalid "${name}" parameter.`);
    out[key] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

/** Whether `n` can be the id of a row (a positive 32-bit integer). */
const isRowId = (n: number) => Number.isInteger(n) && n > 0 && n <= 2_147_483_647;

/** `appversion`: min <= v and max >= v + "a" (so "57.0" matches a max of "57.0a1" or later). */
function parseAppVersion(value: string): { min: number; max: number } {
  const min = versionInt(value);
  if (min === null || min < versionInt('10.0')!) throw errors.badParameter('Invalid "appversion" parameter.');
  return { min, max: versionInt(`${value}a`) ?? min };
}

function hexToHsl(value: string): { h: number; s: number; l: number } {
  const hex = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(value.trim())?.[1];
  if (!hex) throw errors.badParameter('Invalid "color" parameter.');
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16) / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  let h = 0;
  if (d !== 0) {
    if (max === r) h = 60 * (((g - b) / d) % 6);
    else if (max === g) h = 60 * ((b - r) / d + 2);
    else h = 60 * ((r - g) / d + 4);
  }
  return { h: Math.round((h + 360) % 360), s: Math.round(s * 100), l: Math.round(l * 100) };
}
