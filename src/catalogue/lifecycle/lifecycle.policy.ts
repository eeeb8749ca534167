import { AddonRole, type Addon } from '../addon.entity.js';
import { authorRole, existingAddon, isAuthor } from '../addon-access.js';
import type { CatalogueService } from '../catalogue.service.js';
import type { RequestContext } from '../../core/context.js';
import { errors } from '../../core/errors.js';
import { lengthProblem } from '../../core/text-limits.js';
import { lifecycleErrors } from './lifecycle.rules.js';
import { Permission } from '../../access/permissions.js';
import { defineObjectRule } from '../../access/object-rules.js';
import { CATALOGUE_TEXT_LIMITS } from '../text-limits.js';

/**
 * An owner of the add-on (and, where `admins`, `Addons:Edit`) runs the developers' lifecycle
 * operations: 401 anonymous, 403 others (developers are told only owners may).
 */
export const ownAddon = defineObjectRule(
  'addon.own',
  'signed in; an owner of the add-on',
  async (ctx: RequestContext, addon: { readonly id: number }, admins: boolean): Promise<void> => {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    if (admins && ctx.viewer.can(Permission.ADDONS_EDIT)) return;
    const role = await authorRole(ctx, addon.id);
    if (role === null) throw errors.forbidden();
    if (role !== AddonRole.OWNER) throw lifecycleErrors.notOwner();
  },
);

/** `Reviews:Admin` runs the administrators' lifecycle operations: 401 anonymous, 403 others. */
export const administerAddons = defineObjectRule(
  'addon.administer',
  'signed in; Reviews:Admin',
  (ctx: RequestContext) => {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    if (!ctx.viewer.can(Permission.REVIEWS_ADMIN)) throw errors.forbidden();
  },
);

/** An add-on's audit log is read by `Reviews:Admin` and its authors; 403 otherwise. */
export const readAddonActivity = defineObjectRule(
  'addon.readActivity',
  'Reviews:Admin, or an author of the add-on',
  async (ctx: RequestContext, addon: { readonly id: number }): Promise<void> => {
    if (!ctx.viewer.can(Permission.REVIEWS_ADMIN) && !(await isAuthor(ctx, addon.id))) throw errors.forbidden();
  },
);

/** What a user did is read by `Reviews:Admin` and the user themself; 403 otherwise. */
export const readUserActivity = defineObjectRule(
  'user.readActivity',
  'Reviews:Admin, or the user themself',
  (ctx: RequestContext, userId: number): void => {
    if (!ctx.viewer.can(Permission.REVIEWS_ADMIN) && !ctx.viewer.is(userId)) throw errors.forbidden();
  },
);

/** Who may read an add-on's listing review besides its authors. */
const LISTING_REVIEW_READERS = [
  Permission.ADDONS_REVIEW,
  Permission.ADDONS_REVIEW_UNLISTED,
  Permission.ADDONS_CONTENT_REVIEW,
  Permission.REVIEWS_ADMIN,
] as const;

/** An add-on's listing content review is read by its authors and by reviewers; 403 otherwise. */
export const readListingReview = defineObjectRule(
  'addon.readListingReview',
  'an author of the add-on, or a reviewer',
  async (ctx: RequestContext, addon: { readonly id: number }): Promise<void> => {
    if (LISTING_REVIEW_READERS.some((p) => ctx.viewer.can(p))) return;
    if ((await authorRole(ctx, addon.id)) === null) throw errors.forbidden();
  },
);

/**
 * Who may run which lifecycle operation: owners (developers' operations), `Addons:Edit` (deletions
 * too), `Reviews:Admin` (vendor disable, resubmission), `Admin:Curation` (promotions). Anonymous
 * callers get 401, others 403, unknown or deleted add-ons 404.
 */
export class LifecyclePolicy {
  constructor(private readonly catalogue: CatalogueService) {}

  /** A non-deleted add-on by id, slug or guid. */
  async existing(ctx: RequestContext, identifier: string): Promise<Addon> {
    return existingAddon(ctx, await this.catalogue.lookup(ctx, identifier), 'nobody');
  }

  /** Owners of the add-on (and, where `admins`, `Addons:Edit`); 401 anonymous, 403 others, 404 unknown. */
  async owned(ctx: RequestContext, identifier: string, admins: boolean): Promise<Addon> {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    const addon = await this.existing(ctx, identifier);
    await ownAddon(ctx, addon, admins);
    return addon;
  }

  /** `Reviews:Admin`, checked before the add-on is looked up (as the original's permission classes). */
  async administered(ctx: RequestContext, identifier: string): Promise<Addon> {
    administerAddons(ctx);
    return this.existing(ctx, identifier);
  }

  /** A comment or reason, within its length limit (`field` names it in the 400). */
  comments(text: string | null, field: string): string {
    const problem = lengthProblem(text, CATALOGUE_TEXT_LIMITS.lifecycleComment);
    if (problem) throw errors.validation({ [field]: [problem] });
    return (text ?? '').trim();
  }
}
