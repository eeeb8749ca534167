import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../core/context.js';
import { AppError, ErrorCode } from '../core/errors.js';
import { t } from '../core/i18n/messages.js';
import { executeSql } from '../db/sql.js';
import { SiteSetting } from './site-setting.entity.js';

export interface SiteStatus {
  readOnly: boolean;
  notice: string | null;
}

const KEY = 'site_status';

/** Mutations that still work in read-only mode. */
export const MUTATIONS_ALLOWED_WHEN_READ_ONLY: ReadonlySet<string> = new Set(['updateSiteStatus']);

/**
 * Maintenance mode and the site notice. Read on every write request (one primary-key lookup),
 * so an operator's change applies at once in every process.
 */
export class SiteService {
  async status(em: EntityManager): Promise<SiteStatus> {
    // In `em`'s transaction when it has one (updateSiteStatus runs in its operation's).
    const rows = await executeSql<{ value: Partial<SiteStatus> }[]>(
      em,
      'select value from site_settings where key = ?',
      [KEY],
    );
    const value = rows[0]?.value ?? {};
    return { readOnly: value.readOnly === true, notice: typeof value.notice === 'string' ? value.notice : null };
  }

  /** Through the API: `updateSiteStatus` requires Admin:Advanced (its `@Requires`, checked before). */
  async updateAs(
    ctx: RequestContext,
    change: { readOnly?: boolean | null; notice?: string | null },
  ): Promise<SiteStatus> {
    return this.update(ctx.em, { readOnly: change.readOnly ?? undefined, notice: change.notice });
  }

  /** For trusted callers (the CLI). */
  async update(em: EntityManager, change: Partial<SiteStatus>): Promise<SiteStatus> {
    const current = await this.status(em);
    const next: SiteStatus = {
      readOnly: change.readOnly ?? current.readOnly,
      notice: change.notice === undefined ? current.notice : change.notice?.trim() || null,
    };
    await em.upsert(SiteSetting, { key: KEY, value: next, modified: new Date() });
    return next;
  }

  /** Throws the localized 503 error while the site is read-only. */
  /** Throws the read-only error while the site takes no writes; `mutations` all allowed then pass. */
  async assertWritable(em: EntityManager, locale: string, mutations?: readonly string[]): Promise<void> {
    if (mutations?.length && mutations.every((field) => MUTATIONS_ALLOWED_WHEN_READ_ONLY.has(field))) return;
    if ((await this.status(em)).readOnly) throw readOnlyError(locale);
  }
}

export function readOnlyError(locale: string): AppError {
  return new AppError(ErrorCode.READ_ONLY, t('readOnly', locale));
}
