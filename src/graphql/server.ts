import { createHash } from 'node:crypto';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type RequestHandler } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import { GraphQLError, Kind, type GraphQLSchema, type ValidationRule } from 'graphql';
import graphqlUploadExpress from 'graphql-upload/graphqlUploadExpress.mjs';
import { createRequestContext, type RequestContext } from '../core/context.js';
import { assertSchemeAccepted, operationSchemes } from '../access/credentials.js';
import { AppError, asAppError, ErrorCode, errors } from '../core/errors.js';
import { findInvalidText, jsonNestsDeeperThan, MAX_JSON_DEPTH, refuseDeepJson } from '../core/input-guards.js';
import { isMultipart, uploadRefusal } from '../core/multipart.js';
import { baseUrlOf, forwardingHeadersOf, userAgentOf } from '../core/http.js';
import { resolveRequestLocale } from '../core/i18n/locales.js';
import type { Database } from '../db/database.js';
import { isTransactionConflict, WRITE_CONFLICT_MESSAGE } from '../db/error-chain.js';
import type { Platform } from '../core/module.js';
import { documentStore, persistedQueryStore } from './bounded-caches.js';
import { declaredVariablesPlugin, deepValueGuard, documentLimits } from './document-limits.js';
import { jitGateway } from './jit.js';
import { getParams, type GetParams } from './get-params.js';
import { knownAnswers, PersistedOperations, responseCachePlugin } from './response-cache.plugin.js';

export interface GraphqlEndpoint {
  handlers: RequestHandler[];
  stop(): Promise<void>;
}

type Viewer = RequestContext['viewer'];

/**
 * What the endpoint needs of the domains, handed down by the composition (src/app.ts): who a
 * request is, and whether the site takes writes.
 */
export interface GraphqlEdge {
  /** The caller, from an `Authorization` header (every scheme; the operation's own are checked later). */
  authenticate(em: EntityManager, authorization: string | undefined, ip: string | null): Promise<Viewer>;
  /** Throws the localized read-only error while the site takes no writes, unless these root mutations are allowed then. */
  assertWritable(em: EntityManager, locale: string, mutations: readonly string[]): Promise<void>;
}

/** What the endpoint reads of the platform. */
type EndpointPlatform = Pick<Platform, 'config' | 'logger' | 'responseCache' | 'uploadSlots'>;

const CSRF_MESSAGE =
  'This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Please either specify a ' +
  "'content-type' header (with a type that is not one of application/x-www-form-urlencoded, multipart/form-data, " +
  'text/plain) or provide a non-empty value for one of the following headers: x-apollo-operation-name, ' +
  'apollo-require-preflight';

/** Each operation accepts the credentials its root fields declare (src/access/credentials.ts). */
function credentialsPlugin(schema: GraphQLSchema): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operation, contextValue }) {
          if (!operation) return;
          try {
            assertSchemeAccepted(contextValue.viewer, operationSchemes(schema, document, operation));
          } catch (error) {
            throw withStatus(asAppError(error)!, 403);
          }
        },
      };
    },
  };
}

/**
 * A GET request's `variables` and `extensions` (JSON text in the URL), depth-checked as bodies are
 * and parsed once for the handlers after this one (`getParams`); malformed JSON is left for Apollo
 * to answer.
 */
const parseGetParams: RequestHandler = (req, res, next) => {
  if (req.method !== 'GET') return next();
  const parsed: GetParams = { malformed: false };
  for (const [name, label] of [
    ['variables', 'Variables'],
    ['extensions', 'Extensions'],
  ] as const) {
    const text = req.query?.[name];
    if (typeof text !== 'string') continue;
    if (jsonNestsDeeperThan(Buffer.from(text), MAX_JSON_DEPTH)) {
      return sendGraphqlError(
        res,
        withStatus(errors.badRequest(`${label} nest deeper than ${MAX_JSON_DEPTH} levels.`), 400),
      );
    }
    try {
      parsed[name] = JSON.parse(text);
    } catch {
      parsed.malformed = true;
    }
  }
  res.locals.graphqlGetParams = parsed;
  next();
};

