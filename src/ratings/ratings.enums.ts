/** Why a user flags a rating. Stored as these names; the APIs spell them as constants (below). */
export const RatingFlagReason = {
  SPAM: 'spam',
  LANGUAGE: 'language',
  BUG_SUPPORT: 'bug_support',
  OTHER: 'other',
} as const;
export type RatingFlagReason = (typeof RatingFlagReason)[keyof typeof RatingFlagReason];

const REASONS = Object.values(RatingFlagReason);

/** v4's constant (the contract's `rating_flag_reason_*`). */
export const ratingFlagConstant = (reason: RatingFlagReason) => `rating_flag_reason_${reason}`;

/** v3's constant, which the original server took in both versions. */
export const reviewFlagConstant = (reason: RatingFlagReason) => `review_flag_reason_${reason}`;

/** The reason behind either spelling of a flag constant; null for anything else. */
export function flagReasonFromConstant(value: string): RatingFlagReason | null {
  const match = /^(?:rating|review)_flag_reason_(.+)$/.exec(value);
  const reason = match?.[1] as RatingFlagReason | undefined;
  return reason && REASONS.includes(reason) ? reason : null;
}

/** The constants the original lists when it refuses a flag. */
export const FLAG_CONSTANTS_LISTED = REASONS.map(reviewFlagConstant);
