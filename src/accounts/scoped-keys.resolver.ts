import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Requires, SIGN_IN, objectRule, SECOND_FACTOR } from '../access/requirements.js';
import { developerAgreement, keyAddons, manageKeys } from './accounts.access.js';
import type { RequestContext } from '../core/context.js';
import type { AccountsServices } from './services.js';
import { ApiKeyType, CreateApiKeyInput, CreatedApiKeyType } from './scoped-keys.types.js';

/** Scoped, expiring API keys: listed, created and revoked by their owner, from a session only. */
@Resolver(() => ApiKeyType)
export class ScopedKeysResolver {
  constructor(private readonly services: AccountsServices) {}

  @Requires(SIGN_IN, objectRule(manageKeys))
  @Query(() => [ApiKeyType], { description: "The caller's active API keys, newest first (never their secrets)." })
  apiKeys(@Ctx() ctx: RequestContext) {
    return this.services.accounts.scopedKeys.list(ctx);
  }

  @Requires(SECOND_FACTOR, SIGN_IN, objectRule(manageKeys), objectRule(developerAgreement), objectRule(keyAddons))
  @Mutation(() => CreatedApiKeyType, {
    description:
      'Create a named API key limited to some add-ons and/or operation families, expiring within 366 days, ' +
      'beside the default key. The secret is answered once. Revoke it with `revokeApiKey(id)`.',
  })
  createApiKey(@Arg('input', () => CreateApiKeyInput) input: CreateApiKeyInput, @Ctx() ctx: RequestContext) {
    return this.services.accounts.scopedKeys.create(ctx, { ...input });
  }
}
