/**
 * The length limit of every free-text input of the developers' support tickets (v5 internal
 * endpoints), in characters: README "Limits" lists every domain's, src/core/text-limits.ts holds
 * the check and its message. "original": the original service's limit; "chosen": this service's
 * (the original stored the text unbounded).
 */
export const DEVELOPERS_TEXT_LIMITS = {
  /** original (`max_length=255`); a support ticket's summary */
  supportSummary: 255,
  /** original (`max_length=10000`); a support ticket's body */
  supportBody: 10_000,
} as const;
