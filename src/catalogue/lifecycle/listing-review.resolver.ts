import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../core/context.js';
import type { CatalogueServices } from '../services.js';
import { Requires, SIGN_IN, anyOf, objectRule } from '../../access/requirements.js';
import { Permission } from '../../access/permissions.js';
import { authorOnly } from '../addon-access.js';
import { readListingReview } from './lifecycle.policy.js';
import { ListingContentReviewQueueEntryType, ListingContentReviewType } from './listing-review.types.js';

const ADDON = { description: 'Id, slug or guid.' };
const CONTENT_REVIEWERS = anyOf(Permission.ADDONS_CONTENT_REVIEW, Permission.REVIEWS_ADMIN);

/** The listing content review (`ListingContentReview`): its state, the authors' request, reviewers' decisions. */
@Resolver()
export class ListingReviewResolver {
  constructor(private readonly services: CatalogueServices) {}

  @Requires(SIGN_IN, objectRule(readListingReview))
  @Query(() => ListingContentReviewType, {
    description: "Where the add-on's listing stands with content reviewers, and its history.",
  })
  addonListingContentReview(@Arg('addon', ADDON) addon: string, @Ctx() ctx: RequestContext) {
    return this.services.listingReview.state(ctx, addon);
  }

  @Requires(SIGN_IN, objectRule(authorOnly))
  @Mutation(() => ListingContentReviewType, {
    description:
      'After addressing a rejection, ask for a new review of the listing (true only): it joins the content ' +
      'reviewers’ queue. Asking again changes nothing.',
  })
  requestListingContentReview(
    @Arg('addon', ADDON) addon: string,
    @Arg('hasRequestedReview') hasRequestedReview: boolean,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.listingReview.request(ctx, addon, hasRequestedReview);
  }

  @Requires(SIGN_IN, CONTENT_REVIEWERS)
  @Mutation(() => ListingContentReviewType, {
    description:
      'Reject the listing, naming the policies it violates: the add-on becomes REJECTED (out of the public ' +
      'catalogue) until its listing is approved.',
  })
  rejectListingContent(
    @Arg('addon', ADDON) addon: string,
    @Arg('policies', () => [String]) policies: string[],
    @Ctx() ctx: RequestContext,
    @Arg('comments', () => String, { nullable: true }) comments?: string | null,
  ) {
    return this.services.listingReview.reject(ctx, addon, policies, comments ?? null);
  }

  @Requires(SIGN_IN, CONTENT_REVIEWERS)
  @Mutation(() => ListingContentReviewType, {
    description: "Approve the listing: a rejected add-on's status follows its versions again.",
  })
  approveListingContent(
    @Arg('addon', ADDON) addon: string,
    @Ctx() ctx: RequestContext,
    @Arg('comments', () => String, { nullable: true }) comments?: string | null,
  ) {
    return this.services.listingReview.approve(ctx, addon, comments ?? null);
  }

  @Requires(SIGN_IN, CONTENT_REVIEWERS)
  @Query(() => [ListingContentReviewQueueEntryType], {
    description: 'Rejected listings whose developers asked for a new review, longest waiting first.',
  })
  listingContentReviewQueue(@Ctx() ctx: RequestContext) {
    return this.services.listingReview.queue(ctx);
  }
}
