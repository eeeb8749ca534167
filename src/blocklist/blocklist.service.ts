import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../accounts/user.entity.js';
import { Permission } from '../access/permissions.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { fieldMessages } from '../core/messages.js';
import { lengthProblem } from '../core/text-limits.js';
import { pageRequest, toPage, type Page } from '../core/pagination.js';
import { selectRows } from '../db/rows.js';
import { compareAppVersions } from '../core/app-versions.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import { addonIdByGuid } from '../catalogue/addon-access.js';
import { AddonStatus } from '../catalogue/catalogue.enums.js';
import type { Translations } from '../core/i18n/translations.js';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import { Block } from './block.entity.js';
import { PUBLICATION_KEY, requestPublication } from './publication-requests.js';
import { BLOCKLIST_TEXT_LIMITS } from './text-limits.js';

/** Who may create, change and remove blocks (the original's blocklist admin permissions). */
export const BLOCKLIST_ADMIN_PERMISSIONS = [
  Permission.BLOCKLIST_CREATE,
  Permission.BLOCKLIST_SUBMIT,
  Permission.REVIEWS_ADMIN,
] as const;

export const BLOCK_ALL_MIN = '0';
export const BLOCK_ALL_MAX = '*';

/** A block as the APIs show it, with the signed versions it blocks. */
export interface BlockRecord {
  readonly id: number;
  readonly guid: string;
  readonly minVersion: string;
  readonly maxVersion: string;
  readonly soft: boolean;
  readonly reason: string | null;
  readonly url: string | null;
  readonly created: Date;
  readonly modified: Date;
  /** The add-on here with this guid, if any, and its name (shown whatever the add-on's status, as the original does). */
  readonly addonId: number | null;
  readonly addonName: Translations | null;
  /** The add-on can get no new versions: there is none here, or it is disabled or deleted. */
  readonly addonClosed: boolean;
  /** The signed versions of the guid in the range, in the browser's version order. */
  readonly versions: readonly string[];
  readonly isAllVersions: boolean;
}

export interface BlockInput {
  guid?: string | null;
  minVersion?: string | null;
  maxVersion?: string | null;
  soft?: boolean | null;
  reason?: string | null;
  url?: string | null;
}

/**
 * The block covering `version` of `guid`, or null: signing and submission refuse such a version
 * (a plain function, so the signing pipeline asks it without holding the service).
 */
export async function blockCovering(em: EntityManager, guid: string | null, version: string): Promise<Block | null> {
  if (!guid) return null;
  const [row] = await selectRows<{ id: number; min_version: string; max_version: string }>(
    em,
    'select id, min_version, max_version from blocks where lower(guid) = lower(?) order by id limit 1',
    [guid],
  );
  if (!row) return null;
  const range = { minVersion: row.min_version, maxVersion: row.max_version };
  return inBlockRange(range, version) ? em.getReference(Block, row.id) : null;
}

/** Whether `version` is in the block's range (the browser's version order). */
export function inBlockRange(block: { minVersion: string; maxVersion: string }, version: string): boolean {
  return compareAppVersions(block.minVersion, version) <= 0 && compareAppVersions(version, block.maxVersion) <= 0;
}

const isUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/**
 * Blocks: who may write them, their rules (one block per guid, a range of versions, hard or soft),
 * what they block (signed versions of the guid in the range) and the checks signing and
 * submission ask. Every change is recorded in the add-on's audit log (when an add-on here has the
 * guid) and queues a publication of the blocklist, in the change's transaction.
 */
export class BlocklistService {
  constructor(
    private readonly lifecycle: AddonLifecycle,
    private readonly jobs: JobQueue<ServiceJobs>,
  ) {}

  /** A block by id or guid; anyone may read blocks (browsers link users to them). */
  async get(ctx: RequestContext, identifier: string): Promise<BlockRecord> {
    const key = identifier.trim();
    const where = /^\d{1,10}$/.test(key) ? { id: Number(key) } : { guid: key };
    if (!key || key.length > 255) throw errors.notFound();
    const block = await ctx.em.findOne(Block, where);
    if (!block) throw errors.notFound();
    return this.record(ctx.em, block);
  }

  async list(ctx: RequestContext, page?: number | null, pageSize?: number | null): Promise<Page<BlockRecord>> {
    const request = pageRequest(page, pageSize);
    const [blocks, count] = await ctx.em.findAndCount(
      Block,
      {},
      { orderBy: { modified: 'desc', id: 'desc' }, limit: request.limit, offset: request.offset },
    );
    const records = [];
    for (const block of blocks) records.push(await this.record(ctx.em, block));
    return toPage(request, count, records);
  }

  async create(ctx: RequestContext, input: BlockInput): Promise<BlockRecord> {
    const values = this.validate(input, null);
    const block = await ctx.em.transactional(async (tx) => {
      if (await tx.count(Block, { guid: values.guid })) {
        throw errors.validation({ guid: ['A block for this add-on id already exists.'] });
      }
      const created = tx.create(Block, { ...values, updatedBy: this.actor(ctx, tx) });
      await tx.flush();
      await this.recorded(ctx, tx, created, 'created', null);
      return created;
    });
    return this.record(ctx.em, block);
  }

  async update(ctx: RequestContext, id: number, input: BlockInput): Promise<BlockRecord> {
    const block = await ctx.em.transactional(async (tx) => {
      const existing = await tx.findOne(Block, { id });
      if (!existing) throw errors.notFound();
      const before = snapshot(existing);
      const values = this.validate(input, existing);
      if (values.guid !== existing.guid) throw errors.validation({ guid: ['The add-on id of a block cannot change.'] });
      tx.assign(existing, { ...values, modified: new Date(), updatedBy: this.actor(ctx, tx) });
      await tx.flush();
      await this.recorded(ctx, tx, existing, 'edited', before);
      return existing;
    });
    return this.record(ctx.em, block);
  }

