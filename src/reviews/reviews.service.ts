import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { hasPermission } from '../accounts/permissions.js';
import { Permission } from '../auth/permissions.js';
import { selectRows } from '../db/rows.js';
import { User } from '../accounts/user.entity.js';
import type { Viewer } from '../auth/viewer.js';
import { type Addon, AddonUser } from '../catalogue/addon.entity.js';
import { existingAddon, isAuthor, isUserAuthor } from '../catalogue/addon-access.js';
import { Channel, FileStatus } from '../catalogue/catalogue.enums.js';
import { isUnlistedReviewer } from '../catalogue/catalogue.permissions.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import { Version } from '../catalogue/version.entity.js';
import { existingVersion } from '../catalogue/version-access.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { fieldMessages } from '../core/messages.js';
import { pageRequest, toPage, type Page } from '../core/pagination.js';
import { TEXT_LIMITS, lengthProblem, truncateText } from '../core/text-limits.js';
import type { JobQueue } from '../jobs/queue.port.js';
import {
  closeHumanReview,
  flagForHumanReview,
  HumanReviewReason,
  NeedsHumanReview,
  openReasons,
} from './human-review.js';
import { DUE_SQL, QUEUED_VERSION_SQL } from './queue-standing.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import type { Mailer } from '../mail/mailer.port.js';
import { mails } from '../mail/templates.js';
import type { ReviewMaterialAccess } from './review-material-access.js';
import type { DraftCommentsService } from './draft-comments.service.js';
import { DraftComment } from './draft-comment.entity.js';
import { ReviewAction, reviewActionLabel } from './review.enums.js';
import { ReviewNote, ReviewReplyToken } from './review.entity.js';
import type { AdminReviewFlag, ReviewFlagsService } from './review-flags.service.js';

/** How many replies one address may carry (the original's MAX_TOKEN_USE_COUNT). */
const MAX_TOKEN_USES = 100;
const COMMENTS_MAX = TEXT_LIMITS.reviewComments;

export type ReviewDecision = 'approve' | 'reject' | 'requestInformation' | 'comment';

const DECISION_ACTIONS: Record<ReviewDecision, ReviewAction> = {
  approve: ReviewAction.APPROVED,
  reject: ReviewAction.REJECTED,
  requestInformation: ReviewAction.MORE_INFORMATION_REQUESTED,
  comment: ReviewAction.COMMENT,
};

export interface ReviewSettings {
  /** Name shown for notes written by the service itself (automatic approvals). */
  serviceName: string;
  /** Domain of `reviewreply+<uuid>@<domain>`. */
  replyDomain: string;
  siteUrl: string;
  /** Reviewers may decide on their own add-ons' versions (the original's ALLOW_SELF_REVIEWS, off by default). */
  allowSelfReviews?: boolean;
}

/** The authors' mail for each decision's note (`review.decided` is published for these only). */
const DECISION_MAILS = new Map<ReviewAction, typeof mails.reviewApproved>([
  [ReviewAction.APPROVED, mails.reviewApproved],
  [ReviewAction.REJECTED, mails.reviewRejected],
  [ReviewAction.MORE_INFORMATION_REQUESTED, mails.reviewInformationRequested],
  [ReviewAction.COMMENT, mails.reviewComment],
]);

/** Decisions a "needs admin review" flag reserves to `Reviews:Admin`; comments stay open to reviewers. */
const ADMIN_FLAGGED_DECISIONS: ReadonlySet<ReviewDecision> = new Set(['approve', 'reject', 'requestInformation']);

export const reviewMessages = {
  /** The original's message (reviewers' review page). */
  selfReview: 'Self-reviews are not allowed.',
  adminReview: (flag: AdminReviewFlag) =>
    `This add-on is flagged for an admin ${flag} review: only admin reviewers (Reviews:Admin) can make this decision.`,
};

/** Inbound mail, as the mail provider posts it (`POST /api/{v}/activity/mail/`). */
export interface InboundMail {
  to: string[];
  textBody: string;
}

/**
 * Reviews of versions and their history: the reviewer queue, decisions (each one a review note
 * and a status change), review notes for developers and reviewers, and replies by mail.
 */
