import type { Platform as DbPlatform } from '@mikro-orm/core';
import {
  JOINED_USER_COLUMNS,
  toJoinedUserRecord,
  type JoinedUserRow,
  type UserRecord,
} from '../../accounts/accounts.records.js';
import type { RequestContext } from '../../core/context.js';
import { pageRequest, toPage, type Page } from '../../core/pagination.js';
import { selectRows, toDate, type DbTimestamp } from '../../db/rows.js';
import { existingAddon } from '../addon-access.js';
import { readAddonActivity, readUserActivity } from './lifecycle.policy.js';
import type { CatalogueService } from '../catalogue.service.js';
import type { ActivityAction } from './lifecycle.enums.js';

/** One audit log entry, as reads return it. */
export interface ActivityRecord {
  id: number;
  action: ActivityAction;
  addonId: number;
  versionId: number | null;
  /** The version string (kept readable after the version is deleted). */
  version: string | null;
  /** Who did it (null: the service itself, or a deleted account). */
  user: UserRecord | null;
  fromStatus: number;
  toStatus: number;
  details: Record<string, unknown> | null;
  comments: string;
  created: Date;
}

interface ActivityRow extends Omit<JoinedUserRow, 'user_id'> {
  id: number;
  action: ActivityAction;
  addon_id: number;
  version_id: number | null;
  version: string | null;
  user_id: number | null;
  from_status: number;
  to_status: number;
  details: Record<string, unknown> | null;
  comments: string;
  created: DbTimestamp;
}

/**
 * Reads of the audit log (written by `AddonLifecycle`): per add-on for admins (`Reviews:Admin`)
 * and the add-on's authors, per user for admins and the user themself; newest first, filterable
 * by action.
 */
export class ActivityService {
  constructor(private readonly catalogue: CatalogueService) {}

  async forAddon(
    ctx: RequestContext,
    identifier: string,
    actions: readonly ActivityAction[] | null | undefined,
    page?: number | null,
    pageSize?: number | null,
  ): Promise<Page<ActivityRecord>> {
    const addon = existingAddon(ctx, await this.catalogue.find(ctx, identifier), 'reviewsAdmin');
    await readAddonActivity(ctx, addon);
    return this.page(ctx, 'l.addon_id = ?', addon.id, actions, page, pageSize);
  }

  async forUser(
    ctx: RequestContext,
    userId: number,
    actions: readonly ActivityAction[] | null | undefined,
    page?: number | null,
    pageSize?: number | null,
  ): Promise<Page<ActivityRecord>> {
    readUserActivity(ctx, userId);
    return this.page(ctx, 'l.user_id = ?', userId, actions, page, pageSize);
  }

  private async page(
    ctx: RequestContext,
    where: string,
    key: number,
    actions: readonly ActivityAction[] | null | undefined,
    page?: number | null,
    pageSize?: number | null,
  ): Promise<Page<ActivityRecord>> {
    const request = pageRequest(page, pageSize);
    if (!Number.isSafeInteger(key) || key < 1 || key > 2_147_483_647) return toPage(request, 0, []);
    const filter = actions?.length ? `${where} and l.action = any(?::text[])` : where;
    const params = actions?.length ? [key, `{${actions.join(',')}}`] : [key];
    const [[{ count }], rows] = await Promise.all([
      selectRows<{ count: number }>(
        ctx.em,
        `select count(*)::int as count from addon_activity l where ${filter}`,
        params,
      ),
      selectRows<ActivityRow>(
        ctx.em,
        `select l.id, l.action, l.addon_id, l.version_id, v.version, l.from_status, l.to_status,
                l.details, l.comments, l.created, ${JOINED_USER_COLUMNS}
           from addon_activity l left join versions v on v.id = l.version_id left join users u on u.id = l.user_id
          where ${filter} order by l.id desc limit ? offset ?`,
        [...params, request.limit, request.offset],
      ),
    ]);
    const db = ctx.em.getPlatform();
    return toPage(
      request,
      count,
      rows.map((row) => toRecord(row, db)),
    );
  }
}

function toRecord(row: ActivityRow, db: DbPlatform): ActivityRecord {
  return {
    id: row.id,
    action: row.action,
    addonId: row.addon_id,
    versionId: row.version_id,
    version: row.version ?? (typeof row.details?.version === 'string' ? row.details.version : null),
    user: row.user_id === null ? null : toJoinedUserRecord({ ...row, user_id: row.user_id }, db),
    fromStatus: row.from_status,
    toStatus: row.to_status,
    details: row.details,
    comments: row.comments,
    created: toDate(db, row.created),
  };
}
