import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RowRef } from '../catalogue/catalogue.records.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { fieldMessages } from '../core/messages.js';
import { advisoryLock } from '../db/advisory-locks.js';
import { ownTransaction } from '../db/conflict-retries.js';
import { selectRows } from '../db/rows.js';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import { RatingAggregates, type AddonRatingColumns } from './ratings.aggregates.js';
import { FLAG_CONSTANTS_LISTED, RatingFlagReason, flagReasonFromConstant } from './ratings.enums.js';
import { ratingErrors, ratingMessages } from './ratings.errors.js';
import { RatingFieldErrors, cleanBody } from './ratings.fields.js';
import { RatingReads, type RatingListQuery, type RatingPage } from './ratings.reads.js';
import { deleteRating, editRating, flagRating, rateAddon, replyToRating } from './ratings.access.js';
import type { RatingFlagRecord, RatingRead } from './ratings.records.js';
import { RATING_POSTS, REPLIES, takeThrottle } from './ratings.throttle.js';
import { RATINGS_TEXT_LIMITS } from './text-limits.js';

export type { RatingListQuery, RatingPage } from './ratings.reads.js';

export interface RatingInput {
  /** Id, slug or guid. */
  addon?: string | null;
  version?: number | null;
  score?: number | null;
  body?: string | null;
}

export interface ReplyResult {
  reply: RatingRead;
  /** False when an existing reply (even a deleted one) was changed instead. */
  created: boolean;
}

export interface FlagInput {
  /** A flag constant, `rating_flag_reason_*` or `review_flag_reason_*`. */
  flag?: string | null;
  note?: string | null;
}

/**
 * Ratings (v4) and reviews (v3): every rule of listing, reading, writing, deleting, replying and
 * flagging, shared by GraphQL and REST. Checks run in the original's order (add-on, credentials,
 * throttle, object permissions, fields, then rules across fields), so both APIs answer alike.
 */
export class RatingsService {
  /** Reading ratings, and the visibility rules the writes share. */
  private readonly reads: RatingReads;

  constructor(
    private readonly catalogue: CatalogueService,
    private readonly jobs: JobQueue<ServiceJobs>,
    private readonly aggregates = new RatingAggregates(),
  ) {
    this.reads = new RatingReads(catalogue, aggregates);
  }

  // Reads (ratings.reads.ts)

  list(ctx: RequestContext, query: RatingListQuery): Promise<RatingPage> {
    return this.reads.list(ctx, query);
  }

  get(ctx: RequestContext, id: number, showFlagsFor?: number | null): Promise<RatingRead> {
    return this.reads.get(ctx, id, showFlagsFor);
  }

  replyOf(ctx: RequestContext, rating: RatingRead): Promise<RatingRead | null> {
    return this.reads.replyOf(ctx, rating);
  }

  flagsOf(ctx: RequestContext, rating: RowRef): Promise<RatingFlagRecord[]> {
    return this.reads.flagsOf(ctx, rating);
  }

  canReply(ctx: RequestContext, addon: RowRef): Promise<boolean> {
    return this.reads.canReply(ctx, addon);
  }

  groupedRatings(ctx: RequestContext, addon: RowRef): Promise<number[]> {
    return this.reads.groupedRatings(ctx, addon);
  }

  // Writes

  /**
   * A rating of a public version of a public add-on: one per user and version, never of one's own
   * add-on; the user's earlier ratings of the add-on stop being the latest.
   */
  async create(ctx: RequestContext, input: RatingInput) {
    const addon = input.addon ? await this.reads.publicAddon(ctx, input.addon) : null;
    const userId = this.requireUser(ctx);
    await takeThrottle(ctx.em, userId, RATING_POSTS);

    const fields = new RatingFieldErrors();
    const body = fields.charField('body', input.body, {
      required: false,
      allowNull: true,
      maxLength: RATINGS_TEXT_LIMITS.ratingBody,
    });
    const score = fields.score('score', input.score, true);
    const versionId = await fields.newVersion(ctx.em, input.version, addon);
    fields.throwIfAny();
    if (!addon) throw ratingErrors.fields({ addon: [fieldMessages.required] });
    await rateAddon(ctx, addon);
    // Field errors are thrown above: the version is known.
    if (await this.hasLiveRating(ctx.em, userId, versionId!)) {
      throw ratingErrors.nonField(ratingMessages.onePerVersion);
    }
    const text = cleanBody(body ?? null);

    const id = await ownTransaction(ctx.em, async (tx) => {
      // The lock order (src/db/advisory-locks.ts): the user's ratings, then the add-on's.
      await advisoryLock(tx, 'user-ratings', userId);
      const current = await this.aggregates.lockAddon(tx, addon.id);
      let created: number;
      try {
        [{ id: created }] = await selectRows<{ id: number }>(
          tx,
          `insert into ratings (addon_id, version_id, user_id, score, body, ip_address, editor_review)
           values (?, ?, ?, ?, ?, ?, ?) returning id`,
          [addon.id, versionId, userId, score, text.body, ctx.request.ip, text.hasLink],
        );
      } catch (error) {
        // A concurrent request of the same user (through another process) won the race.
        if (error instanceof UniqueConstraintViolationException) {
          throw ratingErrors.nonField(ratingMessages.onePerVersion);
        }
        throw error;
      }
      await this.aggregates.refreshUser(tx, addon.id, userId);
      await this.refreshAddon(tx, addon.id, current);
      // The authors hear of it (`new_review`) once this commits.
      await this.jobs.send('rating-mail', { ratingId: created }, { transaction: tx });
      return created;
    });
    return this.reads.asRead(ctx, await this.reads.findVisible(ctx, id));
  }

