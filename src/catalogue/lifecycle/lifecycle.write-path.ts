import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../../accounts/user.entity.js';
import type { RequestContext } from '../../core/context.js';
import { ownTransaction } from '../../db/conflict-retries.js';
import { selectRows } from '../../db/rows.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { Addon } from '../addon.entity.js';
import { refreshAddons } from '../catalogue.indexer.js';
import { AddonStatus, Channel, FileStatus } from '../catalogue.enums.js';
import { Version } from '../version.entity.js';
import { AddonActivity } from './activity.entity.js';
import { ActivityAction, type LifecycleEvents, type LifecycleEventType } from './lifecycle.enums.js';
import { derivedStatus, type ListedFacts } from './lifecycle.rules.js';

export type EventList = { [K in LifecycleEventType]: [K, LifecycleEvents[K]] }[LifecycleEventType][];

/** One change of one add-on, as `change` applies and records it. */
export interface Change {
  action: ActivityAction;
  actorId: number | null;
  versionId?: number | null;
  comments?: string;
  details?: Record<string, unknown> | null;
  /** Sets what the change sets on the locked add-on (and its versions, files) before the status is derived. */
  apply?: (addon: Addon, tx: EntityManager) => void | Promise<void>;
  /** Derive the status from the listed versions afterwards (default true). */
  derive?: boolean;
  events?: EventList;
}

/**
 * The lifecycle's one write path (AddonLifecycle, lifecycle.service.ts, is its only subclass and
 * the only way in): each change locks the add-on row, applies the change, derives the status,
 * refreshes the derived columns, writes the audit entry and queues the events, in one transaction.
 */
export abstract class LifecycleWritePath {
  constructor(protected readonly events: DomainEvents<LifecycleEvents>) {}

  protected deletion(addonId: number, actorId: number | null, comments: string): Change {
    return {
      action: ActivityAction.DELETED,
      actorId,
      comments,
      derive: false,
      apply: (a) => void (a.status = AddonStatus.DELETED),
      events: [['addon.deleted', { addonId }]],
    };
  }

  /**
   * One change through the one write path, for the lifecycle folder's other modules (the listing
   * content review, `listing-review.service.ts`), which check their callers' permissions first.
   */
  applyChange(ctx: RequestContext, addonId: number, change: Change): Promise<void> {
    return this.run(ctx, addonId, change);
  }

  /** One change through the one write path, in the caller's transaction (a version edit's writes). */
  applyChangeIn(tx: EntityManager, addonId: number, change: Change): Promise<void> {
    return this.change(tx, addonId, change);
  }

  /**
   * In the operation's transaction (the executor's: see src/graphql/transactions.ts), or in one of
   * its own when the operation runs without (a REST add-on edit that also uploads an icon).
   */
  protected run(ctx: RequestContext, addonId: number, change: Change): Promise<void> {
    if (ctx.em.isInTransaction()) return this.change(ctx.em, addonId, change);
    return ownTransaction(ctx.em, (tx) => this.change(tx, addonId, change));
  }

  /**
   * Locks the add-on row, applies the change, derives the status, refreshes the add-on's derived
   * columns, writes the audit entry and queues the events, all in `tx`.
   */
  protected async change(tx: EntityManager, addonId: number, change: Change): Promise<void> {
    const addon = await tx.findOneOrFail(Addon, addonId, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const from = addon.status;
    await change.apply?.(addon, tx);
    await tx.flush();
    if (change.derive !== false) addon.status = derivedStatus(addon.status, await this.listedFacts(tx, addonId));
    await tx.flush();
    await refreshAddons(tx, [addonId]);
    await this.record(tx, addon, change, from);
    for (const [type, data] of change.events ?? []) await this.events.publish(tx, type, data, change.actorId);
  }

  protected async record(tx: EntityManager, addon: Addon, change: Change, from: number): Promise<void> {
    tx.create(AddonActivity, {
      addon,
      version: change.versionId ? tx.getReference(Version, change.versionId) : null,
      user: change.actorId ? tx.getReference(User, change.actorId) : null,
      action: change.action,
      fromStatus: from,
      toStatus: addon.status,
      details: change.details ?? null,
      comments: change.comments ?? '',
    });
    await tx.flush();
  }

  private async listedFacts(tx: EntityManager, addonId: number): Promise<ListedFacts> {
    const [row] = await selectRows<{ approved: boolean; awaiting: boolean }>(
      tx,
      `select coalesce(bool_or(f.status = ?), false) as approved, coalesce(bool_or(f.status = ?), false) as awaiting
         from versions v join files f on f.version_id = v.id
        where v.addon_id = ? and v.channel = ? and not v.deleted`,
      [FileStatus.APPROVED, FileStatus.AWAITING_REVIEW, addonId, Channel.LISTED],
    );
    return { approved: row.approved, awaiting: row.awaiting };
  }
}
