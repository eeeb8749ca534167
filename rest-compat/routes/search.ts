import { ALL_VERSIONS } from '../gates.js';
import { AddonType, App, Platform, PromotedCategory } from '../../src/catalogue/catalogue.enums.js';
import { errors } from '../../src/core/errors.js';
import { parseSearchParams, type ParsedSearch } from '../params/search.js';
import { rangeFilterTags, searchListingTags } from '../../src/search/search.cache-tags.js';
import { FEATURED_LIMIT } from '../../src/search/search.service.js';
import type { AddonSearchInput } from '../../src/search/search.types.js';
import { paginated, pageVariables } from '../pagination.js';
import { defineRoutes, gql, type RestRequest, type ShapeContext } from '../route.js';
import { addonFields, shapeAddon, shapePromoted, versionFields, type AddonData } from '../shapes/addons.js';
import type {
  RestAddonAutocompleteQuery,
  RestAddonFeaturedQuery,
  RestAddonSearchPageQuery,
  RestAddonSearchPartsQuery,
  RestAddonSearchQuery,
  RestSearchHitFieldsFragment,
} from '../generated/operations.js';
import type { PartsDefinition } from '../parts.js';
import { addonTypesParam, appParam, enumName, restEnums } from '../shapes/enums.js';

/** Search results: the add-on object without licence, release notes or author pictures. */
const searchHitFields = gql`
  fragment RestSearchHitFields on AddonSearchHit {
    score
    addon {
      ...RestAddonFields
      currentVersion {
        ...RestVersionFields
      }
    }
  }
  ${addonFields}
  ${versionFields}
`;

const shapeHit = (hit: RestSearchHitFieldsFragment, ctx: ShapeContext) =>
  shapeAddon(hit.addon, ctx, { search: true, score: hit.score });

/** A search page's operation, its items selecting `items` (with the fragments they use). */
const searchPageDocument = (name: string, items: string, fragments = '') => gql`
  query ${name}($filters: AddonSearchInput, $sort: [AddonSort!], $page: Int, $pageSize: Int) {
    searchAddons(filters: $filters, sort: $sort, page: $page, pageSize: $pageSize) {
      count
      page
      pageSize
      pageCount
      items {
        ${items}
      }
    }
  }
  ${fragments}
`;

/**
 * Search pages assembled from parts (rest-compat/parts.ts): the engine's page of ids and scores,
 * and each add-on rendered once per shape as a search hit without its score (`_score`, which
 * depends on the query, ends the v4 object: it is appended to the part's text).
 */
const searchParts: PartsDefinition<RestAddonSearchPageQuery, AddonData> = {
  skeleton: searchPageDocument(
    'RestAddonSearchPage',
    gql`
      score
      addon {
        id
      }
    `,
  ),
  document: gql`
    query RestAddonSearchParts($ids: [Int!]!) {
      addons(ids: $ids) {
        ...RestAddonFields
        currentVersion {
          ...RestVersionFields
        }
      }
    }
    ${addonFields}
    ${versionFields}
  `,
  ids: (data) => data.searchAddons.items.map((hit) => hit.addon.id),
  list: (data: RestAddonSearchPartsQuery) => data.addons,
  shape: (addon, ctx) => {
    const { _score: _, ...part } = shapeAddon(addon, ctx, { search: true });
    return part;
  },
  tags: (addon) => [`a:${addon.id}`, ...addon.authors.map(({ user }) => `u:${user.id}`)],
  assemble: (data, parts, ctx) => {
    const page = data.searchAddons;
    const results = page.items.flatMap((hit, i) => {
      const part = parts[i];
      if (part === null) return [];
      return [
        !ctx.gate('addons-search-_score-field')
          ? part
          : `${part.slice(0, -1)},"_score":${JSON.stringify(hit.score ?? 0)}}`,
      ];
    });
    // The envelope as `paginated` writes it: its last member is `"results":[]`.
    const envelope = JSON.stringify(paginated({ ...page, items: [] }, ctx, () => null));
    return `${envelope.slice(0, -2)}${results.join(',')}]}`;
  },
};

/** Autocomplete results: id, icon_url, name, url; promoted and type unless `autocomplete-legacy-suggestion`. */
function shapeSuggestion(hit: RestAddonAutocompleteQuery['autocompleteAddons'][number], ctx: ShapeContext) {
  const { addon } = hit;
  const name = ctx.translated(addon.name, addon.defaultLocale);
  if (ctx.gate('autocomplete-legacy-suggestion')) return { id: addon.id, icon_url: addon.icon64, name, url: addon.url };
  return {
    id: addon.id,
    icon_url: addon.icon64,
    name,
    promoted: shapePromoted(addon.promoted, ctx),
    type: restEnums.type(addon.type, ctx.version),
    url: addon.url,
  };
}

