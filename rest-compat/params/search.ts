import {
  addonTypesFromName,
  appFromParam,
  platformFromParam,
  promotedFromParam,
  type ApiVersion,
  type AddonType,
  type PromotedCategory,
} from '../../src/catalogue/catalogue.enums.js';
import { errors } from '../../src/core/errors.js';
import { AddonSortField, type AddonSearchInput } from '../../src/search/search.types.js';

/** Tags the original dropped from `tag` filters (legacy markers). */
const IGNORED_TAGS = new Set(['firefox57', 'firefox-57']);

const SORTS: Record<ApiVersion, string[]> = {
  v3: ['created', 'downloads', 'hotness', 'random', 'rating', 'relevance', 'updated', 'users'],
  v4: ['created', 'downloads', 'hotness', 'random', 'rating', 'recommended', 'relevance', 'updated', 'users'],
};

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
    const parsed = appFromParam(app, version);
    if (parsed === null) throw errors.badParameter('Invalid "app" parameter.');
    filters.app = parsed;
  }
  if (query.has('appversion')) filters.appVersion = query.get('appversion');

  const type = query.get('type');
  if (type !== null) {
    const names = version === 'v4' ? list(type) : [type.trim()];
    const types: AddonType[] = [];
    for (const name of names) {
      const parsed = addonTypesFromName(name, version);
      if (!parsed) throw errors.badParameter('Invalid "type" parameter.');
      types.push(...parsed);
    }
    if (types.length) filters.types = types;
  }

  const authors = list(query.get('author'));
  if (authors.length) {
    // Ids past 2^53 are not ids of anyone (and past Float they are Infinity): they match nothing.
    const ids = version === 'v4' ? authors.filter((a) => /^\d+$/.test(a)).map((a) => Math.min(Number(a), 2 ** 53)) : [];
    const usernames = version === 'v4' ? authors.filter((a) => !/^\d+$/.test(a)) : authors;
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

  if (version === 'v3') {
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

  return { filters, sort: parseSort(query, version, endpoint, filters) };
}

function parseSort(
  query: URLSearchParams,
  version: ApiVersion,
  endpoint: SearchEndpoint,
  filters: AddonSearchInput,
): AddonSortField[] | null {
  // v4 autocomplete has no sort: relevance with q, the default order otherwise.
  if (endpoint === 'autocomplete' && version === 'v4') return null;
  const raw = query.get('sort');
  if (raw === null || raw.trim() === '') {
    // v3 sorted by weekly downloads when there is no query; v4's default is the service's.
    return version === 'v3' && !filters.q ? [AddonSortField.DOWNLOADS] : null;
  }
  const names = list(raw);
  if (!names.length || names.some((n) => !SORTS[version].includes(n)))
    throw errors.badParameter('Invalid "sort" parameter.');
  return names as AddonSortField[];
}

/** Comma-separated guids; v4 also one base64url guid behind `rta:` (links from the browser). */
function parseGuids(value: string, version: ApiVersion): string[] {
  if (version === 'v4' && value.startsWith('rta:')) {
    const encoded = value.slice(4);
    const decoded = /^[A-Za-z0-9_-]+=*$/.test(encoded) ? Buffer.from(encoded, 'base64url').toString('utf8') : '';
    if (!decoded || decoded.includes('\uFFFD')) {
      throw errors.badParameter('Invalid Return To AMO guid (not in base64url format?)');
    }
    return [decoded];
  }
  return list(value);
}