  /**
   * Changes the text and score of a rating, or the text of a reply (which also undeletes it). Its
   * author or Addons:Edit; the add-on and the version never change.
   */
  async update(ctx: RequestContext, id: number, input: RatingInput) {
    if (input.addon) await this.reads.publicAddon(ctx, input.addon);
    this.requireUser(ctx);
    const rating = await this.reads.findVisible(ctx, id);
    editRating(ctx, rating);

    const isReply = rating.replyTo !== null;
    const fields = new RatingFieldErrors();
    const body = fields.charField('body', input.body, {
      required: false,
      allowNull: !isReply,
      maxLength: isReply ? RATINGS_TEXT_LIMITS.replyBody : RATINGS_TEXT_LIMITS.ratingBody,
    });
    const score = isReply ? undefined : fields.score('score', input.score, false);
    if (!isReply && input.version !== undefined) await fields.versionChange(ctx.em, input.version);
    fields.throwIfAny();
    if (input.addon) throw ratingErrors.fields({ addon: [ratingMessages.addonChange] });

    const sets: string[] = ['modified = now()'];
    const params: unknown[] = [];
    if (body !== undefined) {
      const text = cleanBody(body);
      sets.push(`body = ?`);
      params.push(text.body);
      if (text.hasLink) sets.push('editor_review = true');
    }
    if (score !== undefined) {
      sets.push('score = ?');
      params.push(score);
    }
    if (isReply) sets.push('deleted = false');
    const current = isReply ? null : await this.aggregates.lockAddon(ctx.em, rating.addon.id);
    await ctx.em.execute(`update ratings set ${sets.join(', ')} where id = ?`, [...params, rating.id]);
    if (current) await this.refreshAddon(ctx.em, rating.addon.id, current);
    return this.reads.asRead(ctx, await this.reads.findVisible(ctx, id));
  }

  /**
   * Soft delete. Its author may; so may Users:Edit and Addons:Edit, and Ratings:Moderate once the
   * rating is flagged, but never an author of the add-on (unless they wrote it). Someone else's
   * deletion also clears the flags.
   */
  async delete(ctx: RequestContext, id: number): Promise<boolean> {
    const userId = this.requireUser(ctx);
    const rating = await this.reads.findVisible(ctx, id);
    await deleteRating(ctx, rating);
    const topLevel = rating.replyTo === null;
    const current = topLevel ? await this.aggregates.lockAddon(ctx.em, rating.addon.id) : null;
    await ctx.em.execute('update ratings set deleted = true, modified = now() where id = ?', [rating.id]);
    if (rating.user.id !== userId) await ctx.em.execute('delete from rating_flags where rating_id = ?', [rating.id]);
    if (current) {
      await this.aggregates.refreshUser(ctx.em, rating.addon.id, rating.user.id);
      await this.refreshAddon(ctx.em, rating.addon.id, current);
    }
    return true;
  }

