/**
 * The cache tags a page of search or autocomplete depends on besides the add-ons it shows (see the
 * CacheTags migration): which add-ons are listed (`l:all`), the keys of its order, and with a query
 * the texts it matches (relevance also weighs popularity): the text tags of its words, or every
 * text (`l:text`) for a query that is not plain, for search; names only for autocomplete. Null for
 * orders that are never cached (random).
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
  const text = q && !autocomplete ? textTags(q) : null;
  if (q) for (const tag of autocomplete ? ['l:names', 'l:users'] : (text ?? SORT_TAGS.relevance)) tags.add(tag);
  if (text) tags.add('l:users');
  for (const field of sort ?? DEFAULT_ORDER) {
    const sortTags = field.toLowerCase() === 'relevance' && text ? text : SORT_TAGS[field.toLowerCase()];
    if (!sortTags) return null;
    for (const tag of sortTags) tags.add(tag);
  }
  return [...tags];
}

/** Queries this long or longer keep `l:text` (their words' tags would be most of them anyway). */
const MAX_TEXT_TAG_QUERY = 100;
const PLAIN_QUERY = /^[a-z0-9]{2,}(?: [a-z0-9]{2,})*$/;

/**
 * The text tags of a search query (see the CacheTagsText migration): `x:` and the first two
 * characters of each word, when every word is plain (ASCII letters and digits, at least two
 * characters), so that every lexeme the query can match (the words' stems, their typo variants)
 * starts with one of them. Null for any other query (punctuation makes tokens, such as paths or
 * hyphenated words, whose lexemes start elsewhere; case folding outside ASCII is the server's):
 * it depends on `l:text`, bumped by every text change.
 */
function textTags(q: string): string[] | null {
  if (q.length > MAX_TEXT_TAG_QUERY) return null;
  const words = q
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/[A-Z]/g, (c) => c.toLowerCase());
  if (!PLAIN_QUERY.test(words)) return null;
  return [...new Set(words.split(' ').map((word) => `x:${word.slice(0, 2)}`))];
}

/**
 * The tags range filters add (the rows they admit change with these columns): null with a
 * `ratings` range, the average rating having no tag of its own (the CacheTags migration bumps
 * `l:rating` for the Bayesian one only): such answers are not cached.
 */
export function rangeFilterTags(
  filters: { users?: unknown; ratings?: unknown; created?: unknown; updated?: unknown } | null | undefined,
): string[] | null {
  if (!filters) return [];
  if (filters.ratings) return null;
  return [
    ...(filters.users ? ['l:users'] : []),
    ...(filters.created ? ['l:created'] : []),
    ...(filters.updated ? ['l:updated'] : []),
  ];
}

/**
 * The listing tags of a page of search or autocomplete with its filters and order (what the REST
 * routes and the GraphQL queries declare): null when such a page is never shared (random orders,
 * a `ratings` range).
 */
export function searchListingTags(
  filters:
    { q?: string | null; users?: unknown; ratings?: unknown; created?: unknown; updated?: unknown } | null | undefined,
  sort: readonly string[] | null | undefined,
  autocomplete: boolean,
): string[] | null {
  const ranges = rangeFilterTags(filters);
  const tags = searchCacheTags(filters?.q, sort, autocomplete);
  return ranges && tags && [...new Set([...tags, ...ranges])];
}