/** GraphQL variables carry enum names (`STATICTHEME`, `BROWSER`), not the stored numbers. */
function searchVariables({ filters, sort }: ParsedSearch) {
  return { filters: filterVariables(filters), sort: sort?.map((s) => s.toUpperCase()) ?? null };
}

function filterVariables(filters: AddonSearchInput) {
  return {
    ...filters,
    types: filters.types?.map((t) => enumName(AddonType, t)),
    app: filters.app ? enumName(App, filters.app) : filters.app,
    platform: filters.platform ? enumName(Platform, filters.platform) : filters.platform,
    promoted: filters.promoted?.map((p) => enumName(PromotedCategory, p)),
  };
}

/**
 * Search answers show public add-ons only, the same to every viewer: cached for all. A random order
 * (home page shelves: `sort=random` with `promoted` or `featured`) is answered with one of
 * RANDOM_VARIANTS draws, each kept like any answer, while the listing (`l:all`) and its add-ons are
 * unchanged: successive requests still get different shelves, without a draw each.
 */
const RANDOM_VARIANTS = 8;
const isRandom = (req: RestRequest) => /(^|,)\s*random\s*(,|$)/.test(req.query.get('sort') ?? '');

/** The listings a page of search (or autocomplete) is, for its cache tags (random: which add-ons are listed). */
const listingTags = (autocomplete: boolean) => (variables: Record<string, unknown>) => {
  const sort = variables.sort as string[] | null;
  const filters = variables.filters as (AddonSearchInput & { q?: string | null }) | null;
  if (!sort?.some((s) => s.toLowerCase() === 'random')) return searchListingTags(filters, sort, autocomplete);
  const ranges = rangeFilterTags(filters);
  return ranges && ['l:all', ...ranges];
};

const featuredInvalid = () => errors.badRequest('Invalid app, category and/or type parameter(s).');

export const searchRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/addons/search/',
    versions: ALL_VERSIONS,
    cache: 'public',
    cacheVariants: (req) => (isRandom(req) ? RANDOM_VARIANTS : 1),
    cacheTags: listingTags(false),
    document: searchPageDocument('RestAddonSearch', '...RestSearchHitFields', searchHitFields),
    variables: (req) => ({
      ...searchVariables(parseSearchParams(req.query, req.version, 'search')),
      ...pageVariables(req),
    }),
    shape: (data: RestAddonSearchQuery, ctx) => paginated(data.searchAddons, ctx, (hit) => shapeHit(hit, ctx)),
    parts: searchParts,
  },
  {
    method: 'GET',
    path: '/addons/autocomplete/',
    versions: ALL_VERSIONS,
    cache: 'public',
    cacheVariants: (req) => (isRandom(req) ? RANDOM_VARIANTS : 1),
    cacheTags: listingTags(true),
    document: gql`
      query RestAddonAutocomplete($filters: AddonSearchInput, $sort: [AddonSort!]) {
        autocompleteAddons(filters: $filters, sort: $sort) {
          score
          addon {
            id
            defaultLocale
            name
            type
            icon64: iconUrl(size: 64)
            url
            promoted {
              category
              apps
            }
          }
        }
      }
    `,
    variables: (req) => searchVariables(parseSearchParams(req.query, req.version, 'autocomplete')),
    shape: (data: RestAddonAutocompleteQuery, ctx) => ({
      results: data.autocompleteAddons.map((hit) => shapeSuggestion(hit, ctx)),
    }),
  },
  {
    method: 'GET',
    path: '/addons/featured/',
    versions: ['v3'],
    document: gql`
      query RestAddonFeatured($filters: AddonSearchInput!, $limit: Int!) {
        featuredAddons(filters: $filters, limit: $limit) {
          ...RestAddonFields
          currentVersion {
            ...RestVersionFields
          }
        }
      }
      ${addonFields}
      ${versionFields}
    `,
    variables: (req) => {
      const app = appParam(req.query.get('app') ?? '', req.version);
      if (app === null) throw featuredInvalid();
      const type = req.query.get('type');
      const types = type === null ? null : addonTypesParam(type, req.version);
      if (type !== null && !types) throw featuredInvalid();
      const rawSize = req.query.get('page_size');
      if (rawSize !== null && !/^\d+$/.test(rawSize.trim())) throw errors.badRequest('Invalid page_size parameter');
      // The service applies the range; a GraphQL Int holds no more than the largest size anyway.
      const limit = rawSize === null ? FEATURED_LIMIT.default : Math.min(Number(rawSize), FEATURED_LIMIT.max);
      return {
        filters: filterVariables({
          app,
          types,
          category: req.query.get('category'),
          featuredLocale: req.query.get('lang'),
        }),
        limit,
      };
    },
    shape: (data: RestAddonFeaturedQuery, ctx) => ({
      results: data.featuredAddons.map((addon) => shapeAddon(addon, ctx, { search: true })),
    }),
  },
]);
