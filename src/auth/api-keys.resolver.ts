import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Requires, SIGN_IN, objectRule, SECOND_FACTOR } from '../access/requirements.js';
import { developerAgreement, endSession, manageKeys } from '../accounts/accounts.access.js';
import { keyAddons } from '../catalogue/key-addons.access.js';
import { ApiKeyCredentialsType } from '../accounts/accounts.types.js';
import { ApiKeyType, CreateApiKeyInput, CreatedApiKeyType } from '../accounts/scoped-keys.types.js';
import type { RequestContext } from '../core/context.js';
import type { AuthServices } from './services.js';

/**
 * The caller's credentials: their API keys (the default one, and scoped, expiring ones), listed,
 * issued and revoked from a session only; and signing out of the browser session.
 */
@Resolver(() => ApiKeyType)
export class ApiKeysResolver {
  constructor(private readonly services: AuthServices) {}

  @Requires(SIGN_IN, objectRule(manageKeys))
  @Query(() => [ApiKeyType], { description: "The caller's active API keys, newest first (never their secrets)." })
  apiKeys(@Ctx() ctx: RequestContext) {
    return this.services.scopedKeys.list(ctx);
  }

  @Requires(SECOND_FACTOR, SIGN_IN, objectRule(manageKeys), objectRule(developerAgreement), objectRule(keyAddons))
  @Mutation(() => CreatedApiKeyType, {
    description:
      'Create a named API key limited to some add-ons and/or operation families, expiring within 366 days, ' +
      'beside the default key. The secret is answered once. Revoke it with `revokeApiKey(id)`.',
  })
  createApiKey(@Arg('input', () => CreateApiKeyInput) input: CreateApiKeyInput, @Ctx() ctx: RequestContext) {
    return this.services.scopedKeys.create(ctx, { ...input });
  }

  @Requires(SECOND_FACTOR, SIGN_IN, objectRule(manageKeys), objectRule(developerAgreement))
  @Mutation(() => ApiKeyCredentialsType, { description: 'Issue a JWT API key, revoking the previous one.' })
  issueApiKey(@Ctx() ctx: RequestContext) {
    return this.services.scopedKeys.issueDefault(ctx);
  }

  @Requires(SIGN_IN, objectRule(manageKeys))
  @Mutation(() => Boolean, {
    description:
      'Revoke the active default JWT API key, or with `id` one of your active keys (see `apiKeys`); false if there was none.',
  })
  revokeApiKey(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { nullable: true }) id?: string | null) {
    return id === null || id === undefined
      ? this.services.scopedKeys.revokeDefault(ctx)
      : this.services.scopedKeys.revoke(ctx, id);
  }

  @Requires(SIGN_IN, objectRule(endSession))
  @Mutation(() => Boolean, { description: "End the caller's browser session." })
  logout(@Ctx() ctx: RequestContext) {
    return this.services.sessions.logout(ctx);
  }
}
