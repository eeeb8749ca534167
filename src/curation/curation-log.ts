import type { RequestContext } from '../core/context.js';
import { pageRequest, toPage, type Page } from '../core/pagination.js';
import { CurationLogEntry } from './curation-log.entity.js';

export type CurationAction = 'created' | 'updated' | 'enabled' | 'disabled' | 'deleted';
export type CurationSubject =
  'primary_shelf' | 'secondary_shelf' | 'home_shelf' | 'discovery_item' | 'replacement_addon' | 'browser_mapping';

/** What the log records of an object: its fields before and after. */
export type Facts = Record<string, unknown>;

/** One kind of curated object, as the log sees it. */
export interface CuratedKind<E extends { id: number }> {
  subject: CurationSubject;
  /** The key its facts are logged under when it is created or deleted. */
  key: 'shelf' | 'item' | 'replacement' | 'mapping';
  facts(entity: E): Facts;
}

/**
 * The curation log, and the one way curated objects are written: each change and its log entry
 * in one transaction (a change is never committed without its entry). Who may curate is
 * `Admin:Curation`, for every curated kind: the operations that curate declare it
 * (`@Requires(anyOf(Permission.ADMIN_CURATION))`); the shelves' `all` is the object rule
 * `listShelves` (shelves/shelves.access.ts).
 */
export class CurationLog {
  /** Stores a new, validated object and logs it. */
  async create<E extends { id: number }>(ctx: RequestContext, kind: CuratedKind<E>, entity: E): Promise<void> {
    await this.inTransaction(ctx, async () => {
      ctx.em.persist(entity);
      await ctx.em.flush();
      const facts = kind.facts(entity);
      this.entry(ctx, 'created', kind.subject, entity.id, facts, { [kind.key]: facts });
    });
  }

  /** Stores the changes made to `entity` since `before` (its facts then), logged when there are any. */
  async update<E extends { id: number }>(ctx: RequestContext, kind: CuratedKind<E>, entity: E, before: Facts) {
    await this.inTransaction(ctx, async () => {
      const after = kind.facts(entity);
      const changes = changed(before, after);
      if (changes) this.entry(ctx, action(changes), kind.subject, entity.id, after, changes);
    });
  }

  /** Removes `entity` and logs what it was. */
  async delete<E extends { id: number }>(ctx: RequestContext, kind: CuratedKind<E>, entity: E): Promise<void> {
    const { id } = entity;
    const facts = kind.facts(entity);
    await this.inTransaction(ctx, async () => {
      ctx.em.remove(entity);
      this.entry(ctx, 'deleted', kind.subject, id, facts, { [kind.key]: facts });
    });
  }

  private entry(
    ctx: RequestContext,
    action: CurationAction,
    subjectType: CurationSubject,
    subjectId: number,
    facts: Facts,
    details: Record<string, unknown> | null,
  ): void {
    ctx.em.create(CurationLogEntry, {
      user: ctx.viewer.userId ?? null,
      action,
      subjectType,
      subjectId,
      addon: typeof facts.addon === 'number' ? facts.addon : null,
      details,
      created: new Date(),
    });
  }

  /**
   * Curated objects change only in mutations: the operation's one transaction (the executor's, see
   * src/graphql/transactions.ts) commits the change and its entry together, or neither.
   */
  private async inTransaction(ctx: RequestContext, work: () => Promise<void>): Promise<void> {
    if (!ctx.em.isInTransaction()) throw new Error("Curated objects change inside a mutation's transaction");
    await work();
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

/** `{field: [before, after]}` of the fields that changed; null when none did. */
export function changed(before: Facts, after: Facts): Facts | null {
  const changes: Facts = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changes[key] = [before[key], after[key]];
  }
  return Object.keys(changes).length ? changes : null;
}

/** `enabled`/`disabled` when that is the only change, else `updated`. */
export function action(changes: Facts): 'enabled' | 'disabled' | 'updated' {
  const keys = Object.keys(changes);
  if (keys.length === 1 && keys[0] === 'enabled') return (changes.enabled as boolean[])[1] ? 'enabled' : 'disabled';
  return 'updated';
}
