/** Review note actions, stored as small integers; `slug` is the API's `action`. */
export const ReviewAction = {
  APPROVED: 1,
  REJECTED: 2,
  REVIEW_REQUESTED: 3,
  MORE_INFORMATION_REQUESTED: 4,
  SUPER_REVIEW_REQUESTED: 5,
  COMMENT: 6,
  /** A reply by mail or through the API (developer or reviewer). */
  REVIEW_NOTE: 7,
} as const;
export type ReviewAction = (typeof ReviewAction)[keyof typeof ReviewAction];

const ACTIONS: Record<ReviewAction, { slug: string; label: string }> = {
  1: { slug: 'approved', label: 'Approved' },
  2: { slug: 'rejected', label: 'Rejected' },
  3: { slug: 'review-requested', label: 'Review requested' },
  4: { slug: 'more-information-requested', label: 'More information requested' },
  5: { slug: 'super-review-requested', label: 'Super review requested' },
  6: { slug: 'comment', label: 'Comment' },
  7: { slug: 'review-note', label: 'Review note' },
};

export const reviewActionSlug = (action: ReviewAction) => ACTIONS[action].slug;
export const reviewActionLabel = (action: ReviewAction) => ACTIONS[action].label;
