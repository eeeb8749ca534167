import type { Platform as DbPlatform } from '@mikro-orm/core';
import {
  JOINED_USER_COLUMNS,
  toJoinedUserRecord,
  type JoinedUserRow,
  type UserRecord,
} from '../accounts/accounts.records.js';
import type { RowRef } from '../catalogue/catalogue.records.js';
import { ref, toDate, type DbTimestamp } from '../db/rows.js';
import type { RatingFlagReason } from './ratings.enums.js';

/** A rating or reply as read from its row, with the public fields of its writer. */
export interface RatingRecord {
  readonly id: number;
  readonly addon: RowRef;
  /** Null for replies. */
  readonly version: RowRef | null;
  readonly replyTo: RowRef | null;
  readonly user: UserRecord;
  readonly score: number | null;
  readonly body: string | null;
  readonly deleted: boolean;
  readonly isLatest: boolean;
  readonly previousCount: number;
  readonly editorReview: boolean;
  readonly created: Date;
}

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

export const RATING_COLUMNS = `r.id, r.addon_id, r.version_id, r.reply_to_id, r.score, r.body, r.deleted, r.is_latest,
  r.previous_count, r.editor_review, r.created, ${JOINED_USER_COLUMNS}`;

export interface RatingRow extends JoinedUserRow {
  id: number;
  addon_id: number;
  version_id: number | null;
  reply_to_id: number | null;
  score: number | null;
  body: string | null;
  deleted: boolean;
  is_latest: boolean;
  previous_count: number;
  editor_review: boolean;
  created: DbTimestamp;
}

export function toRatingRecord(row: RatingRow, db: DbPlatform): RatingRecord {
  return {
    id: row.id,
    addon: { id: row.addon_id },
    version: ref(row.version_id),
    replyTo: ref(row.reply_to_id),
    user: toJoinedUserRecord(row, db),
    score: row.score,
    body: row.body,
    deleted: row.deleted,
    isLatest: row.is_latest,
    previousCount: row.previous_count,
    editorReview: row.editor_review,
    created: toDate(db, row.created),
  };
}

export interface RatingFlagRow {
  rating_id: number;
  flag: RatingFlagReason;
  note: string;
}

export function toRatingFlagRecord(row: RatingFlagRow): RatingFlagRecord {
  return { rating: { id: row.rating_id }, flag: row.flag, note: row.note || null };
}
