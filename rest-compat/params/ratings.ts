import { gate, type ApiVersion } from '../gates.js';
import { fieldMessages } from '../../src/core/messages.js';
import { ratingMessages, ratingErrors } from '../../src/ratings/ratings.errors.js';

/**
 * Query-string and JSON-body rules of the v3/v4 ratings endpoints, with the original messages.
 * REST routes call these to turn what a client sent into typed GraphQL variables; every rule
 * that needs the caller or the database is the service's. Being parsed first, a malformed
 * parameter or JSON value is reported before the service's add-on and permission checks (the
 * original reported it after them).
 */

const INT32_MAX = 2_147_483_647;
/** Matches no row and no user: what an out-of-range id stands for. */
const NO_ID = -1;

/** Python's `int()` on a query value: optional sign and surrounding spaces. */
const INTEGER = /^\s*[+-]?\d+\s*$/;
/** Django REST framework's IntegerField also takes a trailing `.0`. */
const DRF_INTEGER = /^\s*[+-]?\d+(\.0*)?\s*$/;

/** An id that fits a GraphQL Int; larger ones cannot match anything. */
function toId(text: string): number {
  const n = Number.parseInt(text.trim(), 10);
  return Math.abs(n) <= INT32_MAX ? n : NO_ID;
}

/** A non-empty query value, or null when absent or empty (the original reads both as "not given"). */
function given(query: URLSearchParams, name: string): string | null {
  const value = query.get(name);
  return value === null || value === '' ? null : value;
}

function integerList(value: string, message: string): number[] {
  const parts = value.split(',');
  if (!parts.every((p) => INTEGER.test(p))) throw ratingErrors.parameter(message);
  return parts.map(toId);
}

