import { searchCacheTags } from './search.cache-tags.js';

describe('searchCacheTags', () => {
  it('tags a plain query with its words’ first two characters instead of every text', () => {
    expect(searchCacheTags('Tab  manager ', null, false)?.sort()).toEqual([
      'l:all',
      'l:downloads',
      'l:users',
      'x:ma',
      'x:ta',
    ]);
    expect(searchCacheTags('tab tabs 3d', ['relevance'], false)?.sort()).toEqual(['l:all', 'l:users', 'x:3d', 'x:ta']);
    expect(searchCacheTags('tab', ['rating'], false)?.sort()).toEqual(['l:all', 'l:rating', 'l:users', 'x:ta']);
  });

  it('keeps every text (l:text) for queries that are not plain', () => {
    for (const q of ['tab-manager', '/usr/bin', 'a tab', 'écran', 'x'.repeat(101), 'tab "window"', '3.6']) {
      expect(searchCacheTags(q, null, false)).toEqual(expect.arrayContaining(['l:text', 'l:users']));
      expect(searchCacheTags(q, null, false)?.some((tag) => tag.startsWith('x:'))).toBe(false);
    }
  });

  it('autocomplete depends on names; random orders are never cached', () => {
    expect(searchCacheTags('tab', null, true)?.sort()).toEqual(['l:all', 'l:downloads', 'l:names', 'l:users']);
    expect(searchCacheTags(null, ['random'], false)).toBeNull();
  });
});