/** Narrows the reviewer queue; absent fields do not filter. */
export interface ReviewQueueFilter {
  addonType?: number | null;
  /** A part of the add-on's name in any language (case-insensitive). */
  name?: string | null;
  needsAdminCodeReview?: boolean | null;
  needsAdminContentReview?: boolean | null;
  needsAdminThemeReview?: boolean | null;
  autoApprovalDisabled?: boolean | null;
  /** Promoted (recommended, by the vendor…) add-ons only, or none of them. */
  promoted?: boolean | null;
}

export type ReviewQueueOrder = 'due' | 'oldest' | 'newest' | 'most_users';

const QUEUE_FLAG_COLUMNS = [
  ['needsAdminCodeReview', 'needs_admin_code_review'],
  ['needsAdminContentReview', 'needs_admin_content_review'],
  ['needsAdminThemeReview', 'needs_admin_theme_review'],
  ['autoApprovalDisabled', 'auto_approval_disabled'],
] as const;

const QUEUE_ORDER: Record<ReviewQueueOrder, string> = {
  due: `${DUE_SQL} asc, v.created asc, v.id asc`,
  oldest: 'v.created asc, v.id asc',
  newest: 'v.created desc, v.id desc',
  most_users: 'a.average_daily_users desc, v.created asc, v.id asc',
};

