import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../core/logger.js';
import type { Database } from '../db/database.js';
import { selectRows } from '../db/rows.js';
import type { Storage } from '../storage/storage.port.js';
import { BlocklistPublication, BlocklistRecord, Block } from './block.entity.js';
import { inBlockRange } from './blocklist.service.js';
import type { BlocklistRecordType } from './blocklist.types.js';
import { pendingRequests, settleRequests } from './publication-requests.js';
import { cascadeStats, parseCascade, serializeCascade, type FilterCascade } from './mlbf/filter-cascade.js';
import {
  blocklistKey,
  buildBaseFilters,
  KEY_FORMAT,
  planPublication,
  type BaseFilters,
  type BlockedSets,
  type PreviousPublication,
  type Stash,
} from './mlbf/publication.js';

export const HARD_BASE = 'bloomfilter-base';
export const SOFT_BASE = 'softblocks-bloomfilter-base';
const FILTER_NAMES = { hard: 'filter-blocked', soft: 'filter-soft_blocked' } as const;

/** What one run published. */
export interface PublicationResult {
  readonly kind: 'base' | 'stash' | 'none';
  readonly generation: string | null;
  readonly signed: number;
  readonly blocked: number;
  readonly softBlocked: number;
  /** Base runs: the two filters' sizes in bytes and layers. */
  readonly filters?: { hard: { bytes: number; layers: number }; soft: { bytes: number; layers: number } };
  readonly stash?: Stash;
}

/** Every signed version's key, and which of them blocks cover, hard or soft. */
export async function currentBlocklistState(em: EntityManager): Promise<{ signed: string[]; blocked: BlockedSets }> {
  const [rows, blocks] = await Promise.all([
    selectRows<{ guid: string; version: string }>(
      em,
      `select a.guid, v.version from versions v join addons a on a.id = v.addon_id
        where a.guid is not null and exists (select 1 from files f where f.version_id = v.id and f.is_signed)`,
    ),
    em.find(Block, {}),
  ]);
  const byGuid = new Map(blocks.map((block) => [block.guid.toLowerCase(), block]));
  const signed = new Set<string>();
  const hard = new Set<string>();
  const soft = new Set<string>();
  for (const row of rows) {
    const key = blocklistKey(row.guid, row.version);
    signed.add(key);
    const block = byGuid.get(row.guid.toLowerCase());
    if (!block || !inBlockRange(block, row.version)) continue;
    if (block.soft) soft.add(key);
    else hard.add(key);
  }
  for (const key of hard) soft.delete(key);
  return { signed: [...signed], blocked: { hard, soft } };
}

/**
 * Publishes the blocklist for browsers, as the original publishes it to Remote Settings: base
 * filters (a filter cascade of the hard-blocked keys and one of the soft-blocked keys, each against
 * every other signed version's key), then stashes of what changed since, until the stashes pass
 * the threshold and new base filters replace them. The collection's records (`BlocklistRecord`)
 * name the attachments by storage key with their SHA-256; the key sets of each publication are kept
 * in storage beside its filters so the next run can compare. Runs as the `publish-blocklist` job
 * (one at a time: every such job has the one key `PUBLICATION_KEY`).
 */
export class BlocklistPublisher {
  constructor(
    private readonly db: Database,
    private readonly files: Storage,
    private readonly logger: Logger,
    private readonly options: { threshold?: number } = {},
  ) {}

  /**
   * Publishes what the requests (`publication-requests.ts`) ask, new base filters when a rebuild is
   * pending or `force`; again while requests come during a run.
   */
  async publish(options: { force?: boolean } = {}): Promise<PublicationResult> {
    let force = options.force ?? false;
    for (;;) {
      const { result, more } = await this.publishOnce(force);
      if (!more) return result;
      force = false;
    }
  }

