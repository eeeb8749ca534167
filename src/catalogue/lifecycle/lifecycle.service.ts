import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../../accounts/user.entity.js';
import type { RequestContext } from '../../core/context.js';
import { errors } from '../../core/errors.js';
import { fieldMessages } from '../../core/messages.js';
import { lengthProblem } from '../../core/text-limits.js';
import { selectRows } from '../../db/rows.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { DeniedGuid } from '../denied-guid.entity.js';
import { Addon } from '../addon.entity.js';
import { addonIdByGuid } from '../addon-access.js';
import { refreshAddons } from '../catalogue.indexer.js';
import { AddonStatus, Channel, FileStatus } from '../catalogue.enums.js';
import { AddonFile, Version } from '../version.entity.js';
import { AddonActivity } from './activity.entity.js';
import {
  ActivityAction,
  type DisabledBy,
  type LifecycleEvents,
  type LifecycleEventType,
  type ReviewDecisionKind,
} from './lifecycle.enums.js';
import { derivedStatus, lifecycleErrors, type ListedFacts } from './lifecycle.rules.js';
import type { LifecyclePolicy } from './lifecycle.policy.js';
import { addonState, type AddonState } from './lifecycle.state.js';
import { DeleteConfirmations } from './delete-confirmation.js';
import { ownTransaction } from '../../db/conflict-retries.js';

type EventList = { [K in LifecycleEventType]: [K, LifecycleEvents[K]] }[LifecycleEventType][];

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

const REVIEW_ACTIONS: Record<ReviewDecisionKind, ActivityAction> = {
  approve: ActivityAction.REVIEW_APPROVED,
  reject: ActivityAction.REVIEW_REJECTED,
  requestInformation: ActivityAction.REVIEW_INFORMATION_REQUESTED,
  comment: ActivityAction.REVIEW_COMMENTED,
};

/**
 * The only code that changes an add-on's status, its disabled flags, its deletion, its promotion
 * or a version's review state. Every change runs in one transaction that locks the add-on row,
 * applies the change, derives the status from the listed versions (`derivedStatus`), refreshes
 * the columns that follow from versions (`refreshAddons`: current version, compatibility), writes
 * an audit log entry and queues the domain events (search reindexing and mail subscribe to them).
 * Cached answers showing the add-on are outdated in the same transaction by the cache-tag triggers.
 *
 * Two kinds of callers: the signing pipeline, reviews and accounts pass their transaction to the
 * `…(tx, …)` transitions; GraphQL operations call the `ctx` methods, which check permissions.
 */
export class AddonLifecycle {
  constructor(
    private readonly policy: LifecyclePolicy,
    private readonly events: DomainEvents<LifecycleEvents>,
    /** The tokens confirming a deletion (REST v5's `delete_confirm`). */
    private readonly deleteConfirmations: DeleteConfirmations = new DeleteConfirmations(),
  ) {}

  // ---- Transitions of the signing pipeline, reviews and accounts (caller's transaction) ----

  /** An upload was accepted (and the add-on created with it, for a first upload). */
  async submitted(
    tx: EntityManager,
    args: { addon: Addon; created: boolean; uploadId: string; version: string; channel: number; actorId: number },
  ): Promise<void> {
    const { addon, created, uploadId, version, channel, actorId } = args;
    if (created) await this.record(tx, addon, { action: ActivityAction.ADDON_CREATED, actorId }, addon.status);
    await this.record(
      tx,
      addon,
      { action: ActivityAction.VERSION_SUBMITTED, actorId, details: { uploadId, version, channel } },
      addon.status,
    );
    await this.events.publish(tx, 'version.submitted', { addonId: addon.id, uploadId, version, channel }, actorId);
  }

