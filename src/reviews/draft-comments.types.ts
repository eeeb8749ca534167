import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { UserSummaryType } from '../accounts/accounts.summary.js';
import { PageOf } from '../graphql/pagination.js';

@ObjectType('CannedResponse', { description: 'A ready-made text reviewers pick instead of typing a comment.' })
export class CannedResponseType {
  @Field(() => Int)
  id!: number;

  @Field()
  title!: string;

  @Field({ description: 'The text it fills in.' })
  response!: string;

  @Field()
  category!: string;
}

@InputType('CannedResponseInput')
export class CannedResponseInput {
  @Field()
  title!: string;

  @Field()
  response!: string;

  @Field(() => String, { nullable: true, description: 'Security, Privacy, Development practice, Other (default)…' })
  category?: string | null;
}

@ObjectType('DraftComment', {
  description: "A reviewer's comment on a version's code, until their next decision on it takes it.",
})
export class DraftCommentType {
  @Field(() => Int)
  id!: number;

  @Field()
  comment!: string;

  @Field(() => String, { nullable: true, description: 'Path from the package root.' })
  filename!: string | null;

  @Field(() => Int, { nullable: true })
  lineno!: number | null;

  @Field(() => Int)
  versionId!: number;

  @Field(() => UserSummaryType)
  user!: UserSummaryType;

  @Field(() => CannedResponseType, { nullable: true })
  cannedResponse!: CannedResponseType | null;
}

@ObjectType('DraftCommentPage')
export class DraftCommentPageType extends PageOf(DraftCommentType) {}

@InputType('DraftCommentInput', {
  description: 'A comment or a canned response (not both); omitted fields keep their value.',
})
export class DraftCommentInput {
  @Field(() => String, { nullable: true })
  comment?: string | null;

  @Field(() => String, { nullable: true, description: 'Path from the package root.' })
  filename?: string | null;

  @Field(() => Int, { nullable: true, description: 'Only with a filename.' })
  lineno?: number | null;

  @Field(() => Int, { nullable: true, description: 'A canned response id.' })
  cannedResponse?: number | null;
}
