import type { DocumentNode } from 'graphql';

/**
 * What /graphql keeps per document a client sends, bounded by what it holds rather than by what
 * the client declares. Anonymous clients choose documents freely (a space, an
 * alias, a field order make a new one), and each one kept costs memory: Apollo's parsed and
 * validated documents (the AST and its token list: about 270 bytes of heap a token, measured), the
 * automatic persisted queries' texts, and the graphql-jit function compiled per operation (its
 * generated source, often tens of kilobytes, and as much again of code). Apollo's own stores are
 * bounded by an estimate (30 MiB of JSON each, several times that of heap), and the compiled
 * functions were kept for as long as Apollo kept their document, uncounted: 20,000 distinct
 * anonymous documents grew a server's RSS from 471 to 1,324 MiB.
 */

/** A least-recently-used map bounded by a total weight and an entry count. */
export class WeighedLru<V> {
  private readonly entries = new Map<string, { value: V; weight: number; expires: number }>();
  private total = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly maxEntries: number,
    private readonly weigh: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expires <= Date.now()) {
      this.total -= entry.weight;
      return undefined;
    }
    this.entries.set(key, entry); // most recently used last
    return entry.value;
  }

  /** Keeps `value` (unless it alone weighs over an eighth of the bound), dropping the least recently used. */
  set(key: string, value: V, ttlSeconds?: number): void {
    this.delete(key);
    const weight = Math.max(1, this.weigh(value));
    if (weight > this.maxWeight / 8) return;
    const expires = ttlSeconds ? Date.now() + ttlSeconds * 1000 : Infinity;
    this.entries.set(key, { value, weight, expires });
    this.total += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxWeight && this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
      this.total -= entry.weight;
    }
  }

  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.total -= entry.weight;
    return true;
  }

  get size(): number {
    return this.entries.size;
  }

  get weight(): number {
    return this.total;
  }
}

/** Apollo's cache interface (KeyValueCache), for its document store and persisted queries. */
export interface ApolloKeyValueCache<V> {
  get(key: string): Promise<V | undefined>;
  set(key: string, value: V, options?: { ttl?: number | null }): Promise<void>;
  delete(key: string): Promise<boolean | void>;
}

function asKeyValueCache<V>(lru: WeighedLru<V>): ApolloKeyValueCache<V> {
  return {
    get: async (key) => lru.get(key),
    set: async (key, value, options) => lru.set(key, value, options?.ttl ?? undefined),
    delete: async (key) => lru.delete(key),
  };
}

/** Tokens of a parsed document (its AST and token list grow with them); at most the parser's token limit. */
export function documentTokens(document: DocumentNode): number {
  let tokens = 0;
  for (let token = document.loc?.startToken ?? null; token; token = token.next) tokens++;
  return tokens;
}

/**
 * Parsed and validated documents, keyed by Apollo (the SHA-256 of their text): at most
 * `maxTokens` tokens in all (about 13 MB of heap; a REST route's document has 7 to 259 tokens, all
 * 87 of them 7,248) and 2,000 documents.
 */
export function documentStore(maxTokens = 50_000): ApolloKeyValueCache<DocumentNode> {
  return asKeyValueCache(new WeighedLru<DocumentNode>(maxTokens, 2_000, documentTokens));
}

/** Automatic persisted queries' texts: `maxChars` characters in all, their TTL honoured. */
export function persistedQueryStore(maxChars = 4 * 1024 * 1024): ApolloKeyValueCache<string> {
  return asKeyValueCache(new WeighedLru<string>(maxChars, 10_000, (text) => text.length));
}
