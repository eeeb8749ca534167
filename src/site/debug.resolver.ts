import { Arg, Ctx, Field, ObjectType, Query, Resolver, registerEnumType } from 'type-graphql';
import { PUBLIC, Requires } from '../access/requirements.js';
import type { RequestContext } from '../core/context.js';
import type { SiteServices } from './services.js';
import { ProbeError } from './debug-helpers.js';

registerEnumType(ProbeError, {
  name: 'ProbeError',
  description: 'An error `failWith` answers with: FORBIDDEN (403), NOT_FOUND (404), INTERNAL (500).',
});

@ObjectType('ClientInfo', { description: 'The request as the service sees it, behind any CDN or load balancer.' })
export class ClientInfoType {
  @Field(() => String, { nullable: true, description: '`User-Agent` (at most 255 characters).' })
  userAgent!: string | null;

  @Field(() => String, { nullable: true, description: '`X-Country-Code`, as a CDN in front sets it.' })
  countryCode!: string | null;

  @Field(() => String, { nullable: true, description: '`X-Forwarded-For` as received.' })
  forwardedFor!: string | null;

  @Field(() => String, {
    nullable: true,
    description: "The client's address, as TRUST_PROXY lets the service read it from forwarding headers.",
  })
  remoteAddress!: string | null;
}

/** Debugging helpers: what the service sees of a request, and errors on demand. */
@Resolver()
export class DebugResolver {
  constructor(private readonly services: SiteServices) {}

  @Requires(PUBLIC)
  @Query(() => ClientInfoType, {
    description:
      'The request as the service sees it (addresses included): only when the operator sets ' +
      'CLIENT_INFO_ENABLED, FORBIDDEN otherwise.',
  })
  clientInfo(@Ctx() ctx: RequestContext) {
    return this.services.debug.clientInfo(ctx);
  }

  @Requires(PUBLIC)
  @Query(() => Boolean, {
    description:
      'Always fails, with the error asked for: for checking how clients and proxies pass errors on. ' +
      'INTERNAL is the error every unexpected failure gives (no details).',
  })
  failWith(@Arg('error', () => ProbeError) error: ProbeError): boolean {
    return this.services.debug.failWith(error);
  }
}
