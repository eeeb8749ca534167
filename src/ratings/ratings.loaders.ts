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

/** The reply to each rating, deleted or not (the service decides what shows). */
export const replyByRatingId = defineLoader<number, RatingRecord | null>('replyByRatingId', async (ctx, ids) => {
  const rows = await lookupRows<RatingRow>(
    ctx.em,
    `select ${RATING_COLUMNS} from ${RATING_FROM} where r.reply_to_id = any(?::int[])`,
    [intArray(ids)],
  );
  const db = ctx.em.getPlatform();
  return byKeys(
    ids,
    rows.map((row) => [row.reply_to_id!, toRatingRecord(row, db)] as [number, RatingRecord]),
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