  /** Validation finished: `versionId` is the version a valid upload became (its listed review waits now). */
  async validated(
    tx: EntityManager,
    args: { addonId: number; uploadId: string; valid: boolean; versionId: number | null; actorId: number | null },
  ): Promise<void> {
    const { addonId, uploadId, valid, versionId, actorId } = args;
    await this.change(tx, addonId, {
      action: ActivityAction.VERSION_VALIDATED,
      actorId,
      versionId,
      details: { uploadId, valid },
      derive: versionId !== null,
      events: [['version.validated', { addonId, uploadId, valid, versionId }]],
    });
  }

  /**
   * A signed version's files are approved (automatic approval, or a reviewer's approval once the
   * signature exists): a listed one makes its add-on public. Idempotent: a version already
   * approved is left as it is (a redelivered signing job records nothing twice).
   */
  async approveSignedVersion(tx: EntityManager, versionId: number): Promise<void> {
    const version = await tx.findOneOrFail(Version, versionId, { populate: ['files'], refresh: true });
    const files = version.files.getItems();
    if (version.reviewed && files.every((f) => f.status === FileStatus.APPROVED)) return;
    const addonId = version.addon.id;
    await this.change(tx, addonId, {
      action: ActivityAction.VERSION_APPROVED,
      actorId: null,
      versionId,
      details: { signed: files.every((f) => f.isSigned) },
      apply: () => {
        const now = new Date();
        for (const file of files) {
          if (file.status !== FileStatus.APPROVED) Object.assign(file, { status: FileStatus.APPROVED, reviewed: now });
        }
        version.reviewed ??= now;
      },
      events: [
        ['version.signed', { addonId, versionId }],
        ['version.approved', { addonId, versionId, channel: version.channel }],
      ],
    });
  }

  /**
   * A rollback: `versionId` (just created from an upload) re-publishes the package of the earlier
   * approved version `fromVersionId` under the string `version`; the signing job approves it.
   */
  async rolledBack(
    tx: EntityManager,
    args: {
      addonId: number;
      versionId: number;
      fromVersionId: number;
      fromVersion: string;
      version: string;
      actorId: number;
    },
  ): Promise<void> {
    const { addonId, versionId, fromVersionId, fromVersion, version, actorId } = args;
    await this.change(tx, addonId, {
      action: ActivityAction.VERSION_ROLLBACK,
      actorId,
      versionId,
      details: { fromVersionId, fromVersion, version },
      derive: false,
      events: [['version.rolled_back', { addonId, versionId, fromVersionId }]],
    });
  }

  /**
   * A reviewer's decision, recorded with its review note: approval marks the version reviewed (the
   * caller queues its signature); rejection disables its waiting files and the add-on's status
   * follows; information requests and comments change nothing else.
   */
  async reviewDecided(
    tx: EntityManager,
    args: { version: Version; noteId: number; decision: ReviewDecisionKind; actorId: number | null; comments: string },
  ): Promise<void> {
    const { version, noteId, decision, actorId, comments } = args;
    const addonId = version.addon.id;
    const events: EventList = [['review.decided', { addonId, versionId: version.id, noteId, decision }]];
    if (decision === 'reject') {
      events.push(['version.rejected', { addonId, versionId: version.id, channel: version.channel }]);
    }
    await this.change(tx, addonId, {
      action: REVIEW_ACTIONS[decision],
      actorId,
      versionId: version.id,
      comments,
      derive: decision === 'reject',
      apply: async (_addon, em) => {
        const now = new Date();
        if (decision === 'approve') (await em.findOneOrFail(Version, version.id)).reviewed = now;
        if (decision === 'reject') {
          await em.nativeUpdate(
            AddonFile,
            { version: version.id, status: FileStatus.AWAITING_REVIEW },
            { status: FileStatus.DISABLED, reviewed: now },
          );
        }
      },
      events,
    });
  }

  /** Add-ons whose only author's account is being deleted (v4): deleted with it. */
  async deleteWithAccount(tx: EntityManager, addonIds: readonly number[], actorId: number): Promise<void> {
    for (const addonId of [...addonIds].sort((a, b) => a - b)) {
      await this.change(tx, addonId, this.deletion(addonId, actorId, 'The account of its only author was deleted.'));
    }
  }

