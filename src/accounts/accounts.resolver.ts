import { Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../core/context.js';
import { PageArgs } from '../graphql/pagination.js';
import type { Services } from '../services.js';
import { privateFieldsByUserId } from './accounts.loaders.js';
import type { UserPrivateFields, UserRecord } from './accounts.records.js';
import { ApiKeyCredentialsType, UserPageType, UserPrivateType, UserType } from './accounts.types.js';
import { User } from './user.entity.js';

@Resolver(() => UserType)
export class AccountsResolver {
  constructor(private readonly services: Services) {}

  @Query(() => UserType, { description: 'The authenticated caller.' })
  me(@Ctx() ctx: RequestContext) {
    return this.services.accounts.me(ctx);
  }

  @Query(() => UserPageType, { description: 'All accounts, newest first. Needs Users:Edit.' })
  users(@Args() { page, pageSize }: PageArgs, @Ctx() ctx: RequestContext) {
    return this.services.accounts.list(ctx, page, pageSize);
  }

  @FieldResolver(() => String, {
    description: 'Display name, else a generated name containing the id (the v4 rule).',
  })
  name(@Root() user: UserRecord) {
    return this.services.accounts.displayNameOrDefault(user, this.services.config.BROWSER_NAME);
  }

  @FieldResolver(() => Boolean, { description: 'True while the username is the generated one.' })
  hasAnonymousUsername(@Root() user: UserRecord) {
    return this.services.accounts.hasAnonymousUsername(user);
  }

  @FieldResolver(() => Boolean, { description: 'True while no display name is chosen.' })
  hasAnonymousDisplayName(@Root() user: UserRecord) {
    return !user.displayName;
  }

  @FieldResolver(() => UserPrivateType, {
    nullable: true,
    description: 'Null unless the caller is this user or holds Users:Edit.',
  })
  async private(@Root() user: UserRecord, @Ctx() ctx: RequestContext) {
    if (!this.services.accounts.canSeePrivateFields(ctx, user)) return null;
    const fields = await this.privateFields(ctx, user);
    return fields && { ...fields, permissions: await this.services.accounts.permissionsOf(ctx, user) };
  }

  /** An entity (`me`) has them; a record (an add-on's author) does not. */
  private privateFields(ctx: RequestContext, user: UserRecord): UserPrivateFields | Promise<UserPrivateFields | null> {
    return user instanceof User ? user : ctx.loaders.get(privateFieldsByUserId).load(user.id);
  }

  @Mutation(() => UserType, { description: 'Accept the developer agreement (needed before an API key can be used).' })
  acceptDeveloperAgreement(@Ctx() ctx: RequestContext) {
    return this.services.accounts.acceptDeveloperAgreement(ctx);
  }

  @Mutation(() => ApiKeyCredentialsType, { description: 'Issue a JWT API key, revoking the previous one.' })
  issueApiKey(@Ctx() ctx: RequestContext) {
    return this.services.accounts.issueApiKey(ctx);
  }

  @Mutation(() => Boolean, { description: 'Revoke the active JWT API key; false if there was none.' })
  revokeApiKey(@Ctx() ctx: RequestContext) {
    return this.services.accounts.revokeApiKey(ctx);
  }
}
