import { Ctx, Field, FieldResolver, Int, ObjectType, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../core/context.js';
import type { AccountsServices } from './services.js';
import type { UserRecord } from './accounts.records.js';
import { Shared } from '../graphql/shared-answers.js';

/**
 * The public minimum of an account that another object names (a rating's writer, an add-on's or a
 * collection's author, a review note's writer): what those objects show to everyone, REST
 * included. The `User` beside it follows the `user` query's rule and may be null.
 */
@Shared()
@ObjectType('UserSummary', {
  description:
    'The public minimum of an account named by another object (id, names, profile URL), shown to everyone. ' +
    'The full `User` next to it follows the `user` query and is null where that query hides the account.',
})
export class UserSummaryType {
  @Field(() => Int)
  id!: number;

  @Field()
  username!: string;

  @Field(() => String, { nullable: true, description: 'The name the user chose, if any.' })
  displayName!: string | null;
}

@Resolver(() => UserSummaryType)
export class UserSummaryResolver {
  constructor(private readonly services: AccountsServices) {}

  @FieldResolver(() => String, {
    description: 'Display name, else a generated name containing the id.',
  })
  name(@Root() user: UserRecord) {
    return this.services.accounts.displayNameOrDefault(user, this.services.browserName);
  }

  @FieldResolver(() => String, { description: 'The profile page on the website.' })
  url(@Root() user: UserRecord, @Ctx() ctx: RequestContext) {
    return `${ctx.request.baseUrl}/user/${user.id}/`;
  }
}

/** Description of a nested `User` field that follows the `user` query. */
export const NESTED_USER =
  'As the `user` query shows it: developers for everyone, others only to themselves and Users:Edit ' +
  '(null otherwise, and for deleted accounts).';
