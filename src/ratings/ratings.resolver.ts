import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { NESTED_USER, UserSummaryType } from '../accounts/accounts.summary.js';
import { UserType } from '../accounts/accounts.types.js';
import { addonById, versionById } from '../catalogue/catalogue.loaders.js';
import { AddonSummaryType, NESTED_ADDON, NESTED_VERSION, VersionSummaryType } from '../catalogue/catalogue.summary.js';
import { AddonObjectType, VersionType } from '../catalogue/catalogue.types.js';
import type { RequestContext } from '../core/context.js';
import type { RatingsServices } from './services.js';
import type { RatingRead } from './ratings.records.js';
import type { RatingPage } from './ratings.service.js';
import {
  RatingFlagType,
  RatingInput,
  RatingListArgs,
  RatingPageType,
  RatingReplyResultType,
  RatingScoreCountType,
  RatingType,
} from './ratings.types.js';
import { Requires, PUBLIC, objectRule } from '../access/requirements.js';
import { deleteRating, editRating, flagRating, rateAddon, replyToRating, seeDeletedRatings } from './ratings.access.js';
import { OwnTransactions } from '../graphql/transactions.js';
import { Shared } from '../graphql/shared-answers.js';

@Resolver(() => RatingType)
export class RatingsResolver {
  constructor(private readonly services: RatingsServices) {}

  // An add-on's ratings are shared (`r:<addon id>`); no tag covers a user's ratings across add-ons.
  @Shared(({ addon, user }) => (addon && (user === undefined || user === null) ? [] : null))
  @Requires(PUBLIC)
  @Query(() => RatingPageType, {
    description: "Ratings of an add-on and/or by a user, newest first (by add-on: each user's latest, no replies).",
  })
  ratings(@Args() args: RatingListArgs, @Ctx() ctx: RequestContext) {
    return this.services.ratings.list(ctx, args);
  }

  @Requires(objectRule(seeDeletedRatings))
  @Query(() => RatingType, { description: 'A rating or reply.' })
  rating(
    @Arg('id', () => Int) id: number,
    @Ctx() ctx: RequestContext,
    @Arg('showFlagsFor', () => Int, { nullable: true }) showFlagsFor?: number | null,
  ) {
    return this.services.ratings.get(ctx, id, showFlagsFor);
  }

  @Requires(objectRule(rateAddon))
  @OwnTransactions(
    'commits before failing',
    'the throttle counts every allowed request, whatever its outcome; the service writes the rating in a transaction of its own',
  )
  @Mutation(() => RatingType, {
    description: 'Rate a public version of a public add-on: one rating per version, not of your own add-on.',
  })
  createRating(@Arg('input') input: RatingInput, @Ctx() ctx: RequestContext) {
    return this.services.ratings.create(ctx, input);
  }

  @Requires(objectRule(editRating))
  @Mutation(() => RatingType, { description: 'Change the text and score of a rating.' })
  updateRating(@Arg('id', () => Int) id: number, @Arg('input') input: RatingInput, @Ctx() ctx: RequestContext) {
    return this.services.ratings.update(ctx, id, input);
  }

  @Requires(objectRule(deleteRating))
  @Mutation(() => Boolean, {
    description: 'Delete a rating.',
  })
  deleteRating(@Arg('id', () => Int) id: number, @Ctx() ctx: RequestContext) {
    return this.services.ratings.delete(ctx, id);
  }

  @Requires(objectRule(replyToRating))
  @OwnTransactions(
    'commits before failing',
    'the throttle counts every allowed request, whatever its outcome; the service writes the reply in a transaction of its own',
  )
  @Mutation(() => RatingReplyResultType, {
    description: "Reply to a rating as the add-on's developer; replying again changes the reply.",
  })
  replyToRating(
    @Arg('id', () => Int) id: number,
    @Ctx() ctx: RequestContext,
    @Arg('body', () => String, { nullable: true }) body?: string | null,
  ) {
    return this.services.ratings.reply(ctx, id, body);
  }

