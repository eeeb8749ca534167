import type { EntityManager } from '@mikro-orm/postgresql';
import { AddonStatus, FileStatus } from '../catalogue/catalogue.enums.js';
import { selectRows } from '../db/rows.js';
import { DUE_DATE_SQL } from './human-review.js';
import { ReviewAction } from './review.enums.js';

/**
 * The reviewer queue's membership and order, written once: the queue (`ReviewsService.queue`) and
 * a developer's standing in it (`queueStanding`) read the same SQL. `v` is the versions row, `a`
 * its add-on.
 */
export const QUEUED_VERSION_SQL = `not v.deleted and v.reviewed is null
  and exists (select 1 from files fi where fi.version_id = v.id and fi.status = ${FileStatus.AWAITING_REVIEW})
  and a.status not in (${AddonStatus.DELETED}, ${AddonStatus.DISABLED})`;

/** A queued version's due date; versions queued before due dates existed are due 3 days after submission. */
export const DUE_SQL = `coalesce(${DUE_DATE_SQL}, v.created + interval '3 days')`;

/** The weeks of human decisions the estimate's throughput is read from. */
export const THROUGHPUT_DAYS = 28;

/** Where a version waiting for a human stands, and when its review may come. */
export interface QueueStanding {
  /** 1 for the next version reviewers take in its channel (the earliest due). */
  readonly position: number;
  /** Versions waiting in the channel. */
  readonly total: number;
  readonly dueDate: Date;
  /** Human decisions (approvals and rejections) per day in the channel over the last THROUGHPUT_DAYS days. */
  readonly reviewsPerDay: number;
  /** Now plus `position` divided by `reviewsPerDay` days; null while the channel has no recent decisions. */
  readonly estimatedReviewDate: Date | null;
}

/**
 * The standing of `versionId` in its channel's queue (the queue's own order: due date, then
 * submission, then id), or null when it is not waiting for a human.
 */
export async function queueStanding(
  em: EntityManager,
  versionId: number,
  now = new Date(),
): Promise<QueueStanding | null> {
  const [mine] = await selectRows<{ channel: number; due: Date | string; created: Date | string; id: number }>(
    em,
    `select v.channel, ${DUE_SQL} as due, v.created, v.id from versions v join addons a on a.id = v.addon_id
      where v.id = ? and ${QUEUED_VERSION_SQL}`,
    [versionId],
  );
  if (!mine) return null;
  const [counts] = await selectRows<{ ahead: number; total: number }>(
    em,
    `select count(*) filter (where (${DUE_SQL}, v.created, v.id) < (?::timestamptz, ?::timestamptz, ?))::int as ahead,
            count(*)::int as total
       from versions v join addons a on a.id = v.addon_id
      where v.channel = ? and ${QUEUED_VERSION_SQL}`,
    [new Date(mine.due), new Date(mine.created), mine.id, mine.channel],
  );
  const [decisions] = await selectRows<{ n: number }>(
    em,
    `select count(*)::int as n from review_notes n join versions v on v.id = n.version_id
      where n.action in (?, ?) and n.user_id is not null and v.channel = ? and n.created > ?`,
    [
      ReviewAction.APPROVED,
      ReviewAction.REJECTED,
      mine.channel,
      new Date(now.getTime() - THROUGHPUT_DAYS * 86_400_000),
    ],
  );
  const position = counts.ahead + 1;
  const reviewsPerDay = decisions.n / THROUGHPUT_DAYS;
  return {
    position,
    total: counts.total,
    dueDate: new Date(mine.due),
    reviewsPerDay: Math.round(reviewsPerDay * 100) / 100,
    estimatedReviewDate: reviewsPerDay > 0 ? new Date(now.getTime() + (position / reviewsPerDay) * 86_400_000) : null,
  };
}
