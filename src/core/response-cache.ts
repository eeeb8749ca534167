import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * An in-process cache of anonymous REST answers, keyed by the catalogue generation: a number that
 * database triggers bump in the same transaction as any write to a catalogue table (see the
 * CatalogueCache migration). Each cacheable request reads the generation first (one primary-key
 * read), so once a write has committed no process can serve an answer computed before it.
 */
export class ResponseCache {
  private readonly entries = new Map<string, { generation: string; status: number; body: string }>();

  constructor(private readonly maxEntries = 5_000) {}

  async generation(em: EntityManager): Promise<string> {
    const rows = await em
      .getConnection()
      .execute<{ generation: string }[]>('select generation::text as generation from cache_generation where id = 1');
    return rows[0]?.generation ?? '0';
  }

  get(key: string, generation: string): { status: number; body: string } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.generation !== generation) {
      this.entries.delete(key);
      return undefined;
    }
    // Map keeps insertion order: re-inserting marks the entry as recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, generation: string, status: number, body: string): void {
    this.entries.delete(key);
    this.entries.set(key, { generation, status, body });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
