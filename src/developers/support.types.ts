import { Field, InputType, Int, ObjectType } from 'type-graphql';

@InputType('SupportTicketInput')
export class SupportTicketInputType {
  @Field(() => String, { nullable: true, description: 'Required: what the issue is about (255 characters at most).' })
  summary?: string | null;

  @Field(() => String, { nullable: true, description: 'Required: the details (10,000 characters at most).' })
  body?: string | null;

  @Field(() => String, { nullable: true, description: 'Required: `policy`, `technical` or `other`.' })
  category?: string | null;
}

/** A support ticket as its sender sees it. */
@ObjectType('SupportTicket')
export class SupportTicketType {
  @Field(() => Int)
  id!: number;

  @Field()
  summary!: string;

  @Field()
  body!: string;

  @Field({ description: '`policy`, `technical` or `other`.' })
  category!: string;

  @Field()
  created!: Date;
}
