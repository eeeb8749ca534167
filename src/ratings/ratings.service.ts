import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Viewer } from '../auth/viewer.js';
import { AddonStatus } from '../catalogue/catalogue.enums.js';
import { existingAddon } from '../catalogue/addon-access.js';
import { visibleVersionSql } from '../catalogue/public.js';
import type { AddonRecord, RowRef } from '../catalogue/catalogue.records.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import { recordCurrentTag, type RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { hasRatingLink } from '../core/has-links.js';
import { fieldMessages } from '../core/messages.js';
import { pageRequest, toPage, type Page } from '../core/pagination.js';
import { TEXT_LIMITS } from '../core/text-limits.js';
import { advisoryLock } from '../db/advisory-locks.js';
import { ownTransaction } from '../db/conflict-retries.js';
import { selectRows } from '../db/rows.js';
import { intArray } from '../db/sql.js';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import { RatingAggregates, type AddonRatingColumns } from './ratings.aggregates.js';
import { FLAG_CONSTANTS_LISTED, RatingFlagReason, flagReasonFromConstant } from './ratings.enums.js';
import { ratingErrors, ratingMessages } from './ratings.errors.js';
import { ratingColumns, replyByRatingId, toRatingRecords, viewerFlagsByRatingId } from './ratings.loaders.js';
import {
  RATING_COLUMNS,
  RATING_FROM,
  ratingsCacheTag,
  toRatingRecord,
  type RatingFlagRecord,
  type RatingRead,
  type RatingRecord,
  type RatingRow,
} from './ratings.records.js';
import { RATING_POSTS, REPLIES, takeThrottle } from './ratings.throttle.js';
import { Permission } from '../auth/permissions.js';

export interface RatingListQuery {
  /** Id, slug or guid; '' counts as given for `showPermissionsFor` but filters nothing. */
  addon?: string | null;
  user?: number | null;
  version?: number | null;
  /** Deleted ratings too (Addons:Edit only; ignored for others). */
  withDeleted?: boolean | null;
  withoutEmptyBody?: boolean | null;
  /** With `withoutEmptyBody`: keep the caller's own ratings without text. */
  withYours?: boolean | null;
  excludeRatings?: number[] | null;
  scores?: number[] | null;
  /** Must be the caller's id (REST `show_permissions_for`); needs `addon`. */
  showPermissionsFor?: number | null;
  /** Must be the caller's id (REST `show_flags_for`). */
  showFlagsFor?: number | null;
  page?: number | null;
  pageSize?: number | null;
}

/** A page of ratings, and the add-on they were listed for. */
export interface RatingPage extends Page<RatingRead> {
  readonly addon: AddonRecord | null;
}

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

/** Not deleted, and not a reply to a deleted rating. */
const LIVE = `not r.deleted and (r.reply_to_id is null or not exists
  (select 1 from ratings p where p.id = r.reply_to_id and p.deleted))`;

const canEditAddons = (viewer: Viewer) => viewer.can(Permission.ADDONS_EDIT);

/**
 * Ratings (v4) and reviews (v3): every rule of listing, reading, writing, deleting, replying and
 * flagging, shared by GraphQL and REST. Checks run in the original's order (add-on, credentials,
 * throttle, object permissions, fields, then rules across fields), so both APIs answer alike.
 */
