import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../accounts/user.entity.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { type Addon, AddonUser } from './addon.entity.js';
import { answerInvitation, editListing, existingAddon, manageAuthors } from './addon-access.js';
import { authorsByAddonId } from './catalogue.loaders.js';
import type { CatalogueService } from './catalogue.service.js';
import { type AddonAuthorDetailType, AuthorRole } from './listing.types.js';
import { PendingAuthor } from './pending-author.entity.js';

/**
 * The add-on (404 unknown or deleted), when the caller may edit its listing (`editListing`) or,
 * for owners-only actions (`owner`), manage its authors (`manageAuthors`): the rules the
 * operations declare (anonymous callers: 401, the operations' `@Requires`).
 */
export async function editableAddon(
  ctx: RequestContext,
  catalogue: CatalogueService,
  identifier: string,
  owner = false,
): Promise<Addon> {
  const addon = existingAddon(ctx, await catalogue.lookup(ctx, identifier), 'nobody');
  await (owner ? manageAuthors : editListing)(ctx, addon);
  return addon;
}

/**
 * An add-on's authors: who they are (with their addresses, for the authors), adding, changing and
 * removing them (owners), and invitations (pending authors) until the invitee answers. An add-on
 * keeps an owner and a listed author.
 */
export class ListingAuthors {
  constructor(
    private readonly catalogue: CatalogueService,
    /** Queues a search index update of the add-on (the `index-addon` job), in `em`'s transaction. */
    private readonly reindex: (em: EntityManager, addonId: number) => Promise<unknown>,
    /** Queues the invitation mail (the `author-invitation-mail` job), in `em`'s transaction. */
    private readonly queueInvitationMail: (em: EntityManager, pendingId: number) => Promise<unknown>,
  ) {}

  private editable(ctx: RequestContext, identifier: string, owner = false): Promise<Addon> {
    return editableAddon(ctx, this.catalogue, identifier, owner);
  }

  /**
   * Every author of the add-on (listed or not, in position order) with their addresses: for its
   * authors and Addons:Edit (403 otherwise; anonymous callers 401 from the operation).
   */
  async authorDetails(ctx: RequestContext, addonId: number): Promise<AddonAuthorDetailType[]> {
    if (ctx.viewer.userId === null) throw errors.notAuthenticated();
    await editListing(ctx, { id: addonId });
    const authors = await ctx.em.find(
      AddonUser,
      { addon: addonId },
      { populate: ['user'], orderBy: { position: 'asc', id: 'asc' } },
    );
    return authors.map((a) => ({
      userId: a.user.id,
      name: a.user.displayName || a.user.username,
      email: a.user.email,
      role: a.role as AuthorRole,
      listed: a.listed,
      position: a.position,
    }));
  }

  async addAuthor(ctx: RequestContext, identifier: string, userRef: string, role: AuthorRole, listed: boolean) {
    const addon = await this.editable(ctx, identifier, true);
    const user = /^\d+$/.test(userRef)
      ? await ctx.em.findOne(User, { id: Number(userRef), deleted: false })
      : await ctx.em.findOne(User, { $or: [{ email: userRef.toLowerCase() }, { username: userRef }], deleted: false });
    if (!user) throw errors.field('user', 'Account not found.');
    const authors = await ctx.em.find(AddonUser, { addon }, { orderBy: { position: 'asc' } });
    if (authors.some((a) => a.user.id === user.id)) throw errors.field('user', 'An author can only be present once.');
    ctx.em.create(AddonUser, { addon, user, role, listed, position: authors.length });
    await this.flushAuthors(ctx, addon);
    await this.reindex(ctx.em, addon.id);
    return addon;
  }

  async updateAuthor(
    ctx: RequestContext,
    identifier: string,
    userId: number,
    change: { role?: AuthorRole | null; listed?: boolean | null; position?: number | null },
  ) {
    const addon = await this.editable(ctx, identifier, true);
    const authors = await ctx.em.find(AddonUser, { addon }, { orderBy: { position: 'asc', id: 'asc' } });
    const author = authors.find((a) => a.user.id === userId);
    if (!author) throw errors.notFound();
    if (change.role) author.role = change.role;
    if (change.listed !== null && change.listed !== undefined) author.listed = change.listed;
    if (change.position !== null && change.position !== undefined) {
      const others = authors.filter((a) => a !== author);
      others.splice(Math.max(0, Math.min(change.position, others.length)), 0, author);
      others.forEach((a, i) => (a.position = i));
    }
    this.assertAuthorInvariants(authors);
    await this.flushAuthors(ctx, addon);
    await this.reindex(ctx.em, addon.id);
    return addon;
  }