export class ReviewsService {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly jobs: JobQueue<ServiceJobs>,
    private readonly flags: ReviewFlagsService,
    private readonly lifecycle: AddonLifecycle,
    private readonly mailer: Mailer,
    private readonly settings: ReviewSettings,
    private readonly drafts: DraftCommentsService,
    private readonly access: ReviewMaterialAccess,
  ) {}

  /**
   * Versions waiting for a human: listed ones for listed reviewers, unlisted ones for unlisted
   * reviewers, narrowed by `filter` (add-on type, a part of its name, reviewer flags, promotion)
   * and in `order` (the earliest due first by default), each with its due date and open reasons.
   */
  async queue(
    ctx: RequestContext,
    channel: Channel,
    page?: number | null,
    pageSize?: number | null,
    filter: ReviewQueueFilter = {},
    order: ReviewQueueOrder = 'due',
  ) {
    this.assertReviewer(ctx.viewer, channel);
    const name = filter.name?.trim().toLowerCase() || null;
    const nameProblem = name === null ? null : lengthProblem(name, 'queueNameFilter');
    if (nameProblem) throw errors.validation({ name: [nameProblem] });
    const request = pageRequest(page, pageSize);
    const conditions = ['v.channel = ?', QUEUED_VERSION_SQL];
    const params: unknown[] = [channel];
    const where = (condition: string, ...values: unknown[]) => {
      conditions.push(condition);
      params.push(...values);
    };
    if (filter.addonType != null) where('a.type = ?', filter.addonType);
    if (name !== null) where(`a.search_name like ? escape '\\'`, `%${name.replace(/[\\%_]/g, '\\$&')}%`);
    if (filter.promoted != null) where(`(a.promoted_category is not null) = ?`, filter.promoted);
    for (const [field, column] of QUEUE_FLAG_COLUMNS) {
      const value = filter[field];
      if (value != null) where(`coalesce(f.${column}, false) = ?`, value);
    }
    const rows = await ctx.em.getConnection().execute<{ id: number; total: number; due: Date | string }[]>(
      `select v.id, count(*) over ()::int as total, ${DUE_SQL} as due
         from versions v join addons a on a.id = v.addon_id
         left join addon_reviewer_flags f on f.addon_id = a.id
        where ${conditions.join(' and ')}
        order by ${QUEUE_ORDER[order]} limit ? offset ?`,
      [...params, request.limit, request.offset],
    );
    const count =
      rows[0]?.total ??
      (request.offset > 0
        ? Number(
            (
              await ctx.em.getConnection().execute<{ n: number }[]>(
                `select count(*)::int as n from versions v join addons a on a.id = v.addon_id
                   left join addon_reviewer_flags f on f.addon_id = a.id where ${conditions.join(' and ')}`,
                params,
              )
            )[0].n,
          )
        : 0);
    const ids = rows.map((r) => r.id);
    const versions = ids.length ? await ctx.em.find(Version, { id: { $in: ids } }, { populate: ['addon'] }) : [];
    const byId = new Map(versions.map((v) => [v.id, v]));
    const reasons = await openReasons(ctx.em, ids);
    const items = rows.map((row) => {
      const version = byId.get(row.id)!;
      return {
        version,
        addon: version.addon,
        waitingSince: version.created,
        dueDate: new Date(row.due),
        reasons: reasons.get(row.id) ?? [],
      };
    });
    return toPage(request, count, items);
  }

  /**
   * A reviewer's decision on a version. Approval queues the signature (the version becomes
   * approved, and a listed one public, once its file is signed); rejection disables its files;
   * information requests and comments only write the note. Authors are told by mail.
   */
  async decide(ctx: RequestContext, versionId: number, decision: ReviewDecision, comments: string | null) {
    const version = existingVersion(
      ctx,
      await ctx.em.findOne(Version, versionId, { populate: ['addon', 'files'] }),
      'nobody',
    );
    this.assertReviewer(ctx.viewer, version.channel);
    existingAddon(ctx, version.addon, 'nobody');
    await this.assertMayDecide(ctx, version, decision);
    // The decider's draft comments on the version become the decision's comments (after theirs).
    const drafted = await ctx.em.count(DraftComment, { version, user: ctx.viewer.userId! });
    const own = this.checkComments(comments, decision !== 'approve' && drafted === 0);
    const reviewer = await ctx.em.findOneOrFail(User, ctx.viewer.userId!);
    if ((decision === 'approve' || decision === 'reject') && !this.awaitingReview(version)) {
      throw errors.badRequest('This version is not awaiting review.');
    }
    const text = [own, await this.drafts.take(ctx.em, version.id, reviewer.id)].filter(Boolean).join('\n\n');
    const note = ctx.em.create(ReviewNote, {
      addon: version.addon,
      version,
      user: reviewer,
      action: DECISION_ACTIONS[decision],
      comments: text,
    });
    await ctx.em.flush();
    // The version's review state and the add-on's status change in the lifecycle, which also
    // publishes `review.decided`: the authors' mail (`mailDecision`) subscribes to it.
    await this.lifecycle.reviewDecided(ctx.em, {
      version,
      noteId: note.id,
      decision,
      actorId: reviewer.id,
      comments: text,
    });
    if (decision === 'approve' || decision === 'reject') await closeHumanReview(ctx.em, version.id);
    if (decision === 'approve') {
      await this.flags.afterHumanApproval(ctx.em, version.addon.id);
      await ctx.em.flush();
      await this.jobs.send('sign-version', { versionId: version.id }, { transaction: ctx.em });
    }
    return note;
  }

  /** An admin asks for a human review of a version waiting for one (`Reviews:Admin`, the operation's `@Requires`). */
  async flagForReview(ctx: RequestContext, versionId: number, note: string | null): Promise<boolean> {
    const problem = lengthProblem(note, COMMENTS_MAX);
    if (problem) throw errors.validation({ note: [problem] });
    const [queued] = await selectRows<{ id: number }>(
      ctx.em,
      `select v.id from versions v join addons a on a.id = v.addon_id where v.id = ? and ${QUEUED_VERSION_SQL}`,
      [versionId],
    );
    if (!queued) {
      if (!(await ctx.em.count(Version, { id: versionId, deleted: false }))) throw errors.notFound();
      throw errors.badRequest('This version is not awaiting review.');
    }
    const open = await ctx.em.count(NeedsHumanReview, {
      version: versionId,
      reason: HumanReviewReason.ADMIN_FLAG,
      isActive: true,
    });
    if (open) return false;
    await flagForHumanReview(ctx.em, versionId, HumanReviewReason.ADMIN_FLAG, {
      by: ctx.viewer.userId,
      note: note?.trim() || null,
    });
    return true;
  }

  /**
   * Reviewers never decide on versions of their own add-ons (unless self-reviews are allowed), and
   * a "needs admin review" flag that applies to the version reserves decisions to `Reviews:Admin`.
   */
  private async assertMayDecide(ctx: RequestContext, version: Version, decision: ReviewDecision) {
    if (!this.settings.allowSelfReviews) {
      if (await isAuthor(ctx, version.addon.id)) throw errors.forbidden(reviewMessages.selfReview);
    }
    if (ADMIN_FLAGGED_DECISIONS.has(decision) && !ctx.viewer.can(Permission.REVIEWS_ADMIN)) {
      const flag = await this.flags.adminReviewRequired(ctx.em, version.addon, version.channel);
      if (flag) throw errors.forbidden(reviewMessages.adminReview(flag));
    }
  }

  private awaitingReview(version: Version) {
    const files = version.files.getItems();
    return version.reviewed === null && files.some((f) => f.status === FileStatus.AWAITING_REVIEW);
  }

  private checkComments(comments: string | null, required: boolean): string {
    const text = (comments ?? '').trim();
    if (required && !text) throw errors.validation({ comments: [fieldMessages.blank] });
    const tooLong = lengthProblem(text, COMMENTS_MAX);
    if (tooLong) throw errors.validation({ comments: [tooLong] });
    return text;
  }

  private assertReviewer(viewer: Viewer, channel: Channel) {
    if (!viewer.isAuthenticated) throw errors.notAuthenticated();
    const allowed = channel === Channel.UNLISTED ? isUnlistedReviewer(viewer) : viewer.can(Permission.ADDONS_REVIEW);
    if (!allowed) throw errors.forbidden();
  }

  /** The version of the add-on whose notes the viewer may read (authors, reviewers of its channel). */
  private notesVersion(ctx: RequestContext, addonIdentifier: string, versionId: number): Promise<Version> {
    return this.access.version(ctx, addonIdentifier, versionId, { permissionFirst: true });
  }

  async notes(
    ctx: RequestContext,
    addon: string,
    versionId: number,
    page?: number | null,
    pageSize?: number | null,
  ): Promise<Page<ReviewNote>> {
    const version = await this.notesVersion(ctx, addon, versionId);
    const request = pageRequest(page, pageSize);
    const [items, count] = await ctx.em.findAndCount(
      ReviewNote,
      { version },
      { orderBy: { created: 'desc', id: 'desc' }, limit: request.limit, offset: request.offset, populate: ['user'] },
    );
    return toPage(request, count, items);
  }

  async note(ctx: RequestContext, addon: string, versionId: number, noteId: number): Promise<ReviewNote> {
    const version = await this.notesVersion(ctx, addon, versionId);
    const note = Number.isSafeInteger(noteId)
      ? await ctx.em.findOne(ReviewNote, { id: noteId, version }, { populate: ['user'] })
      : null;
    if (!note) throw errors.notFound();
    return note;
  }

  /** Notes newer than the viewer's own latest note on the version (what still needs their attention). */
  async highlighted(ctx: RequestContext, note: ReviewNote): Promise<boolean> {
    const userId = ctx.viewer.userId;
    if (userId === null || note.user?.id === userId) return false;
    const [latest] = await ctx.em.find(
      ReviewNote,
      { version: note.version, user: userId },
      { orderBy: { id: 'desc' }, limit: 1, fields: ['id'] },
    );
    return !latest || note.id > latest.id;
  }

  userName(note: ReviewNote): string {
    if (!note.user) return this.settings.serviceName;
    return note.user.displayName || `User ${note.user.id}`;
  }

  actionLabel(note: ReviewNote): string {
    return reviewActionLabel(note.action);
  }

  /** A note by an author or reviewer through the API: only on the latest version of its channel. */
  async addNote(ctx: RequestContext, addon: string, versionId: number, comments: string | null): Promise<ReviewNote> {
    const version = await this.notesVersion(ctx, addon, versionId);
    const text = this.checkComments(comments, true);
    const [latest] = await ctx.em.find(
      Version,
      { addon: version.addon, channel: version.channel, deleted: false },
      { orderBy: { id: 'desc' }, limit: 1, fields: ['id'] },
    );
    if (latest?.id !== version.id) throw errors.badRequest('Only latest versions of addons can have notes added.');
    const user = await ctx.em.findOneOrFail(User, ctx.viewer.userId!);
    const note = ctx.em.create(ReviewNote, {
      addon: version.addon,
      version,
      user,
      action: ReviewAction.REVIEW_NOTE,
      comments: text,
    });
    await ctx.em.flush();
    await this.developerReplied(ctx.em, version, user.id);
    return note;
  }

  /**
   * An author's note on a version still waiting for a human, after a reviewer asked for more
   * information: the reply is a reason of its own (due sooner than a routine review).
   */
  private async developerReplied(em: EntityManager, version: Version, userId: number): Promise<void> {
    if (!(await isUserAuthor(em, version.addon.id, userId))) return;
    const [last] = await em.find(
      ReviewNote,
      { version, action: { $ne: ReviewAction.REVIEW_NOTE } },
      { orderBy: { id: 'desc' }, limit: 1 },
    );
    if (last?.action !== ReviewAction.MORE_INFORMATION_REQUESTED) return;
    await flagForHumanReview(em, version.id, HumanReviewReason.DEVELOPER_REPLY, { noteAfter: last.id });
  }

  /**
   * A reply by mail: the first `reviewreply+<uuid>@<domain>` recipient names the version and the
   * writer. Unknown, used-up or stale addresses and writers who lost access are discarded.
   */
  async receiveMail(em: EntityManager, mail: InboundMail): Promise<ReviewNote | null> {
    const uuid = mail.to.map((address) => this.replyToken(address)).find((t) => t !== null);
    if (!uuid) return null;
    const token = await em.findOne(ReviewReplyToken, uuid, { populate: ['version', 'version.addon', 'user'] });
    if (!token || token.useCount >= MAX_TOKEN_USES || token.version.deleted) return null;
    const { version, user } = token;
    const author = await isUserAuthor(em, version.addon.id, user.id);
    if (!author && !(await this.userReviews(em, user, version.channel))) return null;
    // A huge message is cut before its quoted part is looked for; the note keeps at most COMMENTS_MAX.
    const text = truncateText(stripQuotedReply(truncateText(mail.textBody, 'mailBody')), COMMENTS_MAX);
    if (!text) return null;
    token.useCount += 1;
    const note = em.create(ReviewNote, {
      addon: version.addon,
      version,
      user,
      action: ReviewAction.REVIEW_NOTE,
      comments: text,
    });
    await em.flush();
    if (author) await this.developerReplied(em, version, user.id);
    return note;
  }

  private replyToken(address: string): string | null {
    const domain = this.settings.replyDomain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const match = new RegExp(`^reviewreply\\+([0-9a-f]{32})@${domain}$`, 'i').exec(address.trim());
    return match ? match[1].toLowerCase() : null;
  }

  private async userReviews(em: EntityManager, user: User, channel: Channel): Promise<boolean> {
    await em.populate(user, ['groups']);
    const rules = user.groups.getItems().flatMap((g) => g.rules);
    const required = channel === Channel.UNLISTED ? Permission.ADDONS_REVIEW_UNLISTED : Permission.ADDONS_REVIEW;
    return hasPermission(rules, required);
  }

  /**
   * The `review.decided` subscriber: each author gets the decision's note by mail, with their own
   * reply address. Runs after the decision commits, from the job queue (retried until sent).
   */
  async mailDecision(em: EntityManager, noteId: number): Promise<void> {
    const note = await em.findOne(ReviewNote, noteId, { populate: ['version', 'version.addon'] });
    const template = note && DECISION_MAILS.get(note.action);
    if (!note || !template) return;
    const version = note.version;
    const authors = await em.find(AddonUser, { addon: version.addon }, { populate: ['user'] });
    for (const { user } of authors) {
      const token = await this.tokenFor(em, version, user);
      await this.mailer.send({
        to: user.email,
        replyTo: `reviewreply+${token}@${this.settings.replyDomain}`,
        ...template.render({
          addonName: addonName(version.addon),
          version: version.version,
          comments: note.comments || '(none)',
          versionUrl: `${this.settings.siteUrl}/developers/addon/${version.addon.slug}/versions/${version.id}`,
          serviceName: this.settings.serviceName,
        }),
      });
    }
  }

  private async tokenFor(em: EntityManager, version: Version, user: User): Promise<string> {
    const existing = await em.findOne(ReviewReplyToken, { version, user, useCount: { $lt: MAX_TOKEN_USES } });
    if (existing) return existing.uuid;
    const token = em.create(ReviewReplyToken, { uuid: randomUUID().replaceAll('-', ''), version, user });
    await em.flush();
    return token.uuid;
  }
}

export function addonName(addon: Addon): string {
  const name = addon.name ?? {};
  return name[addon.defaultLocale] ?? Object.values(name)[0] ?? addon.slug;
}

/** The reply without the quoted message below it ("> …" lines, "On … wrote:"). */
export function stripQuotedReply(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const end = lines.findIndex((line, i) => /^\s*>/.test(line) || (/^On .+wrote:\s*$/.test(line) && i > 0));
  return (end < 0 ? lines : lines.slice(0, end)).join('\n').trim();
}
