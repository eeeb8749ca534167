import GraphQLUpload from 'graphql-upload/GraphQLUpload.mjs';
import { receiveUpload } from '../core/multipart.js';
import type { FileUpload } from 'graphql-upload/processRequest.mjs';
import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../core/context.js';
import { TranslatedInputScalar } from '../graphql/scalars.js';
import type { CatalogueServices } from './services.js';
import { AddonObjectType, PreviewType } from './catalogue.types.js';
import { AddonAuthorDetailType, AuthorRole, UpdateAddonListingInput } from './listing.types.js';
import { Requires, SIGN_IN, objectRule } from '../access/requirements.js';
import { answerInvitation, editListing, manageAuthors } from './addon-access.js';
import { ownAddon } from './lifecycle/lifecycle.policy.js';
import { Accepts } from '../access/credentials.js';
import { KeyOperation, KeyScope } from '../access/key-scopes.js';
import { OwnTransactions } from '../graphql/transactions.js';

/**
 * Developer-side listing changes (authors of the add-on only). The listing edits and the pending
 * authors (invitations, and the invitee's answer) accept API keys (family `listing`, so CI can keep
 * a listing in step with its releases, and as the original's v5 endpoints do); editing and removing
 * confirmed authors takes a session.
 */
@Resolver()
export class ListingResolver {
  constructor(private readonly services: CatalogueServices) {}

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.LISTING)
  @Requires(SIGN_IN, objectRule(editListing), objectRule(ownAddon, { when: 'for isDisabled' }))
  @OwnTransactions(
    'slow external work',
    'decodes an uploaded icon with sharp and stores its files, outside the one transaction of its own that writes the rest',
  )
  @Mutation(() => AddonObjectType, {
    description:
      'Edit listing metadata, the developer’s disabled flag and the icon (an upload, as `setAddonIcon`; or `clearIcon`), ' +
      'all or nothing. Validation problems come back as BAD_USER_INPUT-style field errors (extensions.fields).',
  })
  async updateAddonListing(
    @Arg('addon', { description: 'Id, slug or guid.' }) addon: string,
    @Arg('input') input: UpdateAddonListingInput,
    @Ctx() ctx: RequestContext,
    @Arg('icon', () => GraphQLUpload, { nullable: true }) icon?: Promise<FileUpload> | null,
  ) {
    return this.services.listing.updateListing(ctx, addon, input, icon ? await receiveUpload(icon) : null);
  }

  @Requires(SIGN_IN, objectRule(manageAuthors))
  @Mutation(() => AddonObjectType, { description: '`user` is an id, email or username.' })
  addAddonAuthor(
    @Arg('addon') addon: string,
    @Arg('user') user: string,
    @Ctx() ctx: RequestContext,
    @Arg('role', () => AuthorRole, { defaultValue: AuthorRole.DEVELOPER }) role: AuthorRole,
    @Arg('listed', { defaultValue: true }) listed: boolean,
  ) {
    return this.services.listing.addAuthor(ctx, addon, user, role, listed);
  }

  @Requires(SIGN_IN, objectRule(manageAuthors))
  @Mutation(() => AddonObjectType)
  updateAddonAuthor(
    @Arg('addon') addon: string,
    @Arg('userId', () => Int) userId: number,
    @Ctx() ctx: RequestContext,
    @Arg('role', () => AuthorRole, { nullable: true }) role?: AuthorRole,
    @Arg('listed', () => Boolean, { nullable: true }) listed?: boolean,
    @Arg('position', () => Int, { nullable: true }) position?: number,
  ) {
    return this.services.listing.updateAuthor(ctx, addon, userId, { role, listed, position });
  }

  @Requires(SIGN_IN, objectRule(manageAuthors))
  @Mutation(() => AddonObjectType, {
    description: 'An add-on keeps at least one owner and one listed author.',
  })
  removeAddonAuthor(@Arg('addon') addon: string, @Arg('userId', () => Int) userId: number, @Ctx() ctx: RequestContext) {
    return this.services.listing.removeAuthor(ctx, addon, userId);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.LISTING)
  @Requires(SIGN_IN, objectRule(editListing))
  @Query(() => [AddonAuthorDetailType], { description: 'Invitations to become an author not yet answered.' })
  addonPendingAuthors(@Arg('addon') addon: string, @Ctx() ctx: RequestContext) {
    return this.services.listing.pendingAuthors(ctx, addon);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.LISTING)
  @Requires(SIGN_IN, objectRule(manageAuthors))
  @Mutation(() => AddonAuthorDetailType, {
    description: 'Invites an existing account; it becomes an author (last) once the invitee confirms.',
  })
  inviteAddonAuthor(
    @Arg('addon') addon: string,
    @Arg('userId', () => Int) userId: number,
    @Ctx() ctx: RequestContext,
    @Arg('role', () => AuthorRole, { defaultValue: AuthorRole.DEVELOPER }) role: AuthorRole,
    @Arg('listed', { defaultValue: true }) listed: boolean,
  ) {
    return this.services.listing.inviteAuthor(ctx, addon, userId, role, listed);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.LISTING)
  @Requires(SIGN_IN, objectRule(manageAuthors))
  @Mutation(() => AddonAuthorDetailType)
  updateAddonPendingAuthor(
    @Arg('addon') addon: string,
    @Arg('userId', () => Int) userId: number,
    @Ctx() ctx: RequestContext,
    @Arg('role', () => AuthorRole, { nullable: true }) role?: AuthorRole,
    @Arg('listed', () => Boolean, { nullable: true }) listed?: boolean,
  ) {
    return this.services.listing.updatePendingAuthor(ctx, addon, userId, { role, listed });
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.LISTING)
  @Requires(SIGN_IN, objectRule(manageAuthors))
  @Mutation(() => Boolean, { description: 'Withdraws an invitation.' })
  cancelAddonPendingAuthor(
    @Arg('addon') addon: string,
    @Arg('userId', () => Int) userId: number,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.listing.cancelPendingAuthor(ctx, addon, userId);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.LISTING)
  @Requires(SIGN_IN, objectRule(answerInvitation))
  @Mutation(() => AddonObjectType, { description: 'The invitee becomes an author, last in the list.' })
  confirmAddonAuthorInvitation(@Arg('addon') addon: string, @Ctx() ctx: RequestContext) {
    return this.services.listing.answerInvitation(ctx, addon, true);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.LISTING)
  @Requires(SIGN_IN, objectRule(answerInvitation))
  @Mutation(() => AddonObjectType, { description: 'The invitee turns the invitation down.' })
  declineAddonAuthorInvitation(@Arg('addon') addon: string, @Ctx() ctx: RequestContext) {
    return this.services.listing.answerInvitation(ctx, addon, false);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.LISTING)
  @Requires(SIGN_IN, objectRule(editListing))
  @OwnTransactions('slow external work', 'reads the image (graphql-upload), renders it with sharp and stores the files')
  @Mutation(() => PreviewType, {
    description:
      'PNG or JPEG, at most 4 MB, not animated; stored within 2400×1800 with a JPEG thumbnail within 640×480. Send `apollo-require-preflight: true`.',
  })
  async addAddonPreview(
    @Arg('addon') addon: string,
    @Arg('image', () => GraphQLUpload) image: Promise<FileUpload>,
    @Ctx() ctx: RequestContext,
    @Arg('caption', () => TranslatedInputScalar, { nullable: true }) caption?: unknown,
    @Arg('position', () => Int, { nullable: true, description: 'Lower first; default: after the others.' })
    position?: number | null,
  ) {
    return this.services.previews.add(ctx, addon, await receiveUpload(image), caption, position);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.LISTING)
  @Requires(SIGN_IN, objectRule(editListing))
  @Mutation(() => PreviewType, {
    description: "Edit a preview's caption (the locales given; null removes one, or all) or position.",
  })
  updateAddonPreview(
    @Arg('addon') addon: string,
    @Arg('previewId', () => Int) previewId: number,
    @Ctx() ctx: RequestContext,
    @Arg('caption', () => TranslatedInputScalar, { nullable: true, description: 'Omitted: unchanged.' })
    caption?: unknown,
    @Arg('position', () => Int, { nullable: true }) position?: number | null,
  ) {
    return this.services.previews.update(ctx, addon, previewId, { caption, position });
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.LISTING)
  @Requires(SIGN_IN, objectRule(editListing))
  @Mutation(() => AddonObjectType)
  deleteAddonPreview(
    @Arg('addon') addon: string,
    @Arg('previewId', () => Int) previewId: number,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.previews.delete(ctx, addon, previewId);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.LISTING)
  @Requires(SIGN_IN, objectRule(editListing))
  @OwnTransactions('slow external work', 'reads the image (graphql-upload), renders it with sharp and stores the files')
  @Mutation(() => AddonObjectType, {
    description:
      'PNG or JPEG, at most 4 MB, not animated; stored as square PNGs of 32, 64 and 128 pixels. Send `apollo-require-preflight: true`.',
  })
  async setAddonIcon(
    @Arg('addon') addon: string,
    @Arg('icon', () => GraphQLUpload) icon: Promise<FileUpload>,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.listing.setIcon(ctx, addon, await receiveUpload(icon));
  }
}
