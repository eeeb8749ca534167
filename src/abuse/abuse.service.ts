import { raw } from '@mikro-orm/core';
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { AccountsService } from '../accounts/accounts.service.js';
import { User } from '../accounts/user.entity.js';
import { Permission } from '../access/permissions.js';
import { AddonStatus } from '../catalogue/catalogue.enums.js';
import { looksLikeGuid, type CatalogueService } from '../catalogue/catalogue.service.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import { Collection } from '../collections/collection.entity.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { pageRequest, toPage, type Page } from '../core/pagination.js';
import { lengthProblem, truncateText } from '../core/text-limits.js';
import { selectRows } from '../db/rows.js';
import { Rating } from '../ratings/rating.entity.js';
import { flagForHumanReview, HumanReviewReason } from '../reviews/human-review.js';
import { QUEUED_VERSION_SQL } from '../reviews/queue-standing.js';
import { AddonReviewerFlags } from '../reviews/review.entity.js';
import { AbuseReport } from './abuse-report.entity.js';
import { CURRENT_ABUSE_REASONS, DEFAULT_ABUSE_APP, normaliseChoice } from './abuse.enums.js';
import {
  COMMON_FIELDS,
  abuseMessages,
  addonReportFields,
  checkFields,
  idOf,
  requiredText,
  type AddonReportInput,
  type CollectionReportInput,
  type RatingReportInput,
  type ReportValues,
  type UserReportInput,
} from './abuse.report-fields.js';
import { takeAbuseThrottle, type AbuseRate } from './abuse.throttle.js';

export {
  abuseMessages,
  type AddonReportInput,
  type CollectionReportInput,
  type RatingReportInput,
  type ReportCommonInput,
  type UserReportInput,
} from './abuse.report-fields.js';
import { ABUSE_TEXT_LIMITS } from './text-limits.js';

export type AbuseReportState = 'open' | 'resolved';

export interface AbuseReportFilter {
  addon?: string | null;
  user?: string | null;
  reason?: string | null;
  state?: AbuseReportState | null;
}

export interface AbuseOptions {
  /** Reports a signed-in user, and a client address, may send per day (the original: 20). */
  reportsPerDay: number;
  /** Open reports about an add-on in 30 days that send it to human review (ABUSE_REPORTS_REVIEW_THRESHOLD). */
  reviewThreshold?: number;
}

/** The permissions that read and resolve reports; disabling the add-on also needs `Reviews:Admin`. */
export const ABUSE_MODERATOR_PERMISSIONS = [Permission.ABUSE_REPORTS_EDIT, Permission.REVIEWS_ADMIN] as const;

const DAY = 24 * 60 * 60;

/**
 * Abuse reports (docs/compat-notes.md §4.7): anyone reports an add-on (by id, slug or guid; a guid unknown
 * to the site is kept as given) or a user; signed-in reporters are recorded. Both APIs apply the
 * same rules in the same order: the throttles (per signed-in user and per client address), every
 * field's length before anything else reads it, the fields (all refused ones at once, keyed by
 * their REST names, with DRF's messages), the rules across fields, then the lookup (404).
 *
 * Moderators (`AbuseReports:Edit`, or `Reviews:Admin`) list and resolve reports; resolving may
 * disable the add-on through the lifecycle (which requires `Reviews:Admin` and writes the audit log).
 */
export class AbuseService {
  private readonly rates: readonly AbuseRate[];

  constructor(
    private readonly catalogue: CatalogueService,
    private readonly accounts: AccountsService,
    private readonly lifecycle: AddonLifecycle,
    private readonly options: AbuseOptions,
  ) {
    this.rates = [
      { scope: 'user', requests: options.reportsPerDay, seconds: DAY },
      { scope: 'ip', requests: options.reportsPerDay, seconds: DAY },
    ];
  }

  async reportAddon(ctx: RequestContext, input: AddonReportInput): Promise<AbuseReport> {
    await this.throttle(ctx);
    const fields = new FieldErrorCollector();
    const addon = requiredText(input.addon, ABUSE_TEXT_LIMITS.abuseField, (m) => fields.add('addon', m));
    const { values, text } = checkFields(fields, input, addonReportFields(input));

    const found = await this.catalogue.lookup(ctx, addon!);
    const known = found && found.status !== AddonStatus.DELETED ? found : null;
    if (!known && !looksLikeGuid(addon!)) throw errors.notFound();
    const report = ctx.em.create(AbuseReport, {
      addon: known,
      guid: known ? known.guid : addon!,
      reporter: this.reporter(ctx),
      ipAddress: clientAddress(ctx),
      message: text,
      app: input.app === undefined ? DEFAULT_ABUSE_APP : null,
      ...values,
    });
    await ctx.em.flush();
    if (known) await this.reviewWhenReported(ctx.em, known.id);
    await ctx.em.populate(report, ['reporter']);
    return report;
  }

