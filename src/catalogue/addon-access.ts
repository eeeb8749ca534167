import type { EntityManager } from '@mikro-orm/postgresql';
import { keyScopeMessages } from '../access/key-scopes.js';
import { defineObjectRule } from '../access/object-rules.js';
import { Permission } from '../access/permissions.js';
import type { RequestContext, RequestViewer } from '../core/context.js';
import { errors } from '../core/errors.js';
import { selectRows } from '../db/rows.js';
import { AddonRole, AddonUser } from './addon.entity.js';
import { AddonStatus } from './catalogue.enums.js';
import { PendingAuthor } from './pending-author.entity.js';
import { addonFlagsById, authorsByAddonId } from './catalogue.loaders.js';
import { canViewDeleted, isListedReviewer, isUnlistedReviewer } from './catalogue.permissions.js';
import { isPublicAddon, type PublicAddonFacts } from './public.js';

/**
 * The object-level rules of the add-on aggregate, in one place: who finds a deleted add-on, who is
 * an author (and with which role), who sees a non-public one, and the add-on by guid. Built on the
 * viewer-level permissions (`catalogue.permissions.ts`) and on what "public" means (`public.ts`).
 * Versions' own rules build on these (`version-access.ts`).
 */

// Deleted add-ons

/** Deleted (by its developer or an admin): kept, but answered as unknown to most callers. */
export function isDeletedAddon(addon: { readonly status: number }): boolean {
  return addon.status === AddonStatus.DELETED;
}

/**
 * Not `isDeletedAddon`, over the `addons` row aliased `alias`: list filters that keep every add-on
 * but deleted ones (a collection's `all` items, an account's `is_developer`).
 */
export function notDeletedAddonSql(alias = 'a'): string {
  return `${alias}.status <> ${AddonStatus.DELETED}`;
}

/**
 * Who still finds a deleted add-on; everyone else gets 404, as for an unknown one:
 * - `nobody`: changes (listing edits, lifecycle operations, review decisions, upload status);
 * - `viewDeleted`: reads of it and of its versions, ratings, review material and files, for
 *   `Addons:ViewDeleted`;
 * - `reviewsAdmin`: its audit log, for `Reviews:Admin` (who may read every add-on's log).
 */
export type DeletedAddonReaders = 'nobody' | 'viewDeleted' | 'reviewsAdmin';

export function findsDeletedAddon(viewer: RequestViewer, readers: DeletedAddonReaders): boolean {
  if (readers === 'viewDeleted') return canViewDeleted(viewer);
  if (readers === 'reviewsAdmin') return viewer.can(Permission.REVIEWS_ADMIN);
  return false;
}

/**
 * The add-on, when it exists for the caller: unknown (null), or deleted and the caller not among
 * `readers`, throws `notFound()` (a plain 404 unless the caller names its own, as the signing API's
 * upload status does).
 */
export function existingAddon<A extends { readonly status: number }>(
  ctx: RequestContext,
  addon: A | null | undefined,
  readers: DeletedAddonReaders,
  notFound: () => Error = () => errors.notFound(),
): A {
  if (!addon || (isDeletedAddon(addon) && !findsDeletedAddon(ctx.viewer, readers))) throw notFound();
  return addon;
}

// Authors

/**
 * Whether the caller is an author (any role, listed or not) of the add-on. Read from the
 * `authorsByAddonId` loader: batched over a page, primed by the add-on's own read, one statement
 * otherwise.
 */
export async function isAuthor(ctx: RequestContext, addonId: number): Promise<boolean> {
  return (await authorRole(ctx, addonId)) !== null;
}

/**
 * The caller's role (`AddonRole`) among the add-on's authors; null when not one (or anonymous). An
 * API key limited to other add-ons is no author of this one: the caller is answered as a stranger
 * to the add-on everywhere authorship decides (uploads, status, versions, files, review notes,
 * listing edits): 403 where a stranger gets 403, 404 where a non-public add-on is hidden.
 */
export async function authorRole(ctx: RequestContext, addonId: number): Promise<number | null> {
  const userId = ctx.viewer.userId;
  if (userId === null || !ctx.viewer.keyReachesAddon(addonId)) return null;
  const authors = await ctx.loaders.get(authorsByAddonId).load(addonId);
  return authors.find((a) => a.user.id === userId)?.role ?? null;
}

/**
 * Whether a given user (not the caller: a mail's sender, say) is an author of the add-on: one
 * statement, in `em`'s transaction if any.
 */
export async function isUserAuthor(em: EntityManager, addonId: number, userId: number): Promise<boolean> {
  return (await em.count(AddonUser, { addon: addonId, user: userId })) > 0;
}