  // ---- Operations (GraphQL mutations; REST reviewer routes) ----

  /** Owners hide their add-on (`is_disabled_by_developer`) or show it again. Idempotent. */
  async setDisabledByDeveloper(ctx: RequestContext, identifier: string, disabled: boolean): Promise<AddonState> {
    const addon = await this.policy.owned(ctx, identifier, false);
    if (addon.status === AddonStatus.DISABLED) throw lifecycleErrors.disabledByVendor();
    if (addon.disabledByUser !== disabled) {
      await this.run(ctx, addon.id, {
        action: disabled ? ActivityAction.DISABLED_BY_DEVELOPER : ActivityAction.ENABLED_BY_DEVELOPER,
        actorId: ctx.viewer.userId,
        details: { disabledByUser: [!disabled, disabled] },
        apply: (a) => void (a.disabledByUser = disabled),
        derive: false,
        events: [[disabled ? 'addon.disabled' : 'addon.enabled', { addonId: addon.id, by: 'developer' }]],
      });
    }
    return addonState(ctx.em, addon.id);
  }

  /**
   * Deletes an add-on (owners, or `Addons:Edit`): it answers 404 afterwards, its id stays taken
   * (uploads with it are refused) and so do its version numbers.
   */
  async deleteAddon(
    ctx: RequestContext,
    identifier: string,
    reason: string | null,
    /** Given (REST v5): only its owners, with a token of `deleteConfirmation` (400 if missing, wrong or expired). */
    confirmation?: string | null,
  ): Promise<boolean> {
    const comments = this.policy.comments(reason, 'reason');
    const confirmed = confirmation !== undefined;
    const addon = await this.policy.owned(ctx, identifier, !confirmed);
    if (confirmed) this.deleteConfirmations.check(addon.id, ctx.viewer.userId!, confirmation);
    await this.run(ctx, addon.id, this.deletion(addon.id, ctx.viewer.userId, comments));
    return true;
  }

  /** A token confirming the add-on's deletion by this owner, good for a minute (the original's `delete_confirm`). */
  async deleteConfirmation(ctx: RequestContext, identifier: string): Promise<string> {
    const addon = await this.policy.owned(ctx, identifier, false);
    return this.deleteConfirmations.issue(addon.id, ctx.viewer.userId!);
  }

  /** Deletes a version (owners, or `Addons:Edit`): its number can never be uploaded again. */
  async deleteVersion(ctx: RequestContext, identifier: string, versionId: number): Promise<AddonState> {
    const addon = await this.policy.owned(ctx, identifier, true);
    const version = Number.isSafeInteger(versionId)
      ? await ctx.em.findOne(Version, { id: versionId, addon: addon.id })
      : null;
    if (!version || version.deleted) throw lifecycleErrors.versionDeleted();
    await this.run(ctx, addon.id, {
      action: ActivityAction.VERSION_DELETED,
      actorId: ctx.viewer.userId,
      versionId: version.id,
      details: { version: version.version, channel: version.channel },
      apply: async (_addon, tx) => {
        const row = await tx.findOneOrFail(Version, version.id);
        row.deleted = true;
        await tx.nativeUpdate(
          AddonFile,
          { version: version.id, status: { $ne: FileStatus.DISABLED } },
          { status: FileStatus.DISABLED },
        );
      },
      events: [['version.deleted', { addonId: addon.id, versionId: version.id }]],
    });
    return addonState(ctx.em, addon.id);
  }

