import type { EntityManager } from '@mikro-orm/postgresql';
import { Addon, AddonUser } from '../addon.entity.js';
import { AddonStatus, FileStatus } from '../catalogue.enums.js';
import { AddonFile, Version } from '../version.entity.js';
import { ActivityAction, type ReviewDecisionKind } from './lifecycle.enums.js';
import { LifecycleWritePath, type EventList } from './lifecycle.write-path.js';

const REVIEW_ACTIONS: Record<ReviewDecisionKind, ActivityAction> = {
  approve: ActivityAction.REVIEW_APPROVED,
  reject: ActivityAction.REVIEW_REJECTED,
  requestInformation: ActivityAction.REVIEW_INFORMATION_REQUESTED,
  comment: ActivityAction.REVIEW_COMMENTED,
};

/**
 * The transitions other domains report in their own transaction (`…(tx, …)`): the signing
 * pipeline, reviews, accounts, the blocklist, source uploads and trusted publishing. They check no
 * permission: their callers did. AddonLifecycle (lifecycle.service.ts) adds the operations.
 */
export abstract class LifecycleTransitions extends LifecycleWritePath {
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

  /**
   * The add-ons (not deleted yet) whose only author is the account being deleted (v4): deleted with
   * it, in its transaction; add-ons it shares keep their other authors.
   */
  async deleteWithAccount(tx: EntityManager, userId: number, actorId: number): Promise<void> {
    const authored = await tx.find(AddonUser, { user: userId }, { fields: ['addon'] });
    const addonIds = authored.map((a) => a.addon.id);
    if (!addonIds.length) return;
    const shared = await tx.find(AddonUser, { addon: { $in: addonIds }, user: { $ne: userId } }, { fields: ['addon'] });
    const keep = new Set(shared.map((a) => a.addon.id));
    const sole = addonIds.filter((id) => !keep.has(id));
    if (!sole.length) return;
    const live = await tx.find(Addon, { id: { $in: sole }, status: { $ne: AddonStatus.DELETED } }, { fields: ['id'] });
    for (const addonId of live.map((a) => a.id).sort((a, b) => a - b)) {
      await this.change(tx, addonId, this.deletion(addonId, actorId, 'The account of its only author was deleted.'));
    }
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
}
