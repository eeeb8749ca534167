import { createHash } from 'node:crypto';
import { getParams } from './get-params.js';
import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import {
  getArgumentValues,
  getNamedType,
  getVariableValues,
  Kind,
  print,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type VariableDefinitionNode,
} from 'graphql';
import { WeighedLru } from './bounded-caches.js';
import type { RequestContext } from '../core/context.js';
import type { RequestHandler } from 'express';
import { sendSharedAnswer, sharedAnswer, sharedCacheHeaders } from '../core/http-caching.js';
import { baseUrlOf } from '../core/http.js';
import { resolveRequestLocale } from '../core/i18n/locales.js';
import type { Database } from '../db/database.js';
import type { ResponseCache } from '../core/response-cache.js';
import { searchCacheTags } from '../search/search.cache-tags.js';

/**
 * The REST answer cache for GraphQL: anonymous queries that read only the public catalogue are
 * answered from the same `ResponseCache`, under the same narrow invalidation (cache tags recorded
 * by the loaders, listing tags for search), so a persisted query (APQ) sent with GET can be served
 * from memory like a REST answer, and a CDN can keep it (`ETag`, `Cache-Control: public`).
 *
 * An operation is cacheable when every field it selects belongs to a catalogue type whose data the
 * cache tags cover (add-ons, versions, files, licences, previews, categories, authors' public
 * minimum, search hits): an account's statistics or a rating list, say, are not covered, so a
 * query asking for them is executed every time.
 */

/** Root fields whose answers depend only on the catalogue (and on nothing when anonymous). */
const ROOT_FIELDS = new Set([
  'addon',
  'addonVersion',
  'addonVersions',
  'searchAddons',
  'autocompleteAddons',
  'categories',
]);
const SEARCH_FIELDS = new Set(['searchAddons', 'autocompleteAddons']);

/** Types whose fields read only rows the cache tags cover (`a:`, `u:` public minimum, `global`). */
const COVERED_TYPES = new Set([
  'Query',
  'Addon',
  'AddonAuthor',
  'AddonPage',
  'AddonPromotion',
  'AddonRatings',
  'AddonSearchHit',
  'AddonSearchPage',
  'Category',
  'Compatibility',
  'File',
  'License',
  'Preview',
  'UserSummary',
  'Version',
  'VersionCompatibility',
  'VersionPage',
]);

/**
 * The listing tags the operation depends on and its variables as the resolvers get them, or null
 * when it cannot be cached (a field outside the covered types, a random order, a mutation,
 * variables that do not coerce).
 */
export function cacheableOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): { tags: string[]; variables: Record<string, unknown> } | null {
  if (operation.operation !== 'query') return null;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || !ROOT_FIELDS.has(selection.name.value)) return null;
  }
  // Arguments as the resolvers get them (enum values, defaults), from the client's variables.
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (coerced.errors) return null;
  const tags = new Set<string>(['global']);
  let covered = true;
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType();
        if (node.name.value === '__typename') return;
        if (!parent || !COVERED_TYPES.has(getNamedType(parent).name)) covered = false;
        const field = typeInfo.getFieldDef();
        if (field && parent?.name === 'Query' && SEARCH_FIELDS.has(node.name.value)) {
          const args = getArgumentValues(field, node, coerced.coerced) as {
            filters?: { q?: string | null };
            sort?: string[] | null;
          };
          const listing = searchCacheTags(args.filters?.q, args.sort, node.name.value === 'autocompleteAddons');
          if (listing) for (const tag of listing) tags.add(tag);
          else covered = false; // random orders
        }
      },
    }),
  );
  return covered ? { tags: [...tags], variables: coerced.coerced } : null;
}

/**
 * What the cache keys of a document's answers hold of it: the SHA-256 (base64url) of the document
 * printed by graphql (no comments, insignificant whitespace or commas), so that spelling variants of
 * one document share their answers instead of each making new entries.
 */
const normalisedHashes = new WeakMap<DocumentNode, string>();
function normalisedHash(document: DocumentNode): string {
  let hash = normalisedHashes.get(document);
  if (!hash) normalisedHashes.set(document, (hash = createHash('sha256').update(print(document)).digest('base64url')));
  return hash;
}

/**
 * For the answers served before Apollo (persistedAnswers): what a persisted query's hash stands
 * for, recorded when Apollo ran it: the normalised document's hash, the operation's name and its
 * variable definitions (to coerce the variables of the next request as Apollo would).
 */
export class PersistedOperations {
  private readonly known = new WeighedLru<PersistedOperation>(1_000, 1_000, () => 1);

  record(persistedHash: string, requestedName: string | undefined, entry: PersistedOperation): void {
    this.known.set(`${persistedHash} ${requestedName ?? ''}`, entry);
  }

  lookup(persistedHash: string, requestedName: string | undefined): PersistedOperation | undefined {
    return this.known.get(`${persistedHash} ${requestedName ?? ''}`);
  }
}

interface PersistedOperation {
  documentHash: string;
  operationName: string;
  /** Without their locations, so that the entry does not keep the whole parsed document alive. */
  variableDefinitions: readonly VariableDefinitionNode[];
}

/** A node without `loc` (which links to every token of its document and to the document's text). */
function withoutLocations<T>(node: T): T {
  return JSON.parse(JSON.stringify(node, (key, value: unknown) => (key === 'loc' ? undefined : value))) as T;
}