/**
 * Refuses NUL characters in variables (PostgreSQL cannot store them) before Apollo runs; string
 * literals in the document are checked by the `noNulInLiterals` validation rule.
 */
const nulGuard: RequestHandler = (req, res, next) => {
  const get = getParams(res);
  if (get?.malformed) return next(); // Apollo answers malformed variables itself
  const variables = get ? get.variables : (req.body as { variables?: unknown } | undefined)?.variables;
  const problem = findInvalidText(variables);
  if (problem === null) return next();
  const where = problem.path ? ` (variable ${problem.path})` : '';
  sendGraphqlError(res, withStatus(errors.badRequest(`${problem.message}${where}`), 400));
};

/**
 * Automatic persisted queries: `extensions.persistedQuery` must be `{version: 1, sha256Hash: <64 hex>}`
 * and name the query it comes with. Apollo would answer these as internal errors.
 */
const persistedQueryGuard: RequestHandler = (req, res, next) => {
  const get = getParams(res);
  if (get?.malformed) return next(); // Apollo answers malformed extensions itself
  const { extensions, query } = get
    ? { extensions: get.extensions, query: req.query?.query }
    : ((req.body ?? {}) as { extensions?: unknown; query?: unknown });
  const persisted = (extensions as { persistedQuery?: unknown } | null | undefined)?.persistedQuery;
  if (persisted === undefined) return next();
  const { version, sha256Hash } = (persisted ?? {}) as { version?: unknown; sha256Hash?: unknown };
  let problem: string | null = null;
  if (version !== 1) problem = 'Unsupported persisted query version (only version 1 is).';
  else if (typeof sha256Hash !== 'string' || !/^[0-9a-f]{64}$/i.test(sha256Hash)) {
    problem = 'persistedQuery.sha256Hash must be 64 hexadecimal digits.';
  } else if (
    typeof query === 'string' &&
    createHash('sha256').update(query).digest('hex') !== sha256Hash.toLowerCase()
  ) {
    problem = 'provided sha does not match query';
  }
  if (problem === null) return next();
  sendGraphqlError(res, withStatus(errors.badRequest(problem), 400));
};

/** String literals in a document hold text the database can store (variables: nulGuard). */
const storableLiterals: ValidationRule = (context) => ({
  StringValue(node) {
    const problem = findInvalidText(node.value);
    if (problem) context.reportError(new GraphQLError(problem.message, { nodes: [node] }));
  },
});

/** A schema without subscriptions refuses them as invalid documents (not as an internal error). */
const noSubscriptions: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (node.operation === 'subscription' && !context.getSchema().getSubscriptionType()) {
      context.reportError(new GraphQLError('This service has no subscriptions.', { nodes: [node] }));
    }
  },
});

/**
 * A parser of the client's body: a failure without a status (busboy's "Unexpected end of form",
 * "Malformed part header") is the client's malformed body, a 400, not a server error.
 */
function clientParseErrors(parser: RequestHandler): RequestHandler {
  return (req, res, next) =>
    parser(req, res, (error?: unknown) => {
      if (error && typeof (error as { status?: unknown }).status !== 'number') {
        const message = `Multipart form parse error - ${(error as Error).message ?? 'malformed body'}`;
        return next(Object.assign(new Error(message), { status: 400, expose: true }));
      }
      next(error);
    });
}

/** An error answered before Apollo runs, in GraphQL's response shape. */
function sendGraphqlError(res: express.Response, error: unknown): void {
  const appError = asAppError(error);
  const status = (error as GraphQLError).extensions?.http
    ? ((error as GraphQLError).extensions.http as { status: number }).status
    : appError?.code === 'THROTTLED'
      ? 429
      : 400;
  if (appError?.retryAfter !== undefined) res.setHeader('Retry-After', String(appError.retryAfter));
  const message = appError?.message ?? 'Bad request.';
  const extensions = appError ? { ...appError.extensions } : { code: 'BAD_REQUEST' };
  res.status(status).json({ errors: [{ message, extensions }] });
}

