import {
  AddonType,
  appFromParam,
  addonTypeFromName,
  promotedFromParam,
  type PromotedCategory,
} from '../catalogue/catalogue.enums.js';
import { AddonSortField, type AddonSearchInput } from '../search/search.types.js';

/** What a home shelf can list: a search, or one of the vendor's collections. */
export const HOME_SHELF_ENDPOINTS = ['search', 'collections'] as const;
export type HomeShelfEndpoint = (typeof HOME_SHELF_ENDPOINTS)[number];

/** The add-on types a home shelf shows, by their API names. */
export const HOME_SHELF_TYPES: Readonly<Record<string, AddonType>> = {
  extension: AddonType.EXTENSION,
  statictheme: AddonType.STATICTHEME,
};

/** How many add-ons a shelf shows when its count is 0 (the front-end's landing page counts). */
export function defaultAddonCount(type: number): number {
  return type === AddonType.STATICTHEME ? 3 : 4;
}

/** The search of a shelf: its filters and sort, or the problem with its criteria. */
export type ShelfSearch = { filters: AddonSearchInput; sort: AddonSortField[] | null } | { problem: string };

const SORTS = Object.values(AddonSortField) as string[];

const list = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * A search shelf's criteria (`?` then the parameters of the v5 add-on search: q, app, appversion,
 * type, author, category, exclude_addons, guid, tag, promoted, color, sort; others are ignored, as
 * the search ignores them) as the search service's input. Without `type`, the shelf's own type is
 * searched. Problems are named here; the search service checks the combinations.
 */
export function shelfSearch(criteria: string, shelfType: number): ShelfSearch {
  if (!criteria.startsWith('?')) return { problem: 'Search criteria must start with "?".' };
  const query = new URLSearchParams(criteria.slice(1));
  const filters: AddonSearchInput = {};
  const q = query.get('q');
  if (q !== null && q.trim() !== '') filters.q = q;
  const app = query.get('app');
  if (app !== null) {
    const parsed = appFromParam(app);
    if (parsed === null) return { problem: 'Invalid "app" parameter.' };
    filters.app = parsed;
  }
  if (query.has('appversion')) filters.appVersion = query.get('appversion');
  const type = query.get('type');
  if (type !== null) {
    const types: AddonType[] = [];
    for (const name of list(type)) {
      const parsed = addonTypeFromName(name);
      if (parsed === null) return { problem: 'Invalid "type" parameter.' };
      types.push(parsed);
    }
    if (types.length) filters.types = types;
  } else {
    filters.types = [shelfType as AddonType];
  }
  const authors = list(query.get('author'));
  const ids = authors.filter((a) => /^\d+$/.test(a)).map((a) => Math.min(Number(a), 2 ** 53));
  const usernames = authors.filter((a) => !/^\d+$/.test(a));
  if (ids.length) filters.authorIds = ids;
  if (usernames.length) filters.authorUsernames = usernames;
  if (query.has('category')) filters.category = query.get('category');
  const exclude = list(query.get('exclude_addons'));
  if (exclude.length) filters.excludeAddons = exclude;
  const guids = list(query.get('guid'));
  if (guids.length) filters.guids = guids;
  const tags = list(query.get('tag'));
  if (tags.length) filters.tags = tags;
  const promoted = query.get('promoted');
  if (promoted !== null) {
    const categories: PromotedCategory[] = [];
    for (const name of list(promoted)) {
      const parsed = promotedFromParam(name);
      if (!parsed) return { problem: 'Invalid "promoted" parameter.' };
      categories.push(...parsed);
    }
    filters.promoted = [...new Set(categories)];
  }
  if (query.has('color')) filters.color = query.get('color');
  const rawSort = query.get('sort');
  let sort: AddonSortField[] | null = null;
  if (rawSort !== null && rawSort.trim() !== '') {
    const names = list(rawSort);
    if (!names.length || names.some((n) => !SORTS.includes(n))) return { problem: 'Invalid "sort" parameter.' };
    sort = names as AddonSortField[];
  }
  return { filters, sort };
}
