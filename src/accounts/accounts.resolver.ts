import GraphQLUpload from 'graphql-upload/GraphQLUpload.mjs';
import { receiveUpload } from '../core/multipart.js';
import { Accepts } from '../access/credentials.js';
import { KeyOperation, KeyScope } from '../access/key-scopes.js';
import type { FileUpload as UploadedFile } from 'graphql-upload/processRequest.mjs';
import { Arg, Args, Ctx, Float, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../core/context.js';
import { PageArgs } from '../graphql/pagination.js';
import { OwnTransactions } from '../graphql/transactions.js';
import type { AccountsServices } from './services.js';
import { privateFieldsByUserId } from './accounts.loaders.js';
import type { UserPrivateFields, UserRecord } from './accounts.records.js';
import {
  AccountInputType,
  NotificationChangeType,
  NotificationSettingType,
  SuperCreateInputType,
  TestAccountType,
  UserPageType,
  UserPrivateType,
  UserType,
} from './accounts.types.js';
import { User } from './user.entity.js';
import { DeveloperAgreementInputType, DeveloperAgreementType } from './developer-agreement.types.js';
import { Requires, SIGN_IN, anyOf, objectRule } from '../access/requirements.js';
import { editAccount, superCreateAccounts, viewAccount } from './accounts.access.js';
import { Permission } from '../access/permissions.js';

@Resolver(() => UserType)
export class AccountsResolver {
  constructor(private readonly services: AccountsServices) {}

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.ACCOUNT)
  @Requires(SIGN_IN)
  @Query(() => UserType, { description: 'The authenticated caller.' })
  me(@Ctx() ctx: RequestContext) {
    return this.services.accounts.me(ctx);
  }

  @Requires(anyOf(Permission.USERS_EDIT))
  @Query(() => UserPageType, { description: 'All accounts, newest first.' })
  users(@Args() { page, pageSize }: PageArgs, @Ctx() ctx: RequestContext) {
    return this.services.accounts.list(ctx, page, pageSize);
  }

  @Requires(objectRule(viewAccount))
  @Query(() => UserType, {
    description: 'An account by id or username.',
  })
  user(@Arg('user') identifier: string, @Ctx() ctx: RequestContext) {
    return this.services.accounts.account(ctx, identifier);
  }

  @Requires(SIGN_IN, objectRule(editAccount))
  @Query(() => [NotificationSettingType], {
    description: "An account's notification preferences; developer ones for developers only.",
  })
  notifications(@Arg('user') identifier: string, @Ctx() ctx: RequestContext) {
    return this.services.notifications.list(ctx, identifier);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.ACCOUNT)
  @Requires(SIGN_IN, objectRule(editAccount))
  @OwnTransactions(
    'slow external work',
    'reads the picture (graphql-upload), renders it with sharp and stores it before the account is written',
  )
  @Mutation(() => UserType, {
    description:
      'Edit an account, optionally with a new picture (PNG or JPEG, at most 4 MB, not animated; stored as a PNG within 200×200).',
  })
  editUser(
    @Arg('user') identifier: string,
    @Arg('input', () => AccountInputType) input: AccountInputType,
    @Arg('picture', () => GraphQLUpload, { nullable: true }) picture: Promise<UploadedFile> | null,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.accounts.update(ctx, identifier, input, picture && receiveUpload(picture));
  }

  @Requires(SIGN_IN, objectRule(editAccount))
  @Mutation(() => Boolean, {
    description:
      'Delete an account: its data is removed; add-ons it alone authors are deleted, ' +
      'shared ones keep their other authors.',
  })
  deleteUser(@Arg('user') identifier: string, @Ctx() ctx: RequestContext) {
    return this.services.accounts.deleteAccount(ctx, identifier);
  }

  @Accepts('jwt')
  @KeyScope(KeyOperation.ACCOUNT)
  @Requires(objectRule(superCreateAccounts))
  @Mutation(() => TestAccountType, {
    description: 'Create a test account (when enabled); bad parameters are UNPROCESSABLE.',
  })
  async superCreateAccount(
    @Arg('input', () => SuperCreateInputType) input: SuperCreateInputType,
    @Ctx() ctx: RequestContext,
  ): Promise<TestAccountType> {
    const { user, groups, sessionToken } = await this.services.accounts.superCreate(ctx, input);
    return {
      userId: user.id,
      username: user.username,
      email: user.email,
      displayName: user.displayName,
      idpId: user.idpId,
      groups: groups.map((g) => ({ id: g.id, name: g.name, rules: g.rules })),
      sessionCookie: { name: 'sessionid', value: sessionToken, encoded: `sessionid=${sessionToken}` },
    };
  }

  @Requires(SIGN_IN, objectRule(editAccount))
  @Mutation(() => UserType, { description: "Remove an account's picture." })
  deleteUserPicture(@Arg('user') identifier: string, @Ctx() ctx: RequestContext) {
    return this.services.accounts.deletePicture(ctx, identifier);
  }

  @Requires(SIGN_IN, objectRule(editAccount))
  @Mutation(() => [NotificationSettingType], {
    description: 'Set notification preferences; mandatory ones refuse the request. Returns the full list.',
  })
  updateNotifications(
    @Arg('user') identifier: string,
    @Arg('changes', () => [NotificationChangeType]) changes: NotificationChangeType[],
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.notifications.update(ctx, identifier, changes);
  }

  @FieldResolver(() => String, { description: 'The profile page on the website.' })
  url(@Root() user: UserRecord, @Ctx() ctx: RequestContext) {
    return `${ctx.request.baseUrl}/user/${user.id}/`;
  }

  @FieldResolver(() => Float, { description: "Average rating of the user's listed public add-ons (0 without)." })
  async averageAddonRating(@Root() user: UserRecord, @Ctx() ctx: RequestContext) {
    return (await this.services.accounts.stats(ctx, user))?.averageAddonRating ?? 0;
  }

  @FieldResolver(() => Int, { description: 'Public add-ons the user is a listed author of.' })
  async numAddonsListed(@Root() user: UserRecord, @Ctx() ctx: RequestContext) {
    return (await this.services.accounts.stats(ctx, user))?.numAddonsListed ?? 0;
  }

  @FieldResolver(() => Boolean, { description: 'Listed author of a public add-on that is not a theme.' })
  async isAddonDeveloper(@Root() user: UserRecord, @Ctx() ctx: RequestContext) {
    return (await this.services.accounts.stats(ctx, user))?.isAddonDeveloper ?? false;
  }

  @FieldResolver(() => Boolean, { description: 'Listed author of a public theme.' })
  async isArtist(@Root() user: UserRecord, @Ctx() ctx: RequestContext) {
    return (await this.services.accounts.stats(ctx, user))?.isArtist ?? false;
  }

  @FieldResolver(() => String, { nullable: true, description: 'Null without a picture.' })
  pictureUrl(@Root() user: UserRecord, @Ctx() ctx: RequestContext) {
    return this.services.accounts.pictureUrl(ctx, user);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: '`image/png` (`image/jpeg` for pictures stored before re-encoding); null without a picture.',
  })
  pictureType(@Root() user: UserRecord, @Ctx() ctx: RequestContext) {
    return this.services.accounts.pictureType(ctx, user);
  }

  @FieldResolver(() => String, {
    description: 'Display name, else a generated name containing the id.',
  })
  name(@Root() user: UserRecord) {
    return this.services.accounts.displayNameOrDefault(user, this.services.browserName);
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
    return (
      fields && {
        ...fields,
        readDevAgreement: fields.readDevAgreement !== null,
        permissions: await this.services.accounts.permissionsOf(ctx, user),
        isVerified: false,
        idpEditEmailUrl: this.services.accountHooks.steps.accountUrl?.() ?? null,
        siteStatus: await this.services.site.status(ctx.em),
      }
    );
  }

  /** An entity (`me`) has them; a record (an add-on's author) does not. */
  private privateFields(ctx: RequestContext, user: UserRecord): UserPrivateFields | Promise<UserPrivateFields | null> {
    return user instanceof User ? user : ctx.loaders.get(privateFieldsByUserId).load(user.id);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.ACCOUNT)
  @Requires(SIGN_IN)
  @Query(() => DeveloperAgreementType, {
    description: 'The developer agreement in force, and whether the caller accepted it.',
  })
  developerAgreement(@Ctx() ctx: RequestContext) {
    return this.services.accounts.agreement.status(this.services.accounts.me(ctx));
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.ACCOUNT)
  @Requires(SIGN_IN)
  @Mutation(() => UserType, {
    description:
      'Accept the developer agreement in force (needed before an API key can be used). With `input`, the ' +
      "original's checks: the agreement's date, and a display name when the account has none.",
  })
  acceptDeveloperAgreement(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => DeveloperAgreementInputType, { nullable: true }) input?: DeveloperAgreementInputType | null,
  ) {
    return this.services.accounts.acceptDeveloperAgreement(ctx, input && { ...input });
  }
}