  private async publishOnce(force: boolean): Promise<{ result: PublicationResult; more: boolean }> {
    const em = this.db.fork();
    // Read before the blocklist: a request committed after it makes `settleRequests` say `more`.
    const requests = await pendingRequests(em);
    const { signed, blocked } = await currentBlocklistState(em);
    const [last] = await em.find(BlocklistPublication, {}, { orderBy: { generation: 'desc' }, limit: 1 });
    const previous = last ? await this.load(last) : null;
    const plan = planPublication(blocked, signed, previous, {
      force: force || requests.rebuild,
      threshold: this.options.threshold,
    });
    const counts = { signed: signed.length, blocked: blocked.hard.size, softBlocked: blocked.soft.size };
    if (plan.kind === 'none') {
      const more = await em.transactional((tx) => settleRequests(tx, requests, false));
      return { result: { kind: 'none', generation: last?.generation ?? null, ...counts }, more };
    }

    const [lastRecord] = await em.find(BlocklistRecord, {}, { orderBy: { lastModified: 'desc' }, limit: 1 });
    const generation = String(Math.max(Date.now(), Number(lastRecord?.lastModified ?? 0) + 10));
    const folder = `blocklist/mlbf/${generation}`;
    await this.files.put(`${folder}/blocked.json`, Buffer.from(JSON.stringify([...blocked.hard])));
    await this.files.put(`${folder}/softblocked.json`, Buffer.from(JSON.stringify([...blocked.soft])));
    await this.files.put(`${folder}/signed.txt`, Buffer.from(signed.join('\n')));

    if (plan.kind === 'base') {
      const filters = buildBaseFilters(blocked, signed);
      const hard = await this.writeFilter(folder, 'hard', filters.hard);
      const soft = await this.writeFilter(folder, 'soft', filters.soft);
      const more = await em.transactional(async (tx) => {
        // The new bases replace the old ones and every stash (all older than them).
        await tx.nativeDelete(BlocklistRecord, {});
        this.addRecord(tx, generation, 0, HARD_BASE, {
          generation_time: Number(generation),
          attachment: hard.attachment,
        });
        this.addRecord(tx, generation, 1, SOFT_BASE, {
          generation_time: Number(generation),
          attachment: soft.attachment,
        });
        tx.create(BlocklistPublication, {
          generation,
          baseGeneration: generation,
          ...this.countsOf(counts),
          stashedSinceBase: 0,
        });
        return settleRequests(tx, requests, true);
      });
      await this.cleanUp(em, generation);
      this.logger.info(
        { generation, reason: plan.reason, ...counts, hard: hard.stats, soft: soft.stats },
        'blocklist base published',
      );
      const stats = { hard: hard.stats, soft: soft.stats };
      return { result: { kind: 'base', generation, ...counts, filters: stats }, more };
    }

    const { stash } = plan;
    await this.files.put(`${folder}/stash.json`, Buffer.from(JSON.stringify(stash)));
    const size = stash.blocked.length + stash.softblocked.length + stash.unblocked.length;
    const more = await em.transactional(async (tx) => {
      this.addRecord(tx, generation, 0, null, { stash_time: Number(generation), stash });
      tx.create(BlocklistPublication, {
        generation,
        baseGeneration: last!.baseGeneration,
        ...this.countsOf(counts),
        stashedSinceBase: last!.stashedSinceBase + size,
      });
      return settleRequests(tx, requests, false);
    });
    await this.cleanUp(em, last!.baseGeneration, generation);
    this.logger.info({ generation, ...counts, stashed: size }, 'blocklist stash published');
    return { result: { kind: 'stash', generation, ...counts, stash }, more };
  }

  /** The collection as browsers read it, oldest first. */
  async records(em: EntityManager): Promise<Record<string, unknown>[]> {
    const records = await em.find(BlocklistRecord, {}, { orderBy: { lastModified: 'asc' } });
    return records.map((record) => ({ ...record.data, id: record.id, last_modified: Number(record.lastModified) }));
  }

  /** The same records, typed (GraphQL). */
  async recordsForGraphql(em: EntityManager): Promise<BlocklistRecordType[]> {
    const records = await em.find(BlocklistRecord, {}, { orderBy: { lastModified: 'asc' } });
    return records.map((record) => {
      const data = record.data as {
        key_format: string;
        generation_time?: number;
        stash_time?: number;
        attachment?: BlocklistRecordType['attachment'];
        stash?: Stash;
      };
      return {
        id: record.id,
        lastModified: Number(record.lastModified),
        attachmentType: record.attachmentType,
        keyFormat: data.key_format,
        generationTime: data.generation_time ?? null,
        stashTime: data.stash_time ?? null,
        attachment: data.attachment ?? null,
        stash: data.stash ?? null,
      };
    });
  }

