import { AppError } from './errors.js';
import { countPages, pageRequest, toPage } from './pagination.js';

describe('pageRequest', () => {
  it('defaults to page 1 of 25 and caps the size at 50', () => {
    expect(pageRequest(undefined, undefined)).toEqual({ page: 1, pageSize: 25, offset: 0, limit: 25 });
    expect(pageRequest(3, 10)).toEqual({ page: 3, pageSize: 10, offset: 20, limit: 10 });
    expect(pageRequest(1, 51).pageSize).toBe(50);
    expect(pageRequest(1, 0).pageSize).toBe(25);
    expect(pageRequest(1, -5).pageSize).toBe(25);
  });

  it('refuses pages below 1', () => {
    for (const page of [0, -1, 1.5]) expect(() => pageRequest(page, 25)).toThrow('Invalid page.');
  });
});

describe('toPage', () => {
  it('allows page 1 of an empty list and refuses pages past the end', () => {
    expect(toPage(pageRequest(1, 25), 0, [])).toMatchObject({ count: 0, pageCount: 1, items: [] });
    expect(toPage(pageRequest(2, 25), 26, [1]).pageCount).toBe(2);
    expect(() => toPage(pageRequest(3, 25), 26, [])).toThrow(AppError);
  });

  it('limits reachable pages to the maximum result window', () => {
    expect(countPages(100_000, 25, 25_000)).toBe(1000);
    expect(countPages(100_000, 50, 25_000)).toBe(500);
    expect(() => toPage(pageRequest(1001, 25), 100_000, [], 25_000)).toThrow('Invalid page.');
  });
});