const TRUE_VALUES = new Set(['t', 'T', 'y', 'Y', 'yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', '1']);
const FALSE_VALUES = new Set(['f', 'F', 'n', 'N', 'no', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF', '0']);

/** `show_grouped_ratings` (the ratings list, and the add-on detail's `ratings.grouped_counts`): a boolean. */
export function groupedRatingsParam(query: URLSearchParams): boolean {
  const grouped = query.get('show_grouped_ratings');
  if (grouped !== null && !TRUE_VALUES.has(grouped) && !FALSE_VALUES.has(grouped)) {
    throw ratingErrors.parameter(ratingMessages.groupedNotBoolean);
  }
  return grouped !== null && TRUE_VALUES.has(grouped);
}

/** `show_permissions_for` / `show_flags_for`: a user id, or one that is nobody's (the service refuses it). */
function userIdParam(query: URLSearchParams, name: string): number | null {
  const value = query.get(name);
  if (value === null) return null;
  return DRF_INTEGER.test(value) ? toId(value.replace(/\.0*\s*$/, '')) : 0;
}

export interface RatingListParams {
  /** As given; '' when the parameter is present but empty (that still counts as present for show_permissions_for). */
  addon: string | null;
  user: number | null;
  version: number | null;
  withDeleted: boolean;
  withoutEmptyBody: boolean;
  withYours: boolean;
  excludeRatings: number[] | null;
  scores: number[] | null;
  showGroupedRatings: boolean;
  showPermissionsFor: number | null;
  showFlagsFor: number | null;
}

/** v3 knows neither `score`, `exclude_ratings`, `show_permissions_for` nor `show_flags_for`: it ignores them. */
export function parseListParams(query: URLSearchParams, version: ApiVersion): RatingListParams {
  const user = given(query, 'user');
  if (user !== null && !INTEGER.test(user)) throw ratingErrors.parameter(ratingMessages.userNotInteger);
  const versionId = given(query, 'version');
  if (versionId !== null && !INTEGER.test(versionId)) throw ratingErrors.parameter(ratingMessages.versionNotInteger);
  const score = gate(version, 'ratings-score-filter') ? given(query, 'score') : null;
  const v4Params = !gate(version, 'del-ratings-list-v4-params');
  const exclude = v4Params ? given(query, 'exclude_ratings') : null;
  const filters = (query.get('filter') ?? '').split(',');
  const grouped = query.get('show_grouped_ratings');
  if (grouped !== null && !TRUE_VALUES.has(grouped) && !FALSE_VALUES.has(grouped)) {
    throw ratingErrors.parameter(ratingMessages.groupedNotBoolean);
  }
  return {
    addon: query.get('addon'),
    user: user === null ? null : toId(user),
    version: versionId === null ? null : toId(versionId),
    withDeleted: filters.includes('with_deleted'),
    withoutEmptyBody: filters.includes('without_empty_body'),
    withYours: filters.includes('with_yours'),
    scores: score === null ? null : integerList(score, ratingMessages.scoreNotIntegers),
    excludeRatings: exclude === null ? null : integerList(exclude, ratingMessages.excludeNotIntegers),
    showGroupedRatings: grouped !== null && TRUE_VALUES.has(grouped),
    showPermissionsFor: v4Params ? userIdParam(query, 'show_permissions_for') : null,
    showFlagsFor: gate(version, 'del-ratings-flags') ? null : userIdParam(query, 'show_flags_for'),
  };
}

/** Detail: v4 `show_flags_for`. */
export function parseDetailParams(query: URLSearchParams, version: ApiVersion): { showFlagsFor: number | null } {
  return { showFlagsFor: gate(version, 'del-ratings-flags') ? null : userIdParam(query, 'show_flags_for') };
}

// JSON bodies. Values of the right JSON type go on as GraphQL variables (absent stays absent, so
// that the service can tell "required" from "null"); values no GraphQL type can carry are refused
// here with the original's message for their field.

export type JsonBody = Record<string, unknown>;

export function jsonBody(body: unknown): JsonBody {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as JsonBody) : {};
}

/** Python's name of a JSON value's type, as the original's messages show it. */
function pythonType(value: unknown): string {
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return Array.isArray(value) ? 'list' : 'dict';
}

/** An integer field (DRF IntegerField): integral numbers and numeric strings. */
function integerField(data: JsonBody, name: string, key: string): number | null | undefined {
  if (!(name in data)) return undefined;
  const value = data[name];
  if (value === null) return null;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  if (!DRF_INTEGER.test(text)) throw ratingErrors.fields({ [key]: [fieldMessages.integer] });
  return clampInt(Number.parseInt(text.trim(), 10));
}

/** A primary key field (DRF PrimaryKeyRelatedField): whole numbers, as numbers or digit strings. */
function pkField(data: JsonBody, name: string): number | null | undefined {
  if (!(name in data)) return undefined;
  const value = data[name];
  if (value === null) return null;
  if ((typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && INTEGER.test(value))) {
    return clampInt(Number.parseInt(String(value).trim(), 10));
  }
  throw ratingErrors.fields({ [name]: [fieldMessages.pkIncorrectType(pythonType(value))] });
}

/** A text field (DRF CharField): strings, and numbers as their text. */
function textField(data: JsonBody, name: string): string | null | undefined {
  if (!(name in data)) return undefined;
  const value = data[name];
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw ratingErrors.fields({ [name]: [fieldMessages.string] });
}

const clampInt = (n: number) => Math.max(-INT32_MAX, Math.min(INT32_MAX, n));

/** The add-on of a body, as the original reads it: absent, null, '' or 0 all mean "not given". */
function addonField(data: JsonBody): string | undefined {
  const value = data.addon;
  if (value === undefined || value === null || value === '' || value === 0 || value === false) return undefined;
  return typeof value === 'string' ? value : String(value);
}

export interface RatingBody {
  addon?: string;
  version?: number | null;
  score?: number | null;
  body?: string | null;
}

/** POST and PATCH bodies: v3 names the score `rating`; `title` (v3) is accepted and ignored. */
export function parseRatingBody(body: unknown, version: ApiVersion): RatingBody {
  const data = jsonBody(body);
  const scoreName = gate(version, 'ratings-rating-shim') ? 'rating' : 'score';
  return withoutUndefined({
    addon: addonField(data),
    version: pkField(data, 'version'),
    score: integerField(data, scoreName, scoreName),
    body: textField(data, 'body'),
  });
}

export function parseReplyBody(body: unknown): { body?: string | null } {
  return withoutUndefined({ body: textField(jsonBody(body), 'body') });
}

export function parseFlagBody(body: unknown): { flag?: string | null; note?: string | null } {
  const data = jsonBody(body);
  return withoutUndefined({ flag: textField(data, 'flag'), note: textField(data, 'note') });
}

/** Absent fields stay absent in the GraphQL variables. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Path ids: digits only, else an id nothing has. */
export function parseRatingId(value: string): number {
  if (!/^\d+$/.test(value)) return NO_ID;
  const id = Number(value);
  return id <= INT32_MAX ? id : NO_ID;
}
