import { errors } from '../../src/core/errors.js';
import type { App } from '../../src/catalogue/catalogue.enums.js';
import { gate, type ApiVersion } from '../gates.js';
import { pageVariables } from '../pagination.js';
import type { RestRequest } from '../route.js';
import { appParam } from '../shapes/enums.js';
import { appVersionParam, versionFilter } from '../../src/catalogue/catalogue.service.js';

/**
 * Query-string rules of the v3/v4 catalogue endpoints, with the original messages. REST routes
 * call these to turn strings into typed GraphQL variables.
 */

/**
 * `filter` of the versions list, checked up front by the service's rule (a bad value is reported
 * before the add-on is looked up, as the original did); null when absent or empty.
 */
export function parseVersionFilter(query: URLSearchParams): string | null {
  const filter = query.get('filter') || null;
  versionFilter(filter);
  return filter;
}

/** A version list's variables (v3/v4 and v5 alike): the add-on, its `filter` and the page. */
export function versionListVariables(req: RestRequest) {
  return { addon: req.params.addon, filter: parseVersionFilter(req.query), ...pageVariables(req) };
}

/** A version in a v5 path: its id (digits), or its number (`2.2`, also written `v2.2`). */
export function versionIdOrNumber(value: string): { id: number | null; number: string | null } {
  if (/^\d+$/.test(value)) return { id: parseIntParam(value), number: null };
  return { id: null, number: /^v\d/.test(value) ? value.slice(1) : value };
}

export function refuseFilterOnDetail(query: URLSearchParams): void {
  if (query.has('filter')) throw errors.badParameter('The "filter" parameter is not valid in this context.');
}

/** v4 detail: `app` and `appversion` together select a language pack's compatible version. */
export function parseDetailAppParams(
  query: URLSearchParams,
  version: ApiVersion,
): { app: App | null; appVersion: string | null } {
  if (gate(version, 'del-addon-detail-app-filter')) return { app: null, appVersion: null };
  const rawApp = query.get('app');
  const rawVersion = query.get('appversion');
  if (rawApp === null && rawVersion === null) return { app: null, appVersion: null };
  const app = rawApp === null ? null : appParam(rawApp, version);
  if (rawApp !== null && app === null) throw errors.badRequest('Invalid "app" parameter.');
  if (rawVersion !== null) appVersionParam(rawVersion);
  return { app, appVersion: app && rawVersion ? rawVersion : null };
}

export function parseIntParam(value: string): number {
  return /^\d{1,9}$/.test(value) ? Number(value) : -1;
}
