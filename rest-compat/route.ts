import type { AuthScheme } from '../src/access/credentials.js';
import type { Translations } from '../src/core/i18n/translations.js';
import type { PartsDefinition } from './parts.js';

import type { ApiVersion, Gate } from './gates.js';

export type { ApiVersion } from './gates.js';
/** The v5 submission API (web-ext 8+): only v5 has its routes (`routes/submission.ts`). */
export type SubmissionApiVersion = 'v5';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type CacheScope = 'anonymous' | 'public';

/** The parts of an HTTP request a route maps to GraphQL variables. */
export interface RestRequest<V extends ApiVersion = ApiVersion> {
  readonly version: V;
  /** Path variables, URL-decoded. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: unknown;
  /** The request's current language. */
  readonly locale: string;
  /** Whether the request's API version has a difference (see gates.ts). */
  gate(name: Gate): boolean;
  /** The absolute URL of the request (SITE_URL's origin), query string included. */
  readonly url: URL;
  /** A cookie the request carries (sign-in reads its own), or null. */
  cookie(name: string): string | null;
}

/** A translated field as sent: one string, or an object of locales (v5: `_default` names the fallback). */
export type TranslatedOutput = string | Readonly<Record<string, string | null>>;
/** An external link as sent: a string, or v5's `{url, outgoing}`. */
export type LinkOutput = string | { url: string; outgoing: string };

/** What a shaper needs to turn GraphQL data into the JSON of the request's version (see gates.ts). */
export interface ShapeContext<V extends ApiVersion = ApiVersion> {
  readonly version: V;
  readonly request: RestRequest<V>;
  /** Whether the request's API version has a difference (see gates.ts). */
  gate(name: Gate): boolean;
  /** Absolute base URL of the service (no trailing slash). */
  readonly baseUrl: string;
  /** Absolute URL of this request, query string included. */
  readonly requestUrl: URL;
  /**
   * Translated field output: an object of all locales; with `lang`, one string
   * (`l10n_flat_input_output`) or an object of that locale (v5: with the fallback and `_default`
   * when the locale has no translation).
   */
  translated(value: Translations | null | undefined, defaultLocale?: string): TranslatedOutput | null;
  /**
   * An external link: wrapped through the outgoing redirector when `wrap_outgoing_links` is present
   * (`wrap-outgoing-parameter`), else `{url, outgoing}`.
   */
  link(url: string | null | undefined): LinkOutput | null;
  /** A translated external link (homepage, support URL): `link` per locale, as the gates say. */
  translatedLink(value: Translations | null | undefined, defaultLocale?: string): unknown;
  /** Always wraps (for links inside HTML fields). */
  wrapLink(url: string | null | undefined): string | null;
  /** `YYYY-MM-DDTHH:MM:SSZ`. */
  timestamp(value: Date | string | null | undefined): string | null;
  absolute(path: string): string;
  /**
   * A `Set-Cookie` value for this site (HttpOnly, SameSite=Lax, Secure outside loopback, the
   * configured SESSION_COOKIE_DOMAIN); `maxAgeSeconds` 0 deletes the cookie.
   */
  cookie(name: string, value: string, options: { maxAgeSeconds: number; path?: string }): string;
}

/**
 * One entry of the route table: a REST path in some API versions, served by one named GraphQL
 * operation. The document is parsed and validated against the schema once, at boot.
 */
export interface RouteDefinition<TData = any, V extends ApiVersion = ApiVersion> {
  method: HttpMethod;
  /** Relative to `/api/<version>`; `<name>` marks a path variable, e.g. `/accounts/account/<user>/`. */
  path: string;
  versions: readonly V[];
  /**
   * Narrows the credentials accepted: by default those its operation declares (`@Accepts` next to
   * the resolver; sessions only unless declared). A scheme the operation does not accept stops the
   * boot. A header of another scheme is ignored (the request is anonymous), as in the original.
   */
  auth?: readonly AuthScheme[];
  /**
   * Takes files in a `multipart/form-data` body, from signed-in callers, within their concurrent
   * upload slots. Other routes read multipart bodies as short text fields and refuse file parts.
   */
  uploads?: boolean;
  /** GraphQL source with exactly one named operation. */
  document: string;
  variables?: (request: RestRequest<V>) => Record<string, unknown>;
  /** Success status (default 200), or computed from the data (201 created / 202 accepted). */
  status?: number | ((data: TData) => number);
  /** Turns `data` into the response body (default: `data` as is). Null with status 204 sends no body. */
  shape?: (data: TData, context: ShapeContext<V>) => unknown;
  /** Body style of 4xx errors: DRF's `{"detail"}`/field maps, or the signing API's `{"error"}`. */
  errorStyle?: 'drf' | 'signing';
  /**
   * Wire names of the domain's field names in field errors, where the request's version names a
   * field otherwise (e.g. `{score: 'rating'}`); fields not listed keep the domain's names.
   */
  errorFields?: (request: RestRequest<V>) => Readonly<Record<string, string>> | undefined;
  /**
   * Cache successful GET answers under the catalogue generation (see ResponseCache). Only for
   * routes whose answer depends on nothing but the URL and catalogue tables, and:
   * - `anonymous`: on the viewer too (non-public add-ons, unlisted versions): requests without
   *   credentials only;
   * - `public`: not on the viewer (public add-ons only): every request, once its credentials are
   *   checked (bad ones still get their 401).
   * A function decides per request (false: not cached).
   */
  cache?: CacheScope | ((request: RestRequest<V>) => CacheScope | false);
  /**
   * Answers drawn at random (`sort=random`): each request is answered with one of this many
   * variants of the answer, picked at random, each computed (drawn) once and kept like any answer.
   */
  cacheVariants?: (request: RestRequest<V>) => number;
  /**
   * With `anonymous`: a signed-in caller without permissions who authors no add-on gets the
   * anonymous answer too (it shows them nothing more), from the cache or computed and stored.
   */
  plainViewers?: boolean;
  /**
   * Cache tags a cached answer depends on beyond the rows it reads (which the loaders record:
   * `a:<addon id>`, `u:<user id>`): the listings it is one page of (`l:all`, and `l:<sort>` for
   * its order). See the CacheTags migration. Null: this answer is not cached.
   */
  cacheTags?: (variables: Record<string, unknown>) => string[] | null;
  /**
   * A page of items assembled from cached parts (see parts.ts): its skeleton is run instead of
   * `document`, whose answer it gives byte for byte (ANSWER_PARTS=off runs `document` and `shape`).
   */
  parts?: PartsDefinition<TData>;
}

export function defineRoutes(routes: RouteDefinition[]): RouteDefinition[] {
  return routes;
}

/** An entry of either table: the whole table's, or the v5 submission API's. */
export type AnyRouteDefinition = RouteDefinition | RouteDefinition<any, SubmissionApiVersion>;

/** The v5 submission API's entries: their requests and shapers see `v5`, and no other route does. */
export function defineSubmissionRoutes(
  routes: RouteDefinition<any, SubmissionApiVersion>[],
): RouteDefinition<any, SubmissionApiVersion>[] {
  return routes;
}

/** Marks GraphQL source for editors and formatters; returns it unchanged. */
export const gql = (strings: TemplateStringsArray, ...values: unknown[]): string =>
  strings.reduce((out, part, i) => out + part + (i < values.length ? String(values[i]) : ''), '');
