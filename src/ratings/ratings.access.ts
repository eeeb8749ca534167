import { defineObjectRule } from '../access/object-rules.js';
import { Permission } from '../access/permissions.js';
import type { Viewer } from '../auth/viewer.js';
import { isAuthor } from '../catalogue/addon-access.js';
import type { RowRef } from '../catalogue/catalogue.records.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { ratingErrors, ratingMessages } from './ratings.errors.js';

/**
 * Who may do what with ratings: the object rules the rating operations declare, each called by the
 * service where it decides (after the rating is found: 404 first). Signing in is the service's
 * first check (401), as the original's order has it.
 */

export const canEditAddons = (viewer: Viewer) => viewer.can(Permission.ADDONS_EDIT);

/** A rating as the rules read it: its writer and add-on, and whether it awaits moderation. */
interface RatingSubject {
  readonly user: RowRef;
  readonly addon: RowRef;
  readonly editorReview: boolean;
}

/** Whether the caller sees deleted ratings and replies (others are not found): Addons:Edit. */
export const seeDeletedRatings = defineObjectRule(
  'rating.seeDeleted',
  'deleted ratings for Addons:Edit only',
  (ctx: RequestContext): boolean => canEditAddons(ctx.viewer),
);

/** A rating of one's own add-on is refused (a non-field error, as the original). */
export const rateAddon = defineObjectRule(
  'rating.create',
  'signed in; not an author of the add-on',
  async (ctx: RequestContext, addon: RowRef): Promise<void> => {
    if (await isAuthor(ctx, addon.id)) throw ratingErrors.nonField(ratingMessages.ownAddon);
  },
);

/** Its writer, or Addons:Edit, changes a rating; 403 otherwise. */
export const editRating = defineObjectRule(
  'rating.edit',
  'signed in; the author of the rating, or Addons:Edit',
  (ctx: RequestContext, rating: RatingSubject): void => {
    if (!ctx.viewer.is(rating.user.id) && !canEditAddons(ctx.viewer)) throw errors.forbidden();
  },
);

/**
 * Its writer deletes a rating; so do Users:Edit and Addons:Edit, and Ratings:Moderate once it
 * awaits moderation, but never an author of the add-on (unless they wrote it); 403 otherwise.
 */
export const deleteRating = defineObjectRule(
  'rating.delete',
  'signed in; the author of the rating; else, not an author of the add-on: Users:Edit, Addons:Edit, or Ratings:Moderate once flagged',
  async (ctx: RequestContext, rating: RatingSubject): Promise<void> => {
    const { viewer } = ctx;
    if (viewer.is(rating.user.id)) return;
    if (await isAuthor(ctx, rating.addon.id)) throw errors.forbidden();
    const allowed =
      viewer.can(Permission.USERS_EDIT) ||
      canEditAddons(viewer) ||
      (viewer.can(Permission.RATINGS_MODERATE) && rating.editorReview);
    if (!allowed) throw errors.forbidden();
  },
);

/** Whether the caller may reply to the add-on's ratings: its authors and Addons:Edit. */
export async function canReply(ctx: RequestContext, addon: RowRef): Promise<boolean> {
  if (!ctx.viewer.isAuthenticated) return false;
  return canEditAddons(ctx.viewer) || (await isAuthor(ctx, addon.id));
}

/** The add-on's authors, and Addons:Edit, reply to its ratings; 403 otherwise. */
export const replyToRating = defineObjectRule(
  'rating.reply',
  'signed in; a developer of the add-on, or Addons:Edit',
  async (ctx: RequestContext, rating: RatingSubject): Promise<void> => {
    if (!(await canReply(ctx, rating.addon))) throw errors.forbidden();
  },
);

/** Anyone but its writer flags a rating; 403 for one's own. */
export const flagRating = defineObjectRule(
  'rating.flag',
  "signed in; someone else's rating",
  (ctx: RequestContext, rating: RatingSubject): void => {
    if (ctx.viewer.is(rating.user.id)) throw errors.forbidden();
  },
);
