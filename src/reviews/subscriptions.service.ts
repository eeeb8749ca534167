import type { EntityManager } from '@mikro-orm/postgresql';
import { permissionsByUserIdQuery } from '../accounts/accounts.loaders.js';
import { Viewer } from '../auth/viewer.js';
import { addonName } from '../catalogue/addon-name.js';
import { Channel } from '../catalogue/catalogue.enums.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import { Version } from '../catalogue/version.entity.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { executeSql, intArray } from '../db/sql.js';
import type { Mailer } from '../mail/mailer.port.js';
import { mails } from '../mail/templates.js';
import { followChannel, mayFollow } from './reviews.access.js';
import { ReviewerSubscription } from './subscription.entity.js';

export interface SubscriptionSettings {
  siteUrl: string;
  serviceName: string;
}

/**
 * Reviewers' subscriptions to an add-on's new versions, per channel (docs/compat-notes.md §4.5): any kind
 * of reviewer may follow the listed channel, unlisted reviewers the unlisted one. Subscribing
 * twice, or unsubscribing without a subscription, changes nothing. When a version is created on a
 * channel, each subscriber who still may review it there gets a mail.
 */
export class ReviewerSubscriptionsService {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly mailer: Mailer,
    private readonly settings: SubscriptionSettings,
  ) {}

  /** Subscribes (or unsubscribes) the caller; the add-on is named by id, slug or guid. */
  async set(ctx: RequestContext, identifier: string, channel: Channel, subscribed: boolean): Promise<boolean> {
    followChannel(ctx, channel);
    const addon = await this.catalogue.lookup(ctx, identifier);
    if (!addon) throw errors.notFound();
    const user = ctx.viewer.userId!;
    if (subscribed) {
      await executeSql(
        ctx.em,
        `insert into reviewer_subscriptions (user_id, addon_id, channel) values (?, ?, ?) on conflict do nothing`,
        [user, addon.id, channel],
      );
    } else {
      await ctx.em.nativeDelete(ReviewerSubscription, { user, addon: addon.id, channel });
    }
    return subscribed;
  }

  /** The caller's subscriptions, newest first. */
  async mine(ctx: RequestContext): Promise<{ addonId: number; channel: Channel; created: Date }[]> {
    const found = await ctx.em.find(ReviewerSubscription, { user: ctx.viewer.userId! }, { orderBy: { id: 'desc' } });
    return found.map((s) => ({ addonId: s.addon.id, channel: s.channel, created: s.created }));
  }

  /** The `version.validated` subscriber: mails the version's channel's subscribers. */
  async notifyNewVersion(em: EntityManager, versionId: number): Promise<void> {
    const version = await em.findOne(Version, versionId, { populate: ['addon'] });
    if (!version || version.deleted) return;
    const subscriptions = await em.find(
      ReviewerSubscription,
      { addon: version.addon, channel: version.channel, user: { deleted: false } },
      { populate: ['user'] },
    );
    if (!subscriptions.length) return;
    const rows: { user_id: number; rules: string[] | null }[] = await em
      .getConnection()
      .execute(permissionsByUserIdQuery, [intArray(subscriptions.map((s) => s.user.id))]);
    const rules = new Map(rows.map((r) => [r.user_id, r.rules ?? []]));
    const name = addonName(version.addon);
    const channel = version.channel === Channel.UNLISTED ? 'unlisted' : 'listed';
    for (const { user } of subscriptions) {
      // Someone who is no longer a reviewer of this channel is not told about its versions.
      if (!mayFollow(new Viewer(user, rules.get(user.id) ?? [], null), version.channel)) continue;
      await this.mailer.send({
        to: user.email,
        ...mails.subscriptionNewVersion.render({
          serviceName: this.settings.serviceName,
          addonName: name,
          version: version.version,
          channel,
          reviewUrl: `${this.settings.siteUrl}/reviewers/review${channel === 'unlisted' ? '-unlisted' : ''}/${version.addon.id}`,
          unsubscribeUrl: `${this.settings.siteUrl}/api/v4/reviewers/addon/${version.addon.id}/unsubscribe_${channel}/`,
        }),
      });
    }
  }
}
