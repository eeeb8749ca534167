import type { Channel } from '../catalogue/catalogue.enums.js';
import { Version } from '../catalogue/version.entity.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { pageRequest, toPage } from '../core/pagination.js';
import { lengthProblem } from '../core/text-limits.js';
import { openReasons } from './human-review.js';
import { DUE_SQL, QUEUED_VERSION_SQL } from './queue-standing.js';
import { REVIEWS_TEXT_LIMITS } from './text-limits.js';

/** Narrows the reviewer queue; absent fields do not filter. */
export interface ReviewQueueFilter {
  addonType?: number | null;
  /** A part of the add-on's name in any language (case-insensitive). */
  name?: string | null;
  needsAdminCodeReview?: boolean | null;
  needsAdminContentReview?: boolean | null;
  needsAdminThemeReview?: boolean | null;
  autoApprovalDisabled?: boolean | null;
  /** Promoted (recommended, by the vendor…) add-ons only, or none of them. */
  promoted?: boolean | null;
}

export type ReviewQueueOrder = 'due' | 'oldest' | 'newest' | 'most_users';

const QUEUE_FLAG_COLUMNS = [
  ['needsAdminCodeReview', 'needs_admin_code_review'],
  ['needsAdminContentReview', 'needs_admin_content_review'],
  ['needsAdminThemeReview', 'needs_admin_theme_review'],
  ['autoApprovalDisabled', 'auto_approval_disabled'],
] as const;

const QUEUE_ORDER: Record<ReviewQueueOrder, string> = {
  due: `${DUE_SQL} asc, v.created asc, v.id asc`,
  oldest: 'v.created asc, v.id asc',
  newest: 'v.created desc, v.id desc',
  most_users: 'a.average_daily_users desc, v.created asc, v.id asc',
};

/**
 * Versions waiting for a human in `channel` (the caller checked the reviewer's permission), narrowed
 * by `filter` (add-on type, a part of its name, reviewer flags, promotion) and in `order` (the
 * earliest due first by default), each with its due date and open reasons.
 */
export async function reviewQueue(
  ctx: RequestContext,
  channel: Channel,
  page: number | null | undefined,
  pageSize: number | null | undefined,
  filter: ReviewQueueFilter,
  order: ReviewQueueOrder,
) {
  const name = filter.name?.trim().toLowerCase() || null;
  const nameProblem = name === null ? null : lengthProblem(name, REVIEWS_TEXT_LIMITS.queueNameFilter);
  if (nameProblem) throw errors.validation({ name: [nameProblem] });
  const request = pageRequest(page, pageSize);
  const conditions = ['v.channel = ?', QUEUED_VERSION_SQL];
  const params: unknown[] = [channel];
  const where = (condition: string, ...values: unknown[]) => {
    conditions.push(condition);
    params.push(...values);
  };
  if (filter.addonType != null) where('a.type = ?', filter.addonType);
  if (name !== null) where(`a.search_name like ? escape '\\'`, `%${name.replace(/[\\%_]/g, '\\$&')}%`);
  if (filter.promoted != null) where(`(a.promoted_category is not null) = ?`, filter.promoted);
  for (const [field, column] of QUEUE_FLAG_COLUMNS) {
    const value = filter[field];
    if (value != null) where(`coalesce(f.${column}, false) = ?`, value);
  }
  const rows = await ctx.em.getConnection().execute<{ id: number; total: number; due: Date | string }[]>(
    `select v.id, count(*) over ()::int as total, ${DUE_SQL} as due
       from versions v join addons a on a.id = v.addon_id
       left join addon_reviewer_flags f on f.addon_id = a.id
      where ${conditions.join(' and ')}
      order by ${QUEUE_ORDER[order]} limit ? offset ?`,
    [...params, request.limit, request.offset],
  );
  const count =
    rows[0]?.total ??
    (request.offset > 0
      ? Number(
          (
            await ctx.em.getConnection().execute<{ n: number }[]>(
              `select count(*)::int as n from versions v join addons a on a.id = v.addon_id
                 left join addon_reviewer_flags f on f.addon_id = a.id where ${conditions.join(' and ')}`,
              params,
            )
          )[0].n,
        )
      : 0);
  const ids = rows.map((r) => r.id);
  const versions = ids.length ? await ctx.em.find(Version, { id: { $in: ids } }, { populate: ['addon'] }) : [];
  const byId = new Map(versions.map((v) => [v.id, v]));
  const reasons = await openReasons(ctx.em, ids);
  const items = rows.map((row) => {
    const version = byId.get(row.id)!;
    return {
      version,
      addon: version.addon,
      waitingSince: version.created,
      dueDate: new Date(row.due),
      reasons: reasons.get(row.id) ?? [],
    };
  });
  return toPage(request, count, items);
}
