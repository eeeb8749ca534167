/**
 * The length limit of every free-text input of the ratings (v3 reviews), their replies and flags,
 * in characters: README "Limits" lists every domain's, src/core/text-limits.ts holds the check and
 * its message. "original": the original service's limit; "chosen": this service's (the original
 * stored the text unbounded).
 */
export const RATINGS_TEXT_LIMITS = {
  /** chosen; rating (v3 review) text */
  ratingBody: 3_000,
  /** chosen; a developer's reply */
  replyBody: 3_000,
  /** original (`varchar(100)`) */
  flagNote: 100,
} as const;
