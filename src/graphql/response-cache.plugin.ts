import { createHash } from 'node:crypto';
import { getParams } from './get-params.js';
import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import {
  BREAK,
  getArgumentValues,
  getNamedType,
  getVariableValues,
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
import type { Request, RequestHandler, Response } from 'express';
import { sendSharedAnswer, sharedAnswer, sharedCacheHeaders } from '../core/http-caching.js';
import { baseUrlOf } from '../core/http.js';
import { resolveRequestLocale } from '../core/i18n/locales.js';
import type { Database } from '../db/database.js';
import type { ResponseCache } from '../core/response-cache.js';
import { sharedRule } from './shared-answers.js';

/**
 * The REST answer cache for GraphQL: anonymous queries whose answer is the same for every anonymous
 * caller are answered from the same `ResponseCache`, under the same narrow invalidation (cache tags
 * recorded by the loaders, listing tags from the root fields' arguments), so a persisted query
 * (APQ) sent with GET can be served from memory like a REST answer, and a CDN can keep it (`ETag`,
 * `Cache-Control: public`).
 *
 * An operation is shared when every field it selects is declared so by its domain (`@Shared()` on
 * the type or field, shared-answers.ts): a field no declaration covers (an account's e-mail
 * settings, a collection, a random order) makes the operation execute every time.
 */

/**
 * The listing tags the operation depends on and its variables as the resolvers get them, or null
 * when it cannot be shared (a field not declared shared, a root field whose rule refuses its
 * arguments, a mutation, variables that do not coerce).
 */
export function cacheableOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): { tags: string[]; variables: Record<string, unknown> } | null {
  if (operation.operation !== 'query') return null;
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
        if (node.name.value === '__typename') return;
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef();
        const rule = parent && field ? sharedRule(getNamedType(parent), field) : null;
        if (!rule || !field) {
          covered = false;
          return BREAK;
        }
        if (rule === true) return;
        const listing = rule(getArgumentValues(field, node, coerced.coerced));
        if (!listing) {
          covered = false;
          return BREAK;
        }
        for (const tag of listing) tags.add(tag);
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
 * For the answers served before Apollo (knownAnswers): what a document stands for, recorded when
 * Apollo ran it: the normalised document's hash, the operation's name and its variable definitions
 * (to coerce the variables of the next request as Apollo would). A document is known by its
 * persisted query hash (GET) or by the SHA-256 of its text (POST).
 */
export class PersistedOperations {
  private readonly known = new WeighedLru<PersistedOperation>(2_000, 2_000, () => 1);

  record(documentKey: string, requestedName: string | undefined, entry: PersistedOperation): void {
    this.known.set(`${documentKey} ${requestedName ?? ''}`, entry);
  }

  lookup(documentKey: string, requestedName: string | undefined): PersistedOperation | undefined {
    return this.known.get(`${documentKey} ${requestedName ?? ''}`);
  }
}

/** How a document sent with POST is known: `q:` and the SHA-256 of its text. */
const textKey = (query: string) => `q:${createHash('sha256').update(query).digest('base64url')}`;
/** How a persisted query is known: `p:` and its hash (checked against its text by persistedQueryGuard). */
const persistedKey = (hash: string) => `p:${hash}`;

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
          const documentKeys = [
            ...(typeof persistedHash === 'string' ? [persistedKey(persistedHash)] : []),
            ...(request.http?.method === 'POST' && typeof request.query === 'string' ? [textKey(request.query)] : []),
          ];
          for (const documentKey of documentKeys) {
            if (persisted.lookup(documentKey, request.operationName)) continue;
            const variableDefinitions = withoutLocations(operation.variableDefinitions ?? []);
            persisted.record(documentKey, request.operationName, { documentHash, operationName, variableDefinitions });
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
          // The bytes Apollo sends (its JSON and a newline), so that a hit answered before Apollo is the same.
          const answer = sharedAnswer(200, `${JSON.stringify(response.body.singleResult)}\n`);
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
 * Anonymous queries answered from the cache before Apollo runs: a hit costs what a REST hit costs
 * (the cache tags' versions), not Apollo's request pipeline (parsing the body's document again,
 * validation lookups, plugins, serialising). Two forms:
 * - a persisted query sent with GET: its hash names a document Apollo already ran
 *   (persistedQueryGuard already refused a hash that does not match a query sent with it);
 * - a query sent with POST as JSON (`query`, `variables`, `operationName`): its text is one Apollo
 *   already ran (known by its SHA-256).
 * The key is the one the plugin stores under, computed from the request as Apollo would read it:
 * the document's declared variables are coerced. Anything else (credentials, a request Apollo's
 * CSRF rule refuses, a document not seen yet, extensions, undeclared or invalid variables, a miss)
 * goes on to Apollo, which answers, and stores, as before. GET hits carry the HTTP caching headers;
 * POST hits the headers Apollo sends.
 */
export function knownAnswers(options: {
  schema: GraphQLSchema;
  cache: ResponseCache;
  persisted: PersistedOperations;
  db: Database;
  siteUrl: string | undefined;
  maxAge: number;
}): RequestHandler {
  const { schema, cache, persisted, db, siteUrl, maxAge } = options;
  return (req, res, next) => {
    if (req.headers.authorization) return next();
    const request =
      req.method === 'GET' ? persistedRequest(req, res) : req.method === 'POST' ? postedRequest(req) : null;
    if (!request) return next();
    const { documentKey, operationName, values } = request;
    const known = persisted.lookup(documentKey, operationName);
    if (!known) return next();
    const declared = new Set(known.variableDefinitions.map((d) => d.variable.name.value));
    if (Object.keys(values).some((name) => !declared.has(name))) return next();
    const coerced = getVariableValues(schema, known.variableDefinitions, values);
    if (coerced.errors) return next();
    const key = graphqlCacheKey(
      baseUrlOf(req, siteUrl),
      resolveRequestLocale(req.query.lang, req.headers['accept-language']),
      known.operationName,
      known.documentHash,
      coerced.coerced,
    );
    cache.get(db.fork(), key).then(
      (hit) => {
        if (!hit) return next();
        if (req.method === 'GET') return sendSharedAnswer(req, res, hit, maxAge, true);
        // As Apollo answers a POST (its cache control plugin finds no hints: `no-store`).
        res.status(200).setHeader('Content-Type', 'application/json');
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('Content-Length', hit.body.length);
        res.end(hit.body);
      },
      (error: unknown) => next(error),
    );
  };
}

interface KnownRequest {
  documentKey: string;
  operationName: string | undefined;
  values: Record<string, unknown>;
}

/** A persisted query sent with GET (with Apollo's CSRF header), or null. */
function persistedRequest(req: Request, res: Response): KnownRequest | null {
  if (!req.headers['apollo-require-preflight'] && !req.headers['x-apollo-operation-name']) return null;
  const { operationName } = req.query as Record<string, unknown>;
  const get = getParams(res);
  if (!get || get.malformed || get.extensions === undefined) return null;
  if (operationName !== undefined && typeof operationName !== 'string') return null;
  const hash = (get.extensions as { persistedQuery?: { sha256Hash?: unknown } } | null)?.persistedQuery?.sha256Hash;
  const values = get.variables === undefined ? {} : get.variables;
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash) || !isPlainObject(values)) return null;
  return { documentKey: persistedKey(hash), operationName, values };
}

/**
 * A query sent with POST as JSON, without extensions, or null. JSON is never a CSRF-safe
 * ("simple") content type, so Apollo's CSRF rule lets it through too.
 */
function postedRequest(req: Request): KnownRequest | null {
  if (!req.is('application/json')) return null;
  const body: unknown = req.body;
  if (!isPlainObject(body) || typeof body.query !== 'string' || body.extensions !== undefined) return null;
  const operationName = body.operationName ?? undefined;
  const values = body.variables ?? {};
  if ((operationName !== undefined && typeof operationName !== 'string') || !isPlainObject(values)) return null;
  return { documentKey: textKey(body.query), operationName, values };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON with object keys sorted, so equal variables make equal keys. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
