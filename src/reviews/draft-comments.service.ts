import type { EntityManager } from '@mikro-orm/postgresql';
import type { Version } from '../catalogue/version.entity.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { pageRequest, toPage, type Page } from '../core/pagination.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { fieldMessages } from '../core/messages.js';
import { lengthProblem } from '../core/text-limits.js';
import { User } from '../accounts/user.entity.js';
import { CannedResponse, DraftComment } from './draft-comment.entity.js';
import type { ReviewMaterialAccess } from './review-material-access.js';
import { REVIEWS_TEXT_LIMITS } from './text-limits.js';

/** A draft comment's fields; absent ones keep their value on update. */
export interface DraftCommentInput {
  comment?: string | null;
  filename?: string | null;
  lineno?: number | null;
  cannedResponse?: number | null;
}

export interface CannedResponseInput {
  title: string;
  response: string;
  category?: string | null;
}

const COMMENT_MAX = REVIEWS_TEXT_LIMITS.reviewComments;

export const draftMessages = {
  commentAndCanned: "You can't submit a comment if `canned_response` is defined.",
  empty: "You can't submit an empty comment.",
  linenoWithoutFile: "You can't submit a line number without associating it to a filename.",
  unknownCanned: fieldMessages.pkDoesNotExist,
};

/**
 * Canned responses and draft comments (docs/compat-notes.md §4.5). Draft comments belong to a version
 * and a reviewer: each sees and changes only their own (another's is a 404). Who may write them
 * is who may browse the version: reviewers of its channel, and its add-on's authors. A decision
 * on the version (ReviewsService.decide) takes the decider's drafts as its comments.
 */
export class DraftCommentsService {
  constructor(private readonly access: ReviewMaterialAccess) {}

  async cannedResponses(ctx: RequestContext): Promise<CannedResponse[]> {
    return ctx.em.find(CannedResponse, {}, { orderBy: { category: 'asc', title: 'asc', id: 'asc' } });
  }

  /**
   * Creates (`id` null) or replaces a canned response. Who may read (reviewers) and write
   * (Reviews:Admin) canned responses is checked by the operations' `@Requires`.
   */
  async saveCannedResponse(ctx: RequestContext, id: number | null, input: CannedResponseInput) {
    const fields = new FieldErrorCollector();
    const title = input.title.trim();
    const response = input.response.trim();
    const category = (input.category ?? 'Other').trim() || 'Other';
    const check = (field: string, value: string, limit: number) =>
      fields.check(field, value ? lengthProblem(value, limit) : fieldMessages.blank);
    check('title', title, REVIEWS_TEXT_LIMITS.cannedTitle);
    check('response', response, REVIEWS_TEXT_LIMITS.reviewComments);
    check('category', category, REVIEWS_TEXT_LIMITS.cannedCategory);
    fields.throwIfAny();
    const canned =
      id === null ? ctx.em.create(CannedResponse, { title, response, category }) : await this.canned(ctx, id);
    Object.assign(canned, { title, response, category });
    await ctx.em.flush();
    return canned;
  }

  async deleteCannedResponse(ctx: RequestContext, id: number): Promise<boolean> {
    ctx.em.remove(await this.canned(ctx, id));
    await ctx.em.flush();
    return true;
  }

  async list(
    ctx: RequestContext,
    addon: string,
    versionId: number,
    page?: number | null,
    pageSize?: number | null,
  ): Promise<Page<DraftComment>> {
    const version = await this.access.version(ctx, addon, versionId);
    const request = pageRequest(page, pageSize);
    const [items, count] = await ctx.em.findAndCount(
      DraftComment,
      { version, user: ctx.viewer.userId! },
      { orderBy: { id: 'asc' }, limit: request.limit, offset: request.offset, populate: ['user', 'cannedResponse'] },
    );
    return toPage(request, count, items);
  }

  async get(ctx: RequestContext, addon: string, versionId: number, id: number): Promise<DraftComment> {
    const version = await this.access.version(ctx, addon, versionId);
    return this.own(ctx, version, id);
  }

