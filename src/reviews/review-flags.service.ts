import type { EntityManager } from '@mikro-orm/postgresql';
import { Addon } from '../catalogue/addon.entity.js';
import { AddonType, Channel } from '../catalogue/catalogue.enums.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { AddonReviewerFlags } from './review.entity.js';

export type ReviewerFlagsChange = Partial<
  Pick<
    AddonReviewerFlags,
    | 'autoApprovalDisabled'
    | 'autoApprovalDisabledUntilNextApproval'
    | 'autoApprovalDelayedUntil'
    | 'needsAdminCodeReview'
    | 'needsAdminContentReview'
    | 'needsAdminThemeReview'
  >
>;

/** Which of `needs_admin_code_review`, `needs_admin_content_review`, `needs_admin_theme_review` applies. */
export type AdminReviewFlag = 'code' | 'content' | 'theme';

const NONE = {
  autoApprovalDisabled: false,
  autoApprovalDisabledUntilNextApproval: false,
  autoApprovalDelayedUntil: null,
  needsAdminCodeReview: false,
  needsAdminContentReview: false,
  needsAdminThemeReview: false,
};

/** Reviewer flags of an add-on (absent: all off) and what they mean for new versions. */
export class ReviewFlagsService {
  constructor(private readonly catalogue: CatalogueService) {}

  async get(em: EntityManager, addonId: number): Promise<AddonReviewerFlags | null> {
    return em.findOne(AddonReviewerFlags, { addon: addonId });
  }

  /**
   * New versions of this add-on wait for a human instead of being approved automatically (an
   * add-on flagged for an admin code or theme review waits for an admin).
   */
  async blocksAutoApproval(em: EntityManager, addon: Addon, now = new Date()): Promise<boolean> {
    const flags = await this.get(em, addon.id);
    if (!flags) return false;
    const theme = isTheme(addon);
    return (
      (theme ? flags.needsAdminThemeReview : flags.needsAdminCodeReview) ||
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

  /**
   * Reads need `Addons:Review`; changes need `Reviews:Admin` (the original's rule for these flags),
   * checked before the add-on is looked up by the operations' `@Requires`.
   */
  async read(ctx: RequestContext, identifier: string) {
    const addon = await this.addon(ctx, identifier);
    return (await this.get(ctx.em, addon.id)) ?? NONE;
  }

  async update(ctx: RequestContext, identifier: string, change: ReviewerFlagsChange) {
    const addon = await this.addon(ctx, identifier);
    const flags = (await this.get(ctx.em, addon.id)) ?? ctx.em.create(AddonReviewerFlags, { addon: addon.id });
    for (const [key, value] of Object.entries(change)) {
      if (value !== undefined && (value !== null || key === 'autoApprovalDelayedUntil')) {
        (flags as unknown as Record<string, unknown>)[key] = value;
      }
    }
    await ctx.em.flush();
    return flags;
  }

  private async addon(ctx: RequestContext, identifier: string): Promise<Addon> {
    const found = await this.catalogue.lookup(ctx, identifier);
    if (!found) throw errors.notFound();
    return ctx.em.findOneOrFail(Addon, found.id);
  }
}

/**
 * The "needs admin review" flag that reserves decisions on this version to `Reviews:Admin`, if one
 * applies (as the original picks the reviewer permission): the theme flag for themes, the code flag
 * for everything else, and the content flag for listed versions (public content).
 */
export async function adminReviewFlag(
  em: EntityManager,
  addon: Addon,
  channel: Channel,
): Promise<AdminReviewFlag | null> {
  const flags = await em.findOne(AddonReviewerFlags, { addon: addon.id });
  if (!flags) return null;
  const theme = isTheme(addon);
  if (theme && flags.needsAdminThemeReview) return 'theme';
  if (!theme && flags.needsAdminCodeReview) return 'code';
  if (channel === Channel.LISTED && flags.needsAdminContentReview) return 'content';
  return null;
}

/** Themes get the theme flag; everything else (code) the code flag. */
function isTheme(addon: Addon): boolean {
  return addon.type === AddonType.STATICTHEME || addon.type === AddonType.PERSONA;
}
