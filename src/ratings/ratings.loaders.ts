import { cacheTagVersionSql, recordCacheTag, type RequestContext } from '../core/context.js';
import { byKeys, defineLoader } from '../core/loaders.js';
import { lookupRows } from '../db/rows.js';
import { intArray } from '../db/sql.js';
import {
  RATING_COLUMNS,
  RATING_FROM,
  toRatingFlagRecord,
  toRatingRecord,
  type RatingFlagRecord,
  type RatingFlagRow,
  type RatingRecord,
  type RatingRow,
} from './ratings.records.js';

/**
 * The columns of a rating read, with its writer's cache tag version while the request records
 * them (the rows themselves are covered by `r:<addon id>`, read before them: `recordCurrentTag`).
 */
export const ratingColumns = (ctx: RequestContext) =>
  `${RATING_COLUMNS}${cacheTagVersionSql(ctx, `'u:' || u.id`, 'user_cache_version')}`;

/** Rating rows to records, recording their writers' cache tags. */
export function toRatingRecords(ctx: RequestContext, rows: (RatingRow & { user_cache_version?: string | null })[]) {
  const db = ctx.em.getPlatform();
  return rows.map((row) => {
    recordCacheTag(ctx, `u:${row.user_id}`, row.user_cache_version ?? null);
    return toRatingRecord(row, db);
  });
}

/** The reply to each rating, deleted or not (the service decides what shows). */
export const replyByRatingId = defineLoader<number, RatingRecord | null>('replyByRatingId', async (ctx, ids) => {
  const rows = await lookupRows<RatingRow>(
    ctx.em,
    `select ${ratingColumns(ctx)} from ${RATING_FROM} where r.reply_to_id = any(?::int[])`,
    [intArray(ids)],
  );
  const records = toRatingRecords(ctx, rows);
  return byKeys(
    ids,
    records.map((record) => [record.replyTo!.id, record] as [number, RatingRecord]),
    null,
  );
});

/** The caller's own flags on each rating (none for anonymous callers). */
export const viewerFlagsByRatingId = defineLoader<number, RatingFlagRecord[]>(
  'viewerFlagsByRatingId',
  async (ctx, ids) => {
    const userId = ctx.viewer.userId;
    if (userId === null) return ids.map(() => []);
    const rows = await lookupRows<RatingFlagRow>(
      ctx.em,
      'select rating_id, flag, note from rating_flags where user_id = ? and rating_id = any(?::int[]) order by id',
      [userId, intArray(ids)],
    );
    return ids.map((id) => rows.filter((r) => r.rating_id === id).map(toRatingFlagRecord));
  },
);
