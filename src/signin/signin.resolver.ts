import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Accepts } from '../access/credentials.js';
import { PUBLIC, Requires, SIGN_IN } from '../access/requirements.js';
import type { RequestContext } from '../core/context.js';
import { OwnTransactions } from '../graphql/transactions.js';
import type { SigninServices } from './services.js';
import { ActiveSessionType, SignInProviderType, SignInResultType, SignInStartType } from './signin.types.js';

/** Sign-in and the caller's sessions (SigninService, SigninLinksService and MySessions hold the rules). */
@Resolver()
export class SigninResolver {
  constructor(private readonly services: SigninServices) {}

  @Requires(PUBLIC)
  @Accepts()
  @Query(() => [SignInProviderType], { description: 'The OpenID Connect providers people sign in with.' })
  signInProviders() {
    return this.services.signin.providers();
  }

  @Requires(PUBLIC)
  @Accepts()
  @OwnTransactions('slow external work', "may fetch the provider's discovery document first")
  @Mutation(() => SignInStartType, {
    description:
      "Starts a sign-in at a provider (authorization code with PKCE): send the browser to `location`, keep `binding` for finishSignIn. `to` (a path of this site or a trusted front-end's URL) is where it returns; `secondFactor` asks the provider for one.",
  })
  startSignIn(
    @Arg('provider', () => String, { nullable: true, description: 'Optional when one provider is configured.' })
    provider: string | null,
    @Arg('to', () => String, { nullable: true }) to: string | null,
    @Arg('secondFactor', () => Boolean, { nullable: true }) secondFactor: boolean | null,
    @Ctx() ctx: RequestContext,
    @Arg('preferredProvider', () => String, {
      nullable: true,
      description: 'A provider to use when `provider` is not given, if one of that name is configured (else ignored).',
    })
    preferredProvider?: string | null,
  ) {
    return this.services.signin.start(ctx, { provider, preferredProvider, to, secondFactor: secondFactor === true });
  }

  @Requires(PUBLIC)
  @Accepts()
  @OwnTransactions('slow external work', "exchanges the code at the provider's token endpoint before its writes")
  @Mutation(() => SignInResultType, {
    description:
      'Finishes a sign-in with the URL the provider sent the browser to and the `binding` startSignIn gave: a session token, or why it was refused.',
  })
  finishSignIn(
    @Arg('callbackUrl', () => String) callbackUrl: string,
    @Arg('binding', () => String, { nullable: true }) binding: string | null,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.signin.finish(ctx, callbackUrl, binding);
  }

  @Requires(SIGN_IN)
  @Query(() => [ActiveSessionType], {
    description: 'The caller’s sessions still in use, the most recently used first.',
  })
  mySessions(@Ctx() ctx: RequestContext) {
    return this.services.mySessions.list(ctx);
  }

  @Requires(SIGN_IN)
  @Mutation(() => Boolean, { description: 'Ends one of the caller’s sessions, wherever it is used.' })
  endSession(@Arg('id', () => String) id: string, @Ctx() ctx: RequestContext) {
    return this.services.mySessions.end(ctx, id);
  }

  @Requires(SIGN_IN)
  @Mutation(() => Int, { description: 'Ends every session of the caller but this one; how many ended.' })
  endOtherSessions(@Ctx() ctx: RequestContext) {
    return this.services.mySessions.endOthers(ctx);
  }
}
