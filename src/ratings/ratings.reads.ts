import type { EntityManager } from '@mikro-orm/postgresql';
import { existingAddon } from '../catalogue/addon-access.js';
import { AddonStatus } from '../catalogue/catalogue.enums.js';
import type { AddonRecord, RowRef } from '../catalogue/catalogue.records.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import { recordCurrentTag, type RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { pageRequest, toPage, type Page } from '../core/pagination.js';
import { selectRows } from '../db/rows.js';
import { intArray } from '../db/sql.js';
import type { RatingAggregates } from './ratings.aggregates.js';
import { ratingErrors, ratingMessages } from './ratings.errors.js';
import { canEditAddons, canReply, seeDeletedRatings } from './ratings.access.js';
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

/** Not deleted, and not a reply to a deleted rating. */
const LIVE = `not r.deleted and (r.reply_to_id is null or not exists
  (select 1 from ratings p where p.id = r.reply_to_id and p.deleted))`;

/**
 * What reading ratings allows: the lists, one rating, its reply and the caller's flags, and the
 * visibility rules the writes share (a public add-on; live ratings, deleted ones for Addons:Edit).
 */
export class RatingReads {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly aggregates: RatingAggregates,
  ) {}

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

  /** Whether the caller may reply to the add-on's ratings (`canReply`). */
  canReply(ctx: RequestContext, addon: RowRef): Promise<boolean> {
    return canReply(ctx, addon);
  }

  /** Counts per score (1 to 5) of the ratings the add-on's average counts. */
  groupedRatings(ctx: RequestContext, addon: RowRef): Promise<number[]> {
    return this.aggregates.grouped(ctx.em, addon.id);
  }

  // Visibility, shared with the writes

  /** The add-on a rating list or a new rating names: 404 when unknown or deleted, 401/403 unless public. */
  async publicAddon(ctx: RequestContext, identifier: string): Promise<AddonRecord> {
    const addon = existingAddon(ctx, await this.catalogue.find(ctx, identifier), 'viewDeleted');
    this.assertPublic(ctx, addon);
    return addon;
  }

  /** The add-on of a rating being replied to or flagged: the same checks. */
  async assertAddonPublic(ctx: RequestContext, addonId: number): Promise<void> {
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
  async findVisible(ctx: RequestContext, id: number): Promise<RatingRecord> {
    const live = seeDeletedRatings(ctx) ? '' : ` and ${LIVE}`;
    const [rating] = await this.select(ctx.em, `select ${RATING_COLUMNS} from ${RATING_FROM} where r.id = ?${live}`, [
      id,
    ]);
    if (!rating) throw errors.notFound();
    return rating;
  }

  asRead(ctx: RequestContext, rating: RatingRecord): RatingRead {
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

  checkShowFlagsFor(ctx: RequestContext, showFlagsFor: number | null | undefined): void {
    if (showFlagsFor !== undefined && showFlagsFor !== null && showFlagsFor !== ctx.viewer.userId) {
      throw ratingErrors.parameter(ratingMessages.showFlagsForOther);
    }
  }
}
