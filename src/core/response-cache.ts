import type { EntityManager } from '@mikro-orm/postgresql';
import { executeSql, textArray } from '../db/sql.js';
import type { SharedAnswer } from './http-caching.js';

/** A cached answer: status, JSON body and its entity tag (sent by src/core/http-caching.ts). */
export type CachedAnswer = SharedAnswer;

interface Entry extends CachedAnswer {
  /** The cache tags the answer depends on, and their versions when it was computed. */
  tags: readonly string[];
  versions: readonly string[];
  bytes: number;
}

/** What one entry costs besides its strings (map slot, object, numbers), as a rough constant. */
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * An in-process cache of REST answers with narrow invalidation. Each answer remembers the cache
 * tags of what it shows (`a:<addon id>`, `u:<user id>`, `l:<listing>`, `global`) and their
 * versions, read in the same snapshot that computed it; database triggers bump a tag's version in
 * the transaction of any write to what it covers (see the CacheTags migration). A cached answer is
 * served only while its tags still have those versions (one indexed read), so once a write has
 * committed no process serves an answer it changed, and writes elsewhere leave it alone.
 *
 * Bounded by memory, not entry count: the least recently used answers go once bodies (bytes), keys
 * and tags (counted as UTF-16, two bytes a character) pass `maxBytes`; an answer over an eighth of it
 * is never kept. Keys are built by the caller from what the answer depends on (RestCacheKeys).
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private totalBytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  /** Current versions of `tags`, in order ('0' for a tag never bumped). */
  async tagVersions(em: EntityManager, tags: readonly string[]): Promise<string[]> {
    if (!tags.length) return [];
    const rows = await executeSql<{ tag: string; version: string }[]>(
      em,
      'select tag, version::text as version from cache_tags where tag = any(?::text[])',
      [textArray(tags)],
    );
    const current = new Map(rows.map((r) => [r.tag, r.version]));
    return tags.map((tag) => current.get(tag) ?? '0');
  }

  /**
   * Starts recording what an answer depends on: `tags` (listing tags, `global`) with their versions
   * now, read before the answer is computed; the loaders add each row's tag (RequestContext.cacheTags).
   */
  async recorder(em: EntityManager, tags: readonly string[]): Promise<Map<string, string>> {
    const sorted = [...tags].sort();
    const versions = await this.tagVersions(em, sorted);
    return new Map(sorted.map((tag, i) => [tag, versions[i]]));
  }

  /** Stores an answer under the tags and versions a recorder collected. */
  store(key: string, answer: CachedAnswer, recorded: Map<string, string>): void {
    this.set(key, answer, [...recorded.keys()], [...recorded.values()]);
  }

  /** The answer under `key` if none of its tags changed since it was computed (one read); else drops it. */
  async get(em: EntityManager, key: string): Promise<CachedAnswer | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const versions = await this.tagVersions(em, entry.tags);
    if (this.entries.get(key) !== entry) return undefined;
    if (versions.some((v, i) => v !== entry.versions[i])) {
      this.remove(key, entry);
      return undefined;
    }
    // Map keeps insertion order: re-inserting marks the entry as recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, answer: CachedAnswer, tags: readonly string[], versions: readonly string[]): void {
    const existing = this.entries.get(key);
    if (existing) this.remove(key, existing);
    const tagChars = tags.reduce((n, t) => n + t.length, 0) + versions.reduce((n, v) => n + v.length, 0);
    const bytes = answer.body.length + (key.length + answer.etag.length + tagChars) * 2 + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.maxBytes / 8) return;
    this.entries.set(key, { ...answer, tags, versions, bytes });
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

  /** Estimated bytes held (keys, bodies and tags). */
  get bytes(): number {
    return this.totalBytes;
  }
}
