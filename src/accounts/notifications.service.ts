import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import type { AccountRules, AccountsService } from './accounts.service.js';
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

/** v4: ten types (contests announcements off by default); v3 also has the developer's thanks (eleven). */
const V4_NOTIFICATIONS: readonly NotificationDefinition[] = [
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
const V3_NOTIFICATIONS: readonly NotificationDefinition[] = [
  user('dev_thanks'),
  ...V4_NOTIFICATIONS.map((n) => (n.name === 'announcements' ? { ...n, defaultEnabled: true } : n)),
];

export function notificationTypes(rules: AccountRules): readonly NotificationDefinition[] {
  return rules === 'v3' ? V3_NOTIFICATIONS : V4_NOTIFICATIONS;
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

  async list(ctx: RequestContext, identifier: string, rules: AccountRules): Promise<NotificationSetting[]> {
    const account = await this.accounts.editable(ctx, identifier);
    return this.settings(ctx, account, rules);
  }

  /**
   * Sets the given preferences (unknown names and developer ones of non-developers are ignored);
   * any mandatory one refuses the whole request. Returns the full list.
   */
  async update(
    ctx: RequestContext,
    identifier: string,
    changes: readonly NotificationChange[],
    rules: AccountRules,
  ): Promise<NotificationSetting[]> {
    const account = await this.accounts.editable(ctx, identifier);
    const types = await this.applicable(ctx, account, rules);
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
    return this.settings(ctx, account, rules);
  }

  private async applicable(ctx: RequestContext, account: User, rules: AccountRules) {
    const stats = await this.accounts.stats(ctx, account);
    const developer = stats?.isDeveloper ?? false;
    return notificationTypes(rules).filter((t) => t.group === 'user' || developer);
  }

  private async settings(ctx: RequestContext, account: User, rules: AccountRules): Promise<NotificationSetting[]> {
    const types = await this.applicable(ctx, account, rules);
    const stored = await ctx.em.find(UserNotification, { user: account.id });
    const enabled = new Map(stored.map((s) => [s.name, s.enabled]));
    return types.map((t) => ({
      name: t.name,
      enabled: t.mandatory ? true : (enabled.get(t.name) ?? t.defaultEnabled),
      mandatory: t.mandatory,
    }));
  }
}
