import type { EntityManager } from '@mikro-orm/postgresql';
import type { Addon } from '../catalogue/addon.entity.js';
import { AddonReviewerFlags } from './review.entity.js';

/** Reviewer flags of an add-on (absent: all off) and what they mean for new versions. */
export class ReviewFlagsService {
  async get(em: EntityManager, addonId: number): Promise<AddonReviewerFlags | null> {
    return em.findOne(AddonReviewerFlags, { addon: addonId });
  }

  /** New versions of this add-on wait for a human instead of being approved automatically. */
  async blocksAutoApproval(em: EntityManager, addon: Addon, now = new Date()): Promise<boolean> {
    const flags = await this.get(em, addon.id);
    if (!flags) return false;
    return (
      flags.autoApprovalDisabled ||
      flags.autoApprovalDisabledUntilNextApproval ||
      (flags.autoApprovalDelayedUntil !== null && flags.autoApprovalDelayedUntil > now)
    );
  }

  /** A human approved the latest version: the "until next approval" flag has done its job. */
  async afterHumanApproval(em: EntityManager, addonId: number): Promise<void> {
    const flags = await this.get(em, addonId);
    if (flags?.autoApprovalDisabledUntilNextApproval) flags.autoApprovalDisabledUntilNextApproval = false;
  }
}
