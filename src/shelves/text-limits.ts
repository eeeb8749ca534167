/**
 * The length limit of every free-text input of the hero shelves and home shelves, in characters:
 * README "Limits" lists every domain's, src/core/text-limits.ts holds the check and its message.
 * "original": the original service's limit; "chosen": this service's (the original stored the text
 * unbounded).
 */
export const SHELVES_TEXT_LIMITS = {
  /** chosen; a primary shelf's description (the add-on's summary is 250) */
  shelfDescription: 250,
  /** original */
  secondaryHeadline: 50,
  /** original */
  secondaryDescription: 100,
  /** original; a secondary shelf module's description */
  moduleDescription: 50,
  /** original; call-to-action text */
  ctaText: 20,
  /** original (`varchar(255)`); call-to-action URLs, featured images, module icons */
  shelfUrl: 255,
  /** chosen; a primary shelf's gradient colour name: longer is refused as no choice */
  shelfGradient: 40,
  /** original (`varchar(70)`); a home shelf's title */
  homeShelfTitle: 70,
  /** original (`varchar(70)`); a home shelf's footer text */
  homeShelfFooter: 70,
  /** original (`varchar(200)`); a home shelf's criteria (a search query string or a collection slug) */
  homeShelfCriteria: 200,
} as const;
