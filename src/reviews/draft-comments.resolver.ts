import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../core/context.js';
import { PageArgs } from '../graphql/pagination.js';
import type { ReviewsServices } from './services.js';
import type { DraftComment } from './draft-comment.entity.js';
import {
  CannedResponseInput,
  CannedResponseType,
  DraftCommentInput,
  DraftCommentPageType,
  DraftCommentType,
} from './draft-comments.types.js';
import { Requires, anyOf, objectRule } from '../access/requirements.js';
import { readVersionMaterial } from './review-material-access.js';
import { Permission } from '../access/permissions.js';
import { LISTED_REVIEWER_PERMISSIONS } from '../catalogue/catalogue.permissions.js';

@ArgsType()
class DraftCommentsArgs extends PageArgs {
  @Field({ description: 'Add-on id, slug or guid.' })
  addon!: string;

  @Field(() => Int)
  versionId!: number;
}

/** Reviewers' canned responses and draft comments (DraftCommentsService holds the rules). */
@Resolver(() => DraftCommentType)
export class DraftCommentsResolver {
  constructor(private readonly services: ReviewsServices) {}

  @Requires(anyOf(...LISTED_REVIEWER_PERMISSIONS, Permission.ADDONS_REVIEW_UNLISTED))
  @Query(() => [CannedResponseType], { description: 'Canned responses.' })
  cannedResponses(@Ctx() ctx: RequestContext) {
    return this.services.draftComments.cannedResponses(ctx);
  }

  @Requires(anyOf(Permission.REVIEWS_ADMIN))
  @Mutation(() => CannedResponseType, {
    description: 'Creates a canned response, or replaces one with `id`.',
  })
  saveCannedResponse(
    @Arg('input') input: CannedResponseInput,
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { nullable: true }) id?: number | null,
  ) {
    return this.services.draftComments.saveCannedResponse(ctx, id ?? null, input);
  }

  @Requires(anyOf(Permission.REVIEWS_ADMIN))
  @Mutation(() => Boolean, { description: 'Deletes a canned response.' })
  deleteCannedResponse(@Arg('id', () => Int) id: number, @Ctx() ctx: RequestContext) {
    return this.services.draftComments.deleteCannedResponse(ctx, id);
  }

  @Requires(objectRule(readVersionMaterial, { note: ', for their own drafts' }))
  @Query(() => DraftCommentPageType, { description: "The caller's draft comments on a version, oldest first." })
  draftComments(@Args() { addon, versionId, page, pageSize }: DraftCommentsArgs, @Ctx() ctx: RequestContext) {
    return this.services.draftComments.list(ctx, addon, versionId, page, pageSize);
  }

  @Requires(objectRule(readVersionMaterial, { note: ', for their own drafts' }))
  @Query(() => DraftCommentType, { description: "One of the caller's draft comments." })
  draftComment(
    @Arg('addon') addon: string,
    @Arg('versionId', () => Int) versionId: number,
    @Arg('id', () => Int) id: number,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.draftComments.get(ctx, addon, versionId, id);
  }

  @Requires(objectRule(readVersionMaterial, { note: ', for their own drafts' }))
  @Mutation(() => DraftCommentType)
  createDraftComment(
    @Arg('addon') addon: string,
    @Arg('versionId', () => Int) versionId: number,
    @Arg('input') input: DraftCommentInput,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.draftComments.create(ctx, addon, versionId, { ...input });
  }

  @Requires(objectRule(readVersionMaterial, { note: ', for their own drafts' }))
  @Mutation(() => DraftCommentType)
  updateDraftComment(
    @Arg('addon') addon: string,
    @Arg('versionId', () => Int) versionId: number,
    @Arg('id', () => Int) id: number,
    @Arg('input') input: DraftCommentInput,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.draftComments.update(ctx, addon, versionId, id, { ...input });
  }

  @Requires(objectRule(readVersionMaterial, { note: ', for their own drafts' }))
  @Mutation(() => Boolean)
  deleteDraftComment(
    @Arg('addon') addon: string,
    @Arg('versionId', () => Int) versionId: number,
    @Arg('id', () => Int) id: number,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.draftComments.delete(ctx, addon, versionId, id);
  }

  @FieldResolver(() => Int)
  versionId(@Root() draft: DraftComment) {
    return draft.version.id;
  }
}