export class RatingsService {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly jobs: JobQueue<ServiceJobs>,
    private readonly aggregates = new RatingAggregates(),
  ) {}

  // Reads

  /**
   * Ratings of an add-on and/or by a user, newest first. By add-on: top-level ratings only, and
   * without `version` only each user's latest one. Add-on, user and version together find one
   * rating or none (a page of size 1).
   */
  async list(ctx: RequestContext, query: RatingListQuery): Promise<RatingPage> {
    const addon = query.addon ? await this.publicAddon(ctx, query.addon) : null;
    const user = query.user ?? null;
    const version = query.version ?? null;
    if (!addon && user === null) throw ratingErrors.parameter(ratingMessages.needAddonOrUser);
    // A cached answer (anonymous, by add-on) is outdated by any write to the add-on's ratings.
    if (addon) await recordCurrentTag(ctx, ratingsCacheTag(addon.id));
    const showDeleted = Boolean(query.withDeleted) && canEditAddons(ctx.viewer);

    const where: string[] = [];
    const params: unknown[] = [];
    const add = (condition: string, ...values: unknown[]) => {
      where.push(condition);
      params.push(...values);
    };
    if (addon) add('r.addon_id = ?', addon.id);
    if (user !== null) add('r.user_id = ?', user);
    if (version !== null) add('r.version_id = ?', version);
    else if (addon) add('r.is_latest');
    if (showDeleted) add('r.reply_to_id is null');
    else add(addon ? 'r.reply_to_id is null and not r.deleted' : LIVE);
    if (query.withoutEmptyBody) {
      const yours = query.withYours ? ctx.viewer.userId : null;
      if (yours === null) add('r.body is not null');
      else add('(r.body is not null or r.user_id = ?)', yours);
    }
    if (query.scores?.length) add('r.score = any(?::int[])', intArray(query.scores));
    if (query.excludeRatings?.length) add('not (r.id = any(?::int[]))', intArray(query.excludeRatings));

    const sql = `from ${RATING_FROM} where ${where.join(' and ')}`;
    const order = 'order by r.created desc, r.id desc';
    let page: Page<RatingRecord>;
    if (addon && user !== null && version !== null) {
      const items = await this.selectRead(ctx, `select ${ratingColumns(ctx)} ${sql} ${order} limit 1`, params);
      page = { count: items.length, page: 1, pageSize: 1, pageCount: 1, items };
    } else {
      const request = pageRequest(query.page, query.pageSize);
      const [[{ count }], items] = await Promise.all([
        selectRows<{ count: number }>(ctx.em, `select count(*)::int as count ${sql}`, params),
        this.selectRead(ctx, `select ${ratingColumns(ctx)} ${sql} ${order} limit ? offset ?`, [
          ...params,
          request.limit,
          request.offset,
        ]),
      ]);
      page = toPage(request, count, items);
    }

    if (query.showPermissionsFor !== undefined && query.showPermissionsFor !== null) {
      if (query.addon === undefined || query.addon === null) {
        throw ratingErrors.parameter(ratingMessages.showPermissionsNeedsAddon);
      }
      if (query.showPermissionsFor !== ctx.viewer.userId) {
        throw ratingErrors.parameter(ratingMessages.showPermissionsForOther);
      }
    }
    this.checkShowFlagsFor(ctx, query.showFlagsFor);
    return { ...page, items: page.items.map((r) => ({ ...r, showDeletedReply: showDeleted })), addon };
  }

  /** One rating or reply; deleted ones only for Addons:Edit. */
  async get(ctx: RequestContext, id: number, showFlagsFor?: number | null): Promise<RatingRead> {
    const rating = await this.findVisible(ctx, id);
    this.checkShowFlagsFor(ctx, showFlagsFor);
    return this.asRead(ctx, rating);
  }

  /** The reply shown under a rating: deleted replies only where the read shows deleted ones. */
  async replyOf(ctx: RequestContext, rating: RatingRead): Promise<RatingRead | null> {
    if (rating.replyTo) return null;
    const reply = await ctx.loaders.get(replyByRatingId).load(rating.id);
    if (!reply || (reply.deleted && !rating.showDeletedReply)) return null;
    return { ...reply, showDeletedReply: rating.showDeletedReply };
  }

  /** The caller's flags on a rating. */
  flagsOf(ctx: RequestContext, rating: RowRef): Promise<RatingFlagRecord[]> {
    return ctx.loaders.get(viewerFlagsByRatingId).load(rating.id);
  }

  /** Whether the caller may reply to the add-on's ratings: its authors and Addons:Edit. */
  async canReply(ctx: RequestContext, addon: RowRef): Promise<boolean> {
    if (!ctx.viewer.isAuthenticated) return false;
    return canEditAddons(ctx.viewer) || (await this.catalogue.isAuthor(ctx, addon));
  }

  /** Counts per score (1 to 5) of the ratings the add-on's average counts. */
  groupedRatings(ctx: RequestContext, addon: RowRef): Promise<number[]> {
    return this.aggregates.grouped(ctx.em, addon.id);
  }

  // Writes

  /**
   * A rating of a public version of a public add-on: one per user and version, never of one's own
   * add-on; the user's earlier ratings of the add-on stop being the latest.
   */
  async create(ctx: RequestContext, input: RatingInput) {
    const addon = input.addon ? await this.publicAddon(ctx, input.addon) : null;
    const userId = this.requireUser(ctx);
    await takeThrottle(ctx.em, userId, RATING_POSTS);

    const fields = new RatingFieldErrors();
    const body = fields.charField('body', input.body, {
      required: false,
      allowNull: true,
      maxLength: TEXT_LIMITS.ratingBody,
    });
    const score = fields.score('score', input.score, true);
    const versionId = await this.checkNewVersion(ctx, fields, input.version, addon);
    fields.throwIfAny();
    if (!addon) throw ratingErrors.fields({ addon: [fieldMessages.required] });
    if (await this.catalogue.isAuthor(ctx, addon)) throw ratingErrors.nonField(ratingMessages.ownAddon);
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
    return this.asRead(ctx, await this.findVisible(ctx, id));
  }

  /**
   * Changes the text and score of a rating, or the text of a reply (which also undeletes it). Its
   * author or Addons:Edit; the add-on and the version never change.
   */
  async update(ctx: RequestContext, id: number, input: RatingInput) {
    if (input.addon) await this.publicAddon(ctx, input.addon);
    const userId = this.requireUser(ctx);
    const rating = await this.findVisible(ctx, id);
    if (rating.user.id !== userId && !canEditAddons(ctx.viewer)) throw errors.forbidden();

    const isReply = rating.replyTo !== null;
    const fields = new RatingFieldErrors();
    const body = fields.charField('body', input.body, {
      required: false,
      allowNull: !isReply,
      maxLength: isReply ? TEXT_LIMITS.replyBody : TEXT_LIMITS.ratingBody,
    });
    const score = isReply ? undefined : fields.score('score', input.score, false);
    if (!isReply && input.version !== undefined) await this.checkVersionChange(ctx, fields, input.version);
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
    return this.asRead(ctx, await this.findVisible(ctx, id));
  }

  /**
   * Soft delete. Its author may; so may Users:Edit and Addons:Edit, and Ratings:Moderate once the
   * rating is flagged, but never an author of the add-on (unless they wrote it). Someone else's
   * deletion also clears the flags.
   */
  async delete(ctx: RequestContext, id: number): Promise<boolean> {
    const userId = this.requireUser(ctx);
    const rating = await this.findVisible(ctx, id);
    if (!(await this.canDelete(ctx, rating, userId))) throw errors.forbidden();
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

  private async canDelete(ctx: RequestContext, rating: RatingRecord, userId: number): Promise<boolean> {
    if (rating.user.id === userId) return true;
    if (await this.catalogue.isAuthor(ctx, rating.addon)) return false;
    const viewer = ctx.viewer;
    return (
      viewer.can(Permission.USERS_EDIT) ||
      canEditAddons(viewer) ||
      (viewer.can(Permission.RATINGS_MODERATE) && rating.editorReview)
    );
  }

  /**
   * The developer's reply to a rating (authors of the add-on, Addons:Edit): the first one is
   * created; later ones change it (and undelete it). Never a reply to a reply.
   */
  async reply(ctx: RequestContext, id: number, body: string | null | undefined): Promise<ReplyResult> {
    const userId = this.requireUser(ctx);
    await takeThrottle(ctx.em, userId, REPLIES);
    const rating = await this.findVisible(ctx, id);
    if (!(await this.canReply(ctx, rating.addon))) throw errors.forbidden();
    await this.assertAddonPublic(ctx, rating.addon.id);

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
        maxLength: TEXT_LIMITS.replyBody,
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
    return { reply: this.asRead(ctx, await this.findVisible(ctx, result.id)), created: result.created };
  }

  /**
   * A user's flag on someone else's rating with a text, for the moderators (flagging again
   * changes the flag). A note makes the reason `other`; `other` needs a note.
   */
  async flag(ctx: RequestContext, id: number, input: FlagInput): Promise<RatingFlagRecord> {
    const userId = this.requireUser(ctx);
    const rating = await this.findVisible(ctx, id);
    if (rating.user.id === userId) throw errors.forbidden();
    await this.assertAddonPublic(ctx, rating.addon.id);

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
      maxLength: TEXT_LIMITS.flagNote,
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

  /** The add-on a rating list or a new rating names: 404 when unknown or deleted, 401/403 unless public. */
  private async publicAddon(ctx: RequestContext, identifier: string): Promise<AddonRecord> {
    const addon = existingAddon(ctx, await this.catalogue.find(ctx, identifier), 'viewDeleted');
    this.assertPublic(ctx, addon);
    return addon;
  }

  /** The add-on of a rating being replied to or flagged: the same checks. */
  private async assertAddonPublic(ctx: RequestContext, addonId: number): Promise<void> {
    await this.publicAddon(ctx, String(addonId));
  }

  /** As the add-on detail refuses it: with the disabled-by-developer and disabled-by-vendor flags. */
  private assertPublic(ctx: RequestContext, addon: AddonRecord): void {
    if (this.catalogue.isPublic(addon)) return;
    const details = {
      is_disabled_by_developer: addon.disabledByUser,
      is_disabled_by_vendor: addon.status === AddonStatus.DISABLED,
    };
    throw ctx.viewer.isAuthenticated ? errors.forbidden(undefined, details) : errors.notAuthenticated(details);
  }

  /** A rating or reply the caller may see or change: live ones, and deleted ones for Addons:Edit. */
  private async findVisible(ctx: RequestContext, id: number): Promise<RatingRecord> {
    const live = canEditAddons(ctx.viewer) ? '' : ` and ${LIVE}`;
    const [rating] = await this.select(ctx.em, `select ${RATING_COLUMNS} from ${RATING_FROM} where r.id = ?${live}`, [
      id,
    ]);
    if (!rating) throw errors.notFound();
    return rating;
  }

  private asRead(ctx: RequestContext, rating: RatingRecord): RatingRead {
    return { ...rating, showDeletedReply: canEditAddons(ctx.viewer) };
  }

  /** Ratings a read shows (`ratingColumns`), their writers' cache tags recorded. */
  private async selectRead(ctx: RequestContext, sql: string, params: unknown[]): Promise<RatingRecord[]> {
    return toRatingRecords(ctx, await selectRows<RatingRow>(ctx.em, sql, params));
  }

  private async select(em: EntityManager, sql: string, params: unknown[]): Promise<RatingRecord[]> {
    const rows = await selectRows<RatingRow>(em, sql, params);
    const db = em.getPlatform();
    return rows.map((row) => toRatingRecord(row, db));
  }

  private checkShowFlagsFor(ctx: RequestContext, showFlagsFor: number | null | undefined): void {
    if (showFlagsFor !== undefined && showFlagsFor !== null && showFlagsFor !== ctx.viewer.userId) {
      throw ratingErrors.parameter(ratingMessages.showFlagsForOther);
    }
  }

  /** The version of a new rating: required, existing, and a public version of the add-on (when there is one). */
  private async checkNewVersion(
    ctx: RequestContext,
    fields: RatingFieldErrors,
    versionId: number | null | undefined,
    addon: AddonRecord | null,
  ): Promise<number | null> {
    if (versionId === undefined) return fields.add('version', fieldMessages.required);
    if (versionId === null) return fields.add('version', fieldMessages.null);
    const [version] = await selectRows<{ addon_id: number; public: boolean }>(
      ctx.em,
      `select v.addon_id, ${visibleVersionSql('v')} as public from versions v where v.id = ?`,
      [versionId],
    );
    if (!version) return fields.add('version', fieldMessages.pkDoesNotExist(versionId));
    if (addon && (version.addon_id !== addon.id || !version.public)) {
      return fields.add('version', ratingMessages.versionNotPublic);
    }
    return versionId;
  }

  /** A version given to an existing rating: checked as a version first, then refused. */
  private async checkVersionChange(ctx: RequestContext, fields: RatingFieldErrors, versionId: number | null) {
    if (versionId === null) return fields.add('version', fieldMessages.null);
    const [version] = await selectRows(ctx.em, 'select id from versions where id = ?', [versionId]);
    fields.add('version', version ? ratingMessages.versionChange : fieldMessages.pkDoesNotExist(versionId));
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

/**
 * `<br>` becomes a line break; a text with a link waits for a moderator. The text is at most
 * TEXT_LIMITS.ratingBody long here (checked first), and the link test is linear anyway.
 */
function cleanBody(body: string | null): { body: string | null; hasLink: boolean } {
  if (body === null) return { body, hasLink: false };
  const cleaned = body.replaceAll('<br>', '\n');
  let unquoted = cleaned;
  try {
    unquoted = decodeURIComponent(cleaned);
  } catch {
    // Not percent-encoded text: checked as it is.
  }
  return { body: cleaned, hasLink: hasRatingLink(unquoted) };
}

/** The ratings' field checks; problems gathered as the original's serializers do: all fields first, then one throw. */
class RatingFieldErrors extends FieldErrorCollector {
  /** A text field: trimmed; never blank; undefined when absent and optional. */
  charField(
    field: string,
    value: string | null | undefined,
    rules: { required: boolean; allowNull: boolean; maxLength?: number },
  ): string | null | undefined {
    if (value === undefined) return rules.required ? this.add(field, fieldMessages.required) : undefined;
    if (value === null) return rules.allowNull ? null : this.add(field, fieldMessages.null);
    const text = value.trim();
    if (!text) return this.add(field, fieldMessages.blank);
    if (text.includes('\0')) return this.add(field, fieldMessages.nullCharacters);
    if (rules.maxLength !== undefined && text.length > rules.maxLength) {
      return this.add(field, fieldMessages.maxLength(rules.maxLength));
    }
    return text;
  }

  /** A score from 1 to 5; undefined when absent and optional. */
  score(field: string, value: number | null | undefined, required: boolean): number | null | undefined {
    if (value === undefined) return required ? this.add(field, fieldMessages.required) : undefined;
    if (value === null) return this.add(field, fieldMessages.null);
    if (value < 1) return this.add(field, fieldMessages.minValue(1));
    if (value > 5) return this.add(field, fieldMessages.maxValue(5));
    return value;
  }
}
