import { errors } from '../../src/core/errors.js';
import type { AddonSearchInput, DateRangeInput, NumberRangeInput } from '../../src/search/search.types.js';

/**
 * The search's threshold parameters (`users`, `ratings`, `created`, `updated`): `name` is equal
 * to, `name__gt`, `name__gte`, `name__lt`, `name__lte` compare; several combine (all must hold).
 * A value that is not one is refused with `Invalid "<parameter>" parameter.` (the parameter as
 * sent). Each parameter is read by its full name, literally, so the OpenAPI document lists them.
 */
export function parseSearchThresholds(query: URLSearchParams): Partial<AddonSearchInput> {
  const out: Partial<AddonSearchInput> = {};
  const users = numberThreshold(query, 'users', 'users__gt', 'users__gte', 'users__lt', 'users__lte');
  if (users) out.users = users;
  const ratings = numberThreshold(query, 'ratings', 'ratings__gt', 'ratings__gte', 'ratings__lt', 'ratings__lte');
  if (ratings) out.ratings = ratings;
  const created = dateThreshold(query, 'created', 'created__gt', 'created__gte', 'created__lt', 'created__lte');
  if (created) out.created = created;
  const updated = dateThreshold(query, 'updated', 'updated__gt', 'updated__gte', 'updated__lt', 'updated__lte');
  if (updated) out.updated = updated;
  return out;
}

/** The parameter's value, trimmed; absent or empty: null (as the original ignores empty filters). */
function read(query: URLSearchParams, name: string): string | null {
  const value = query.get(name)?.trim();
  return value ? value : null;
}

/** A number: decimal, optionally signed and with a fraction (`10`, `4.5`, `-1`); at most 32 characters. */
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

function numberValue(query: URLSearchParams, name: string): number | null {
  const text = read(query, name);
  if (text === null) return null;
  const value = text.length <= 32 && NUMBER.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value)) throw errors.badParameter(`Invalid "${name}" parameter.`);
  return value;
}

const max = (a: number | null | undefined, b: number | null) => (a == null ? b : b === null ? a : Math.max(a, b));
const min = (a: number | null | undefined, b: number | null) => (a == null ? b : b === null ? a : Math.min(a, b));

/** Equal to a number: at least it and at most it. */
function numberThreshold(
  query: URLSearchParams,
  eq: string,
  gt: string,
  gte: string,
  lt: string,
  lte: string,
): NumberRangeInput | null {
  const equal = numberValue(query, eq);
  const range: NumberRangeInput = {
    gt: numberValue(query, gt),
    gte: max(numberValue(query, gte), equal),
    lt: numberValue(query, lt),
    lte: min(numberValue(query, lte), equal),
  };
  return Object.values(range).some((v) => v !== null) ? range : null;
}

/**
 * A date as the span it names, in UTC: `YYYY-MM-DD` its day, `YYYY-MM-DDTHH:MM` its minute,
 * `YYYY-MM-DDTHH:MM:SS` its second, digits a millisecond timestamp (its millisecond). Compared as
 * a span: equal is within it, `__gt` after it, `__gte` from its start, `__lt` before it, `__lte`
 * up to its end (`created__lte=2024-01-31` includes all of the 31st).
 */
function dateSpan(query: URLSearchParams, name: string): { start: number; end: number } | null {
  const text = read(query, name);
  if (text === null) return null;
  const invalid = () => errors.badParameter(`Invalid "${name}" parameter.`);
  let start: number;
  let span: number;
  if (/^\d{1,15}$/.test(text)) {
    start = Number(text);
    span = 1;
  } else {
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
    if (!m) throw invalid();
    const [year, month, day, hour, minute, second] = m.slice(1).map((p) => (p === undefined ? 0 : Number(p)));
    const date = new Date(0);
    date.setUTCFullYear(year, month - 1, day);
    date.setUTCHours(hour, minute, second, 0);
    // Out-of-range parts roll over (Feb 30 is Mar 2): a date that does not exist is refused.
    const parts = [
      date.getUTCFullYear(),
      date.getUTCMonth() + 1,
      date.getUTCDate(),
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
    ];
    if (year < 1 || parts.some((part, i) => part !== [year, month, day, hour, minute, second][i])) throw invalid();
    start = date.getTime();
    span = m[6] !== undefined ? 1_000 : m[4] !== undefined ? 60_000 : 86_400_000;
  }
  // The span must end by the last year the database and the DateTime scalar hold.
  if (new Date(start + span).getUTCFullYear() > 9999) throw invalid();
  return { start, end: start + span };
}

/** Lower bounds become one inclusive `gte`, upper bounds one exclusive `lt` (ISO text, as GraphQL takes). */
function dateThreshold(
  query: URLSearchParams,
  eq: string,
  gt: string,
  gte: string,
  lt: string,
  lte: string,
): DateRangeInput | null {
  const equal = dateSpan(query, eq);
  const after = dateSpan(query, gt);
  const from = dateSpan(query, gte);
  const before = dateSpan(query, lt);
  const upTo = dateSpan(query, lte);
  let lower: number | null = null;
  for (const bound of [equal?.start, after?.end, from?.start]) lower = max(lower, bound ?? null);
  let upper: number | null = null;
  for (const bound of [equal?.end, before?.start, upTo?.end]) upper = min(upper, bound ?? null);
  if (lower === null && upper === null) return null;
  // GraphQL's DateTime takes ISO text; the input type names the parsed value.
  const iso = (ms: number | null) => (ms === null ? null : (new Date(ms).toISOString() as unknown as Date));
  return { gte: iso(lower), lt: iso(upper) };
}
