import { Entity, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Version } from '../catalogue/version.entity.js';
import { selectRows } from '../db/rows.js';

/**
 * Why a version waits for a human, as the original's `NeedsHumanReview` records it: one row per
 * reason, with the date the review is due by (the review due-date policy below). A version's due
 * date is the earliest of its open reasons'. A reviewer's decision closes them all.
 */
export const HumanReviewReason = {
  /** A new listed version (every listed version is reviewed). */
  LISTED_SUBMISSION: 'listed_submission',
  /** The add-on's reviewer flags stop automatic approval of its unlisted versions. */
  AUTO_APPROVAL_DISABLED: 'auto_approval_disabled',
  /** A scanner rule's action asked for a human (YARA, secrets, look-alike names). */
  SCANNER_ACTION: 'scanner_action',
  /** Abuse reports about the add-on passed the threshold (ABUSE_REPORTS_REVIEW_THRESHOLD). */
  ABUSE_REPORTS: 'abuse_reports',
  /** An admin asked for it (Reviews:Admin). */
  ADMIN_FLAG: 'admin_flag',
  /** The developer replied to a reviewer's request for information. */
  DEVELOPER_REPLY: 'developer_reply',
} as const;
export type HumanReviewReason = (typeof HumanReviewReason)[keyof typeof HumanReviewReason];

/**
 * The review due-date policy: business days (Monday to Friday, UTC) from the moment the reason
 * is recorded. Reasons that may protect users now come first; a developer waiting on a reply
 * comes before a routine review.
 */
export const REVIEW_DUE_BUSINESS_DAYS: Readonly<Record<HumanReviewReason, number>> = {
  abuse_reports: 1,
  admin_flag: 1,
  scanner_action: 2,
  developer_reply: 2,
  listed_submission: 3,
  auto_approval_disabled: 3,
};

/** `start` plus `days` business days (Saturdays and Sundays skipped; UTC), at the same time of day. */
export function addBusinessDays(start: Date, days: number): Date {
  const due = new Date(start);
  // A reason recorded on a weekend starts counting on Monday.
  while (due.getUTCDay() === 0 || due.getUTCDay() === 6) due.setUTCDate(due.getUTCDate() + 1);
  let left = days;
  while (left > 0) {
    due.setUTCDate(due.getUTCDate() + 1);
    if (due.getUTCDay() !== 0 && due.getUTCDay() !== 6) left--;
  }
  return due;
}

@Entity({ tableName: 'needs_human_review' })
@Index({ properties: ['version', 'isActive'] })
export class NeedsHumanReview {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Version, deleteRule: 'cascade' })
  version!: Version;

  @Property({ type: 'string', length: 40 })
  reason!: HumanReviewReason;

  /** What the reason is about: the scanner rule that matched, the reports counted, the admin's note. */
  @Property({ type: 'jsonb', nullable: true })
  details: Record<string, unknown> | null = null;

  @Property({ type: 'timestamptz' })
  dueDate!: Date;

  /** Open until a reviewer decides on the version. */
  @Property({ type: 'boolean', default: true })
  isActive: Opt<boolean> = true;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}

/**
 * Records that `versionId` needs a human for `reason` (in the caller's transaction), due by the
 * policy's date. A reason already open for the version is not recorded twice.
 */
export async function flagForHumanReview(
  tx: EntityManager,
  versionId: number,
  reason: HumanReviewReason,
  details: Record<string, unknown> | null = null,
  now = new Date(),
): Promise<void> {
  if (await tx.count(NeedsHumanReview, { version: versionId, reason, isActive: true })) return;
  tx.create(NeedsHumanReview, {
    version: tx.getReference(Version, versionId),
    reason,
    details,
    dueDate: addBusinessDays(now, REVIEW_DUE_BUSINESS_DAYS[reason]),
  });
  await tx.flush();
}

/** A reviewer decided: the version's reasons are closed. */
export async function closeHumanReview(tx: EntityManager, versionId: number): Promise<void> {
  await tx.nativeUpdate(NeedsHumanReview, { version: versionId, isActive: true }, { isActive: false });
}

export interface OpenReason {
  reason: HumanReviewReason;
  details: Record<string, unknown> | null;
  dueDate: Date;
  created: Date;
}

/** The open reasons of these versions, by version, each list by due date. */
export async function openReasons(
  em: EntityManager,
  versionIds: readonly number[],
): Promise<Map<number, OpenReason[]>> {
  const byVersion = new Map<number, OpenReason[]>();
  if (!versionIds.length) return byVersion;
  const rows = await selectRows<{
    version_id: number;
    reason: HumanReviewReason;
    details: Record<string, unknown> | null;
    due_date: Date | string;
    created: Date | string;
  }>(
    em,
    `select version_id, reason, details, due_date, created from needs_human_review
      where version_id = any(?::int[]) and is_active order by due_date, id`,
    [`{${versionIds.join(',')}}`],
  );
  for (const row of rows) {
    const list = byVersion.get(row.version_id) ?? [];
    list.push({
      reason: row.reason,
      details: row.details,
      dueDate: new Date(row.due_date),
      created: new Date(row.created),
    });
    byVersion.set(row.version_id, list);
  }
  return byVersion;
}

/** SQL: a queued version's due date (`v` is the versions row), the earliest of its open reasons'. */
export const DUE_DATE_SQL = `(select min(n.due_date) from needs_human_review n where n.version_id = v.id and n.is_active)`;
