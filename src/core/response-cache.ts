import type { EntityManager } from '@mikro-orm/postgresql';
import { lookupRows } from '../db/rows.js';
import { textArray } from '../db/sql.js';
import type { SharedAnswer } from './http-caching.js';
import { UNSHAREABLE } from './context.js';

/** A cached answer: status, JSON body and its entity tag (sent by src/core/http-caching.ts). */
export type CachedAnswer = SharedAnswer;

/** A cached answer with the cache tags it was stored under and their versions (current when found). */
export interface TaggedAnswer extends CachedAnswer {
  readonly tags: readonly string[];
  readonly versions: readonly string[];
}

interface Entry extends TaggedAnswer {
  /** The cache tags the answer depends on, and their versions when it was computed. */
  tags: readonly string[];
  versions: readonly string[];
  bytes: number;
}

interface TagRead {
  em: EntityManager;
  tags: readonly string[];
  resolve(versions: string[]): void;
  reject(error: unknown): void;
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

  /** Reads waiting for the statement in flight (see `tagVersions`). */
  private queued: TagRead[] = [];
  private reading = false;

  /**
   * Current versions of `tags`, in order ('0' for a tag never bumped). Reads asked for while a
   * statement is in flight are made together by the next one, which starts after all of them were
   * asked: each still sees every write committed before it was asked, and a busy process sends one
   * statement for several requests instead of one each.
   */
  tagVersions(em: EntityManager, tags: readonly string[]): Promise<string[]> {
    if (!tags.length) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queued.push({ em, tags, resolve, reject });
      if (!this.reading) void this.readQueued();
    });
  }

  private async readQueued(): Promise<void> {
    this.reading = true;
    try {
      while (this.queued.length) {
        const batch = this.queued.splice(0);
        try {
          // The first asker's entity manager: its request is waiting for this read, not using it.
          // A key lookup run for every cached answer: a prepared statement outside transactions.
          const rows = await lookupRows<{ tag: string; version: string }>(
            batch[0].em,
            'select tag, version::text as version from cache_tags where tag = any(?::text[])',
            [textArray([...new Set(batch.flatMap((read) => read.tags))])],
          );
          const current = new Map(rows.map((r) => [r.tag, r.version]));
          for (const read of batch) read.resolve(read.tags.map((tag) => current.get(tag) ?? '0'));
        } catch (error) {
          for (const read of batch) read.reject(error);
        }
      }
    } finally {
      this.reading = false;
    }
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

  /**
   * Several answers at once (the parts of a page): the versions of all their tags in one read.
   * Each is returned with its tags and their versions (a page made of them depends on those), or
   * undefined when absent or outdated (then dropped).
   */
  async getMany(em: EntityManager, keys: readonly string[]): Promise<(TaggedAnswer | undefined)[]> {
    const entries = keys.map((key) => this.entries.get(key));
    const tags = [...new Set(entries.flatMap((entry) => entry?.tags ?? []))];
    const versions = await this.tagVersions(em, tags);
    const current = new Map(tags.map((tag, i) => [tag, versions[i]]));
    return entries.map((entry, i) => {
      const key = keys[i];
      if (!entry || this.entries.get(key) !== entry) return undefined;
      if (entry.tags.some((tag, j) => current.get(tag) !== entry.versions[j])) {
        this.remove(key, entry);
        return undefined;
      }
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry;
    });
  }

  /** Keeps an answer (not one a read made unshareable: `forgoSharing`). */
  set(key: string, answer: CachedAnswer, tags: readonly string[], versions: readonly string[]): void {
    if (tags.includes(UNSHAREABLE)) return;
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