/**
 * A new add-on needs credentials without add-on limits: an API key limited to some add-ons is
 * refused (403) creating one (v3/v4 POST or PUT of an unknown guid, v5 submission without one).
 */
export function assertMayCreateAddon(ctx: RequestContext): void {
  if (ctx.viewer.keyLimitsAddons) throw errors.forbidden(keyScopeMessages.newAddon);
}

// Who sees it

/** Authors and unlisted reviewers see unlisted versions. */
export async function canSeeUnlisted(ctx: RequestContext, addonId: number): Promise<boolean> {
  return isUnlistedReviewer(ctx.viewer) || (await isAuthor(ctx, addonId));
}

/** Authors, and reviewers of the channels the add-on has, see a non-public add-on. */
async function canSeeNonPublic(ctx: RequestContext, addonId: number): Promise<boolean> {
  if (await isAuthor(ctx, addonId)) return true;
  const flags = await ctx.loaders.get(addonFlagsById).load(addonId);
  if (isListedReviewer(ctx.viewer) && (flags.hasListed || !flags.hasUnlisted)) return true;
  return isUnlistedReviewer(ctx.viewer) && flags.hasUnlisted;
}

/**
 * Whether the caller may see this add-on as the detail endpoint shows it: public ones for anyone;
 * non-public ones for authors and reviewers of its channels; deleted ones only for
 * Addons:ViewDeleted (who see every add-on); an unknown one (null) for nobody. Batched (loaders):
 * nested objects of a list check each item this way.
 */
export const canSeeAddon = defineObjectRule(
  'addon.see',
  'public add-ons for anyone; others for their authors and reviewers',
  async (ctx: RequestContext, addon: (PublicAddonFacts & { readonly id: number }) | null): Promise<boolean> => {
    if (!addon) return false;
    if (canViewDeleted(ctx.viewer)) return true;
    if (isDeletedAddon(addon)) return false;
    return isPublicAddon(addon) || (await canSeeNonPublic(ctx, addon.id));
  },
);

// Who edits it

/** An author of the add-on (any role), or Addons:Edit, edits its listing; 403 otherwise. */
export const editListing = defineObjectRule(
  'addon.editListing',
  'an author of the add-on',
  async (ctx: RequestContext, addon: { readonly id: number }): Promise<void> => {
    if (ctx.viewer.can(Permission.ADDONS_EDIT)) return;
    if ((await authorRole(ctx, addon.id)) === null) throw errors.forbidden();
  },
);

/** An author of the add-on (any role; administrators are not): 403 otherwise. */
export const authorOnly = defineObjectRule(
  'addon.author',
  'an author of the add-on',
  async (ctx: RequestContext, addon: { readonly id: number }): Promise<void> => {
    if ((await authorRole(ctx, addon.id)) === null) throw errors.forbidden();
  },
);

/**
 * An owner of the add-on, or Addons:Edit, manages its authors and invitations; 403 otherwise
 * (developers are told only owners may).
 */
export const manageAuthors = defineObjectRule(
  'addon.manageAuthors',
  'an owner of the add-on',
  async (ctx: RequestContext, addon: { readonly id: number }): Promise<void> => {
    if (ctx.viewer.can(Permission.ADDONS_EDIT)) return;
    const role = await authorRole(ctx, addon.id);
    if (role === null) throw errors.forbidden();
    if (role !== AddonRole.OWNER) throw errors.forbidden('Only owners can manage the authors of an add-on.');
  },
);

/** The invitee (an account not deleted since) answers an invitation to author it; 403 otherwise. */
export const answerInvitation = defineObjectRule(
  'addon.answerInvitation',
  'the invitee',
  async (ctx: RequestContext, addon: { readonly id: number }): Promise<PendingAuthor> => {
    const user = ctx.viewer.userId;
    const pending =
      user === null ? null : await ctx.em.findOne(PendingAuthor, { addon: addon.id, user }, { populate: ['user'] });
    if (!pending || pending.user.deleted) throw errors.forbidden();
    return pending;
  },
);

// By guid

/**
 * The id of the add-on with this guid, compared case-insensitively (guids are ASCII); when two
 * differ only in case, the lowest id, as the `addonByLowerGuid` loader answers. One statement, in
 * `em`'s transaction if any.
 */
export async function addonIdByGuid(em: EntityManager, guid: string): Promise<number | null> {
  const [row] = await selectRows<{ id: number }>(
    em,
    'select id from addons where lower(guid) = lower(?) order by id limit 1',
    [guid],
  );
  return row?.id ?? null;
}
