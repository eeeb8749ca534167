import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Accepts } from '../access/credentials.js';
import { objectRule, PUBLIC, Requires, SIGN_IN, SECOND_FACTOR } from '../access/requirements.js';
import { ownAddon } from '../catalogue/lifecycle/lifecycle.policy.js';
import type { RequestContext } from '../core/context.js';
import { OwnTransactions } from '../graphql/transactions.js';
import type { TrustedPublishingServices } from './services.js';
import { OidcTokenExchangeType, TrustedPublisherInput, TrustedPublisherType } from './trusted-publishing.types.js';

/** The services check it through `LifecyclePolicy.owned` (401, 404 unknown, 403 others). */
const OWNER = objectRule(ownAddon);

/** Trusted publishing (TrustedPublishersService and TokenExchangeService hold the rules). */
@Resolver()
export class TrustedPublishingResolver {
  constructor(private readonly services: TrustedPublishingServices) {}

  @Requires(SIGN_IN, OWNER)
  @Accepts('session')
  @Query(() => [TrustedPublisherType], { description: "The add-on's trusted publishers (CI providers' OIDC tokens)." })
  trustedPublishers(@Arg('addon') addon: string, @Ctx() ctx: RequestContext) {
    return this.services.trustedPublishers.list(ctx, addon);
  }

  @Requires(SECOND_FACTOR, SIGN_IN, OWNER)
  @Accepts('session')
  @Mutation(() => TrustedPublisherType, {
    description:
      "Trusts a CI provider's OIDC tokens carrying these claims to publish the add-on, acting as the caller. " +
      "Recorded in the add-on's audit log.",
  })
  addTrustedPublisher(@Arg('input') input: TrustedPublisherInput, @Ctx() ctx: RequestContext) {
    return this.services.trustedPublishers.add(ctx, { ...input });
  }

  @Requires(SIGN_IN, OWNER)
  @Accepts('session')
  @Mutation(() => Boolean, { description: 'Removes a trusted publisher and revokes the keys issued for it.' })
  removeTrustedPublisher(@Arg('id', () => Int) id: number, @Ctx() ctx: RequestContext) {
    return this.services.trustedPublishers.remove(ctx, id);
  }

  @Requires(PUBLIC)
  @Accepts()
  @OwnTransactions(
    'slow external work',
    "fetches the issuer's discovery document and key set to verify the token before its writes",
  )
  @Mutation(() => OidcTokenExchangeType, {
    description:
      "Exchanges a CI provider's OIDC ID token for a short-lived API key scoped to the add-on it publishes " +
      '(submit versions, read their status), whose trusted publishers it must match. No credentials: the token ' +
      'is the proof.',
  })
  exchangeOidcToken(
    @Arg('token', () => String, { nullable: true }) token: string | null,
    @Arg('addon', () => String, {
      nullable: true,
      description:
        'The add-on to publish (id, slug or guid): only its trusted publishers are considered. Send it: without ' +
        "it, a token matching publishers of several add-ons (anyone's) is refused.",
    })
    addon: string | null,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.tokenExchange.exchange(ctx, token, addon);
  }
}