  async create(ctx: RequestContext, addon: string, versionId: number, input: DraftCommentInput) {
    const version = await this.access.version(ctx, addon, versionId);
    const draft = ctx.em.create(DraftComment, { version, user: ctx.em.getReference(User, ctx.viewer.userId!) });
    await this.apply(ctx, draft, input);
    await ctx.em.flush();
    await ctx.em.populate(draft, ['user']);
    return draft;
  }

  async update(ctx: RequestContext, addon: string, versionId: number, id: number, input: DraftCommentInput) {
    const version = await this.access.version(ctx, addon, versionId);
    const draft = await this.own(ctx, version, id);
    await this.apply(ctx, draft, input);
    await ctx.em.flush();
    return draft;
  }

  async delete(ctx: RequestContext, addon: string, versionId: number, id: number): Promise<boolean> {
    const version = await this.access.version(ctx, addon, versionId);
    ctx.em.remove(await this.own(ctx, version, id));
    await ctx.em.flush();
    return true;
  }

  /**
   * The reviewer's drafts on the version as the text of a decision's comments (one line each:
   * `file:line: comment`), removed in `tx`; empty when there are none.
   */
  async take(tx: EntityManager, versionId: number, userId: number): Promise<string> {
    const drafts = await tx.find(
      DraftComment,
      { version: versionId, user: userId },
      { orderBy: { id: 'asc' }, populate: ['cannedResponse'] },
    );
    if (!drafts.length) return '';
    const lines = drafts.map((d) => {
      const where = d.filename ? `${d.filename}${d.lineno !== null ? `:${d.lineno}` : ''}: ` : '';
      return `${where}${d.cannedResponse?.response ?? d.comment}`;
    });
    tx.remove(drafts);
    return lines.join('\n');
  }

  private async apply(ctx: RequestContext, draft: DraftComment, input: DraftCommentInput): Promise<void> {
    const fields = new FieldErrorCollector();
    const next = {
      comment: input.comment !== undefined ? (input.comment ?? '') : draft.comment,
      filename: input.filename !== undefined ? input.filename || null : draft.filename,
      lineno: input.lineno !== undefined ? input.lineno : draft.lineno,
      canned: input.cannedResponse !== undefined ? input.cannedResponse : (draft.cannedResponse?.id ?? null),
    };
    let canned: CannedResponse | null = null;
    if (next.canned !== null) {
      canned = await ctx.em.findOne(CannedResponse, next.canned);
      if (!canned) fields.add('canned_response', draftMessages.unknownCanned(next.canned));
    }
    const comment = next.comment.trim();
    const commentProblem =
      comment && next.canned !== null
        ? draftMessages.commentAndCanned
        : !comment && next.canned === null
          ? draftMessages.empty
          : next.lineno !== null && !next.filename
            ? draftMessages.linenoWithoutFile
            : lengthProblem(comment, COMMENT_MAX);
    fields.check('comment', commentProblem);
    fields.check('filename', next.filename ? lengthProblem(next.filename, REVIEWS_TEXT_LIMITS.draftFilename) : null);
    if (next.lineno !== null && next.lineno < 0) fields.add('lineno', fieldMessages.minValue(0));
    fields.throwIfAny();
    Object.assign(draft, { comment, filename: next.filename, lineno: next.lineno, cannedResponse: canned });
  }

  private async own(ctx: RequestContext, version: Version, id: number): Promise<DraftComment> {
    const draft = Number.isSafeInteger(id)
      ? await ctx.em.findOne(
          DraftComment,
          { id, version, user: ctx.viewer.userId! },
          { populate: ['user', 'cannedResponse'] },
        )
      : null;
    if (!draft) throw errors.notFound();
    return draft;
  }

  private async canned(ctx: RequestContext, id: number): Promise<CannedResponse> {
    const canned = Number.isSafeInteger(id) ? await ctx.em.findOne(CannedResponse, id) : null;
    if (!canned) throw errors.notFound();
    return canned;
  }
}
