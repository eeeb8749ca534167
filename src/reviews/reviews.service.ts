import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from '../db/rows.js';
import { User } from '../accounts/user.entity.js';
import { existingAddon } from '../catalogue/addon-access.js';
import { FileStatus, type Channel } from '../catalogue/catalogue.enums.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import { Version } from '../catalogue/version.entity.js';
import { existingVersion } from '../catalogue/version-access.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { fieldMessages } from '../core/messages.js';
import { pageRequest, toPage, type Page } from '../core/pagination.js';
import { lengthProblem } from '../core/text-limits.js';
import type { JobQueue } from '../jobs/queue.port.js';
import { closeHumanReview, flagForHumanReview, HumanReviewReason, NeedsHumanReview } from './human-review.js';
import { QUEUED_VERSION_SQL } from './queue-standing.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import type { Mailer } from '../mail/mailer.port.js';
import type { ReviewMaterialAccess } from './review-material-access.js';
import type { DraftCommentsService } from './draft-comments.service.js';
import { DraftComment } from './draft-comment.entity.js';
import { ReviewAction, reviewActionLabel } from './review.enums.js';
import { ReviewNote } from './review.entity.js';
import type { ReviewFlagsService } from './review-flags.service.js';
import { decideOnVersion, reviewChannel } from './reviews.access.js';
import { REVIEWS_TEXT_LIMITS } from './text-limits.js';
import { reviewQueue, type ReviewQueueFilter, type ReviewQueueOrder } from './review-queue.js';
import { ReviewReplies, developerReplied, type InboundMail } from './review-replies.js';

export type { ReviewQueueFilter, ReviewQueueOrder } from './review-queue.js';
export { stripQuotedReply, type InboundMail } from './review-replies.js';

const COMMENTS_MAX = REVIEWS_TEXT_LIMITS.reviewComments;

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

export { reviewMessages } from './reviews.access.js';

/**
 * Reviews of versions and their history: the reviewer queue (review-queue.ts), decisions (each one
 * a review note and a status change), review notes for developers and reviewers, and replies by
 * mail (review-replies.ts).
 */
export class ReviewsService {
  /** The decisions' mail to authors and the replies to it. */
  private readonly replies: ReviewReplies;

  constructor(
    private readonly catalogue: CatalogueService,
    private readonly jobs: JobQueue<ServiceJobs>,
    private readonly flags: ReviewFlagsService,
    private readonly lifecycle: AddonLifecycle,
    mailer: Mailer,
    private readonly settings: ReviewSettings,
    private readonly drafts: DraftCommentsService,
    private readonly access: ReviewMaterialAccess,
  ) {
    this.replies = new ReviewReplies(mailer, settings);
  }

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
    reviewChannel(ctx, channel);
    return reviewQueue(ctx, channel, page, pageSize, filter, order);
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
    reviewChannel(ctx, version.channel);
    existingAddon(ctx, version.addon, 'nobody');
    await decideOnVersion(ctx, version, decision, Boolean(this.settings.allowSelfReviews));
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
    await developerReplied(ctx.em, version, user.id);
    return note;
  }

  /** A reply by mail (see ReviewReplies.receiveMail). */
  receiveMail(em: EntityManager, mail: InboundMail): Promise<ReviewNote | null> {
    return this.replies.receiveMail(em, mail);
  }

  /** The `review.decided` subscriber (see ReviewReplies.mailDecision). */
  mailDecision(em: EntityManager, noteId: number): Promise<void> {
    return this.replies.mailDecision(em, noteId);
  }
}
