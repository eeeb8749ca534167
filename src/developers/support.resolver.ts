import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { Accepts } from '../access/credentials.js';
import { KeyOperation, KeyScope } from '../access/key-scopes.js';
import { Requires, SIGN_IN } from '../access/requirements.js';
import type { RequestContext } from '../core/context.js';
import { OwnTransactions } from '../graphql/transactions.js';
import type { DevelopersServices } from './services.js';
import { SupportTicketInputType, SupportTicketType } from './support.types.js';

/** Developers' support tickets (SupportService holds the rules). */
@Resolver(() => SupportTicketType)
export class SupportResolver {
  constructor(private readonly services: DevelopersServices) {}

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.ACCOUNT)
  @Requires(SIGN_IN)
  @OwnTransactions(
    'commits before failing',
    'the daily throttles count every request that reaches them, whatever its outcome',
  )
  @Mutation(() => SupportTicketType, {
    description:
      "Sends a support ticket to the site's support address (signed-in users; at most SUPPORT_TICKETS_PER_DAY a day " +
      'per user and per client address).',
  })
  submitSupportTicket(@Arg('input') input: SupportTicketInputType, @Ctx() ctx: RequestContext) {
    return this.services.support.submit(ctx, { ...input });
  }
}
