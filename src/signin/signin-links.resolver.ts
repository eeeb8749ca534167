import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { Accepts } from '../access/credentials.js';
import { PUBLIC, Requires } from '../access/requirements.js';
import type { RequestContext } from '../core/context.js';
import type { SigninServices } from './services.js';
import { SignInResultType } from './signin.types.js';

/** One-time sign-in links by mail (SigninLinksService holds the rules). */
@Resolver()
export class SigninLinksResolver {
  constructor(private readonly services: SigninServices) {}

  @Requires(PUBLIC)
  @Accepts()
  @Mutation(() => Boolean, {
    description:
      'Mails a one-time sign-in link to `email` (returning to `to`, a path of this site or a trusted ' +
      'front-end’s URL). True whether or not the address has an account; THROTTLED past 3 links an hour ' +
      'for an address or 10 for a client; FORBIDDEN when links are turned off (SIGNIN_EMAIL_LINKS).',
  })
  requestSignInLink(
    @Arg('email', () => String) email: string,
    @Arg('to', () => String, { nullable: true }) to: string | null,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.signinLinks.request(ctx, email, to);
  }

  @Requires(PUBLIC)
  @Accepts()
  @Mutation(() => SignInResultType, {
    description:
      'Signs in with a mailed link’s token (the last part of its URL): a session token, or ERROR_LINK_INVALID ' +
      'when the link was used, expired or is not one. A link works once.',
  })
  useSignInLink(@Arg('token', () => String) token: string, @Ctx() ctx: RequestContext) {
    return this.services.signinLinks.use(ctx, token);
  }
}
