import type { RequestContext, RequestViewer } from '../core/context.js';
import { errors } from '../core/errors.js';
import { isAuthor } from './addon-access.js';
import { Channel, FileStatus } from './catalogue.enums.js';
import { filesByVersionId } from './catalogue.loaders.js';
import { canViewDeleted, isListedReviewer, isUnlistedReviewer } from './catalogue.permissions.js';

/**
 * The object-level rules of the version aggregate, in one place: who finds a deleted version, who
 * reviews a channel, and who sees a version as the version endpoint shows it. Built on the add-on
 * aggregate's (`addon-access.ts`: authors, deleted add-ons) and on the viewer-level permissions
 * (`catalogue.permissions.ts`). Review material (`reviews/review-material-access.ts`) and file
 * downloads (`signing/downloads.service.ts`) build on these.
 */

/** The version facts these rules read. */
export interface VersionAccessFacts {
  readonly channel: number;
  readonly deleted: boolean;
}

// Deleted versions

/**
 * Who still finds a deleted version; everyone else gets 404, as for an unknown one:
 * - `nobody`: changes (review decisions);
 * - `viewDeleted`: reads of it, its review material and files, for `Addons:ViewDeleted`.
 */
export type DeletedVersionReaders = 'nobody' | 'viewDeleted';

/** The version exists for the caller: known, and not deleted unless the caller is among `readers`. */
export function findsVersion<V extends { readonly deleted: boolean }>(
  viewer: RequestViewer,
  version: V | null | undefined,
  readers: DeletedVersionReaders = 'viewDeleted',
): version is V {
  return !!version && (!version.deleted || (readers === 'viewDeleted' && canViewDeleted(viewer)));
}

/** The version, when it exists for the caller (`findsVersion`); `notFound()` (a plain 404) otherwise. */
export function existingVersion<V extends { readonly deleted: boolean }>(
  ctx: RequestContext,
  version: V | null | undefined,
  readers: DeletedVersionReaders = 'viewDeleted',
  notFound: () => Error = () => errors.notFound(),
): V {
  if (!findsVersion(ctx.viewer, version, readers)) throw notFound();
  return version;
}

/**
 * The same rule as a list filter (MikroORM `where` fragment to spread): deleted versions only for
 * `Addons:ViewDeleted`.
 */
export function foundVersionsFilter(viewer: RequestViewer): { deleted?: false } {
  return canViewDeleted(viewer) ? {} : { deleted: false };
}

// Reviewers and authors

/** A reviewer of the channel: Addons:ReviewUnlisted for unlisted, any reviewer permission for listed. */
export function isChannelReviewer(viewer: RequestViewer, channel: number): boolean {
  return channel === Channel.UNLISTED ? isUnlistedReviewer(viewer) : isListedReviewer(viewer);
}

/**
 * Whether the caller reviews the version's channel or is an author of its add-on (the reviewer
 * permission first: an author's statement only when not a reviewer).
 */
export async function isReviewerOrAuthor(ctx: RequestContext, addonId: number, channel: number): Promise<boolean> {
  return isChannelReviewer(ctx.viewer, channel) || (await isAuthor(ctx, addonId));
}

// Who sees it

/**
 * Whether the caller may see this version of a visible add-on as the version endpoint shows it:
 * not of that add-on, or deleted (without Addons:ViewDeleted): no; a listed version with an
 * approved file: anyone; otherwise reviewers of its channel and the add-on's authors. Batched
 * (loaders).
 */
export async function canSeeVersion(
  ctx: RequestContext,
  addon: { readonly id: number },
  version: VersionAccessFacts & { readonly id: number; readonly addon: { readonly id: number } },
): Promise<boolean> {
  if (version.addon.id !== addon.id || !findsVersion(ctx.viewer, version)) return false;
  if (version.channel !== Channel.UNLISTED && (await hasApprovedFile(ctx, version.id))) return true;
  return isReviewerOrAuthor(ctx, addon.id, version.channel);
}

async function hasApprovedFile(ctx: RequestContext, versionId: number): Promise<boolean> {
  const files = await ctx.loaders.get(filesByVersionId).load(versionId);
  return files.some((f) => f.status === FileStatus.APPROVED);
}
