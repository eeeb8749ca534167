import type { RequestContext } from '../../core/context.js';
import { errors } from '../../core/errors.js';
import { fieldMessages } from '../../core/messages.js';
import { lengthProblem } from '../../core/text-limits.js';
import type { DomainEvents } from '../../events/domain-events.js';
import { DeniedGuid } from '../denied-guid.entity.js';
import { addonIdByGuid } from '../addon-access.js';
import { AddonStatus, FileStatus } from '../catalogue.enums.js';
import { AddonFile, Version } from '../version.entity.js';
import { ActivityAction, type DisabledBy, type LifecycleEvents } from './lifecycle.enums.js';
import { lifecycleErrors } from './lifecycle.rules.js';
import type { LifecyclePolicy } from './lifecycle.policy.js';
import { addonState, type AddonState } from './lifecycle.state.js';
import { DeleteConfirmations } from './delete-confirmation.js';
import { LifecycleTransitions } from './lifecycle.transitions.js';
import { CATALOGUE_TEXT_LIMITS } from '../text-limits.js';

export type { Change } from './lifecycle.write-path.js';

/**
 * The only code that changes an add-on's status, its disabled flags, its deletion, its promotion
 * or a version's review state. Every change runs in one transaction that locks the add-on row,
 * applies the change, derives the status from the listed versions (`derivedStatus`), refreshes
 * the columns that follow from versions (`refreshAddons`: current version, compatibility), writes
 * an audit log entry and queues the domain events (search reindexing and mail subscribe to them).
 * Cached answers showing the add-on are outdated in the same transaction by the cache-tag triggers.
 *
 * The code is in three layers of this folder: the one write path (lifecycle.write-path.ts), the
 * transitions other domains report in their transaction (lifecycle.transitions.ts), and here the
 * operations of GraphQL and REST, which check the caller's permissions first.
 */
export class AddonLifecycle extends LifecycleTransitions {
  constructor(
    private readonly policy: LifecyclePolicy,
    events: DomainEvents<LifecycleEvents>,
    /** The tokens confirming a deletion (REST v5's `delete_confirm`). */
    private readonly deleteConfirmations: DeleteConfirmations = new DeleteConfirmations(),
  ) {
    super(events);
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
      guid: lengthProblem(guid, CATALOGUE_TEXT_LIMITS.deniedGuid),
      comments: lengthProblem(comments, CATALOGUE_TEXT_LIMITS.deniedGuidComments),
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
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && [...a].sort((x, y) => x - y).every((n, i) => n === b[i]);
}
