/**
 * The length limit of every free-text input of the search, in characters: README "Limits" lists
 * every domain's, src/core/text-limits.ts holds the check and its message. "original": the original
 * service's limit; "chosen": this service's (the original stored the text unbounded).
 */
export const SEARCH_TEXT_LIMITS = {
  /** original */
  searchQuery: 100,
} as const;
