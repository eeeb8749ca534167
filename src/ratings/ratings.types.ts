import { ArgsType, Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageArgs, PageOf } from '../graphql/pagination.js';
import { RatingFlagReason } from './ratings.enums.js';
import { Shared } from '../graphql/shared-answers.js';

registerEnumType(RatingFlagReason, {
  name: 'RatingFlagReason',
  description: 'Why a rating was flagged.',
});

@Shared()
@ObjectType('RatingFlag', { description: "The caller's flag on a rating." })
export class RatingFlagType {
  @Field(() => RatingFlagReason)
  flag!: RatingFlagReason;

  @Field(() => String, { nullable: true, description: 'Only for the `OTHER` reason.' })
  note!: string | null;
}

@Shared()
@ObjectType('Rating', {
  description: "A user's rating of an add-on version, or a developer's reply to one (no score, no version).",
})
export class RatingType {
  @Field(() => Int)
  id!: number;

  @Field(() => String, { nullable: true })
  body!: string | null;

  @Field()
  created!: Date;

  @Field({ description: "The user's latest rating of this add-on." })
  isLatest!: boolean;

  @Field(() => Int, { description: "The user's earlier ratings of this add-on." })
  previousCount!: number;

  @Field(() => Int, { nullable: true, description: '1 to 5; null for replies.' })
  score!: number | null;
}

@Shared()
@ObjectType('RatingScoreCount')
export class RatingScoreCountType {
  @Field(() => Int)
  score!: number;

  @Field(() => Int)
  count!: number;
}

@Shared()
@ObjectType('RatingPage')
export class RatingPageType extends PageOf(RatingType) {}

@ObjectType('RatingReplyResult')
export class RatingReplyResultType {
  @Field(() => RatingType)
  reply!: object;

  @Field({ description: 'False when the existing reply was changed (and undeleted) instead.' })
  created!: boolean;
}

@InputType('RatingInput', {
  description:
    'A new rating needs addon, version and score. A change takes body and score only: addon and version are refused.',
})
export class RatingInput {
  @Field(() => String, { nullable: true, description: 'Add-on id, slug or guid.' })
  addon?: string | null;

  @Field(() => Int, { nullable: true, description: 'A public version of the add-on.' })
  version?: number | null;

  @Field(() => Int, { nullable: true, description: '1 to 5.' })
  score?: number | null;

  @Field(() => String, { nullable: true })
  body?: string | null;
}

@ArgsType()
export class RatingListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Add-on id, slug or guid. `addon` or `user` is required.' })
  addon?: string | null;

  @Field(() => Int, { nullable: true })
  user?: number | null;

  @Field(() => Int, {
    nullable: true,
    description: "Version id. Without it, an add-on's list shows each user's latest rating only.",
  })
  version?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'Deleted ratings too (Addons:Edit; ignored for others).' })
  withDeleted?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  withoutEmptyBody?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: "With withoutEmptyBody: keep the caller's own." })
  withYours?: boolean | null;

  @Field(() => [Int], { nullable: true })
  excludeRatings?: number[] | null;

  @Field(() => [Int], { nullable: true })
  scores?: number[] | null;

  @Field(() => Int, {
    nullable: true,
    description: "REST `show_permissions_for`: must be the caller's id (and `addon` given). Not needed for canReply.",
  })
  showPermissionsFor?: number | null;

  @Field(() => Int, {
    nullable: true,
    description: "REST `show_flags_for`: must be the caller's id. Not needed for flags.",
  })
  showFlagsFor?: number | null;
}
