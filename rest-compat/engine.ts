import { join } from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  Kind,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { AuthScheme } from '../src/auth/authenticator.js';
import { operationSchemes } from '../src/auth/credentials.js';
import { Viewer } from '../src/auth/viewer.js';
import { createRequestContext, type RequestContext } from '../src/core/context.js';
import { compileOperation, type CompiledOperation } from '../src/graphql/jit.js';
import { errors } from '../src/core/errors.js';
import { findInvalidText, refuseInvalidText } from '../src/core/input-guards.js';
import { isMultipart, readMultipart } from '../src/core/multipart.js';
import { formatTimestamp } from '../src/core/dates.js';
import { readCookie, setCookie } from '../src/auth/session-cookie.js';
import { requestUrlOf, sendBytes, sendJson, sendJsonText, userAgentOf, forwardingHeadersOf } from '../src/core/http.js';
import type { CachedAnswer } from '../src/core/response-cache.js';
import { canonicalLocale, resolveRequestLocale } from '../src/core/i18n/locales.js';
import type { Database } from '../src/db/database.js';
import type { Services } from '../src/services.js';
import { ReadTrackingParams, RestCacheKeys } from './cache-keys.js';
import { toRestError, type ErrorFieldNames, type ErrorStyle } from './errors.js';
import { FileReply, JsonReply, RedirectReply } from './http.js';
import { assembleFromParts } from './parts.js';
import { watchAnswer } from './answer-observer.js';
import { gate, type ApiVersion, type Gate } from './gates.js';
import { legacyRules } from './legacy-rules.js';
import { linkOutput, translatedLinkOutput, translatedOutput } from './shapes/l10n.js';
import { PRIVATE_CACHE_HEADERS, sendSharedAnswer, sharedAnswer } from '../src/core/http-caching.js';
import type {
  AnyRouteDefinition,
  CacheScope,
  HttpMethod,
  RestRequest,
  RouteDefinition,
  ShapeContext,
} from './route.js';

/** A route of either table, as the engine handles it (the version it sees is the path's). */
type EngineRoute = RouteDefinition<any, ApiVersion>;

