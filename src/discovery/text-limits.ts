/**
 * The length limit of every free-text input of the the discovery pane, replacement add-ons and
 * browser mappings, in characters: README "Limits" lists every domain's, src/core/text-limits.ts
 * holds the check and its message. "original": the original service's limit; "chosen": this
 * service's (the original stored the text unbounded).
 */
export const DISCOVERY_TEXT_LIMITS = {
  /** chosen; a discovery item's custom heading (v3 HTML template) */
  discoveryHeading: 255,
  /** chosen; a discovery item's custom description */
  discoveryDescription: 1_000,
  /** original (`varchar(255)`); a replacement add-on's id (guid), also the recommendations' `guid` parameter */
  replacementGuid: 255,
  /** original (`varchar(255)`); a replacement add-on's path or URL */
  replacementPath: 255,
  /** original (`varchar(255)`); another browser's extension id in a browser mapping */
  browserExtensionId: 255,
} as const;
