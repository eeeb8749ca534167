import { gate, type ApiVersion } from '../gates.js';
import { addonTypesParam, appParam } from '../shapes/enums.js';
import {
  platformFromParam,
  promotedFromParam,
  type AddonType,
  type PromotedCategory,
} from '../../src/catalogue/catalogue.enums.js';
import { errors } from '../../src/core/errors.js';
import { AddonSortField, type AddonSearchInput } from '../../src/search/search.types.js';
import { parseSearchThresholds } from './search-thresholds.js';

/** Tags the original dropped from `tag` filters (legacy markers). */
const IGNORED_TAGS = new Set(['firefox57', 'firefox-57']);

const SORTS = [
  'created',
  'downloads',
  'hotness',
  'random',
  'rating',
  'ratings',
  'recommended',
  'relevance',
  'updated',
  'users',
];
/** `ratings` is today's name of the Bayesian rating sort, `rating` the older one (both accepted). */
const SORT_ALIASES: Readonly<Record<string, AddonSortField>> = { ratings: AddonSortField.RATING };
const sortsOf = (version: ApiVersion) =>
  gate(version, 'del-search-recommended-sort') ? SORTS.filter((s) => s !== 'recommended') : SORTS;

const list = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

export interface ParsedSearch {
  filters: AddonSearchInput;
  sort: AddonSortField[] | null;
}

export type SearchEndpoint = 'search' | 'autocomplete';

/**
 * Turns a v3/v4 search query string into the typed search input, refusing bad values with the
 * original bare-array messages. Cross-field rules (category, appversion, sort combinations)
 * belong to the search service, which GraphQL clients go through as well.
 */
export function parseSearchParams(query: URLSearchParams, version: ApiVersion, endpoint: SearchEndpoint): ParsedSearch {
  const filters: AddonSearchInput = {};
  const q = query.get('q');
  if (q !== null && q.trim() !== '') filters.q = q;

  const app = query.get('app');
  if (app !== null) {
    const parsed = appParam(app, version);
    if (parsed === null) throw errors.badParameter('Invalid "app" parameter.');
    filters.app = parsed;
  }
  if (query.has('appversion')) filters.appVersion = query.get('appversion');

  const type = query.get('type');
  if (type !== null) {
    const names = gate(version, 'search-single-type') ? [type.trim()] : list(type);
    const types: AddonType[] = [];
    for (const name of names) {
      const parsed = addonTypesParam(name, version);
      if (!parsed) throw errors.badParameter('Invalid "type" parameter.');
      types.push(...parsed);
    }
    if (types.length) filters.types = types;
  }

  const authors = list(query.get('author'));
  if (authors.length) {
    // Ids past 2^53 are not ids of anyone (and past Float they are Infinity): they match nothing.
    const namesOnly = gate(version, 'search-author-usernames-only');
    const ids = namesOnly ? [] : authors.filter((a) => /^\d+$/.test(a)).map((a) => Math.min(Number(a), 2 ** 53));
    const usernames = namesOnly ? authors : authors.filter((a) => !/^\d+$/.test(a));
    if (ids.length) filters.authorIds = ids;
    if (usernames.length) filters.authorUsernames = usernames;
  }

  if (query.has('category')) filters.category = query.get('category');

  const exclude = list(query.get('exclude_addons'));
  if (exclude.length) filters.excludeAddons = exclude;

  const guid = query.get('guid');
  if (guid !== null) filters.guids = parseGuids(guid, version);

  const tags = list(query.get('tag')).filter((t) => !IGNORED_TAGS.has(t));
  if (tags.length) filters.tags = tags;

  if (gate(version, 'search-platform-featured-filters')) {
    const platform = query.get('platform');
    if (platform !== null) {
      const parsed = platformFromParam(platform);
      if (parsed === null) throw errors.badParameter('Invalid "platform" parameter.');
      filters.platform = parsed;
    }
    const featured = query.get('featured');
    if (featured !== null) {
      if (featured !== 'true') throw errors.badParameter('Invalid "featured" parameter.');
      filters.featured = true;
      const lang = query.get('lang');
      if (lang) filters.featuredLocale = lang;
    }
  } else {
    const promoted = query.get('promoted');
    if (promoted !== null) {
      const categories: PromotedCategory[] = [];
      for (const name of list(promoted)) {
        const parsed = promotedFromParam(name);
        if (!parsed) throw errors.badParameter('Invalid "promoted" parameter.');
        categories.push(...parsed);
      }
      filters.promoted = [...new Set(categories)];
    }
    if (query.has('color')) filters.color = query.get('color');
  }
  Object.assign(filters, parseSearchThresholds(query));

  return { filters, sort: parseSort(query, version, endpoint, filters) };
}

function parseSort(
  query: URLSearchParams,
  version: ApiVersion,
  endpoint: SearchEndpoint,
  filters: AddonSearchInput,
): AddonSortField[] | null {
  // Autocomplete without `autocomplete-sort-param` has no sort: relevance with q, the default order otherwise.
  if (endpoint === 'autocomplete' && !gate(version, 'autocomplete-sort-param')) return null;
  const raw = query.get('sort');
  if (raw === null || raw.trim() === '') {
    // `search-default-sort-downloads`: weekly downloads when there is no query; else the service's default.
    return gate(version, 'search-default-sort-downloads') && !filters.q ? [AddonSortField.DOWNLOADS] : null;
  }
  const names = list(raw);
  if (!names.length || names.some((n) => !sortsOf(version).includes(n)))
    throw errors.badParameter('Invalid "sort" parameter.');
  return names.map((n) => SORT_ALIASES[n] ?? (n as AddonSortField));
}

/**
 * Comma-separated guids; also one base64url guid behind `rta:` (links from the browser) unless
 * `del-search-rta-guid`. The standard alphabet's `+` and `/` are read too, as the original's
 * decoder does: Firefox decodes the value it sends with `atob`, the standard alphabet.
 */
function parseGuids(value: string, version: ApiVersion): string[] {
  if (!gate(version, 'del-search-rta-guid') && value.startsWith('rta:')) {
    const encoded = value.slice(4);
    const decoded = /^[A-Za-z0-9_+/-]+=*$/.test(encoded) ? Buffer.from(encoded, 'base64').toString('utf8') : '';
    if (!decoded || decoded.includes('\uFFFD')) {
      throw errors.badParameter('Invalid Return To AMO guid (not in base64url format?)');
    }
    return [decoded];
  }
  return list(value);
}
