import type { Request, Response } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Viewer } from '../src/auth/viewer.js';
import type { Config } from '../src/config.js';
import { PRIVATE_CACHE_HEADERS, sendSharedAnswer } from '../src/core/http-caching.js';
import type { CachedAnswer, ResponseCache } from '../src/core/response-cache.js';
import { RestCacheKeys } from './cache-keys.js';
import type { CacheScope } from './route.js';
import type { CompiledRoute, EngineRoute } from './route-table.js';
import type { EngineRequest } from './routing.js';

/** A request's promise to compute a shared answer others wait for. */
interface Claim {
  settle(answer: CachedAnswer | undefined): void;
}

/**
 * The answer cache as the REST routes share it: the keys learnt from what each route reads, and
 * the answers being computed, so that concurrent misses of one key wait for the first computation
 * instead of repeating it (no stampede). One per handler.
 */
export class SharedAnswers {
  readonly keys = new RestCacheKeys();
  /** Answers being computed, per cache key. */
  private readonly inflight = new Map<string, Promise<CachedAnswer | undefined>>();

  constructor(
    readonly cache: ResponseCache,
    readonly config: Pick<Config, 'HTTP_CACHE_MAX_AGE'>,
  ) {}

  /** How one matched request may share its answer; decided before its credentials are checked. */
  forRequest(req: Request, route: CompiledRoute, request: EngineRequest): AnswerSharing {
    return new AnswerSharing(this, req, route, request);
  }

  /**
   * A cached answer, the one being computed for the same key, or a claim: this request computes
   * the answer and settles the claim with it. No await separates the check of `inflight` from the claim.
   */
  async lookup(em: EntityManager, key: string): Promise<{ answer: CachedAnswer } | { claim?: Claim }> {
    const hit = await this.cache.get(em, key);
    if (hit) return { answer: hit };
    const pending = this.inflight.get(key);
    if (pending) {
      const answer = await pending;
      return answer ? { answer } : {};
    }
    let settle: (answer: CachedAnswer | undefined) => void = () => {};
    const promise = new Promise<CachedAnswer | undefined>((resolve) => (settle = resolve));
    this.inflight.set(key, promise);
    return {
      claim: {
        settle: (answer) => {
          settle(answer);
          if (this.inflight.get(key) === promise) this.inflight.delete(key);
        },
      },
    };
  }
}

/**
 * One request's part in the shared answers: a GET route's cache scope (`public`: everyone's;
 * `anonymous`: callers without credentials, and plain viewers where the route says so), one of the
 * route's variants (random orders) for both the lookup and the store, and its claim while it
 * computes an answer others wait for. Anonymous hits are answered before anything else;
 * credentials are checked before a public hit.
 */
export class AnswerSharing {
  private readonly scope: CacheScope | false;
  private readonly anonymous: boolean;
  private cacheable: boolean;
  private readonly variant: string;
  private readonly lookupKey: string | null;
  private claim: Claim | undefined;

  constructor(
    private readonly shared: SharedAnswers,
    private readonly req: Request,
    private readonly route: CompiledRoute,
    private readonly request: EngineRequest,
  ) {
    const { definition } = route;
    this.scope = definition.method === 'GET' ? cacheScope(definition, request) : false;
    this.anonymous = !req.headers.authorization;
    // `anonymous` answers also go to plain viewers of the routes that say so (known once signed in).
    const mayShare =
      this.scope === 'public' || (this.scope === 'anonymous' && (this.anonymous || definition.plainViewers));
    this.cacheable = this.scope === 'public' || (this.scope === 'anonymous' && this.anonymous);
    const variants = mayShare ? (definition.cacheVariants?.(request) ?? 1) : 1;
    this.variant = variants > 1 ? ` variant ${Math.floor(Math.random() * variants)}` : '';
    this.lookupKey = mayShare ? this.keyed(shared.keys.lookupKey(route, request.url, request.locale)) : null;
  }

  /** A shared answer for a caller without credentials, before they are looked at. */
  async beforeAuthentication(em: EntityManager): Promise<CachedAnswer | undefined> {
    return this.lookupKey !== null && this.anonymous ? this.lookup(em) : undefined;
  }

  /** A shared answer for a signed-in caller: a public one, or an anonymous one for a plain viewer. */
  async afterAuthentication(em: EntityManager, viewer: Viewer): Promise<CachedAnswer | undefined> {
    if (this.scope === 'anonymous' && !this.anonymous && this.route.definition.plainViewers) {
      this.cacheable = isPlainViewer(viewer);
    }
    return this.lookupKey !== null && !this.anonymous && this.cacheable ? this.lookup(em) : undefined;
  }

  /** Tags of the answer to store: null when this one is not shared after all (a route's own rule). */
  tags(variables: Record<string, unknown>): string[] | null {
    return this.cacheable ? (this.route.definition.cacheTags?.(variables) ?? []) : null;
  }

  /** Keeps the computed answer (unless the request carries parameters the route never reads) and hands it to those waiting. */
  store(answer: CachedAnswer, recorded: Map<string, string>): void {
    const { url, locale, query } = this.request;
    const storeKey = this.keyed(this.shared.keys.storeKey(this.route, url, locale, query));
    if (storeKey !== null) this.shared.cache.store(storeKey, answer, recorded);
    this.claim?.settle(answer);
  }

  /** Whatever happened, requests waiting for this computation go on (computing it themselves). */
  release(): void {
    this.claim?.settle(undefined);
  }

  /** Sends a shared answer: with its caching headers, or, to a plain viewer, as a private copy. */
  send(res: Response, answer: CachedAnswer): void {
    if (this.anonymous || this.scope === 'public') {
      return sendSharedAnswer(this.req, res, answer, this.shared.config.HTTP_CACHE_MAX_AGE, this.scope === 'anonymous');
    }
    // A plain viewer's copy of an anonymous answer: private, as every signed-in answer of the route.
    for (const [name, value] of Object.entries(PRIVATE_CACHE_HEADERS)) res.setHeader(name, value);
    res.status(answer.status).setHeader('Content-Type', 'application/json');
    res.setHeader('Content-Length', answer.body.length);
    res.end(answer.body);
  }

  private async lookup(em: EntityManager): Promise<CachedAnswer | undefined> {
    const found = await this.shared.lookup(em, this.lookupKey!);
    if ('answer' in found) return found.answer;
    this.claim = found.claim;
    return undefined;
  }

  private keyed(key: string | null): string | null {
    return key === null ? null : `${key}${this.variant}`;
  }
}

/**
 * A signed-in caller without permissions who authors no add-on: what routes with `plainViewers`
 * show them is what they show anonymous callers (for JWT callers, authorship is not read: never).
 */
const isPlainViewer = (viewer: Viewer) =>
  viewer.isAuthenticated && viewer.permissions.length === 0 && viewer.authorsNoAddon;

function cacheScope(route: EngineRoute, request: EngineRequest): CacheScope | false {
  const rule = route.cache;
  return typeof rule === 'function' ? rule(request) : (rule ?? false);
}
