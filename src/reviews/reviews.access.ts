import { timingSafeEqual } from 'node:crypto';
import { defineObjectRule } from '../access/object-rules.js';
import { Permission } from '../access/permissions.js';
import type { Viewer } from '../auth/viewer.js';
import type { Addon } from '../catalogue/addon.entity.js';
import { isAuthor } from '../catalogue/addon-access.js';
import { Channel } from '../catalogue/catalogue.enums.js';
import { isListedReviewer, isUnlistedReviewer } from '../catalogue/catalogue.permissions.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { adminReviewFlag, type AdminReviewFlag } from './review-flags.service.js';
import type { InboundMailSettings } from './review-mail.service.js';
import type { ReviewDecision } from './reviews.service.js';

/**
 * Who may review: the object rules of the queue, decisions, reviewers' subscriptions and the
 * inbound mail endpoint, each called by the service where it decides. Reading a version's review
 * material is `review-material-access.ts`'s.
 */

export const reviewMessages = {
  /** The original's message (reviewers' review page). */
  selfReview: 'Self-reviews are not allowed.',
  adminReview: (flag: AdminReviewFlag) =>
    `This add-on is flagged for an admin ${flag} review: only admin reviewers (Reviews:Admin) can make this decision.`,
};

/**
 * A channel's queue and decisions on its versions: `Addons:Review` for listed versions,
 * `Addons:ReviewUnlisted` for unlisted ones; 401 anonymous, 403 others.
 */
export const reviewChannel = defineObjectRule(
  'review.channel',
  'signed in; Addons:Review for listed versions, Addons:ReviewUnlisted for unlisted ones',
  (ctx: RequestContext, channel: Channel): void => {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    const allowed =
      channel === Channel.UNLISTED ? isUnlistedReviewer(ctx.viewer) : ctx.viewer.can(Permission.ADDONS_REVIEW);
    if (!allowed) throw errors.forbidden();
  },
);

/** Decisions a "needs admin review" flag reserves to `Reviews:Admin`; comments stay open to reviewers. */
const ADMIN_FLAGGED_DECISIONS: ReadonlySet<ReviewDecision> = new Set(['approve', 'reject', 'requestInformation']);

/**
 * Reviewers never decide on versions of their own add-ons (unless self-reviews are allowed), and a
 * "needs admin review" flag that applies to the version reserves decisions to `Reviews:Admin`
 * (403 with the reason). Called once the version's channel passed `reviewChannel`.
 */
export const decideOnVersion = defineObjectRule(
  'version.decide',
  'not an author of the add-on (unless ALLOW_SELF_REVIEWS); Reviews:Admin where a needs-admin flag applies',
  async (
    ctx: RequestContext,
    version: { readonly addon: Addon; readonly channel: Channel },
    decision: ReviewDecision,
    allowSelfReviews: boolean,
  ): Promise<void> => {
    if (!allowSelfReviews) {
      if (await isAuthor(ctx, version.addon.id)) throw errors.forbidden(reviewMessages.selfReview);
    }
    if (ADMIN_FLAGGED_DECISIONS.has(decision) && !ctx.viewer.can(Permission.REVIEWS_ADMIN)) {
      const flag = await adminReviewFlag(ctx.em, version.addon, version.channel);
      if (flag) throw errors.forbidden(reviewMessages.adminReview(flag));
    }
  },
);

/** Who follows a channel's new versions: any kind of reviewer the listed one, unlisted reviewers the unlisted one. */
export function mayFollow(viewer: Viewer, channel: Channel): boolean {
  return channel === Channel.UNLISTED
    ? isUnlistedReviewer(viewer)
    : isListedReviewer(viewer) || isUnlistedReviewer(viewer);
}

/** A reviewer subscribes to (or unsubscribes from) a channel they may follow (`mayFollow`); 403 otherwise. */
export const followChannel = defineObjectRule(
  'reviewerSubscription.set',
  'any reviewer for the listed channel, unlisted reviewers for the unlisted one',
  (ctx: RequestContext, channel: Channel): void => {
    if (!mayFollow(ctx.viewer, channel)) throw errors.forbidden();
  },
);

/**
 * The mail provider posts replies with the configured shared secret (compared in constant time),
 * from an allowed address when a list is configured; 403 otherwise, and always without a secret.
 */
export const receiveReviewMail = defineObjectRule(
  'reviewMail.receive',
  'the configured secret key (and an allowed address)',
  (ctx: RequestContext, secretKey: string | null, settings: InboundMailSettings): void => {
    if (!mailAllowed(settings, secretKey, ctx.request.ip)) throw errors.forbidden();
  },
);

function mailAllowed(settings: InboundMailSettings, secretKey: string | null, ip: string | null): boolean {
  const expected = settings.secretKey;
  if (!expected || typeof secretKey !== 'string') return false;
  const a = Buffer.from(secretKey);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return false;
  const allowed = settings.allowedIps;
  return !allowed.length || (ip !== null && allowed.includes(ip.replace(/^::ffff:/, '')));
}