  /**
   * Past the threshold of open reports in 30 days, the add-on goes to humans: its versions waiting
   * for review are due sooner (reason `abuse_reports`), and its next version is not approved
   * automatically (the reviewer flag "until next approval").
   */
  private async reviewWhenReported(em: EntityManager, addonId: number): Promise<void> {
    const threshold = this.options.reviewThreshold;
    if (!threshold) return;
    const [{ n }] = await selectRows<{ n: number }>(
      em,
      `select count(*)::int as n from abuse_reports
        where addon_id = ? and resolved_at is null and created > now() - interval '30 days'`,
      [addonId],
    );
    if (n < threshold) return;
    const waiting = await selectRows<{ id: number }>(
      em,
      `select v.id from versions v join addons a on a.id = v.addon_id where v.addon_id = ? and ${QUEUED_VERSION_SQL}`,
      [addonId],
    );
    for (const { id } of waiting) await flagForHumanReview(em, id, HumanReviewReason.ABUSE_REPORTS, { openReports: n });
    const flags =
      (await em.findOne(AddonReviewerFlags, { addon: addonId })) ?? em.create(AddonReviewerFlags, { addon: addonId });
    flags.autoApprovalDisabledUntilNextApproval = true;
    await em.flush();
  }

  async reportUser(ctx: RequestContext, input: UserReportInput): Promise<AbuseReport> {
    await this.throttle(ctx);
    const fields = new FieldErrorCollector();
    const user = requiredText(input.user, ABUSE_TEXT_LIMITS.abuseField, (m) => fields.add('user', m));
    // Without a reason (the v3/v4 form), the message is a required field, refused with the others.
    const { values, text } = checkFields(fields, input, COMMON_FIELDS, input.reason === undefined);
    const reported = await this.accounts.findUser(ctx, user!);
    if (!reported) throw errors.notFound();
    return this.save(ctx, { user: reported }, values, text);
  }

  /** Reports a rating (by its id; a deleted rating is not found), with the content reasons. */
  async reportRating(ctx: RequestContext, input: RatingReportInput): Promise<AbuseReport> {
    await this.throttle(ctx);
    const fields = new FieldErrorCollector();
    const id = requiredText(input.rating, ABUSE_TEXT_LIMITS.abuseField, (m) => fields.add('rating', m));
    const { values, text } = checkFields(fields, input, COMMON_FIELDS);
    const rating = idOf(id!) === null ? null : await ctx.em.findOne(Rating, { id: idOf(id!)!, deleted: false });
    if (!rating) throw errors.notFound();
    return this.save(ctx, { rating }, values, text);
  }

  /** Reports a collection (by its id; an unlisted one only by its author), with the content reasons. */
  async reportCollection(ctx: RequestContext, input: CollectionReportInput): Promise<AbuseReport> {
    await this.throttle(ctx);
    const fields = new FieldErrorCollector();
    const id = requiredText(input.collection, ABUSE_TEXT_LIMITS.abuseField, (m) => fields.add('collection', m));
    const { values, text } = checkFields(fields, input, COMMON_FIELDS);
    const collection = idOf(id!) === null ? null : await ctx.em.findOne(Collection, { id: idOf(id!)! });
    // An unlisted collection is found by its author alone, as reading it.
    if (!collection || (!collection.listed && collection.author.id !== ctx.viewer.userId)) throw errors.notFound();
    return this.save(ctx, { collection }, values, text);
  }

  private async save(
    ctx: RequestContext,
    target: Pick<Partial<AbuseReport>, 'user' | 'rating' | 'collection'>,
    values: ReportValues,
    text: string,
  ): Promise<AbuseReport> {
    const report = ctx.em.create(AbuseReport, {
      ...target,
      reporter: this.reporter(ctx),
      ipAddress: clientAddress(ctx),
      message: text,
      ...values,
    });
    await ctx.em.flush();
    await ctx.em.populate(report, ['reporter']);
    return report;
  }

