/**
 * The length limit of every free-text input of the curation (what the curated domains share), in
 * characters: README "Limits" lists every domain's, src/core/text-limits.ts holds the check and its
 * message. "original": the original service's limit; "chosen": this service's (the original stored
 * the text unbounded).
 */
export const CURATION_TEXT_LIMITS = {
  /** `varchar(255)` (guids); the add-on (id, slug or guid) of a shelf or discovery item: longer is refused as unknown */
  curatedAddon: 255,
} as const;
