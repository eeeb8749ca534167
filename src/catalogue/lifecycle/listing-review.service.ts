import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import { errors } from '../../core/errors.js';
import { lengthProblem } from '../../core/text-limits.js';
import { selectRows } from '../../db/rows.js';
import { Permission } from '../../access/permissions.js';
import { Addon } from '../addon.entity.js';
import { authorOnly } from '../addon-access.js';
import { AddonStatus } from '../catalogue.enums.js';
import { ActivityAction } from './lifecycle.enums.js';
import { readListingReview, type LifecyclePolicy } from './lifecycle.policy.js';
import type { AddonLifecycle } from './lifecycle.service.js';
import { AddonListingReview, ListingReviewStatus } from './listing-review.entity.js';
import { CATALOGUE_TEXT_LIMITS } from '../text-limits.js';

/** The audit entries of the listing content review, oldest first in `history`. */
const HISTORY_ACTIONS: readonly ActivityAction[] = [
  ActivityAction.LISTING_CONTENT_REJECTED,
  ActivityAction.LISTING_CONTENT_APPROVED,
  ActivityAction.LISTING_REVIEW_REQUESTED,
];

/** At most this many policies per rejection, each within the comment limit. */
export const MAX_REJECTION_POLICIES = 20;

export interface ListingReviewEntry {
  id: number;
  action: string;
  created: Date;
  userId: number | null;
  comments: string;
  policies: string[];
}

/** The original's listing content review object, with its history. */
export interface ListingReviewState {
  addonId: number;
  isRejected: boolean;
  canRequestReview: boolean;
  hasRequestedReview: boolean;
  /** The policies the last rejection named (empty when not rejected). */
  policies: string[];
  /** The last rejection's comments (null when not rejected or none were given). */
  comments: string | null;
  history: ListingReviewEntry[];
}

export interface ListingReviewQueueEntry {
  addonId: number;
  slug: string | null;
  requestedAt: Date;
}

export const listingReviewMessages = {
  mustBeTrue: 'Only true is accepted: set it to request a new review.',
  notRejected: 'The listing content review was not rejected: there is nothing to request.',
  policiesRequired: 'Name at least one policy the listing violates.',
  tooManyPolicies: `At most ${MAX_REJECTION_POLICIES} policies.`,
};

/**
 * The review of an add-on's listing content (the original's listing content review): content
 * reviewers (`Addons:ContentReview`, or `Reviews:Admin`) reject a listing, naming the policies it
 * violates (the add-on becomes `rejected` and leaves the public catalogue), or approve it (its
 * status follows its versions again); the authors read where it stands and, once they addressed
 * the rejection, ask for a new review, which puts the listing in the content reviewers' queue.
 * Status changes go through the lifecycle's one write path (`AddonLifecycle.applyChange`).
 */
export class ListingContentReview {
  constructor(
    private readonly policy: LifecyclePolicy,
    private readonly lifecycle: AddonLifecycle,
  ) {}

  /** Authors of the add-on and reviewers; 401 anonymous, 403 others, 404 unknown or deleted. */
  async state(ctx: RequestContext, identifier: string): Promise<ListingReviewState> {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    const addon = await this.policy.existing(ctx, identifier);
    await readListingReview(ctx, addon);
    return this.read(ctx, addon);
  }

  /**
   * An author asks for a new review of the rejected listing (`hasRequestedReview` must be true):
   * it goes to the content reviewers' queue. Asking again changes nothing, as the original.
   */
  async request(ctx: RequestContext, identifier: string, hasRequestedReview: boolean): Promise<ListingReviewState> {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    const addon = await this.policy.existing(ctx, identifier);
    await authorOnly(ctx, addon);
    if (!hasRequestedReview) throw errors.field('has_requested_review', listingReviewMessages.mustBeTrue);
    if (addon.status !== AddonStatus.REJECTED) {
      throw errors.field('has_requested_review', listingReviewMessages.notRejected);
    }
    const row = await ctx.em.findOne(AddonListingReview, { addon: addon.id });
    if (row?.status !== ListingReviewStatus.REQUESTED) {
      await this.lifecycle.applyChange(ctx, addon.id, {
        action: ActivityAction.LISTING_REVIEW_REQUESTED,
        actorId: ctx.viewer.userId,
        derive: false,
        apply: async (_a, tx) => {
          const review = await upsert(tx, addon.id);
          review.status = ListingReviewStatus.REQUESTED;
          review.requestedAt = new Date();
        },
      });
    }
    return this.read(ctx, addon);
  }

  /**
   * A content reviewer rejects the listing, naming the policies it violates: the add-on becomes
   * `rejected` (a vendor-disabled one stays disabled), out of the public catalogue and search,
   * until a reviewer approves its listing again.
   */
  async reject(
    ctx: RequestContext,
    identifier: string,
    policies: readonly string[],
    comments: string | null,
  ): Promise<ListingReviewState> {
    assertContentReviewer(ctx);
    const text = this.policy.comments(comments, 'comments');
    const names = checkPolicies(policies);
    const addon = await this.policy.existing(ctx, identifier);
    await this.lifecycle.applyChange(ctx, addon.id, {
      action: ActivityAction.LISTING_CONTENT_REJECTED,
      actorId: ctx.viewer.userId,
      comments: text,
      details: { policies: names },
      derive: false,
      apply: async (a, tx) => {
        if (a.status !== AddonStatus.DISABLED) a.status = AddonStatus.REJECTED;
        const review = await upsert(tx, addon.id);
        review.status = ListingReviewStatus.FAIL;
        review.lastReviewed = null;
        review.requestedAt = null;
      },
      events: [['addon.listing_reviewed', { addonId: addon.id, rejected: true }]],
    });
    return this.read(ctx, await this.policy.existing(ctx, identifier));
  }

