import type { Request } from 'express';
import { readCookie } from '../src/auth/session-cookie.js';
import { errors } from '../src/core/errors.js';
import { findInvalidText } from '../src/core/input-guards.js';
import { ReadTrackingParams } from './cache-keys.js';
import { gate, type ApiVersion, type Gate } from './gates.js';
import type { HttpMethod, RestRequest } from './route.js';
import type { CompiledRoute } from './route-table.js';

/**
 * From a request to its route: the API version in the path, the route of the table that matches
 * the rest of the path and the method, and the request as that route reads it.
 */

export const VERSIONED_PATH = /^\/api\/(v3|v4|v5)(\/.*)$/;

/** The request as the engine hands it to a route: its query remembers which names were read. */
export type EngineRequest = RestRequest & { readonly query: ReadTrackingParams };

/** The API version and the path below it (repeated slashes folded); null outside the versioned API. */
export function versionedPath(requestUrl: URL): { version: ApiVersion; path: string } | null {
  const versioned = VERSIONED_PATH.exec(requestUrl.pathname.replace(/\/{2,}/g, '/'));
  return versioned ? { version: versioned[1] as ApiVersion, path: versioned[2] } : null;
}

export interface RouteMatch {
  route: CompiledRoute;
  /** Path variables, URL-decoded. */
  params: Record<string, string>;
}

/** No route for this request: a 404, or a 405 naming the methods the path has. */
export interface RouteRefusal {
  refused: { status: number; body: { detail: string }; headers?: Record<string, string> };
}

/** The route for the path and method (`HEAD` runs the `GET` route). */
export function matchRoute(routes: CompiledRoute[], path: string, requestMethod: string): RouteMatch | RouteRefusal {
  const method = (requestMethod === 'HEAD' ? 'GET' : requestMethod) as HttpMethod;
  const candidates = matchPath(routes, path);
  if (!candidates.length) return { refused: { status: 404, body: { detail: 'Not found.' } } };
  const match = candidates.find((c) => c.route.definition.method === method);
  if (match) return match;
  const allowed = [...new Set(candidates.map((c) => c.route.definition.method))];
  return {
    refused: {
      status: 405,
      body: { detail: `Method "${requestMethod}" not allowed.` },
      headers: { Allow: allowed.join(', ') },
    },
  };
}

/** The routes whose pattern matches the path and whose parameters decode. */
function matchPath(routes: CompiledRoute[], path: string): RouteMatch[] {
  const matches: RouteMatch[] = [];
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

/** The request as the matched route reads it; path or query text that is not valid text is a 400. */
export function restRequestOf(
  req: Request,
  version: ApiVersion,
  params: Record<string, string>,
  requestUrl: URL,
  locale: string,
): EngineRequest {
  const badParameter = findInvalidText([Object.values(params), [...requestUrl.searchParams]]);
  if (badParameter) throw errors.badRequest(badParameter.message);
  return {
    version,
    params,
    query: new ReadTrackingParams(requestUrl.search),
    body: req.body,
    locale,
    gate: (name: Gate) => gate(version, name),
    url: requestUrl,
    cookie: (name) => readCookie(req, name),
  };
}
