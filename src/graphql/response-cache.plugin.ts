import { createHash } from 'node:crypto';
import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import {
  getArgumentValues,
  getNamedType,
  getVariableValues,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { RequestContext } from '../core/context.js';
import type { ResponseCache } from '../core/response-cache.js';

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

/** The sort keys of each order (as the REST search routes declare them). */
const SORT_TAGS: Record<string, readonly string[]> = {
  created: ['l:created'],
  downloads: ['l:downloads'],
  hotness: ['l:hotness'],
  rating: ['l:rating'],
  relevance: ['l:text', 'l:users'],
  updated: ['l:updated'],
  users: ['l:users'],
  recommended: [],
};

/**
 * The listing tags the operation depends on, or null when it cannot be cached (a field outside the
 * covered types, a random order, a mutation).
 */
export function cacheableOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): string[] | null {
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
            sort?: string[];
          };
          if (!listingTags(args, tags, node.name.value === 'autocompleteAddons')) covered = false;
        }
      },
    }),
  );
  return covered ? [...tags] : null;
}

function listingTags(
  args: { filters?: { q?: string | null }; sort?: string[] | null },
  tags: Set<string>,
  names: boolean,
): boolean {
  tags.add('l:all');
  // Autocomplete matches names only; search names, summaries and descriptions.
  if (args.filters?.q) for (const tag of names ? ['l:names', 'l:users'] : SORT_TAGS.relevance) tags.add(tag);
  for (const field of args.sort ?? ['downloads', 'users']) {
    const sortTags = SORT_TAGS[field];
    if (!sortTags) return false; // random
    for (const tag of sortTags) tags.add(tag);
  }
  return true;
}

interface Pending {
  key: string;
}

/** `Cache-Control` max-age for shared GraphQL answers sent to GET requests. */
export function responseCachePlugin(
  schema: GraphQLSchema,
  cache: ResponseCache,
  maxAge: number,
): ApolloServerPlugin<RequestContext> {
  const pending = new WeakMap<RequestContext, Pending>();
  const httpHeaders = (etag: string) => ({
    ETag: etag,
    'Cache-Control': maxAge > 0 ? `public, max-age=${maxAge}` : 'public, no-cache',
    Vary: 'Accept-Language, Authorization',
  });
  return {
    async requestDidStart() {
      return {
        async responseForOperation({ request, document, operation, contextValue }) {
          // No operation: Apollo answers the unknown operation name itself.
          if (!operation || contextValue.viewer.isAuthenticated || !contextValue.cacheTags) return null;
          const variables = request.variables ?? {};
          const tags = cacheableOperation(schema, document, operation, variables);
          if (!tags) return null;
          const key = [
            'graphql',
            contextValue.request.baseUrl,
            contextValue.locale,
            request.operationName ?? '',
            createHash('sha256')
              .update(request.query ?? '')
              .digest('base64url'),
            stableJson(variables),
          ].join(' ');
          const hit = await cache.get(contextValue.em, key);
          if (hit) {
            const headers = new HeaderMap();
            if (request.http?.method === 'GET') {
              for (const [name, value] of Object.entries(httpHeaders(hit.etag))) headers.set(name.toLowerCase(), value);
            }
            return { http: { status: 200, headers }, body: { kind: 'single', singleResult: JSON.parse(hit.body) } };
          }
          // A miss: the listing tags' versions are read before anything else (see ResponseCache).
          const sorted = tags.sort();
          const versions = await cache.tagVersions(contextValue.em, sorted);
          sorted.forEach((tag, i) => contextValue.cacheTags!.set(tag, versions[i]));
          pending.set(contextValue, { key });
          return null;
        },
        async willSendResponse({ response, contextValue, request }) {
          const entry = pending.get(contextValue);
          if (!entry || response.body.kind !== 'single' || response.body.singleResult.errors?.length) return;
          const body = JSON.stringify(response.body.singleResult);
          const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
          const tags = contextValue.cacheTags!;
          cache.set(entry.key, { status: 200, body, etag }, [...tags.keys()], [...tags.values()]);
          if (request.http?.method === 'GET') {
            for (const [name, value] of Object.entries(httpHeaders(etag))) {
              response.http.headers.set(name.toLowerCase(), value);
            }
          }
        },
      };
    },
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