interface CompiledRoute {
  definition: EngineRoute;
  /** The document compiled by graphql-jit (same results as `execute`, less work per request). */
  run: CompiledOperation;
  /** Routes assembled from parts: the skeleton and the parts' documents, compiled. */
  parts?: { skeleton: CompiledOperation; run: CompiledOperation };
  /** Credentials accepted: the operation's (see Accepts), narrowed by the route's `auth`. */
  schemes: readonly AuthScheme[];
  pattern: RegExp;
  paramNames: string[];
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const VERSIONED_PATH = /^\/api\/(v3|v4|v5)(\/.*)$/;

export interface CompileRoutesOptions {
  /**
   * When graphql-jit compiles the documents: `eager`, here (a failure is one of the problems);
   * `lazy`, at each route's first request (the server's boot: compiling all of them was a sixth
   * of its start's work; rest-compat/engine.test.ts compiles the whole table eagerly).
   */
  jit?: 'eager' | 'lazy';
}

/**
 * Parses and validates every route's document against the schema. Any problem stops the boot
 * with the list of bad routes, so a broken entry never reaches a request.
 */
export function compileRoutes(
  schema: GraphQLSchema,
  routes: readonly AnyRouteDefinition[],
  options: CompileRoutesOptions = {},
): Map<ApiVersion, CompiledRoute[]> {
  const jit = options.jit ?? 'eager';
  const problems: string[] = [];
  const byVersion = new Map<ApiVersion, CompiledRoute[]>([
    ['v3', []],
    ['v4', []],
    ['v5', []],
  ]);
  const seen = new Set<string>();
  // Each entry is only ever called with a version it declares (the path's), so the wider type is safe.
  for (const definition of routes as readonly EngineRoute[]) {
    const label = `${definition.method} ${definition.path} (${definition.versions.join(', ')})`;
    const compiled = compileDocument(schema, definition.document, label, problems, jit);
    if (!compiled) continue;
    const accepted = operationSchemes(schema, compiled.document, compiled.operation);
    const narrowed = definition.auth ?? accepted;
    const extra = narrowed.filter((scheme) => !accepted.includes(scheme));
    if (extra.length) {
      problems.push(`${label}: auth ${extra.join(', ')} is not accepted by ${compiled.operation.name!.value}'s fields`);
      continue;
    }
    const { run } = compiled;
    let parts: CompiledRoute['parts'];
    if (definition.parts) {
      const skeleton = compileDocument(schema, definition.parts.skeleton, `${label} skeleton`, problems, jit);
      const partsRun = compileDocument(schema, definition.parts.document, `${label} parts`, problems, jit);
      if (!skeleton || !partsRun) continue;
      parts = { skeleton: skeleton.run, run: partsRun.run };
    }
    const { pattern, paramNames } = compilePath(definition.path);
    for (const version of definition.versions) {
      const key = `${version} ${definition.method} ${pattern.source}`;
      if (seen.has(key)) problems.push(`${label}: declared twice for ${version}`);
      seen.add(key);
      byVersion.get(version)!.push({
        definition,
        run,
        parts,
        schemes: narrowed,
        pattern,
        paramNames,
      });
    }
  }
  if (problems.length) throw new Error(`Invalid REST route table:\n  ${problems.join('\n  ')}`);
  return byVersion;
}

/** One document parsed, checked (one named operation, valid) and compiled; null after a problem. */
function compileDocument(
  schema: GraphQLSchema,
  source: string,
  label: string,
  problems: string[],
  jit: 'eager' | 'lazy',
): { document: DocumentNode; operation: OperationDefinitionNode; run: CompiledOperation } | null {
  let document: DocumentNode;
  try {
    document = parse(source);
  } catch (error) {
    problems.push(`${label}: ${(error as Error).message}`);
    return null;
  }
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operations.length !== 1 || !operations[0].name) {
    problems.push(`${label}: the document must hold exactly one named operation`);
    return null;
  }
  const validationErrors = validate(schema, document);
  if (validationErrors.length) {
    problems.push(`${label}: ${validationErrors.map((e) => e.message).join('; ')}`);
    return null;
  }
  const name = operations[0].name.value;
  if (jit === 'lazy')
    return { document, operation: operations[0], run: compiledAtFirstRun(schema, document, name, label) };
  const run = compileOperation(schema, document, name);
  if (typeof run !== 'function') {
    problems.push(`${label}: ${jitErrors(run)}`);
    return null;
  }
  return { document, operation: operations[0], run };
}

const jitErrors = (result: ExecutionResult) => `graphql-jit: ${result.errors?.map((e) => e.message).join('; ')}`;

/** A validated document compiled by graphql-jit when first run (a failure, which eager compiling rules out in the tests, is a 500). */
function compiledAtFirstRun(
  schema: GraphQLSchema,
  document: DocumentNode,
  name: string,
  label: string,
): CompiledOperation {
  let compiled: CompiledOperation | undefined;
  return (context, variables) => {
    if (!compiled) {
      const run = compileOperation(schema, document, name);
      if (typeof run !== 'function') throw new Error(`${label}: ${jitErrors(run)}`);
      compiled = run;
    }
    return compiled(context, variables);
  };
}

function compilePath(path: string): { pattern: RegExp; paramNames: string[] } {
  if (!path.startsWith('/')) throw new Error(`Route path must start with "/": ${path}`);
  const paramNames: string[] = [];
  const source = path
    .split(/(<[a-z_]+>)/i)
    .map((part) => {
      const param = /^<([a-z_]+)>$/i.exec(part);
      if (!param) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      paramNames.push(param[1]);
      return '([^/]+)';
    })
    .join('');
  return { pattern: new RegExp(`^${source}$`), paramNames };
}

export interface RestEngineOptions {
  schema: GraphQLSchema;
  services: Services;
  db: Database;
  routes: readonly AnyRouteDefinition[];
}

/** Multipart text fields: a route reads a handful of short ones (channel, version, profile texts). */
const FORM_FIELDS = 50;
const FORM_FIELD_BYTES = 256 * 1024;
/** File parts per upload request. */
const UPLOAD_FILES = 5;

