import type { Addon } from '../catalogue/addon.entity.js';
import { existingAddon, isAuthor } from '../catalogue/addon-access.js';
import { AddonType, Channel } from '../catalogue/catalogue.enums.js';
import { isListedReviewer, isUnlistedReviewer } from '../catalogue/catalogue.permissions.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import { findsVersion, isReviewerOrAuthor } from '../catalogue/version-access.js';
import { Version } from '../catalogue/version.entity.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { defineObjectRule } from '../access/object-rules.js';
import { Permission } from '../access/permissions.js';

/**
 * Some of the add-on's versions are read by any reviewer and its authors (403 otherwise); answers
 * whether unlisted ones are included (unlisted reviewers and authors).
 */
export const readAddonVersions = defineObjectRule(
  'addon.readVersionsForReview',
  'signed in; any reviewer or an author of the add-on (unlisted versions for unlisted reviewers and authors)',
  async (ctx: RequestContext, addon: { readonly id: number }): Promise<boolean> => {
    const author = await isAuthor(ctx, addon.id);
    if (!author && !isListedReviewer(ctx.viewer) && !isUnlistedReviewer(ctx.viewer)) throw errors.forbidden();
    return author || isUnlistedReviewer(ctx.viewer);
  },
);

/** A version's review material is read by reviewers of its channel and the add-on's authors; 403 otherwise. */
export const readVersionMaterial = defineObjectRule(
  'version.readReviewMaterial',
  "signed in; a reviewer of the version's channel or an author of the add-on",
  async (ctx: RequestContext, addon: { readonly id: number }, channel: Channel): Promise<void> => {
    if (!(await isReviewerOrAuthor(ctx, addon.id, channel))) throw errors.forbidden();
  },
);

/**
 * A reviewer of a listed add-on that is not a static theme (the original's `acl.is_reviewer`,
 * content reviewers allowed); ReviewerTools:View alone is not one.
 */
const ADDON_REVIEWER_PERMISSIONS = [
  Permission.ADDONS_REVIEW,
  Permission.ADDONS_POST_REVIEW,
  Permission.ADDONS_CONTENT_REVIEW,
] as const;

/**
 * A file's validation results are read by reviewers of its version's channel: unlisted reviewers
 * (unlisted), theme reviewers (a listed theme), or Addons:Review, :PostReview or :ContentReview (a
 * listed extension); 403 otherwise. Any reviewer is the operation's `@Requires` (checked first).
 */
export const readFileValidation = defineObjectRule(
  'file.readValidation',
  "signed in; a reviewer of the file's add-on type (listed) or an unlisted reviewer (unlisted)",
  (ctx: RequestContext, addon: { readonly type: AddonType }, channel: Channel): void => {
    const allowed =
      channel === Channel.UNLISTED
        ? isUnlistedReviewer(ctx.viewer)
        : addon.type === AddonType.STATICTHEME
          ? ctx.viewer.can(Permission.ADDONS_THEME_REVIEW)
          : ADDON_REVIEWER_PERMISSIONS.some((p) => ctx.viewer.can(p));
    if (!allowed) throw errors.forbidden();
  },
);

/**
 * Who may read a version's review material (its history, draft comments, contents and diffs):
 * reviewers of its channel (any reviewer permission for listed, Addons:ReviewUnlisted for
 * unlisted) and its add-on's authors. Anonymous callers get 401, an unknown add-on (or a deleted
 * one without Addons:ViewDeleted) 404. The add-on's own rules (deleted add-ons, authors) are the
 * add-on aggregate's (`catalogue/addon-access.ts`), the version's (deleted versions, channel
 * reviewers) the version aggregate's (`catalogue/version-access.ts`); this module combines them.
 */
export class ReviewMaterialAccess {
  constructor(private readonly catalogue: CatalogueService) {}

  /** The add-on, for a signed-in caller; 404 when unknown or deleted (unless Addons:ViewDeleted). */
  async addon(ctx: RequestContext, identifier: string): Promise<Addon> {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    return existingAddon(ctx, await this.catalogue.lookup(ctx, identifier), 'viewDeleted');
  }

  /**
   * The add-on for a caller who may read some of its versions (any reviewer, or an author: 403
   * otherwise), and whether unlisted ones are included (unlisted reviewers and authors).
   */
  async addonVersions(ctx: RequestContext, identifier: string): Promise<{ addon: Addon; unlisted: boolean }> {
    const addon = await this.addon(ctx, identifier);
    return { addon, unlisted: await readAddonVersions(ctx, addon) };
  }

  /**
   * The version, when the caller may read it. An unknown version of the add-on, or a deleted one
   * (without Addons:ViewDeleted), is a 404, checked before the permission (draft comments, browse,
   * compare); with `permissionFirst` (review notes, as the original), the permission is checked
   * first, an unknown version counting as listed.
   */
  async version(
    ctx: RequestContext,
    identifier: string,
    versionId: number,
    options: { permissionFirst?: boolean } = {},
  ): Promise<Version> {
    const addon = await this.addon(ctx, identifier);
    const version = Number.isSafeInteger(versionId)
      ? await ctx.em.findOne(Version, { id: versionId, addon: addon.id })
      : null;
    const found = findsVersion(ctx.viewer, version, 'viewDeleted');
    if (!found && !options.permissionFirst) throw errors.notFound();
    // An unknown version (permissionFirst) counts as listed.
    await readVersionMaterial(ctx, addon, version?.channel ?? Channel.LISTED);
    if (!found) throw errors.notFound();
    return version;
  }
}
