import {
  AddonType,
  App,
  appFromParam,
  addonTypesFromName,
  Platform,
  PromotedCategory,
} from '../../src/catalogue/catalogue.enums.js';
import { errors } from '../../src/core/errors.js';
import type { Page } from '../../src/core/pagination.js';
import { parseSearchParams, type ParsedSearch } from '../params/search.js';
import { searchCacheTags } from '../../src/search/search.cache-tags.js';
import { FEATURED_LIMIT } from '../../src/search/search.service.js';
import type { AddonSearchInput } from '../../src/search/search.types.js';
import { paginated, pageVariables } from '../pagination.js';
import { defineRoutes, gql, type RestRequest, type ShapeContext } from '../route.js';
import { addonFields, shapeAddon, versionFields, type AddonData } from '../shapes/addons.js';
import { enumName, restEnums } from '../shapes/enums.js';

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

interface HitData {
  score: number | null;
  addon: AddonData;
}

const shapeHit = (hit: HitData, ctx: ShapeContext) => shapeAddon(hit.addon, ctx, { search: true, score: hit.score });

/** Autocomplete results: v3 id, icon_url, name, url; v4 adds promoted and type. */
function shapeSuggestion(hit: HitData, ctx: ShapeContext) {
  const { addon } = hit;
  const name = ctx.translated(addon.name, addon.defaultLocale);
  if (ctx.version === 'v3') return { id: addon.id, icon_url: addon.icon64, name, url: addon.url };
  return {
    id: addon.id,
    icon_url: addon.icon64,
    name,
    promoted: addon.promoted
      ? {
          category: restEnums.promoted(addon.promoted.category as never),
          apps: addon.promoted.apps.map((a) => restEnums.app(a as never)),
        }
      : null,
    type: restEnums.type(addon.type as never, ctx.version),
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
 * Search answers show public add-ons only, the same to every viewer: cached for all, except random
 * orders, which must differ each time.
 */
const cacheUnlessRandom = (req: RestRequest) =>
  /(^|,)\s*random\s*(,|$)/.test(req.query.get('sort') ?? '') ? false : ('public' as const);

/** The listings a page of search (or autocomplete) is, for its cache tags. */
const listingTags = (autocomplete: boolean) => (variables: Record<string, unknown>) =>
  searchCacheTags(
    (variables.filters as { q?: string | null } | null)?.q,
    variables.sort as string[] | null,
    autocomplete,
  );

const featuredInvalid = () => errors.badRequest('Invalid app, category and/or type parameter(s).');

export const searchRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/addons/search/',
    versions: ['v3', 'v4'],
    cache: cacheUnlessRandom,
    cacheTags: listingTags(false),
    document: gql`
      query RestAddonSearch($filters: AddonSearchInput, $sort: [AddonSort!], $page: Int, $pageSize: Int) {
        searchAddons(filters: $filters, sort: $sort, page: $page, pageSize: $pageSize) {
          count
          page
          pageSize
          pageCount
          items {
            ...RestSearchHitFields
          }
        }
      }
      ${searchHitFields}
    `,
    variables: (req) => ({
      ...searchVariables(parseSearchParams(req.query, req.version, 'search')),
      ...pageVariables(req),
    }),
    shape: (data: { searchAddons: Page<HitData> }, ctx) =>
      paginated(data.searchAddons, ctx, (hit) => shapeHit(hit, ctx)),
  },
  {
    method: 'GET',
    path: '/addons/autocomplete/',
    versions: ['v3', 'v4'],
    cache: cacheUnlessRandom,
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
    shape: (data: { autocompleteAddons: HitData[] }, ctx) => ({
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
      const app = appFromParam(req.query.get('app') ?? '', req.version);
      if (app === null) throw featuredInvalid();
      const type = req.query.get('type');
      const types = type === null ? null : addonTypesFromName(type, req.version);
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
    shape: (data: { featuredAddons: AddonData[] }, ctx) => ({
      results: data.featuredAddons.map((addon) => shapeAddon(addon, ctx, { search: true })),
    }),
  },
]);
