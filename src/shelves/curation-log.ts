import type { RequestContext } from '../core/context.js';
import { pageRequest, toPage, type Page } from '../core/pagination.js';
import { CurationLogEntry } from './shelf.entity.js';

export type CurationAction = 'created' | 'updated' | 'enabled' | 'disabled' | 'deleted';
export type CurationSubject = 'primary_shelf' | 'secondary_shelf' | 'discovery_item';

/** The curation log: written by the shelves and discovery services, in the request's unit of work. */
export class CurationLog {
  async record(
    ctx: RequestContext,
    action: CurationAction,
    subjectType: CurationSubject,
    subjectId: number,
    addonId: number | null,
    details: Record<string, unknown> | null,
  ): Promise<void> {
    ctx.em.create(CurationLogEntry, {
      user: ctx.viewer.userId ?? null,
      action,
      subjectType,
      subjectId,
      addon: addonId,
      details,
      created: new Date(),
    });
    await ctx.em.flush();
  }

  /** Newest first, optionally of one subject. */
  async list(
    ctx: RequestContext,
    filter: { subjectType?: CurationSubject | null; subjectId?: number | null },
    page?: number | null,
    pageSize?: number | null,
  ): Promise<Page<CurationLogEntry>> {
    const request = pageRequest(page, pageSize);
    const where = {
      ...(filter.subjectType ? { subjectType: filter.subjectType } : {}),
      ...(filter.subjectId ? { subjectId: filter.subjectId } : {}),
    };
    const [items, count] = await ctx.em.findAndCount(CurationLogEntry, where, {
      orderBy: { id: 'desc' },
      limit: request.limit,
      offset: request.offset,
    });
    return toPage(request, count, items);
  }
}
