/**
 * The length limit of every free-text input of the collections, in characters: README "Limits"
 * lists every domain's, src/core/text-limits.ts holds the check and its message. "original": the
 * original service's limit; "chosen": this service's (the original stored the text unbounded).
 */
export const COLLECTIONS_TEXT_LIMITS = {
  /** chosen */
  collectionName: 100,
  /** original */
  collectionSlug: 30,
  /** chosen */
  collectionDescription: 3_000,
  /** chosen; notes on an add-on of a collection */
  collectionNotes: 3_000,
} as const;
