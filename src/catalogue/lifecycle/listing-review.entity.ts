import { Entity, Index, OneToOne, Property, type Opt } from '@mikro-orm/core';
import { Addon } from '../addon.entity.js';

/**
 * Where an add-on's listing (names, descriptions, images: not its code) stands with content
 * reviewers, the original's `AddonApprovalsCounter.content_review_status` (the same numbers).
 */
export const ListingReviewStatus = {
  UNREVIEWED: 0,
  /** Accepted content changed since. */
  CHANGED: 1,
  PASS: 2,
  /** Rejected: the developer must address it and request a new review. */
  FAIL: 3,
  /** Rejected, and a new review requested: in the content reviewers' queue. */
  REQUESTED: 4,
} as const;
export type ListingReviewStatus = (typeof ListingReviewStatus)[keyof typeof ListingReviewStatus];

/** One row per add-on whose listing a content reviewer decided on. Written only by the lifecycle. */
@Entity({ tableName: 'addon_listing_reviews' })
@Index({ properties: ['status', 'requestedAt'] })
export class AddonListingReview {
  @OneToOne({ entity: () => Addon, primary: true, deleteRule: 'cascade', owner: true })
  addon!: Addon;

  @Property({ type: 'smallint', default: ListingReviewStatus.UNREVIEWED })
  status: Opt<ListingReviewStatus> = ListingReviewStatus.UNREVIEWED;

  /** When a content reviewer last approved the listing (null after a rejection). */
  @Property({ type: 'timestamptz', nullable: true })
  lastReviewed: Date | null = null;

  /** When the developer asked for a new review after a rejection. */
  @Property({ type: 'timestamptz', nullable: true })
  requestedAt: Date | null = null;
}
