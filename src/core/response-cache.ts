import type { EntityManager } from '@mikro-orm/postgresql';

/** A cached answer: status, JSON body and its entity tag. */
export interface CachedAnswer {
  status: number;
  body: string;
  etag: string;
}

interface Entry extends CachedAnswer {
  generation: string;
  bytes: number;
}

/** What one entry costs besides its strings (map slot, object, numbers), as a rough constant. */
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * An in-process cache of REST answers, keyed by the catalogue generation: a number that database
 * triggers bump in the same transaction as any write to a catalogue table (see the CatalogueCache
 * migration). Each cacheable request reads the generation first (one primary-key read), so once a
 * write has committed no process can serve an answer computed before it.
 *
 * Bounded by memory, not entry count: the least recently used answers go once keys and bodies
 * (counted as UTF-16, two bytes a character) pass `maxBytes`; an answer over an eighth of it is
 * never kept. Keys are built by the caller from what the answer depends on (RestCacheKeys).
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private totalBytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  async generation(em: EntityManager): Promise<string> {
    const rows = await em
      .getConnection()
      .execute<{ generation: string }[]>('select generation::text as generation from cache_generation where id = 1');
    return rows[0]?.generation ?? '0';
  }

  get(key: string, generation: string): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.generation !== generation) {
      this.remove(key, entry);
      return undefined;
    }
    // Map keeps insertion order: re-inserting marks the entry as recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, generation: string, answer: CachedAnswer): void {
    const existing = this.entries.get(key);
    if (existing) this.remove(key, existing);
    const bytes = (key.length + answer.body.length + answer.etag.length) * 2 + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.maxBytes / 8) return;
    this.entries.set(key, { ...answer, generation, bytes });
    this.totalBytes += bytes;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.totalBytes <= this.maxBytes) break;
      this.remove(oldestKey, oldest);
    }
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes held (keys and bodies). */
  get bytes(): number {
    return this.totalBytes;
  }
}