  async removeAuthor(ctx: RequestContext, identifier: string, userId: number) {
    const addon = await this.editable(ctx, identifier, true);
    const authors = await ctx.em.find(AddonUser, { addon }, { orderBy: { position: 'asc', id: 'asc' } });
    const author = authors.find((a) => a.user.id === userId);
    if (!author) throw errors.notFound();
    const rest = authors.filter((a) => a !== author);
    this.assertAuthorInvariants(rest);
    rest.forEach((a, i) => (a.position = i));
    ctx.em.remove(author);
    await this.flushAuthors(ctx, addon);
    await this.reindex(ctx.em, addon.id);
    return addon;
  }

  /** The add-on's pending authors (invitations), oldest first: for its authors and Addons:Edit. */
  async pendingAuthors(ctx: RequestContext, identifier: string): Promise<AddonAuthorDetailType[]> {
    const addon = await this.editable(ctx, identifier);
    const pending = await ctx.em.find(PendingAuthor, { addon }, { populate: ['user'], orderBy: { id: 'asc' } });
    return pending.map((p) => pendingDetail(p));
  }

  /**
   * Invites an existing account (not deleted, not already an author or invited) to become an author
   * (owners only); it becomes one, last, when the invitee confirms.
   */
  async inviteAuthor(ctx: RequestContext, identifier: string, userId: number, role: AuthorRole, listed: boolean) {
    const addon = await this.editable(ctx, identifier, true);
    const user = await ctx.em.findOne(User, { id: userId, deleted: false });
    if (!user) throw errors.field('user_id', 'Account not found.');
    if (await ctx.em.count(AddonUser, { addon, user })) {
      throw errors.field('user_id', 'An author can only be present once.');
    }
    // The original's rule: authors are shown by their display name, so an invitee needs one.
    if ((user.displayName?.trim().length ?? 0) < 2) {
      throw errors.field('user_id', 'The account needs a display name before it can be added as an author.');
    }
    if (await ctx.em.count(PendingAuthor, { addon, user })) {
      throw errors.field('user_id', 'The user has already been invited.');
    }
    const pending = ctx.em.create(PendingAuthor, { addon, user, role, listed });
    await ctx.em.flush();
    await this.queueInvitationMail(ctx.em, pending.id);
    return pendingDetail(pending);
  }

  /** Changes a pending author's future role or listed flag (owners only). */
  async updatePendingAuthor(
    ctx: RequestContext,
    identifier: string,
    userId: number,
    change: { role?: AuthorRole | null; listed?: boolean | null },
  ) {
    const addon = await this.editable(ctx, identifier, true);
    const pending = await ctx.em.findOne(PendingAuthor, { addon, user: userId }, { populate: ['user'] });
    if (!pending) throw errors.notFound();
    if (change.role) pending.role = change.role;
    if (change.listed !== null && change.listed !== undefined) pending.listed = change.listed;
    await ctx.em.flush();
    return pendingDetail(pending);
  }

  /** Withdraws an invitation (owners only). */
  async cancelPendingAuthor(ctx: RequestContext, identifier: string, userId: number): Promise<boolean> {
    const addon = await this.editable(ctx, identifier, true);
    const pending = await ctx.em.findOne(PendingAuthor, { addon, user: userId });
    if (!pending) throw errors.notFound();
    ctx.em.remove(pending);
    await ctx.em.flush();
    return true;
  }

  /**
   * The invitee answers their invitation: confirming makes them an author at the end of the list,
   * declining drops it. Anyone else (and an invitee who already answered) gets 403, as the original.
   */
  async answerInvitation(ctx: RequestContext, identifier: string, accept: boolean): Promise<Addon> {
    if (ctx.viewer.userId === null) throw errors.notAuthenticated();
    const addon = existingAddon(ctx, await this.catalogue.lookup(ctx, identifier), 'nobody');
    const pending = await answerInvitation(ctx, addon);
    ctx.em.remove(pending);
    if (accept) {
      const position = await ctx.em.count(AddonUser, { addon });
      ctx.em.create(AddonUser, { addon, user: pending.user, role: pending.role, listed: pending.listed, position });
    }
    await this.flushAuthors(ctx, addon);
    if (accept) await this.reindex(ctx.em, addon.id);
    return addon;
  }

  /** Writes author changes and drops the request's cached author list, so the answer shows them. */
  private async flushAuthors(ctx: RequestContext, addon: Addon) {
    await ctx.em.flush();
    ctx.loaders.get(authorsByAddonId).clear(addon.id);
  }

  private assertAuthorInvariants(authors: AddonUser[]) {
    if (!authors.some((a) => a.role === AuthorRole.OWNER)) {
      throw errors.field('non_field_errors', 'An add-on must have at least one owner.');
    }
    if (!authors.some((a) => a.listed)) throw errors.field('non_field_errors', 'At least one author must be listed.');
  }
}

function pendingDetail(p: PendingAuthor): AddonAuthorDetailType {
  return {
    userId: p.user.id,
    name: p.user.displayName || p.user.username,
    email: p.user.email,
    role: p.role as AuthorRole,
    listed: p.listed,
    position: 0,
  };
}