  /**
   * Admins (`Reviews:Admin`) disable an add-on (`is_disabled_by_vendor`: status disabled) or enable
   * it again: enabling restores the status its versions give it (public with an approved listed
   * version, else awaiting review or incomplete). Both are idempotent, as the original's 202s.
   */
  async setDisabledByVendor(
    ctx: RequestContext,
    identifier: string,
    disabled: boolean,
    comment: string | null,
  ): Promise<AddonState> {
    const comments = this.policy.comments(comment, 'comment');
    const addon = await this.policy.administered(ctx, identifier);
    const isDisabled = addon.status === AddonStatus.DISABLED;
    if (isDisabled !== disabled) {
      const by: DisabledBy = 'vendor';
      await this.run(ctx, addon.id, {
        action: disabled ? ActivityAction.DISABLED_BY_ADMIN : ActivityAction.ENABLED_BY_ADMIN,
        actorId: ctx.viewer.userId,
        comments,
        // Enabling derives the status as if it were public: public, awaiting review or incomplete.
        apply: (a) => void (a.status = disabled ? AddonStatus.DISABLED : AddonStatus.PUBLIC),
        derive: !disabled,
        events: [[disabled ? 'addon.disabled' : 'addon.enabled', { addonId: addon.id, by }]],
      });
    }
    return addonState(ctx.em, addon.id);
  }

  /**
   * Admins (`Reviews:Admin`) deny uploads of the add-on's id (no new add-on and no new version may
   * use it) or allow them again; a conflict when it is already so, or the add-on has no id.
   */
  async setResubmissionDenied(
    ctx: RequestContext,
    identifier: string,
    denied: boolean,
    comment: string | null,
  ): Promise<AddonState> {
    const comments = this.policy.comments(comment, 'comment');
    const addon = await this.policy.administered(ctx, identifier);
    if (!addon.guid) throw lifecycleErrors.noGuid();
    const guid = addon.guid;
    await this.run(ctx, addon.id, {
      action: denied ? ActivityAction.RESUBMISSION_DENIED : ActivityAction.RESUBMISSION_ALLOWED,
      actorId: ctx.viewer.userId,
      comments,
      details: { guid },
      derive: false,
      apply: async (_addon, tx) => {
        const isDenied = (await tx.count(DeniedGuid, { guid })) > 0;
        if (isDenied === denied) throw denied ? lifecycleErrors.alreadyDenied() : lifecycleErrors.notDenied();
        if (denied) tx.create(DeniedGuid, { guid, comments });
        else await tx.nativeDelete(DeniedGuid, { guid });
      },
    });
    return addonState(ctx.em, addon.id);
  }

  /**
   * Refuses an add-on id for good (`Addons:Edit`, the operation's `@Requires`), whether or not an
   * add-on has it: uploads with it answer "Duplicate add-on ID found.". False when it was already denied.
   */
  async denyGuid(ctx: RequestContext, guid: string, comments: string | null): Promise<boolean> {
    const problems = {
      guid: lengthProblem(guid, 'deniedGuid'),
      comments: lengthProblem(comments, 'deniedGuidComments'),
    };
    const fields = Object.fromEntries(Object.entries(problems).flatMap(([k, m]) => (m ? [[k, [m]]] : [])));
    if (Object.keys(fields).length) throw errors.validation(fields);
    const value = guid.trim();
    if (!value) throw errors.validation({ guid: [fieldMessages.blank] });
    if (await ctx.em.count(DeniedGuid, { guid: value })) return false;
    ctx.em.create(DeniedGuid, { guid: value, comments: comments ?? '' });
    await ctx.em.flush();
    const owner = await addonIdByGuid(ctx.em, value);
    if (owner !== null) {
      await this.change(ctx.em, owner, {
        action: ActivityAction.RESUBMISSION_DENIED,
        actorId: ctx.viewer.userId,
        comments: comments ?? '',
        details: { guid: value },
        derive: false,
      });
    }
    return true;
  }

