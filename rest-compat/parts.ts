import type { EntityManager } from '@mikro-orm/postgresql';
import type { ExecutionResult } from 'graphql';
import { keepOldestVersion } from '../src/core/context.js';
import type { ResponseCache, TaggedAnswer } from '../src/core/response-cache.js';
import type { ShapeContext } from './route.js';

/**
 * Pages assembled from cached parts, so that a busy page is cheap. A page of add-ons (search results, say)
 * costs its id lookup and an assembly: each item's JSON is a part, rendered once per shape variant
 * (API version, origin, language, link wrapping) by its own GraphQL document for anonymous
 * callers, kept in the answer cache under the tags of what it shows (`global`, its add-on's
 * `a:<id>`, its authors' `u:<id>`), so that a write outdates exactly the parts it touched, in every
 * process, as it outdates answers. A page that was never asked before then reads no add-on twice
 * and renders none twice; its text is the same, byte for byte, as the one rendered whole.
 */
export interface PartsDefinition<TData = any, TPart = any> {
  /**
   * The page without its items' bodies (their ids, and what `assemble` needs), run instead of the
   * route's document. Parsed and validated at boot, as the route's document.
   */
  skeleton: string;
  /** The parts' document: takes `$ids: [Int!]!`; `list` finds the parts, in the ids' order. */
  document: string;
  /** The items' ids, from the skeleton's data, in page order. */
  ids(data: TData): number[];
  /** The parts in the part document's data, in the order of the ids asked (null: not shown). */
  list(data: any): (TPart | null)[];
  /** One part's JSON object, as the route's own shaper renders the item. */
  shape(part: TPart, ctx: ShapeContext<any>): unknown;
  /** The cache tags a part shows besides `global` (its rows', as the loaders record them). */
  tags(part: TPart): string[];
  /** The page's JSON text from the skeleton's data and the parts' texts (null: an item left out). */
  assemble(data: TData, parts: readonly (string | null)[], ctx: ShapeContext<any>): string;
}

/** What one assembly needs from the engine. */
export interface Assembly<TData> {
  parts: PartsDefinition<TData>;
  data: TData;
  shapeContext: ShapeContext<any>;
  cache: ResponseCache;
  em: EntityManager;
  /** The part keys' common start: route, version, origin, language, shape switches. */
  keyPrefix: string;
  /**
   * Runs the parts' document for these ids as an anonymous caller; `recorded`: the tags its loaders
   * recorded, with `global`, each read before the rows it covers.
   */
  runParts(ids: number[]): Promise<{ result: ExecutionResult; recorded: Map<string, string> }>;
  /** The page's recorded tags, when the page is stored: the parts' tags join them. */
  pageTags?: Map<string, string>;
}

export async function assembleFromParts<TData>(assembly: Assembly<TData>): Promise<string> {
  const { parts, data, shapeContext, cache, em, keyPrefix, pageTags } = assembly;
  const ids = parts.ids(data);
  const keys = ids.map((id) => `${keyPrefix} ${id}`);
  const found: (TaggedAnswer | undefined)[] = ids.length ? await cache.getMany(em, keys) : [];
  const texts: (string | null)[] = found.map((hit) => (hit ? hit.body.toString() : null));
  for (const hit of found) if (hit && pageTags) keepOldest(pageTags, hit.tags, hit.versions);

  const missing = ids.flatMap((id, i) => (found[i] ? [] : [i]));
  if (missing.length) {
    const { result, recorded } = await assembly.runParts(missing.map((i) => ids[i]));
    // The first error, as the engine maps its own documents' (the parts' document has none of its own).
    if (result.errors?.length) throw result.errors[0];
    if (!result.data) throw new Error('the parts document answered no data');
    const list = parts.list(result.data);
    missing.forEach((i, j) => {
      const part = list[j];
      if (!part) return;
      const text = JSON.stringify(parts.shape(part, shapeContext));
      texts[i] = text;
      const tags = ['global', ...parts.tags(part)];
      const versions = tags.map((tag) => recorded.get(tag));
      // A tag the loaders did not record: the part is shown, never kept.
      if (versions.some((v) => v === undefined)) return;
      cache.set(keys[i], { status: 200, body: Buffer.from(text), etag: '' }, tags, versions as string[]);
      if (pageTags) keepOldest(pageTags, tags, versions as string[]);
    });
  }
  return parts.assemble(data, texts, shapeContext);
}

/** The tags a part shows join the page's, each keeping its oldest version. */
function keepOldest(into: Map<string, string>, tags: readonly string[], versions: readonly string[]): void {
  tags.forEach((tag, i) => keepOldestVersion(into, tag, versions[i]));
}
