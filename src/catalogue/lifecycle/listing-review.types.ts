import { Field, Int, ObjectType } from 'type-graphql';
import { ActivityAction } from './lifecycle.enums.js';

@ObjectType('ListingContentReviewEntry', {
  description: 'One step of a listing content review: a decision or a request.',
})
export class ListingContentReviewEntryType {
  @Field(() => Int)
  id!: number;

  @Field(() => ActivityAction, {
    description: 'LISTING_CONTENT_REJECTED, LISTING_CONTENT_APPROVED or LISTING_REVIEW_REQUESTED.',
  })
  action!: string;

  @Field()
  created!: Date;

  @Field(() => Int, { nullable: true, description: 'Who: the reviewer or author (null once deleted).' })
  userId!: number | null;

  @Field()
  comments!: string;

  @Field(() => [String], { description: 'The policies a rejection named.' })
  policies!: string[];
}

@ObjectType('ListingContentReview', {
  description: "Where an add-on's listing content (not its code) stands with content reviewers.",
})
export class ListingContentReviewType {
  @Field(() => Int)
  addonId!: number;

  @Field({ description: 'The listing was rejected (add-on status REJECTED).' })
  isRejected!: boolean;

  @Field({ description: 'Rejected, and no new review requested yet.' })
  canRequestReview!: boolean;

  @Field({ description: 'A new review was requested after the rejection.' })
  hasRequestedReview!: boolean;

  @Field(() => [String], { description: 'The policies the rejection named; empty when not rejected.' })
  policies!: string[];

  @Field(() => String, { nullable: true, description: "The rejection's comments; null when not rejected or none." })
  comments!: string | null;

  @Field(() => [ListingContentReviewEntryType], { description: 'Every decision and request, oldest first.' })
  history!: ListingContentReviewEntryType[];
}

@ObjectType('ListingContentReviewQueueEntry')
export class ListingContentReviewQueueEntryType {
  @Field(() => Int)
  addonId!: number;

  @Field(() => String, { nullable: true })
  slug!: string | null;

  @Field()
  requestedAt!: Date;
}
