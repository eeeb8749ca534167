/**
 * The cache tags a page of search or autocomplete depends on besides the add-ons it shows (see the
 * CacheTags migration): which add-ons are listed (`l:all`), the keys of its order, and with a query
 * the texts it matches (relevance also weighs popularity): names, summaries and descriptions for
 * search, names only for autocomplete. Null for orders that are never cached (random).
 */
const SORT_TAGS: Record<string, readonly string[]> = {
  created: ['l:created'],
  downloads: ['l:downloads'],
  hotness: ['l:hotness'],
  rating: ['l:rating'],
  relevance: ['l:text', 'l:users'],
  updated: ['l:updated'],
  users: ['l:users'],
  recommended: [],
};

/** Without `sort`: relevance with a query, else downloads (v3) or recommended then users (v4). */
const DEFAULT_ORDER = ['downloads', 'users'];

export function searchCacheTags(
  q: string | null | undefined,
  sort: readonly string[] | null | undefined,
  autocomplete: boolean,
): string[] | null {
  const tags = new Set(['l:all']);
  if (q) for (const tag of autocomplete ? ['l:names', 'l:users'] : SORT_TAGS.relevance) tags.add(tag);
  for (const field of sort ?? DEFAULT_ORDER) {
    const sortTags = SORT_TAGS[field.toLowerCase()];
    if (!sortTags) return null;
    for (const tag of sortTags) tags.add(tag);
  }
  return [...tags];
}
