import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Accepts } from '../access/credentials.js';
import { KeyOperation, KeyScope } from '../access/key-scopes.js';
import { NESTED_USER, UserSummaryType } from '../accounts/accounts.summary.js';
import { UserType } from '../accounts/accounts.types.js';
import { Channel } from '../catalogue/catalogue.enums.js';
import type { RequestContext } from '../core/context.js';
import { PageArgs } from '../graphql/pagination.js';
import type { ReviewsServices } from './services.js';
import { reviewActionSlug } from './review.enums.js';
import type { ReviewNote } from './review.entity.js';
import type { ReviewerFlagsChange } from './review-flags.service.js';
import {
  AddonReviewerFlagsInput,
  AddonReviewerFlagsType,
  ReviewDecisionEnum,
  ReviewMailReceiptType,
  ReviewNotePageType,
  ReviewNoteType,
  ReviewQueueFilterInput,
  ReviewQueueOrderEnum,
  ReviewQueuePageType,
  ReviewerSubscriptionType,
} from './reviews.types.js';
import { Requires, SIGN_IN, anyOf, objectRule } from '../access/requirements.js';
import { readVersionMaterial } from './review-material-access.js';
import { decideOnVersion, followChannel, receiveReviewMail, reviewChannel } from './reviews.access.js';
import { Permission } from '../access/permissions.js';

@ArgsType()
class ReviewNotesArgs extends PageArgs {
  @Field({ description: 'Add-on id, slug or guid.' })
  addon!: string;

  @Field(() => Int)
  versionId!: number;
}

@ArgsType()
class ReviewQueueArgs extends PageArgs {
  @Field(() => Channel, { defaultValue: Channel.LISTED })
  channel!: Channel;

  @Field(() => ReviewQueueFilterInput, { nullable: true })
  filter?: ReviewQueueFilterInput | null;

  @Field(() => ReviewQueueOrderEnum, { defaultValue: ReviewQueueOrderEnum.DUE })
  order!: ReviewQueueOrderEnum;
}

/** The review side: reviewers' queue and decisions, the review history developers and reviewers share. */
@Resolver(() => ReviewNoteType)
export class ReviewsResolver {
  constructor(private readonly services: ReviewsServices) {}

  @Requires(objectRule(reviewChannel))
  @Query(() => ReviewQueuePageType, {
    description: 'Versions waiting for a human, listed or unlisted; with filters and an order.',
  })
  reviewQueue(@Args() { channel, page, pageSize, filter, order }: ReviewQueueArgs, @Ctx() ctx: RequestContext) {
    return this.services.reviews.queue(ctx, channel, page, pageSize, filter ?? {}, order);
  }

  @Requires(anyOf(Permission.REVIEWS_ADMIN))
  @Mutation(() => Boolean, {
    description:
      'Asks for a human review of a version waiting for one, sooner (reason admin_flag, due in 1 business day), ' +
      'with a note reviewers see. False when the reason was already open.',
  })
  flagVersionForReview(
    @Arg('versionId', () => Int) versionId: number,
    @Ctx() ctx: RequestContext,
    @Arg('note', () => String, { nullable: true }) note?: string | null,
  ) {
    return this.services.reviews.flagForReview(ctx, versionId, note ?? null);
  }

  @Requires(objectRule(reviewChannel), objectRule(decideOnVersion))
  @Mutation(() => ReviewNoteType, {
    description:
      'Decide on a version. Approval signs it in the background, then approves it; ' +
      'comments are required except for approvals. Authors are told by mail and can reply to it. ' +
      'Reviewers cannot decide on their own add-ons (unless ALLOW_SELF_REVIEWS); when a needs-admin flag ' +
      'applies (code: non-themes, theme: themes, content: listed versions), only Reviews:Admin may approve, ' +
      'reject or request information.',
  })
  reviewVersion(
    @Arg('versionId', () => Int) versionId: number,
    @Arg('decision', () => ReviewDecisionEnum) decision: ReviewDecisionEnum,
    @Ctx() ctx: RequestContext,
    @Arg('comments', () => String, { nullable: true }) comments?: string | null,
  ) {
    return this.services.reviews.decide(ctx, versionId, decision, comments ?? null);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.STATUS)
  @Requires(objectRule(readVersionMaterial))
  @Query(() => ReviewNotePageType, { description: 'Review history of a version, newest first.' })
  reviewNotes(@Args() { addon, versionId, page, pageSize }: ReviewNotesArgs, @Ctx() ctx: RequestContext) {
    return this.services.reviews.notes(ctx, addon, versionId, page, pageSize);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.STATUS)
  @Requires(objectRule(readVersionMaterial))
  @Query(() => ReviewNoteType)
  reviewNote(
    @Arg('addon') addon: string,
    @Arg('versionId', () => Int) versionId: number,
    @Arg('id', () => Int) id: number,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.reviews.note(ctx, addon, versionId, id);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.UPLOAD)
  @Requires(objectRule(readVersionMaterial))
  @Mutation(() => ReviewNoteType, {
    description: 'A reply in the review history, on the latest version of its channel only.',
  })
  addReviewNote(
    @Arg('addon') addon: string,
    @Arg('versionId', () => Int) versionId: number,
    @Arg('comments') comments: string,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.reviews.addNote(ctx, addon, versionId, comments);
  }

