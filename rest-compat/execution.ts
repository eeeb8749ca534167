import type { Request } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ExecutionResult } from 'graphql';
import { Viewer } from '../src/auth/viewer.js';
import { createRequestContext, type RequestContext } from '../src/core/context.js';
import { forwardingHeadersOf, userAgentOf } from '../src/core/http.js';
import { canonicalLocale } from '../src/core/i18n/locales.js';
import type { Services } from '../src/modules.js';
import { legacyRules } from './legacy-rules.js';
import { assembleFromParts } from './parts.js';
import type { ShapeContext } from './route.js';
import type { CompiledRoute } from './route-table.js';
import { VERSIONED_PATH, type EngineRequest } from './routing.js';
import { createShapeContext } from './shape-context.js';

export interface ExecutionInput {
  route: CompiledRoute;
  /** The request as the route reads it, its body read. */
  request: EngineRequest;
  req: Request;
  em: EntityManager;
  viewer: Viewer;
  services: Pick<Services, 'responseCache' | 'links' | 'config'>;
}

/**
 * One route's run for one request: its variables from the request, its pre-parsed document
 * executed in-process against the same schema and context as /graphql, and the result's status,
 * shape, or, for a page assembled from parts, its text.
 */
export class RouteExecution {
  readonly variables: Record<string, unknown>;
  /** A page assembled from parts runs its skeleton instead of the whole document. */
  readonly parts: CompiledRoute['parts'];
  readonly shapeContext: ShapeContext;
  private readonly legacy: ReturnType<typeof legacyRules>;
  /** The context of the run, once there was one. */
  private ran: RequestContext | undefined;

  constructor(readonly input: ExecutionInput) {
    const { route, request, services } = input;
    const { config } = services;
    this.variables = route.definition.variables?.(request) ?? {};
    const partsOn = config.ANSWER_PARTS === 'on' && config.RESPONSE_CACHE_MB > 0;
    this.parts = partsOn && route.parts && route.definition.parts ? route.parts : undefined;
    this.legacy = legacyRules(request.version);
    this.shapeContext = createShapeContext(request, request.url, services);
  }

  /** Runs the document (or the skeleton) as the caller; the loaders record the rows' tags into `cacheTags`. */
  async run(cacheTags?: Map<string, string>): Promise<ExecutionResult> {
    const { route, request, req, em, viewer } = this.input;
    this.ran = createRequestContext({
      em,
      viewer,
      locale: request.locale,
      request: {
        baseUrl: request.url.origin,
        ip: req.ip ?? null,
        userAgent: userAgentOf(req),
        ...forwardingHeadersOf(req),
        api: 'rest',
      },
      cacheTags,
      legacy: this.legacy,
    });
    return (this.parts?.skeleton ?? route.run)(this.ran, this.variables);
  }

  /** A run whose answer is for this caller only: an anonymous page from parts records what it reads, so its parts are kept with those versions. */
  async runPrivately(): Promise<ExecutionResult> {
    const { em, viewer, services } = this.input;
    return this.run(
      this.parts && !viewer.isAuthenticated ? await services.responseCache.recorder(em, ['global']) : undefined,
    );
  }

  status(data: unknown): number {
    const rule = this.input.route.definition.status ?? 200;
    return typeof rule === 'function' ? rule(data) : rule;
  }

  shape(data: unknown): unknown {
    const { shape } = this.input.route.definition;
    return shape ? shape(data, this.shapeContext) : data;
  }

  /**
   * The page's text from its parts, each an anonymous rendering (see parts.ts). After an
   * anonymous skeleton, its context runs them: its loaders hold the add-ons the page read, with
   * their tags' versions; otherwise a fresh anonymous context reads them again.
   */
  assemble(data: unknown, pageTags?: Map<string, string>): Promise<string> {
    const { route, request, req, em, viewer, services } = this.input;
    const cache = services.responseCache;
    return assembleFromParts({
      parts: route.definition.parts!,
      data,
      shapeContext: this.shapeContext,
      cache,
      em,
      keyPrefix: partKeyPrefix(route, request.url, request.locale, request.query),
      pageTags,
      runParts: async (ids) => {
        let context = this.ran;
        if (!context?.cacheTags || viewer.isAuthenticated) {
          const cacheTags = await cache.recorder(em, ['global']);
          context = createRequestContext({
            em,
            viewer: Viewer.anonymous,
            locale: request.locale,
            request: { baseUrl: request.url.origin, ip: req.ip ?? null, userAgent: userAgentOf(req), api: 'rest' },
            cacheTags,
            legacy: this.legacy,
          });
        }
        return { result: await this.parts!.run(context, { ids }), recorded: context.cacheTags! };
      },
    });
  }
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