/**
 * Serves `/api/v3/...`, `/api/v4/...` and `/api/v5/...`: match the route, refuse writes in read-only mode,
 * authenticate with the schemes its operation accepts, read a multipart body (only now, so an
 * unknown caller's upload never touches the disk), map the request to variables, execute the
 * pre-parsed document in-process against the same schema and context as /graphql, shape the result.
 */
export function createRestHandler({ schema, services, db, routes }: RestEngineOptions): RequestHandler {
  const table = compileRoutes(schema, routes, { jit: 'lazy' });
  const { logger, config } = services;
  const cache = services.responseCache;
  const cacheKeys = new RestCacheKeys();
  /** Answers being computed, per cache key: concurrent misses wait for them (no stampede). */
  const inflight = new Map<string, Promise<CachedAnswer | undefined>>();
  const tmpDir = join(config.dataDir, 'tmp');

  return async (req: Request, res: Response) => {
    let style: ErrorStyle = 'drf';
    let fieldNames: ErrorFieldNames | undefined;
    let claim: Claim | undefined;
    try {
      // SITE_URL (or the checked Host) and the path and query: an absolute-form target's authority is ignored.
      const requestUrl = requestUrlOf(req, config.SITE_URL);
      const path = requestUrl.pathname.replace(/\/{2,}/g, '/');
      const versioned = VERSIONED_PATH.exec(path);
      if (!versioned) return sendJson(res, 404, { detail: 'Not found.' });
      const version = versioned[1] as ApiVersion;
      const method = (req.method === 'HEAD' ? 'GET' : req.method) as HttpMethod;

      const em = db.fork();
      const locale = resolveRequestLocale(requestUrl.searchParams.get('lang'), req.headers['accept-language']);
      if (!SAFE_METHODS.has(req.method)) await services.site.assertWritable(em, locale);

      const candidates = matchPath(table.get(version)!, versioned[2]);
      if (!candidates.length) return sendJson(res, 404, { detail: 'Not found.' });
      const match = candidates.find((c) => c.route.definition.method === method);
      if (!match) {
        const allowed = [...new Set(candidates.map((c) => c.route.definition.method))];
        return sendJson(res, 405, { detail: `Method "${req.method}" not allowed.` }, { Allow: allowed.join(', ') });
      }
      const { route, params } = match;
      watchAnswer(res, version, req.method, route.definition.path, route.definition.method);
      style = route.definition.errorStyle ?? 'drf';
      const badParameter = findInvalidText([Object.values(params), [...requestUrl.searchParams]]);
      if (badParameter) throw errors.badRequest(badParameter.message);

      const query = new ReadTrackingParams(requestUrl.search);
      const gated = (name: Gate) => gate(version, name);
      let restRequest: RestRequest = {
        version,
        params,
        query,
        body: req.body,
        locale,
        gate: gated,
        url: requestUrl,
        cookie: (name) => readCookie(req, name),
      };
      fieldNames = route.definition.errorFields?.(restRequest);
      const ip = req.ip ?? null;
      const scope = method === 'GET' ? cacheScope(route.definition, restRequest) : false;
      const anonymous = !req.headers.authorization;
      // `anonymous` answers also go to plain viewers of the routes that say so (known once signed in).
      const mayShare = scope === 'public' || (scope === 'anonymous' && (anonymous || route.definition.plainViewers));
      let cacheable = scope === 'public' || (scope === 'anonymous' && anonymous);
      // One of the route's variants (random orders), the same for the lookup and the store.
      const variants = mayShare ? (route.definition.cacheVariants?.(restRequest) ?? 1) : 1;
      const variant = variants > 1 ? ` variant ${Math.floor(Math.random() * variants)}` : '';
      const keyed = (key: string | null) => (key === null ? null : `${key}${variant}`);
      const cacheKey = mayShare ? keyed(cacheKeys.lookupKey(route, requestUrl, locale)) : null;
      const shared = (answer: CachedAnswer) => {
        if (anonymous || scope === 'public') {
          return sendSharedAnswer(req, res, answer, config.HTTP_CACHE_MAX_AGE, scope === 'anonymous');
        }
        // A plain viewer's copy of an anonymous answer: private, as every signed-in answer of the route.
        for (const [name, value] of Object.entries(PRIVATE_CACHE_HEADERS)) res.setHeader(name, value);
        res.status(answer.status).setHeader('Content-Type', 'application/json');
        res.setHeader('Content-Length', answer.body.length);
        res.end(answer.body);
      };
      // Anonymous hits are answered before anything else; credentials are checked before a public hit.
      const lookup = async () => {
        const found = await lookupShared(em, cacheKey!);
        if ('answer' in found) return found.answer;
        claim = found.claim;
        return undefined;
      };
      const early = cacheKey !== null && anonymous ? await lookup() : undefined;
      if (early) return shared(early);
      const viewer = await services.authenticator.authenticate(em, req.headers.authorization, route.schemes, ip);
      if (scope === 'anonymous' && !anonymous && route.definition.plainViewers) cacheable = isPlainViewer(viewer);
      const late = cacheKey !== null && !anonymous && cacheable ? await lookup() : undefined;
      if (late) return shared(late);

      if (isMultipart(req)) {
        restRequest = { ...restRequest, body: await readRouteMultipart(req, res, route.definition, viewer) };
      }
      refuseInvalidText(findInvalidText(restRequest.body));
      const baseUrl = requestUrl.origin;
      const variables = route.definition.variables?.(restRequest) ?? {};
      // Pages assembled from parts run their skeleton instead of the whole document.
      const partsOn = config.ANSWER_PARTS === 'on' && config.RESPONSE_CACHE_MB > 0;
      const parts = partsOn && route.parts && route.definition.parts ? route.parts : undefined;
      let ran: RequestContext | undefined;
      const legacy = legacyRules(version);
      const run = async (cacheTags?: Map<string, string>) => {
        ran = createRequestContext({
          em,
          viewer,
          locale,
          request: { baseUrl, ip, userAgent: userAgentOf(req), ...forwardingHeadersOf(req), api: 'rest' },
          cacheTags,
          legacy,
        });
        return (parts?.skeleton ?? route.run)(ran, variables);
      };
      const shapeContext = createShapeContext(restRequest, requestUrl, services);
      const shapeBody = (data: unknown) => (route.definition.shape ? route.definition.shape(data, shapeContext) : data);
      /**
       * The page's text from its parts, each an anonymous rendering (see parts.ts). After an
       * anonymous skeleton, its context runs them: its loaders hold the add-ons the page read, with
       * their tags' versions; otherwise a fresh anonymous context reads them again.
       */
      const assemble = (data: unknown, pageTags?: Map<string, string>) =>
        assembleFromParts({
          parts: route.definition.parts!,
          data,
          shapeContext,
          cache,
          em,
          keyPrefix: partKeyPrefix(route, requestUrl, locale, query),
          pageTags,
          runParts: async (ids) => {
            let context = ran;
            if (!context?.cacheTags || viewer.isAuthenticated) {
              const cacheTags = await cache.recorder(em, ['global']);
              context = createRequestContext({
                em,
                viewer: Viewer.anonymous,
                locale,
                request: { baseUrl, ip, userAgent: userAgentOf(req), api: 'rest' },
                cacheTags,
                legacy,
              });
            }
            return { result: await parts!.run(context, { ids }), recorded: context.cacheTags! };
          },
        });
      const statusOf = (data: unknown) => {
        const rule = route.definition.status ?? 200;
        return typeof rule === 'function' ? rule(data) : rule;
      };

      // Tags of a shared answer: null when this one is not cached after all (a route's own rule).
      const routeTags = cacheable ? (route.definition.cacheTags?.(variables) ?? []) : null;
      if (routeTags === null) {
        // An anonymous page from parts records what it reads: its parts are kept with those versions.
        const result = await run(parts && !viewer.isAuthenticated ? await cache.recorder(em, ['global']) : undefined);
        if (result.errors?.length) {
          const error = toRestError(result.errors[0], style, logger, fieldNames);
          return sendJson(res, error.status, error.body, error.headers);
        }
        if (parts) {
          const text = await assemble(result.data);
          if (method === 'GET')
            for (const [name, value] of Object.entries(PRIVATE_CACHE_HEADERS)) res.setHeader(name, value);
          return sendJsonText(res, statusOf(result.data), text);
        }
        const body = shapeBody(result.data);
        if (body instanceof RedirectReply) return redirect(res, body);
        if (body instanceof FileReply) {
          // HEAD: the same answer from the file's metadata, its bytes never opened.
          const head = req.method === 'HEAD';
          const file =
            body.member === undefined
              ? await (head ? services.downloads.size(em, body.fileId) : services.downloads.open(em, body.fileId))
              : await (head
                  ? services.versionBrowse.size(em, body.fileId, body.member)
                  : services.versionBrowse.open(em, body.fileId, body.member));
          return sendFile(res, body, file);
        }
        if (body instanceof JsonReply) {
          return sendJson(res, statusOf(result.data), body.body, { ...PRIVATE_CACHE_HEADERS, ...body.headers });
        }
        return sendJson(res, statusOf(result.data), body, method === 'GET' ? PRIVATE_CACHE_HEADERS : {});
      }

      // A shared answer. The versions it is stored under never postdate what it shows: the
      // listing tags' versions are read before anything else, each row's tag version in the
      // statement that reads the row (the loaders). A write committing meanwhile therefore leaves
      // the stored answer outdated at once, never stale.
      const recorded = await cache.recorder(em, ['global', ...routeTags]);
      const result = await run(recorded);
      if (result.errors?.length) {
        const error = toRestError(result.errors[0], style, logger, fieldNames);
        return sendJson(res, error.status, error.body, error.headers);
      }
      const text = parts ? await assemble(result.data, recorded) : JSON.stringify(shapeBody(result.data));
      const answer = sharedAnswer(statusOf(result.data), text ?? '');
      const storeKey = keyed(cacheKeys.storeKey(route, requestUrl, locale, query));
      if (storeKey !== null) cache.store(storeKey, answer, recorded);
      claim?.settle(answer);
      return shared(answer);
    } catch (caught) {
      const error = toRestError(caught, style, logger, fieldNames);
      return sendJson(res, error.status, error.body, error.headers);
    } finally {
      // Whatever happened, requests waiting for this computation go on (computing it themselves).
      claim?.settle(undefined);
    }
  };

  /**
   * A cached answer, the one being computed for the same key (concurrent misses wait for the first
   * computation instead of repeating it), or a claim: this request computes the answer and settles
   * the claim with it. No await separates the check of `inflight` from the claim.
   */
  async function lookupShared(em: EntityManager, key: string): Promise<{ answer: CachedAnswer } | { claim?: Claim }> {
    const hit = await cache.get(em, key);
    if (hit) return { answer: hit };
    const pending = inflight.get(key);
    if (pending) {
      const answer = await pending;
      return answer ? { answer } : {};
    }
    let settle: (answer: CachedAnswer | undefined) => void = () => {};
    const promise = new Promise<CachedAnswer | undefined>((resolve) => (settle = resolve));
    inflight.set(key, promise);
    return {
      claim: {
        settle(answer) {
          settle(answer);
          if (inflight.get(key) === promise) inflight.delete(key);
        },
      },
    };
  }

  /**
   * A multipart body, read after authentication. Upload routes take files from signed-in callers
   * only, within the caller's concurrent upload slots (waiting for one); other routes take short text fields only.
   * Spooled files and the slot are given back when the response ends.
   */
  async function readRouteMultipart(req: Request, res: Response, route: EngineRoute, viewer: Viewer) {
    let release = () => {};
    if (route.uploads) {
      if (viewer.userId === null) throw errors.notAuthenticated();
      // Waits for a slot while the account's are taken (given back when the response closes).
      release = await services.uploadSlots.acquireFor(viewer.userId, res);
    }
    try {
      const { body, cleanup } = await readMultipart(req, tmpDir, {
        files: route.uploads ? UPLOAD_FILES : 0,
        fileBytes: config.MAX_UPLOAD_MB * 1024 * 1024,
        fields: FORM_FIELDS,
        fieldBytes: FORM_FIELD_BYTES,
      });
      res.once('close', () => {
        release();
        void cleanup();
      });
      return body;
    } catch (error) {
      release();
      throw error;
    }
  }
}