  /** Unblocks every version of the guid. False when there was no such block. */
  async delete(ctx: RequestContext, id: number): Promise<boolean> {
    return ctx.em.transactional(async (tx) => {
      const existing = await tx.findOne(Block, { id });
      if (!existing) return false;
      const before = snapshot(existing);
      tx.remove(existing);
      await tx.flush();
      await this.recorded(ctx, tx, existing, 'deleted', before);
      return true;
    });
  }

  /** Requests a publication, at once (`rebuild`: new base filters), whatever else is pending. */
  async queuePublication(ctx: RequestContext, rebuild: boolean): Promise<boolean> {
    await ctx.em.transactional((tx) => requestPublication(tx, this.jobs, rebuild));
    return true;
  }

  /**
   * After a signing: a publication `delaySeconds` later (the signings of that time make one), in a
   * queue of its own, so that it never holds back the immediate ones of block changes.
   */
  async publishAfterSigning(delaySeconds: number): Promise<void> {
    await this.jobs.send('publish-blocklist-later', {}, { singletonKey: PUBLICATION_KEY, startAfter: delaySeconds });
  }

  /**
   * The `publish-blocklist-later` job: queues the publication (the signings committed before the
   * delay began, so a publication already waiting publishes them too).
   */
  async publishDelayed(): Promise<void> {
    await this.jobs.send('publish-blocklist', {}, { singletonKey: PUBLICATION_KEY });
  }

  private actor(ctx: RequestContext, tx: EntityManager): User | null {
    return ctx.viewer.userId ? tx.getReference(User, ctx.viewer.userId) : null;
  }

  /** Audit log (when an add-on has the guid) and a publication, in the change's transaction. */
  private async recorded(
    ctx: RequestContext,
    tx: EntityManager,
    block: Block,
    change: 'created' | 'edited' | 'deleted',
    before: ReturnType<typeof snapshot> | null,
  ): Promise<void> {
    const addonId = await addonIdByGuid(tx, block.guid);
    if (addonId !== null) {
      await this.lifecycle.recordBlock(tx, addonId, {
        change,
        actorId: ctx.viewer.userId,
        details: { block: change === 'deleted' ? null : snapshot(block), previous: before },
      });
    }
    await requestPublication(tx, this.jobs, false);
  }

  private validate(input: BlockInput, existing: Block | null) {
    const problems = new FieldErrorCollector();
    /** A required text within its limit (over the limit: reported, not looked at further). */
    const required = (field: string, value: string | null | undefined, fallback: string, limit: number) => {
      if (value == null) return fallback;
      if (problems.check(field, lengthProblem(value, limit))) return null;
      const trimmed = value.trim();
      if (!trimmed) problems.add(field, fieldMessages.blank);
      return trimmed || null;
    };
    const guid = required('guid', input.guid, existing?.guid ?? '', BLOCKLIST_TEXT_LIMITS.blockGuid);
    if (guid === '') problems.add('guid', fieldMessages.required);
    const min = required(
      'min_version',
      input.minVersion,
      existing?.minVersion ?? BLOCK_ALL_MIN,
      BLOCKLIST_TEXT_LIMITS.blockVersion,
    );
    const max = required(
      'max_version',
      input.maxVersion,
      existing?.maxVersion ?? BLOCK_ALL_MAX,
      BLOCKLIST_TEXT_LIMITS.blockVersion,
    );
    if (min && max && compareAppVersions(min, max) > 0) {
      problems.add('min_version', 'Min version can not be greater than Max version.');
    }
    const reason = problems.text('reason', input.reason, existing?.reason ?? null, BLOCKLIST_TEXT_LIMITS.blockReason);
    const url = problems.text('url', input.url, existing?.url ?? null, BLOCKLIST_TEXT_LIMITS.blockUrl);
    if (url && !problems.has('url') && !isUrl(url)) problems.add('url', fieldMessages.url);
    problems.throwIfAny();
    return {
      guid: guid!,
      minVersion: min!,
      maxVersion: max!,
      soft: input.soft ?? existing?.soft ?? false,
      reason,
      url,
    };
  }

  /** The block with what it blocks now. */
  async record(em: EntityManager, block: Block): Promise<BlockRecord> {
    const [addon] = await selectRows<{ id: number; name: Translations | null; status: number }>(
      em,
      'select id, name, status from addons where lower(guid) = lower(?) order by id limit 1',
      [block.guid],
    );
    const rows = addon
      ? await selectRows<{ version: string }>(
          em,
          `select v.version from versions v
            where v.addon_id = ? and exists (select 1 from files f where f.version_id = v.id and f.is_signed)`,
          [addon.id],
        )
      : [];
    const signed = rows.map((row) => row.version);
    const versions = signed.filter((version) => inBlockRange(block, version)).sort(compareAppVersions);
    const addonClosed = !addon || addon.status === AddonStatus.DISABLED || addon.status === AddonStatus.DELETED;
    return {
      ...snapshot(block),
      created: block.created,
      modified: block.modified,
      addonId: addon?.id ?? null,
      addonName: addon?.name ?? null,
      addonClosed,
      versions: [...new Set(versions)],
      // As the original: every version, and no new one can come (the range covers every signed one).
      isAllVersions: addonClosed && versions.length === new Set(signed).size,
    };
  }
}

/** What the audit log records of a block, and the start of its record. */
function snapshot(block: Block) {
  return {
    id: block.id,
    guid: block.guid,
    minVersion: block.minVersion,
    maxVersion: block.maxVersion,
    soft: block.soft,
    reason: block.reason,
    url: block.url,
  };
}
