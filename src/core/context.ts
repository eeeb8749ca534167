import type { EntityManager } from '@mikro-orm/postgresql';
import { lookupRows } from '../db/rows.js';
import { Loaders } from './loaders.js';

/** What a request knows about where it came from: used for absolute URLs and audit fields. */
export interface RequestInfo {
  /** Absolute base URL of this service, without trailing slash (SITE_URL or the request's host). */
  readonly baseUrl: string;
  readonly ip: string | null;
  /** The caller's `User-Agent` (at most 255 characters), recorded with the sessions it starts. */
  readonly userAgent?: string | null;
  /** `X-Forwarded-For` as received (at most 255 characters): only `clientInfo` shows it. */
  readonly forwardedFor?: string | null;
  /** `X-Country-Code`, which a CDN in front sets (at most 255 characters): only `clientInfo` shows it. */
  readonly countryCode?: string | null;
  /**
   * `rest` when the REST compatibility engine runs the request: its answers keep the original's
   * shapes where they differ from GraphQL's rules (see CollectionsService.itemAddon). Absent: GraphQL.
   */
  readonly api?: 'rest';
}

/**
 * Who is making a request, as the domain that authenticates callers defines it (src/auth/viewer.ts
 * adds its members to this interface by declaration merging) and builds it once per request. The
 * core only carries it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RequestViewer {}

/**
 * Older rules some REST clients still rely on, each a domain rule the service otherwise no longer
 * applies. The domains declare theirs by adding optional boolean members to this interface
 * (declaration merging, in their own folder: src/accounts/legacy-rules.ts,
 * src/collections/legacy-rules.ts). Only the REST compatibility engine switches them on (from its
 * gates, see rest-compat/legacy-rules.ts); GraphQL callers always get today's rules.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LegacyRules {}

/**
 * The per-request context every service method takes first: a forked entity manager (nothing
 * leaks between requests), the viewer, the request language and the request's DataLoaders.
 * GraphQL resolvers and REST routes build exactly the same object.
 */
export interface RequestContext {
  readonly em: EntityManager;
  readonly viewer: RequestViewer;
  /** The request's current language (lang parameter, Accept-Language, or en-US). */
  readonly locale: string;
  readonly request: RequestInfo;
  readonly loaders: Loaders;
  /**
   * Set while an answer may be cached: the cache tags of what the request read (`a:<addon id>`,
   * `u:<user id>`, see the CacheTags migration) and their versions, read by the loaders in the same
   * statement as the rows (so a version never postdates the data it vouches for).
   */
  readonly cacheTags?: Map<string, string>;
  /** Older rules switched on for this request (REST only); absent: today's rules. */
  readonly legacy?: LegacyRules;
}

/**
 * Records that the answer shows a row whose tag had `version` when it was read (null: never
 * bumped). Of several reads the oldest version is kept: an answer mixing reads from before and
 * after a write is then outdated at once.
 */
export function recordCacheTag(ctx: RequestContext, tag: string, version: string | null): void {
  if (ctx.cacheTags) keepOldestVersion(ctx.cacheTags, tag, version ?? '0');
}

/**
 * What a request records when it read something no tag vouches for (too many rows to list their
 * tags, say): the answer is then not kept (`ResponseCache.store`).
 */
export const UNSHAREABLE = '!unshareable';

/** Records that the answer must not be shared (see UNSHAREABLE). */
export function forgoSharing(ctx: RequestContext): void {
  ctx.cacheTags?.set(UNSHAREABLE, '0');
}

/** Into a map of recorded tags: `version` of `tag`, unless an older one is already there. */
export function keepOldestVersion(recorded: Map<string, string>, tag: string, version: string): void {
  const known = recorded.get(tag);
  if (known === undefined || BigInt(version) < BigInt(known)) recorded.set(tag, version);
}

/**
 * Records the current version of `tag`, read now, before the statements that read what it covers:
 * for rows a tag covers as a set (an add-on's ratings), where an empty read has no row to carry the
 * version. A write committing in between leaves the answer outdated at once (an older version).
 */
export async function recordCurrentTag(ctx: RequestContext, tag: string): Promise<void> {
  if (!ctx.cacheTags) return;
  const [row] = await lookupRows<{ version: string }>(
    ctx.em,
    'select version::text as version from cache_tags where tag = ?',
    [tag],
  );
  recordCacheTag(ctx, tag, row?.version ?? null);
}

/** The version column of a tag, for a loader's select list (`null` when not recording). */
export function cacheTagVersionSql(ctx: RequestContext, tagExpression: string, alias: string): string {
  return ctx.cacheTags
    ? `, (select ct.version::text from cache_tags ct where ct.tag = ${tagExpression}) as ${alias}`
    : `, null::text as ${alias}`;
}

export function createRequestContext(init: Omit<RequestContext, 'loaders'>): RequestContext {
  const context: RequestContext = { ...init, loaders: new Loaders(() => context) };
  return context;
}