  /** A content reviewer approves the listing: a rejected add-on's status follows its versions again. */
  async approve(ctx: RequestContext, identifier: string, comments: string | null): Promise<ListingReviewState> {
    assertContentReviewer(ctx);
    const text = this.policy.comments(comments, 'comments');
    const addon = await this.policy.existing(ctx, identifier);
    const wasRejected = addon.status === AddonStatus.REJECTED;
    await this.lifecycle.applyChange(ctx, addon.id, {
      action: ActivityAction.LISTING_CONTENT_APPROVED,
      actorId: ctx.viewer.userId,
      comments: text,
      // As enabling does: derived as if public (public, awaiting review or incomplete).
      apply: async (a, tx) => {
        if (wasRejected) a.status = AddonStatus.PUBLIC;
        const review = await upsert(tx, addon.id);
        review.status = ListingReviewStatus.PASS;
        review.lastReviewed = new Date();
        review.requestedAt = null;
      },
      derive: wasRejected,
      events: wasRejected ? [['addon.listing_reviewed', { addonId: addon.id, rejected: false }]] : [],
    });
    return this.read(ctx, await this.policy.existing(ctx, identifier));
  }

  /** Listings waiting for a new content review after a rejection, longest waiting first. */
  async queue(ctx: RequestContext): Promise<ListingReviewQueueEntry[]> {
    assertContentReviewer(ctx);
    const rows = await selectRows<{ addon_id: number; slug: string | null; requested_at: Date }>(
      ctx.em,
      `select r.addon_id, a.slug, r.requested_at from addon_listing_reviews r join addons a on a.id = r.addon_id
        where r.status = ? and a.status = ? order by r.requested_at, r.addon_id limit 500`,
      [ListingReviewStatus.REQUESTED, AddonStatus.REJECTED],
    );
    return rows.map((r) => ({ addonId: r.addon_id, slug: r.slug, requestedAt: new Date(r.requested_at) }));
  }

  private async read(ctx: RequestContext, addon: Addon): Promise<ListingReviewState> {
    const row = await ctx.em.findOne(AddonListingReview, { addon: addon.id }, { refresh: true });
    const rows = await selectRows<{
      id: number;
      action: string;
      created: Date;
      user_id: number | null;
      comments: string;
      details: { policies?: unknown } | null;
    }>(
      ctx.em,
      `select id, action, created, user_id, comments, details from addon_activity
        where addon_id = ? and action in (${HISTORY_ACTIONS.map(() => '?').join(', ')}) order by id`,
      [addon.id, ...HISTORY_ACTIONS],
    );
    const history = rows.map((r) => ({
      id: r.id,
      action: r.action,
      created: new Date(r.created),
      userId: r.user_id,
      comments: r.comments,
      policies: Array.isArray(r.details?.policies) ? (r.details.policies as string[]) : [],
    }));
    const isRejected = addon.status === AddonStatus.REJECTED;
    const hasRequestedReview = isRejected && row?.status === ListingReviewStatus.REQUESTED;
    const rejection = isRejected
      ? [...history].reverse().find((h) => h.action === ActivityAction.LISTING_CONTENT_REJECTED)
      : undefined;
    return {
      addonId: addon.id,
      isRejected,
      canRequestReview: isRejected && !hasRequestedReview,
      hasRequestedReview,
      policies: rejection?.policies ?? [],
      comments: rejection?.comments || null,
      history,
    };
  }
}

async function upsert(tx: EntityManager, addonId: number): Promise<AddonListingReview> {
  return (
    (await tx.findOne(AddonListingReview, { addon: addonId })) ??
    tx.create(AddonListingReview, { addon: tx.getReference(Addon, addonId) })
  );
}

/** Content reviewers (`Addons:ContentReview`) and `Reviews:Admin`, as the operations declare. */
function assertContentReviewer(ctx: RequestContext): void {
  if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
  if (!ctx.viewer.can(Permission.ADDONS_CONTENT_REVIEW) && !ctx.viewer.can(Permission.REVIEWS_ADMIN)) {
    throw errors.forbidden();
  }
}

/** The policies a rejection names: at least one, each non-blank and within the comment limit. */
function checkPolicies(policies: readonly string[]): string[] {
  if (policies.length > MAX_REJECTION_POLICIES) {
    throw errors.field('policies', listingReviewMessages.tooManyPolicies);
  }
  const problems = policies
    .map((p) => lengthProblem(p, CATALOGUE_TEXT_LIMITS.lifecycleComment))
    .filter((m): m is string => !!m);
  if (problems.length) throw errors.validation({ policies: problems });
  const names = policies.map((p) => p.trim()).filter(Boolean);
  if (!names.length) throw errors.field('policies', listingReviewMessages.policiesRequired);
  return [...new Set(names)];
}