  /**
   * The developer's reply to a rating (authors of the add-on, Addons:Edit): the first one is
   * created; later ones change it (and undelete it). Never a reply to a reply.
   */
  async reply(ctx: RequestContext, id: number, body: string | null | undefined): Promise<ReplyResult> {
    const userId = this.requireUser(ctx);
    await takeThrottle(ctx.em, userId, REPLIES);
    const rating = await this.reads.findVisible(ctx, id);
    await replyToRating(ctx, rating);
    await this.reads.assertAddonPublic(ctx, rating.addon.id);

    const result = await ownTransaction(ctx.em, async (tx) => {
      // One writer of a rating's reply at a time: the first reply is created exactly once. Gone
      // meanwhile (its author's account deleted): as if it never was.
      const locked = await selectRows(tx, 'select id from ratings where id = ? for update', [rating.id]);
      if (!locked.length) throw errors.notFound();
      const [existing] = await selectRows<{ id: number }>(tx, 'select id from ratings where reply_to_id = ?', [
        rating.id,
      ]);
      const fields = new RatingFieldErrors();
      const text = fields.charField('body', body, {
        required: !existing,
        allowNull: false,
        maxLength: RATINGS_TEXT_LIMITS.replyBody,
      });
      fields.throwIfAny();
      if (rating.replyTo) throw ratingErrors.nonField(ratingMessages.replyToReply);
      const cleaned = text === undefined ? null : cleanBody(text);
      if (existing) {
        const sets = ['deleted = false', 'modified = now()'];
        const params: unknown[] = [];
        if (cleaned) {
          sets.push(`body = ?`, 'editor_review = editor_review or ?');
          params.push(cleaned.body, cleaned.hasLink);
        }
        await tx.execute(`update ratings set ${sets.join(', ')} where id = ?`, [...params, existing.id]);
        return { id: existing.id, created: false };
      }
      // A first reply has a body: it is required above.
      const first = cleaned!;
      const [{ id: created }] = await selectRows<{ id: number }>(
        tx,
        `insert into ratings (addon_id, user_id, reply_to_id, body, ip_address, editor_review)
         values (?, ?, ?, ?, ?, ?) returning id`,
        [rating.addon.id, userId, rating.id, first.body, ctx.request.ip, first.hasLink],
      );
      // The rating's author hears of a first reply (`reply`) once this commits.
      await this.jobs.send('rating-mail', { ratingId: created }, { transaction: tx });
      return { id: created, created: true };
    });
    return { reply: this.reads.asRead(ctx, await this.reads.findVisible(ctx, result.id)), created: result.created };
  }

  /**
   * A user's flag on someone else's rating with a text, for the moderators (flagging again
   * changes the flag). A note makes the reason `other`; `other` needs a note.
   */
  async flag(ctx: RequestContext, id: number, input: FlagInput): Promise<RatingFlagRecord> {
    const userId = this.requireUser(ctx);
    const rating = await this.reads.findVisible(ctx, id);
    flagRating(ctx, rating);
    await this.reads.assertAddonPublic(ctx, rating.addon.id);

    const fields = new RatingFieldErrors();
    const constant = fields.charField('flag', input.flag, { required: true, allowNull: false });
    const given = constant ? flagReasonFromConstant(constant) : null;
    if (constant && !given) {
      fields.add('flag', `Invalid flag [${constant}] - must be one of [${FLAG_CONSTANTS_LISTED.join(',')}]`);
    }
    // A null note reads as no note.
    const note = fields.charField('note', input.note ?? undefined, {
      required: false,
      allowNull: true,
      maxLength: RATINGS_TEXT_LIMITS.flagNote,
    });
    fields.throwIfAny();
    if (!rating.body) throw ratingErrors.nonField(ratingMessages.flagWithoutBody);
    if (!note && given === RatingFlagReason.OTHER) {
      throw ratingErrors.fields({ note: [ratingMessages.flagNoteRequired] });
    }
    // Field errors are thrown above: a flag was given. A note makes it `other`.
    const reason = note ? RatingFlagReason.OTHER : given!;

    await ctx.em.execute(
      `insert into rating_flags (rating_id, user_id, flag, note) values (?, ?, ?, ?)
       on conflict (rating_id, user_id) do update set flag = excluded.flag, note = excluded.note, modified = now()`,
      [rating.id, userId, reason, note || ''],
    );
    await ctx.em.execute('update ratings set editor_review = true where id = ?', [rating.id]);
    return { rating: { id: rating.id }, flag: reason, note: note || null };
  }

  // Helpers

  private requireUser(ctx: RequestContext): number {
    const userId = ctx.viewer.userId;
    if (userId === null) throw errors.notAuthenticated();
    return userId;
  }

  private async hasLiveRating(em: EntityManager, userId: number, versionId: number): Promise<boolean> {
    const rows = await selectRows(
      em,
      'select 1 from ratings where user_id = ? and version_id = ? and reply_to_id is null and not deleted',
      [userId, versionId],
    );
    return rows.length > 0;
  }

  /** Before a user's ratings disappear without a rating write: see RatingAggregates.lockUser. */
  lockUserRatings(tx: EntityManager, userId: number): Promise<number[]> {
    return this.aggregates.lockUser(tx, userId);
  }

  /**
   * After ratings disappeared without a rating write (see `lockUserRatings`): recounts each add-on
   * under its ratings lock, in the caller's transaction (ids in order, so two such recounts cannot
   * deadlock).
   */
  async recountAddons(tx: EntityManager, addonIds: readonly number[]): Promise<void> {
    for (const addonId of [...new Set(addonIds)].sort((a, b) => a - b)) {
      const current = await this.aggregates.lockAddon(tx, addonId);
      await this.refreshAddon(tx, addonId, current);
    }
  }

  /** Recounts the add-on's columns; when they changed, its search document follows. */
  private async refreshAddon(tx: EntityManager, addonId: number, current: AddonRatingColumns) {
    if (await this.aggregates.refreshAddon(tx, addonId, current)) {
      await this.jobs.send('index-addon', { addonId }, { transaction: tx, singletonKey: String(addonId) });
    }
  }
}