/** A request's promise to compute a shared answer others wait for. */
interface Claim {
  settle(answer: CachedAnswer | undefined): void;
}

function redirect(res: Response, reply: RedirectReply) {
  res.status(302);
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  res.setHeader('Location', reply.location);
  res.end();
}

function sendFile(
  res: Response,
  reply: FileReply,
  file: { stream: NodeJS.ReadableStream; size: number } | number | null,
) {
  if (file === null) return sendJson(res, 404, { detail: 'Not found.' });
  res.status(200);
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', reply.contentType);
  sendBytes(res, file);
}

/**
 * What a part's text depends on besides its id: the route, the API version, the origin of its
 * URLs, the request language and the shape's switches (`lang`, `wrap_outgoing_links`).
 */
function partKeyPrefix(route: CompiledRoute, requestUrl: URL, locale: string, query: URLSearchParams): string {
  const lang = query.has('lang') ? (canonicalLocale(query.get('lang')) ?? locale) : '-';
  const wrap = query.has('wrap_outgoing_links') ? 'wrap' : '-';
  const version = VERSIONED_PATH.exec(requestUrl.pathname)?.[1] ?? '';
  return `part ${route.pattern.source} ${version} ${requestUrl.origin} ${locale} ${lang} ${wrap}`;
}

/**
 * A signed-in caller without permissions who authors no add-on: what routes with `plainViewers`
 * show them is what they show anonymous callers (for JWT callers, authorship is not read: never).
 */