  /**
   * Curators (`Admin:Curation`, checked by the operation's `@Requires`) promote an add-on in a category
   * for some applications, or stop promoting it.
   */
  async setPromotion(
    ctx: RequestContext,
    identifier: string,
    promotion: { category: number; apps: readonly number[] } | null,
  ): Promise<AddonState> {
    const apps = [...new Set(promotion?.apps ?? [])].sort((a, b) => a - b);
    if (promotion && !apps.length) throw lifecycleErrors.noApps();
    const addon = await this.policy.existing(ctx, identifier);
    const category = promotion?.category ?? null;
    const same = addon.promotedCategory === category && sameNumbers(addon.promotedApps, category === null ? [] : apps);
    if (!same) {
      await this.run(ctx, addon.id, {
        action: category === null ? ActivityAction.PROMOTION_CLEARED : ActivityAction.PROMOTED,
        actorId: ctx.viewer.userId,
        details: {
          promoted: category === null ? null : { category, apps },
          previous:
            addon.promotedCategory === null ? null : { category: addon.promotedCategory, apps: addon.promotedApps },
        },
        derive: false,
        apply: (a) =>
          void Object.assign(a, { promotedCategory: category, promotedApps: category === null ? [] : apps }),
        events: [['addon.promoted', { addonId: addon.id, category, apps: category === null ? [] : apps }]],
      });
    }
    return addonState(ctx.em, addon.id);
  }

  /**
   * A block of the add-on's guid was created, changed or removed (the blocklist's writes, in their
   * transaction): recorded in the audit log, without changing the add-on's status.
   */
  async recordBlock(
    tx: EntityManager,
    addonId: number,
    block: { change: 'created' | 'edited' | 'deleted'; actorId: number | null; details: Record<string, unknown> },
  ): Promise<void> {
    const action = {
      created: ActivityAction.BLOCKED,
      edited: ActivityAction.BLOCK_EDITED,
      deleted: ActivityAction.UNBLOCKED,
    };
    const soft = (block.details.block as { soft?: boolean } | null)?.soft ?? null;
    await this.change(tx, addonId, {
      action: action[block.change],
      actorId: block.actorId,
      details: block.details,
      derive: false,
      events: [['addon.blocked', { addonId, change: block.change, soft }]],
    });
  }

  /**
   * A version's source code archive was attached (or replaced) by `actorId`: recorded only (no
   * status follows from it; the original flags a human review only for versions pending
   * rejection, which this service does not have).
   */
  async sourceUploaded(
    tx: EntityManager,
    args: { addonId: number; versionId: number; actorId: number; details: Record<string, unknown> },
  ): Promise<void> {
    await this.change(tx, args.addonId, {
      action: ActivityAction.SOURCE_CODE_UPLOADED,
      actorId: args.actorId,
      versionId: args.versionId,
      details: args.details,
      derive: false,
    });
  }

  /**
   * Trusted publishing (src/trusted-publishing/): a publisher added or removed, or a key issued for
   * an OIDC token; recorded only (no status follows from it).
   */
  async recordTrustedPublishing(
    tx: EntityManager,
    addonId: number,
    entry: {
      change: 'added' | 'removed' | 'keyIssued';
      actorId: number | null;
      details: Record<string, unknown>;
    },
  ): Promise<void> {
    const action = {
      added: ActivityAction.TRUSTED_PUBLISHER_ADDED,
      removed: ActivityAction.TRUSTED_PUBLISHER_REMOVED,
      keyIssued: ActivityAction.TRUSTED_PUBLISHING_KEY_ISSUED,
    };
    await this.change(tx, addonId, {
      action: action[entry.change],
      actorId: entry.actorId,
      details: entry.details,
      derive: false,
    });
  }

  // ---- The one write path ----

  private deletion(addonId: number, actorId: number | null, comments: string): Change {
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
  private run(ctx: RequestContext, addonId: number, change: Change): Promise<void> {
    if (ctx.em.isInTransaction()) return this.change(ctx.em, addonId, change);
    return ownTransaction(ctx.em, (tx) => this.change(tx, addonId, change));
  }

  /**
   * Locks the add-on row, applies the change, derives the status, refreshes the add-on's derived
   * columns, writes the audit entry and queues the events, all in `tx`.
   */
  private async change(tx: EntityManager, addonId: number, change: Change): Promise<void> {
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

  private async record(tx: EntityManager, addon: Addon, change: Change, from: number): Promise<void> {
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

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && [...a].sort((x, y) => x - y).every((n, i) => n === b[i]);
}
