/**
 * The length limit of every free-text input of the blocklist, in characters: README "Limits" lists
 * every domain's, src/core/text-limits.ts holds the check and its message. "original": the original
 * service's limit; "chosen": this service's (the original stored the text unbounded).
 */
export const BLOCKLIST_TEXT_LIMITS = {
  /** `varchar(255)`; the blocked add-on id */
  blockGuid: 255,
  /** `varchar(255)`; a block's `min_version` and `max_version` */
  blockVersion: 255,
  /** chosen; why the add-on is blocked (shown to users) */
  blockReason: 10_000,
  /** `varchar(255)`; the block's documentation URL */
  blockUrl: 255,
} as const;