  /** An attachment's bytes by its location, when a current record names it. */
  async attachment(em: EntityManager, location: string): Promise<Buffer | null> {
    const records = await em.find(BlocklistRecord, { attachmentType: { $ne: null } });
    const named = records.some((record) => (record.data.attachment as { location?: string }).location === location);
    return named ? this.files.get(location) : null;
  }

  private countsOf(counts: { signed: number; blocked: number; softBlocked: number }) {
    return { signedCount: counts.signed, blockedCount: counts.blocked, softBlockedCount: counts.softBlocked };
  }

  private addRecord(
    tx: EntityManager,
    generation: string,
    offset: number,
    attachmentType: string | null,
    data: Record<string, unknown>,
  ): void {
    tx.create(BlocklistRecord, {
      id: randomUUID(),
      lastModified: String(Number(generation) + offset),
      attachmentType,
      data: { key_format: KEY_FORMAT, ...(attachmentType ? { attachment_type: attachmentType } : {}), ...data },
    });
  }

  private async writeFilter(folder: string, kind: 'hard' | 'soft', cascade: FilterCascade) {
    const bytes = serializeCascade(cascade);
    const location = `${folder}/${FILTER_NAMES[kind]}.bin`;
    await this.files.put(location, bytes);
    const attachment = {
      filename: 'filter.bin',
      hash: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
      location,
      mimetype: 'application/octet-stream',
    };
    return { attachment, stats: { bytes: bytes.length, layers: cascadeStats(cascade).layers } };
  }

  /** The previous publication's key sets and the base filters browsers hold. */
  private async load(last: BlocklistPublication): Promise<PreviousPublication | null> {
    const folder = `blocklist/mlbf/${last.generation}`;
    const base = `blocklist/mlbf/${last.baseGeneration}`;
    const [hard, soft, signed, hardFilter, softFilter] = await Promise.all([
      this.files.get(`${folder}/blocked.json`),
      this.files.get(`${folder}/softblocked.json`),
      this.files.get(`${folder}/signed.txt`),
      this.files.get(`${base}/${FILTER_NAMES.hard}.bin`),
      this.files.get(`${base}/${FILTER_NAMES.soft}.bin`),
    ]);
    if (!hard || !soft || !signed || !hardFilter || !softFilter) {
      this.logger.warn({ generation: last.generation }, 'blocklist publication files missing: publishing a new base');
      return null;
    }
    const filters: BaseFilters = { hard: parseCascade(hardFilter), soft: parseCascade(softFilter) };
    const text = signed.toString('utf8');
    return {
      blocked: { hard: new Set(JSON.parse(hard.toString('utf8'))), soft: new Set(JSON.parse(soft.toString('utf8'))) },
      signed: new Set(text ? text.split('\n') : []),
      base: filters,
      stashedSinceBase: last.stashedSinceBase,
    };
  }

  /** Keeps the base's files and the latest publication's; older publications' files and rows go. */
  private async cleanUp(em: EntityManager, baseGeneration: string, latest = baseGeneration): Promise<void> {
    const stale = await em.find(BlocklistPublication, { generation: { $nin: [baseGeneration, latest] } });
    for (const publication of stale) {
      const folder = `blocklist/mlbf/${publication.generation}`;
      const names = ['blocked.json', 'softblocked.json', 'signed.txt', 'stash.json'];
      if (publication.generation === publication.baseGeneration)
        names.push(...Object.values(FILTER_NAMES).map((n) => `${n}.bin`));
      for (const name of names) await this.files.delete(`${folder}/${name}`);
    }
    if (stale.length)
      await em.nativeDelete(BlocklistPublication, { generation: { $in: stale.map((p) => p.generation) } });
  }
}
