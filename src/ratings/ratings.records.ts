import type { Platform as DbPlatform } from '@mikro-orm/core';
import {
  JOINED_USER_COLUMNS,
  toJoinedUserRecord,
  type JoinedUserRow,
  type UserRecord,
} from '../accounts/accounts.records.js';
import type { RowRef } from '../catalogue/catalogue.records.js';
import { recordMapper, selectList, type RecordOf, type RowOf } from '../db/columns.js';
import { RATING_TABLE } from './rating.columns.js';
import type { RatingFlagReason } from './ratings.enums.js';

/** A rating or reply as read from its row (the column map's fields), with the public fields of its writer. */
export type RatingRecord = RecordOf<typeof RATING_TABLE> & { readonly user: UserRecord };

/**
 * A rating as one read shows it. Whether a deleted reply is shown depends on the read, not on the
 * rating: `Addons:Edit` sees them in details, in changes and in lists asking `with_deleted`.
 */
export interface RatingRead extends RatingRecord {
  readonly showDeletedReply: boolean;
}

export interface RatingFlagRecord {
  readonly rating: RowRef;
  readonly flag: RatingFlagReason;
  /** Null unless the reason is `other`. */
  readonly note: string | null;
}

/** The cache tag of an add-on's ratings and replies (see the RatingCacheTags migration). */
export const ratingsCacheTag = (addonId: number) => `r:${addonId}`;

/** `r` is the rating, `u` its writer. */
export const RATING_FROM = 'ratings r join users u on u.id = r.user_id';

export const RATING_COLUMNS = `${selectList(RATING_TABLE, 'r')}, ${JOINED_USER_COLUMNS}`;

export type RatingRow = RowOf<typeof RATING_TABLE> & JoinedUserRow;

const ratingFields = recordMapper(RATING_TABLE);

export function toRatingRecord(row: RatingRow, db: DbPlatform): RatingRecord {
  return { ...ratingFields(row, db), user: toJoinedUserRecord(row, db) };
}

export interface RatingFlagRow {
  rating_id: number;
  flag: RatingFlagReason;
  note: string;
}

export function toRatingFlagRecord(row: RatingFlagRow): RatingFlagRecord {
  return { rating: { id: row.rating_id }, flag: row.flag, note: row.note || null };
}
