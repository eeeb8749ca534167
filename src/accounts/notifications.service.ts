import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import type { AccountsService } from './accounts.service.js';
import { UserNotification } from './notification.entity.js';
import type { UnsubscribeCodes } from './unsubscribe-codes.js';
import { User } from './user.entity.js';

/** One notification type: `dev` ones apply to developers only; mandatory ones cannot be changed. */
export interface NotificationDefinition {
  readonly name: string;
  readonly group: 'user' | 'dev';
  readonly mandatory: boolean;
  readonly defaultEnabled: boolean;
}

const user = (name: string, defaultEnabled = true): NotificationDefinition => ({
  name,
  group: 'user',
  mandatory: false,
  defaultEnabled,
});
const dev = (name: string, mandatory: boolean, defaultEnabled = true): NotificationDefinition => ({
  name,
  group: 'dev',
  mandatory,
  defaultEnabled,
});

/**
 * Today's ten types (contests announcements off by default). Under the legacy rule
 * `retiredNotificationTypes` (see LegacyRules) the list also has the developer's thanks (eleven),
 * and announcements are on by default.
 */
const NOTIFICATIONS: readonly NotificationDefinition[] = [
  user('reply'),
  user('new_features'),
  dev('upgrade_success', false),
  dev('sdk_upgrade_success', false),
  dev('new_review', false),
  dev('announcements', false, false),
  dev('upgrade_fail', true),
  dev('sdk_upgrade_fail', true),
  dev('reviewer_reviewed', true),
  dev('individual_contact', true),
];
const WITH_RETIRED_NOTIFICATIONS: readonly NotificationDefinition[] = [
  user('dev_thanks'),
  ...NOTIFICATIONS.map((n) => (n.name === 'announcements' ? { ...n, defaultEnabled: true } : n)),
];

/** The notification types of the request's rules. */
export function notificationTypes(ctx: RequestContext): readonly NotificationDefinition[] {
  return ctx.legacy?.retiredNotificationTypes ? WITH_RETIRED_NOTIFICATIONS : NOTIFICATIONS;
}

export interface NotificationSetting {
  name: string;
  enabled: boolean;
  mandatory: boolean;
}

export interface NotificationChange {
  name: string;
  enabled: boolean;
}

/** A one-click unsubscribe request from a notification mail's link (see UnsubscribeCodes). */
export interface UnsubscribeRequest {
  token: string | null;
  hash: string | null;
  notification: string | null;
}

/** Longest notification name accepted before looking it up (the stored column's length). */
const MAX_NOTIFICATION_NAME = 50;

/** Notification preferences: defaults until set, developer ones for developers only. */
export class NotificationsService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly codes: UnsubscribeCodes,
  ) {}

  async list(ctx: RequestContext, identifier: string): Promise<NotificationSetting[]> {
    const account = await this.accounts.editable(ctx, identifier);
    return this.settings(ctx, account);
  }

  /**
   * Sets the given preferences (unknown names and developer ones of non-developers are ignored);
   * any mandatory one refuses the whole request. Returns the full list.
   */
  async update(
    ctx: RequestContext,
    identifier: string,
    changes: readonly NotificationChange[],
  ): Promise<NotificationSetting[]> {
    const account = await this.accounts.editable(ctx, identifier);
    const types = await this.applicable(ctx, account);
    const byName = new Map(types.map((t) => [t.name, t]));
    const accepted = changes.filter((change) => byName.has(change.name));
    for (const change of accepted) {
      if (byName.get(change.name)!.mandatory) {
        const value = change.enabled ? 'True' : 'False';
        throw errors.badParameter(
          `Attempting to set [${change.name}] to ${value}. Mandatory notifications can't be modified`,
        );
      }
    }
    if (accepted.length) {
      const stored = await ctx.em.find(UserNotification, {
        user: account.id,
        name: { $in: accepted.map((c) => c.name) },
      });
      const existing = new Map(stored.map((s) => [s.name, s]));
      for (const change of accepted) {
        const row = existing.get(change.name);
        if (row) row.enabled = change.enabled;
        else {
          existing.set(
            change.name,
            ctx.em.create(UserNotification, { user: account, name: change.name, enabled: change.enabled }),
          );
        }
      }
      await ctx.em.flush();
    }
    return this.settings(ctx, account);
  }

  /**
   * Turns one notification off for the address a mail's unsubscribe link names, without signing in
   * (the token and hash are the credentials). Developer notifications can be turned off by anyone
   * who got one. Refusals as the original's: a code not made here or an address of no account is
   * FORBIDDEN, an unknown name a BAD_PARAMETER, a mandatory one too.
   */
  async unsubscribe(ctx: RequestContext, request: UnsubscribeRequest): Promise<NotificationSetting> {
    const email = this.codes.parse(request.token, request.hash);
    if (email === null) throw errors.forbidden('Invalid token or hash.');
    const account = await ctx.em.findOne(User, { email, deleted: false });
    if (!account) throw errors.forbidden('Email address not found.');
    const name = request.notification;
    const type =
      name !== null && name.length <= MAX_NOTIFICATION_NAME
        ? notificationTypes(ctx).find((t) => t.name === name)
        : undefined;
    if (!type) {
      // The original names a missing one `None` (Python's rendering of it).
      throw errors.badParameter(`Notification [${name?.slice(0, MAX_NOTIFICATION_NAME) ?? 'None'}] does not exist`);
    }
    if (type.mandatory) {
      throw errors.badParameter(`Attempting to set [${type.name}] to False. Mandatory notifications can't be modified`);
    }
    const row = await ctx.em.findOne(UserNotification, { user: account.id, name: type.name });
    if (row) row.enabled = false;
    else ctx.em.create(UserNotification, { user: account, name: type.name, enabled: false });
    await ctx.em.flush();
    return { name: type.name, enabled: false, mandatory: false };
  }

  /**
   * Whether mail of a notification goes to the account: mandatory ones always, the others unless it
   * turned them off (defaults otherwise).
   */
  async wants(em: RequestContext['em'], userId: number, name: string): Promise<boolean> {
    const type = NOTIFICATIONS.find((t) => t.name === name);
    if (!type) throw new Error(`unknown notification ${name}`);
    if (type.mandatory) return true;
    const row = await em.findOne(UserNotification, { user: userId, name });
    return row?.enabled ?? type.defaultEnabled;
  }

  private async applicable(ctx: RequestContext, account: User) {
    const stats = await this.accounts.stats(ctx, account);
    const developer = stats?.isDeveloper ?? false;
    return notificationTypes(ctx).filter((t) => t.group === 'user' || developer);
  }

  private async settings(ctx: RequestContext, account: User): Promise<NotificationSetting[]> {
    const types = await this.applicable(ctx, account);
    const stored = await ctx.em.find(UserNotification, { user: account.id });
    const enabled = new Map(stored.map((s) => [s.name, s.enabled]));
    return types.map((t) => ({
      name: t.name,
      enabled: t.mandatory ? true : (enabled.get(t.name) ?? t.defaultEnabled),
      mandatory: t.mandatory,
    }));
  }
}
