import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import type { AccountsService } from './accounts.service.js';
import { UserNotification } from './notification.entity.js';
import type { User } from './user.entity.js';

/** One notification type: `dev` ones apply to developers only; mandatory ones cannot be changed. */
interface NotificationDefinition {
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

/** Notification preferences: defaults until set, developer ones for developers only. */
export class NotificationsService {
  constructor(private readonly accounts: AccountsService) {}

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