  /**
   * Reports, newest first, filtered. Moderators only: list, get and resolve are checked by their
   * operations' `@Requires` (ABUSE_MODERATOR_PERMISSIONS).
   */
  async list(
    ctx: RequestContext,
    filter: AbuseReportFilter,
    page?: number | null,
    pageSize?: number | null,
  ): Promise<Page<AbuseReport>> {
    const fields = new FieldErrorCollector();
    for (const name of ['addon', 'user', 'reason'] as const) {
      fields.check(name, lengthProblem(filter[name], ABUSE_TEXT_LIMITS.abuseField));
    }
    const reason = filter.reason ? normaliseChoice(filter.reason) : null;
    if (!fields.has('reason') && reason !== null && !CURRENT_ABUSE_REASONS.includes(reason as never)) {
      fields.add('reason', abuseMessages.invalidChoice(filter.reason!));
    }
    fields.throwIfAny();
    const request = pageRequest(page, pageSize);

    const where: FilterQuery<AbuseReport>[] = [];
    if (reason) where.push({ reason });
    if (filter.state) where.push({ resolvedAt: filter.state === 'open' ? null : { $ne: null } });
    if (filter.addon) {
      const addon = await this.catalogue.lookup(ctx, filter.addon);
      const guid = addon?.guid ?? (looksLikeGuid(filter.addon) ? filter.addon : null);
      const either: FilterQuery<AbuseReport>[] = [];
      if (addon) either.push({ addon: addon.id });
      if (guid) either.push({ [raw((alias) => `lower(${alias}.guid)`)]: guid.toLowerCase() });
      if (!either.length) return toPage(request, 0, []);
      where.push({ $or: either });
    }
    if (filter.user) {
      const user = await this.accounts.findUser(ctx, filter.user);
      if (!user) return toPage(request, 0, []);
      where.push({ user: user.id });
    }
    const [items, count] = await ctx.em.findAndCount(AbuseReport, where.length ? { $and: where } : {}, {
      orderBy: { id: 'desc' },
      limit: request.limit,
      offset: request.offset,
      populate: ['addon', 'user', 'rating', 'collection', 'reporter', 'resolvedBy'],
    });
    return toPage(request, count, items);
  }

  async get(ctx: RequestContext, id: number): Promise<AbuseReport> {
    return this.report(ctx, id);
  }

  /**
   * Resolves an open report (a conflict when it is resolved already), with a note. With
   * `disableAddon` the reported add-on is disabled first, through the lifecycle's admin operation
   * (`Reviews:Admin`; it records the audit log entry with the note): a refusal leaves the report open.
   */
  async resolve(ctx: RequestContext, id: number, note: string | null, disableAddon: boolean): Promise<AbuseReport> {
    const problem = lengthProblem(note, ABUSE_TEXT_LIMITS.abuseResolutionNote);
    if (problem) throw errors.validation({ note: [problem] });
    const report = await this.report(ctx, id);
    if (report.resolvedAt) throw errors.conflict(abuseMessages.alreadyResolved);
    const text = (note ?? '').trim();
    if (disableAddon) {
      if (!report.addon) throw errors.validation({ disableAddon: [abuseMessages.noAddonToDisable] });
      const comment = `Abuse report #${report.id}${text ? `: ${text}` : ''}`;
      await this.lifecycle.setDisabledByVendor(ctx, String(report.addon.id), true, comment);
    }
    report.resolvedAt = new Date();
    report.resolvedBy = ctx.em.getReference(User, ctx.viewer.userId!);
    report.resolutionNote = text;
    await ctx.em.flush();
    await ctx.em.populate(report, ['resolvedBy']);
    return report;
  }

  private async report(ctx: RequestContext, id: number): Promise<AbuseReport> {
    const report = Number.isSafeInteger(id)
      ? await ctx.em.findOne(AbuseReport, id, {
          populate: ['addon', 'user', 'rating', 'collection', 'reporter', 'resolvedBy'],
        })
      : null;
    if (!report) throw errors.notFound();
    return report;
  }

  private reporter(ctx: RequestContext): User | null {
    return ctx.viewer.user ? ctx.em.getReference(User, ctx.viewer.user.id) : null;
  }

  /**
   * The original's two throttles (20 a day each): the signed-in user's, and the client address's
   * (every caller's). Each request that reaches them counts, whatever its outcome.
   */
  private async throttle(ctx: RequestContext): Promise<void> {
    const keys: [AbuseRate, string | null][] = [
      [this.rates[0], ctx.viewer.userId === null ? null : String(ctx.viewer.userId)],
      [this.rates[1], clientAddress(ctx)],
    ];
    let wait = 0;
    for (const [rate, key] of keys) {
      if (key === null) continue;
      wait = Math.max(wait, (await takeAbuseThrottle(ctx.em, rate, key)) ?? 0);
    }
    if (wait > 0) throw errors.throttled(wait);
  }
}

/** The client's address as stored (an address with a zone id may be longer than the column). */
function clientAddress(ctx: RequestContext): string | null {
  return ctx.request.ip === null ? null : truncateText(ctx.request.ip, ABUSE_TEXT_LIMITS.abuseReporterIp);
}