/** An AppError as an HTTP-level GraphQL error (Apollo reads `extensions.http`, then strips it). */
function withStatus(error: AppError, status: number): GraphQLError {
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: { ...error.extensions, http: { status } },
  });
}

/** While read-only, mutations fail before execution with the same localized 503 as REST writes. */
function readOnlyPlugin(edge: GraphqlEdge): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, contextValue }) {
          if (operation?.operation !== 'mutation') return;
          const fields = operation.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? s.name.value : '*'));
          try {
            await edge.assertWritable(contextValue.em, contextValue.locale, fields);
          } catch (error) {
            const appError = asAppError(error);
            throw appError ? withStatus(appError, 503) : error;
          }
        },
      };
    },
  };
}

/**
 * JSON answers carry `Content-Type: application/json` exactly, as on the REST side. Apollo adds
 * `; charset=utf-8` on several paths (results, request errors), so the header is fixed on its way out.
 */
const exactJsonContentType: RequestHandler = (_req, res, next) => {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name, value) =>
    setHeader(
      name,
      name.toLowerCase() === 'content-type' && value === 'application/json; charset=utf-8' ? 'application/json' : value,
    );
  next();
};

export async function createGraphqlEndpoint(
  schema: GraphQLSchema,
  platform: EndpointPlatform,
  edge: GraphqlEdge,
  db: Database,
): Promise<GraphqlEndpoint> {
  const { logger, config } = platform;
  const limits = documentLimits(config);
  const persisted = new PersistedOperations();
  const server = new ApolloServer<RequestContext>({
    // The schema, executed by graphql-jit (see jit.ts).
    gateway: jitGateway(schema),
    introspection: config.GRAPHQL_INTROSPECTION,
    csrfPrevention: true,
    // Never: error answers would carry server paths whenever NODE_ENV is not `production`.
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    // Automatic persisted queries (Apollo's bounded in-memory store): with GET, a query is a short
    // URL that the response cache and a CDN can serve (responseCachePlugin).
    persistedQueries: { ttl: 24 * 60 * 60, cache: persistedQueryStore() },
    // Parsed and validated documents, bounded by their tokens (bounded-caches.ts).
    documentStore: documentStore(),
    // main.ts owns shutdown; Apollo's own signal handler would race it (a second stop() never settles).
    stopOnTerminationSignals: false,
    parseOptions: { maxTokens: config.GRAPHQL_MAX_TOKENS },
    validationRules: [...limits.validationRules, storableLiterals, noSubscriptions],
    plugins: [
      ...limits.plugins,
      declaredVariablesPlugin(),
      credentialsPlugin(schema),
      readOnlyPlugin(edge),
      responseCachePlugin(schema, platform.responseCache, config.HTTP_CACHE_MAX_AGE, persisted),
      // Browsers get the self-hosted playground (playground.ts), never Apollo's CDN-loaded page.
      ApolloServerPluginLandingPageDisabled(),
    ],
    formatError(formatted, error) {
      const original = unwrapResolverError(error);
      if (asAppError(error) || original instanceof GraphQLError) return formatted;
      // type-graphql awaits Upload arguments before the resolver runs: graphql-upload's refusals land here.
      const refused = uploadRefusal(original);
      if (refused) return { ...formatted, message: refused.message, extensions: { ...refused.extensions } };
      // A write that lost a race and kept losing it (the executor's retries: transactions.ts).
      if (isTransactionConflict(error)) {
        logger.warn({ err: original }, 'write conflict in GraphQL request');
        return { ...formatted, message: WRITE_CONFLICT_MESSAGE, extensions: { code: ErrorCode.CONFLICT } };
      }
      logger.error({ err: original }, 'unexpected error in GraphQL request');
      return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    },
  });
  await server.start();

  /**
   * Credentials are checked once, with every scheme; the operation's own list (Accepts) is
   * enforced by credentialsPlugin once the document is parsed. A multipart request was already
   * authenticated by `uploadGate`, before its body was read.
   */
  const authenticate = async (req: express.Request, em: EntityManager): Promise<Viewer> => {
    try {
      return await edge.authenticate(em, req.headers.authorization, req.ip ?? null);
    } catch (error) {
      const appError = asAppError(error);
      throw appError ? withStatus(appError, 401) : error;
    }
  };

  const context = async ({ req, res }: { req: express.Request; res: express.Response }): Promise<RequestContext> => {
    try {
      return await buildContext(req, res);
    } catch (error) {
      if (error instanceof GraphQLError) throw error;
      // Apollo would send the message (SQL included) as "Context creation failed: …".
      logger.error({ err: error }, 'GraphQL context failed');
      throw withStatus(new AppError(ErrorCode.INTERNAL, 'Internal server error'), 500);
    }
  };

  const buildContext = async (req: express.Request, res: express.Response): Promise<RequestContext> => {
    const em = db.fork();
    const locale = resolveRequestLocale(req.query?.lang, req.headers['accept-language']);
    const viewer = (res.locals.viewer as Viewer | undefined) ?? (await authenticate(req, em));
    const request = {
      baseUrl: baseUrlOf(req, config.SITE_URL),
      ip: req.ip ?? null,
      userAgent: userAgentOf(req),
      ...forwardingHeadersOf(req),
    };
    // Anonymous reads may be answered from the response cache: record what they show. (Apollo
    // hands plugins and resolvers a shallow copy of the context: the map is shared, not replaced.)
    const cacheTags = viewer.isAuthenticated ? undefined : new Map<string, string>();
    return createRequestContext({ em, viewer, locale, request, cacheTags });
  };

  /**
   * Multipart requests carry uploads: only signed-in callers may send one, within their
   * concurrent upload slots, and the body is read only after that (by graphql-upload).
   */
  const uploadGate: RequestHandler = (req, res, next) => {
    if (!isMultipart(req)) return next();
    // Apollo's CSRF rule, checked here because graphql-upload would read the body before Apollo.
    if (!req.headers['apollo-require-preflight'] && !req.headers['x-apollo-operation-name']) {
      return sendGraphqlError(res, withStatus(errors.badRequest(CSRF_MESSAGE), 400));
    }
    void (async () => {
      const viewer = await authenticate(req, db.fork());
      if (viewer.userId === null) throw withStatus(errors.notAuthenticated(), 401);
      // Waits for a slot while the account's are taken (given back when the response closes).
      await platform.uploadSlots.acquireFor(viewer.userId, res);
      res.locals.viewer = viewer;
    })().then(
      () => next(),
      (error: unknown) => sendGraphqlError(res, error),
    );
  };

  return {
    handlers: [
      exactJsonContentType,
      uploadGate,
      clientParseErrors(
        graphqlUploadExpress({
          maxFileSize: config.MAX_UPLOAD_MB * 1024 * 1024,
          maxFiles: 10,
          maxFieldSize: 256 * 1024,
        }),
      ),
      express.json({ limit: '2mb', verify: refuseDeepJson }),
      parseGetParams,
      deepValueGuard(config.GRAPHQL_MAX_TOKENS),
      nulGuard,
      persistedQueryGuard,
      knownAnswers({
        schema,
        cache: platform.responseCache,
        persisted,
        db,
        siteUrl: config.SITE_URL,
        maxAge: config.HTTP_CACHE_MAX_AGE,
      }),
      expressMiddleware(server, { context }),
    ],
    stop: () => server.stop(),
  };
}
