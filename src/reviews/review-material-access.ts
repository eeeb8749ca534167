import type { Addon } from '../catalogue/addon.entity.js';
import { existingAddon, isAuthor } from '../catalogue/addon-access.js';
import { Channel } from '../catalogue/catalogue.enums.js';
import { isListedReviewer, isUnlistedReviewer } from '../catalogue/catalogue.permissions.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import { findsVersion, isReviewerOrAuthor } from '../catalogue/version-access.js';
import { Version } from '../catalogue/version.entity.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';

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
    const author = await isAuthor(ctx, addon.id);
    if (!author && !isListedReviewer(ctx.viewer) && !isUnlistedReviewer(ctx.viewer)) throw errors.forbidden();
    return { addon, unlisted: author || isUnlistedReviewer(ctx.viewer) };
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
    if (!(await isReviewerOrAuthor(ctx, addon.id, version?.channel ?? Channel.LISTED))) throw errors.forbidden();
    if (!found) throw errors.notFound();
    return version;
  }
}