const isPlainViewer = (viewer: Viewer) =>
  viewer.isAuthenticated && viewer.permissions.length === 0 && viewer.authorsNoAddon;

function cacheScope(route: EngineRoute, request: RestRequest): CacheScope | false {
  const rule = route.cache;
  return typeof rule === 'function' ? rule(request) : (rule ?? false);
}

function matchPath(routes: CompiledRoute[], path: string) {
  const matches: { route: CompiledRoute; params: Record<string, string> }[] = [];
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    let decodable = true;
    route.paramNames.forEach((name, i) => {
      try {
        params[name] = decodeURIComponent(m[i + 1]);
      } catch {
        decodable = false;
      }
    });
    if (decodable) matches.push({ route, params });
  }
  return matches;
}

function createShapeContext(request: RestRequest, requestUrl: URL, services: Services): ShapeContext {
  const lang = request.query.has('lang') ? (canonicalLocale(request.query.get('lang')) ?? request.locale) : null;
  const wrapRequested = request.query.has('wrap_outgoing_links');
  const host = requestUrl.host;
  const baseUrl = requestUrl.origin;
  const flat = request.gate('l10n_flat_input_output');
  const legacyLinks = request.gate('wrap-outgoing-parameter');
  const wrap = (url: string | null | undefined) => services.links.wrap(url, host);
  const translated = (value: Parameters<typeof translatedOutput>[0], defaultLocale?: string) =>
    translatedOutput(value, lang, flat, defaultLocale);
  return {
    version: request.version,
    request,
    gate: request.gate,
    baseUrl,
    requestUrl,
    translated,
    link: (url) => linkOutput(url, legacyLinks, wrapRequested, wrap),
    translatedLink: (value, defaultLocale) =>
      translatedLinkOutput(translated(value, defaultLocale), legacyLinks, wrapRequested, wrap),
    wrapLink: wrap,
    timestamp: formatTimestamp,
    absolute: (path) => new URL(path, baseUrl + '/').href,
    cookie: (name, value, options) =>
      setCookie(baseUrl, name, value, { ...options, domain: services.config.SESSION_COOKIE_DOMAIN }),
  };
}
