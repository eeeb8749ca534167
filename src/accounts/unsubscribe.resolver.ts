import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { PUBLIC, Requires } from '../access/requirements.js';
import type { RequestContext } from '../core/context.js';
import type { AccountsServices } from './services.js';
import { NotificationSettingType } from './accounts.types.js';

/** The one-click unsubscribe links of notification mails: the link's code is the credential. */
@Resolver(() => NotificationSettingType)
export class UnsubscribeResolver {
  constructor(private readonly services: AccountsServices) {}

  @Requires(PUBLIC)
  @Mutation(() => NotificationSettingType, {
    description:
      "Turns a notification off for the account a mail's unsubscribe link names (its `token` and `hash`; no " +
      'sign-in). A code not made by this service, or the address of no account, is FORBIDDEN; an unknown or ' +
      'mandatory notification is BAD_PARAMETER.',
  })
  unsubscribeNotification(
    @Arg('token', () => String, { nullable: true }) token: string | null,
    @Arg('hash', () => String, { nullable: true }) hash: string | null,
    @Arg('notification', () => String, { nullable: true }) notification: string | null,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.notifications.unsubscribe(ctx, { token, hash, notification });
  }
}
