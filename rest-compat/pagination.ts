import { errors } from '../src/core/errors.js';
import type { Page } from '../src/core/pagination.js';
import type { RestRequest, ShapeContext } from './route.js';

/** GraphQL's Int: 32-bit signed. */
const MAX_INT = 2 ** 31 - 1;

/**
 * `page` and `page_size` as GraphQL variables. A page that is not a positive integer is the
 * original's 404 "Invalid page."; a bad page_size falls back to the default (the service caps it).
 */
export function pageVariables(request: RestRequest): { page: number; pageSize: number | null } {
  const rawPage = request.query.get('page');
  let page = 1;
  if (rawPage !== null && rawPage !== '') {
    if (!/^\d+$/.test(rawPage.trim())) throw errors.invalidPage();
    page = Number.parseInt(rawPage, 10);
    // Past GraphQL's Int there is no page of anything: the original's "Invalid page." too.
    if (page < 1 || page > MAX_INT) throw errors.invalidPage();
  }
  const rawSize = request.query.get('page_size');
  const size = rawSize !== null && /^\s*\d+\s*$/.test(rawSize) ? Number.parseInt(rawSize, 10) : null;
  // The service caps page sizes; a size past GraphQL's Int is as capped as any other large one.
  return { page, pageSize: size && size > 0 ? Math.min(size, MAX_INT) : null };
}

/** The paginated envelope, keys in the original order, with absolute next/previous URLs. */
export function paginated<T, R>(page: Page<T>, context: ShapeContext, shapeItem: (item: T) => R) {
  return {
    page_size: page.pageSize,
    page_count: page.pageCount,
    count: page.count,
    next: page.page < page.pageCount ? pageUrl(context.requestUrl, page.page + 1) : null,
    previous: page.page > 1 ? pageUrl(context.requestUrl, page.page - 1) : null,
    results: page.items.map(shapeItem),
  };
}

/** Like DRF: the same URL with `page` replaced (removed for page 1) and parameters sorted. */
function pageUrl(requestUrl: URL, page: number): string {
  const url = new URL(requestUrl.href);
  const params = new URLSearchParams(url.search);
  if (page === 1) params.delete('page');
  else params.set('page', String(page));
  params.sort();
  url.search = params.toString();
  return url.href;
}