/** Shared GraphQL answers; GET requests (persisted queries) also get HTTP caching headers. */
export function responseCachePlugin(
  schema: GraphQLSchema,
  cache: ResponseCache,
  maxAge: number,
  persisted: PersistedOperations,
): ApolloServerPlugin<RequestContext> {
  /** Cache keys of the requests computing an answer to store. */
  const pending = new WeakMap<RequestContext, string>();
  const setHeaders = (headers: HeaderMap, etag: string) => {
    for (const [name, value] of Object.entries(sharedCacheHeaders(etag, maxAge, true))) {
      headers.set(name.toLowerCase(), value);
    }
  };
  return {
    async requestDidStart() {
      return {
        async responseForOperation({ request, document, operation, contextValue, queryHash }) {
          // No operation: Apollo answers the unknown operation name itself.
          if (!operation || !contextValue.cacheTags || !queryHash) return null;
          const cacheable = cacheableOperation(schema, document, operation, request.variables ?? {});
          if (!cacheable) return null;
          const { tags, variables } = cacheable;
          const documentHash = normalisedHash(document);
          const operationName = operation.name?.value ?? '';
          const key = graphqlCacheKey(
            contextValue.request.baseUrl,
            contextValue.locale,
            operationName,
            documentHash,
            variables,
          );
          const persistedHash = (request.extensions?.persistedQuery as { sha256Hash?: unknown } | undefined)
            ?.sha256Hash;
          if (typeof persistedHash === 'string' && !persisted.lookup(persistedHash, request.operationName)) {
            const variableDefinitions = withoutLocations(operation.variableDefinitions ?? []);
            persisted.record(persistedHash, request.operationName, {
              documentHash,
              operationName,
              variableDefinitions,
            });
          }
          const hit = await cache.get(contextValue.em, key);
          if (hit) {
            const headers = new HeaderMap();
            if (request.http?.method === 'GET') setHeaders(headers, hit.etag);
            return {
              http: { status: 200, headers },
              body: { kind: 'single', singleResult: JSON.parse(hit.body.toString()) },
            };
          }
          // A miss: record what the answer shows, the listing tags' versions first (see ResponseCache).
          for (const [tag, version] of await cache.recorder(contextValue.em, tags)) {
            contextValue.cacheTags.set(tag, version);
          }
          pending.set(contextValue, key);
          return null;
        },
        async willSendResponse({ response, contextValue, request }) {
          const key = pending.get(contextValue);
          const recorded = contextValue.cacheTags;
          if (!key || !recorded || response.body.kind !== 'single' || response.body.singleResult.errors?.length) {
            return;
          }
          const answer = sharedAnswer(200, JSON.stringify(response.body.singleResult));
          cache.store(key, answer, recorded);
          if (request.http?.method === 'GET') setHeaders(response.http.headers, answer.etag);
        },
      };
    },
  };
}

/**
 * The cache key of an anonymous answer: the normalised document's hash, the operation it runs and
 * the variables it declares, coerced (defaults filled in, `"5"` and `5` one ID), hashed.
 */
function graphqlCacheKey(
  baseUrl: string,
  locale: string,
  operationName: string,
  documentHash: string,
  variables: Record<string, unknown>,
): string {
  const values = createHash('sha256').update(stableJson(variables)).digest('base64url');
  return ['graphql', baseUrl, locale, operationName, documentHash, values].join(' ');
}

/**
 * Persisted queries sent with GET and answered from the cache before Apollo runs: a hit costs what
 * a REST hit costs (the cache tags' versions), not Apollo's request pipeline. The key is the one
 * the plugin stores under, computed from the request as Apollo would read it: the persisted hash
 * names a document Apollo already ran (`PersistedOperations`; persistedQueryGuard already refused a
 * hash that does not match a query sent with it), whose declared variables are coerced. Anything
 * else (credentials, a request Apollo's CSRF rule refuses, a hash not seen yet, undeclared or
 * invalid variables, a miss, unreadable JSON) goes on to Apollo, which answers, and stores, as before.
 */
export function persistedAnswers(options: {
  schema: GraphQLSchema;
  cache: ResponseCache;
  persisted: PersistedOperations;
  db: Database;
  siteUrl: string | undefined;
  maxAge: number;
}): RequestHandler {
  const { schema, cache, persisted, db, siteUrl, maxAge } = options;
  return (req, res, next) => {
    if (req.method !== 'GET' || req.headers.authorization) return next();
    if (!req.headers['apollo-require-preflight'] && !req.headers['x-apollo-operation-name']) return next();
    const { operationName } = req.query as Record<string, unknown>;
    const get = getParams(res);
    if (!get || get.malformed || get.extensions === undefined) return next();
    if (operationName !== undefined && typeof operationName !== 'string') return next();
    const hash = (get.extensions as { persistedQuery?: { sha256Hash?: unknown } } | null)?.persistedQuery?.sha256Hash;
    const values = get.variables === undefined ? {} : get.variables;
    if (
      typeof hash !== 'string' ||
      !/^[0-9a-f]{64}$/.test(hash) ||
      !values ||
      typeof values !== 'object' ||
      Array.isArray(values)
    )
      return next();
    const known = persisted.lookup(hash, operationName);
    if (!known) return next();
    const declared = new Set(known.variableDefinitions.map((d) => d.variable.name.value));
    if (Object.keys(values).some((name) => !declared.has(name))) return next();
    const coerced = getVariableValues(schema, known.variableDefinitions, values as Record<string, unknown>);
    if (coerced.errors) return next();
    const key = graphqlCacheKey(
      baseUrlOf(req, siteUrl),
      resolveRequestLocale(req.query.lang, req.headers['accept-language']),
      known.operationName,
      known.documentHash,
      coerced.coerced,
    );
    cache.get(db.fork(), key).then(
      (hit) => (hit ? sendSharedAnswer(req, res, hit, maxAge, true) : next()),
      (error: unknown) => next(error),
    );
  };
}

/** JSON with object keys sorted, so equal variables make equal keys. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
