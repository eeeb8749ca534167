/**
 * The length limit of every free-text input of the review (decisions, notes, draft comments, canned
 * responses, the queue, replies by mail), in characters: README "Limits" lists every domain's,
 * src/core/text-limits.ts holds the check and its message. "original": the original service's
 * limit; "chosen": this service's (the original stored the text unbounded).
 */
export const REVIEWS_TEXT_LIMITS = {
  /** chosen; reviewer decisions and review notes, draft comments and canned responses */
  reviewComments: 100_000,
  /** chosen; the file a draft comment is about */
  draftFilename: 1_000,
  /** chosen; a canned response's title */
  cannedTitle: 255,
  /** chosen; a canned response's category */
  cannedCategory: 100,
  /** chosen; the add-on name filter of a review queue */
  queueNameFilter: 100,
  /** chosen; an inbound reply by mail is cut to this before its quoted part is looked for */
  mailBody: 200_000,
} as const;