  @Requires(objectRule(flagRating))
  @Mutation(() => RatingFlagType, {
    description:
      "Flag someone else's rating for the moderators. `flag`: a rating_flag_reason_* (or review_flag_reason_*) constant.",
  })
  flagRating(
    @Arg('id', () => Int) id: number,
    @Ctx() ctx: RequestContext,
    @Arg('flag', () => String, { nullable: true }) flag?: string | null,
    @Arg('note', () => String, { nullable: true }) note?: string | null,
  ) {
    return this.services.ratings.flag(ctx, id, { flag, note });
  }

  @FieldResolver(() => AddonObjectType, { nullable: true, description: `The rated add-on. ${NESTED_ADDON}` })
  addon(@Root() rating: RatingRead, @Ctx() ctx: RequestContext) {
    return this.services.catalogue.visibleAddon(ctx, rating.addon.id);
  }

  @FieldResolver(() => AddonSummaryType, { description: "The rated add-on's public minimum, whatever its status." })
  addonSummary(@Root() rating: RatingRead, @Ctx() ctx: RequestContext) {
    return ctx.loaders.get(addonById).load(rating.addon.id);
  }

  @FieldResolver(() => VersionType, {
    nullable: true,
    description: `The rated version (null for replies). ${NESTED_VERSION}`,
  })
  version(@Root() rating: RatingRead, @Ctx() ctx: RequestContext) {
    return rating.version ? this.services.catalogue.visibleVersion(ctx, rating.version.id) : null;
  }

  @FieldResolver(() => VersionSummaryType, {
    nullable: true,
    description: "The rated version's id and number (null for replies), whatever its state.",
  })
  versionSummary(@Root() rating: RatingRead, @Ctx() ctx: RequestContext) {
    return rating.version ? ctx.loaders.get(versionById).load(rating.version.id) : null;
  }

  @FieldResolver(() => UserType, { nullable: true, description: `The writer. ${NESTED_USER}` })
  user(@Root() rating: RatingRead, @Ctx() ctx: RequestContext) {
    return this.services.accounts.visibleUser(ctx, rating.user);
  }

  @FieldResolver(() => UserSummaryType, { description: "The writer's public minimum (id, names, profile URL)." })
  userSummary(@Root() rating: RatingRead) {
    return rating.user;
  }

  @FieldResolver(() => RatingType, { nullable: true, description: "The developer's reply." })
  reply(@Root() rating: RatingRead, @Ctx() ctx: RequestContext) {
    return this.services.ratings.replyOf(ctx, rating);
  }

  @FieldResolver(() => [RatingFlagType], { description: "The caller's own flags on it." })
  flags(@Root() rating: RatingRead, @Ctx() ctx: RequestContext) {
    return this.services.ratings.flagsOf(ctx, rating);
  }

  @FieldResolver(() => Boolean)
  isDeleted(@Root() rating: RatingRead) {
    return rating.deleted;
  }

  @FieldResolver(() => Boolean)
  isDeveloperReply(@Root() rating: RatingRead) {
    return rating.replyTo !== null;
  }
}

@Resolver(() => RatingPageType)
export class RatingPageResolver {
  constructor(private readonly services: RatingsServices) {}

  @FieldResolver(() => Boolean, {
    nullable: true,
    description: "Whether the caller may reply to the add-on's ratings (null without addon).",
  })
  canReply(@Root() page: RatingPage, @Ctx() ctx: RequestContext) {
    return page.addon ? this.services.ratings.canReply(ctx, page.addon) : null;
  }

  @FieldResolver(() => [RatingScoreCountType], {
    nullable: true,
    description: "Counts per score (1 to 5) of the ratings in the add-on's average (null without addon).",
  })
  async groupedRatings(@Root() page: RatingPage, @Ctx() ctx: RequestContext) {
    if (!page.addon) return null;
    const counts = await this.services.ratings.groupedRatings(ctx, page.addon);
    return counts.map((count, i) => ({ score: i + 1, count }));
  }
}
