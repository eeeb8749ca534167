import type { EntityManager } from '@mikro-orm/postgresql';
import type { Viewer } from '../auth/viewer.js';
import { Loaders } from './loaders.js';

/** What a request knows about where it came from: used for absolute URLs and audit fields. */
export interface RequestInfo {
  /** Absolute base URL of this service, without trailing slash (SITE_URL or the request's host). */
  readonly baseUrl: string;
  readonly ip: string | null;
  /**
   * `rest` when the REST compatibility engine runs the request: its answers keep the original's
   * shapes where they differ from GraphQL's rules (see CollectionsService.itemAddon). Absent: GraphQL.
   */
  readonly api?: 'rest';
}

/**
 * The per-request context every service method takes first: a forked entity manager (nothing
 * leaks between requests), the viewer, the request language and the request's DataLoaders.
 * GraphQL resolvers and REST routes build exactly the same object.
 */
export interface RequestContext {
  readonly em: EntityManager;
  readonly viewer: Viewer;
  /** The request's current language (lang parameter, Accept-Language, or en-US). */
  readonly locale: string;
  readonly request: RequestInfo;
  readonly loaders: Loaders;
}

export function createRequestContext(init: Omit<RequestContext, 'loaders'>): RequestContext {
  const context: RequestContext = { ...init, loaders: new Loaders(() => context) };
  return context;
}