  @Requires(objectRule(receiveReviewMail))
  @Mutation(() => ReviewMailReceiptType, {
    description:
      "Inbound mail from the mail provider: `secretKey` must be the configured one (and the caller's address allowed).",
  })
  receiveReviewMail(
    @Arg('secretKey', () => String, { nullable: true }) secretKey: string | null,
    @Ctx() ctx: RequestContext,
    @Arg('type', () => String, { nullable: true }) type?: string | null,
    @Arg('to', () => [String], { nullable: true }) to?: string[] | null,
    @Arg('textBody', () => String, { nullable: true }) textBody?: string | null,
  ) {
    return this.services.reviewMail.receive(ctx, {
      secretKey,
      type: type ?? null,
      to: to ?? null,
      textBody: textBody ?? null,
    });
  }

  @Requires(SIGN_IN, objectRule(followChannel))
  @Mutation(() => Boolean, {
    description:
      "Subscribes (or unsubscribes) the caller to mail about the add-on's new versions on a channel: listed for any reviewer, unlisted for unlisted reviewers. Returns `subscribed`.",
  })
  setReviewerSubscription(
    @Arg('addon', { description: 'Id, slug or guid.' }) addon: string,
    @Arg('channel', () => Channel) channel: Channel,
    @Arg('subscribed') subscribed: boolean,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.reviewerSubscriptions.set(ctx, addon, channel, subscribed);
  }

  @Requires(SIGN_IN)
  @Query(() => [ReviewerSubscriptionType], { description: "The caller's reviewer subscriptions, newest first." })
  reviewerSubscriptions(@Ctx() ctx: RequestContext) {
    return this.services.reviewerSubscriptions.mine(ctx);
  }

  @Requires(anyOf(Permission.ADDONS_REVIEW))
  @Query(() => AddonReviewerFlagsType, { description: 'Reviewer flags of an add-on.' })
  addonReviewerFlags(@Arg('addon', { description: 'Id, slug or guid.' }) addon: string, @Ctx() ctx: RequestContext) {
    return this.services.reviewFlags.read(ctx, addon);
  }

  @Requires(anyOf(Permission.REVIEWS_ADMIN))
  @Mutation(() => AddonReviewerFlagsType, { description: 'Change reviewer flags.' })
  updateAddonReviewerFlags(
    @Arg('addon') addon: string,
    @Arg('flags') flags: AddonReviewerFlagsInput,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.reviewFlags.update(ctx, addon, { ...flags } as ReviewerFlagsChange);
  }

  @FieldResolver(() => String)
  action(@Root() note: ReviewNote) {
    return reviewActionSlug(note.action);
  }

  @FieldResolver(() => String)
  actionLabel(@Root() note: ReviewNote) {
    return this.services.reviews.actionLabel(note);
  }

  @FieldResolver(() => String)
  userName(@Root() note: ReviewNote) {
    return this.services.reviews.userName(note);
  }

  @FieldResolver(() => Date)
  date(@Root() note: ReviewNote) {
    return note.created;
  }

  @FieldResolver(() => Boolean)
  highlight(@Root() note: ReviewNote, @Ctx() ctx: RequestContext) {
    return this.services.reviews.highlighted(ctx, note);
  }

  @FieldResolver(() => Int)
  versionId(@Root() note: ReviewNote) {
    return note.version.id;
  }

  @FieldResolver(() => UserType, {
    nullable: true,
    description: `The writer (null for the service itself: automatic approvals). ${NESTED_USER}`,
  })
  user(@Root() note: ReviewNote, @Ctx() ctx: RequestContext) {
    return this.services.accounts.visibleUser(ctx, note.user);
  }

  @FieldResolver(() => UserSummaryType, {
    nullable: true,
    description: "The writer's public minimum (null for the service itself).",
  })
  userSummary(@Root() note: ReviewNote) {
    return note.user;
  }
}
