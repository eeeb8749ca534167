import { errors } from './errors.js';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 50;

/** A resolved page of a list: 1-based page number, size, and the SQL offset/limit. */
export interface PageRequest {
  page: number;
  pageSize: number;
  offset: number;
  limit: number;
}

/** A page of results: what services return and what REST turns into the paginated envelope. */
export interface Page<T> {
  count: number;
  page: number;
  pageSize: number;
  /** Number of reachable pages (limited by a maximum result window for search-backed lists). */
  pageCount: number;
  items: T[];
}

/**
 * The original's rule: page_size defaults to 25, values above 50 are capped silently, and
 * non-positive values fall back to 25. A page below 1 does not exist.
 */
export function pageRequest(page: number | null | undefined, pageSize: number | null | undefined): PageRequest {
  const size = pageSize && pageSize > 0 ? Math.min(Math.trunc(pageSize), MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
  const number = page ?? 1;
  if (!Number.isInteger(number) || number < 1) throw errors.invalidPage();
  return { page: number, pageSize: size, offset: (number - 1) * size, limit: size };
}

/** Number of pages, at least 1; with `maxResultWindow`, only the pages inside that window count. */
export function countPages(count: number, pageSize: number, maxResultWindow?: number): number {
  const reachable = maxResultWindow === undefined ? count : Math.min(count, maxResultWindow);
  return Math.max(1, Math.ceil(reachable / pageSize));
}

/** Builds a page, refusing a page past the end (page 1 of an empty list is fine). */
export function toPage<T>(request: PageRequest, count: number, items: T[], maxResultWindow?: number): Page<T> {
  const pageCount = countPages(count, request.pageSize, maxResultWindow);
  if (request.page > pageCount) throw errors.invalidPage();
  return { count, page: request.page, pageSize: request.pageSize, pageCount, items };
}
