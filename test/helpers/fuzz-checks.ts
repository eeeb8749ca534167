import type { RawOutcome, RawResponse } from './fuzz-http.js';

/** How a request's 4xx body must look on the REST side (the route table's `errorStyle`). */
export type RestErrorStyle = 'drf' | 'signing';

/** One broken promise of issue 9, found in an answer. */
export interface Violation {
  /** What was fuzzed: `REST PATCH /accounts/account/<user>/ (v4)`, `GraphQL Mutation.editUser`, … */
  target: string;
  /** What was wrong: `status 500`, `stack trace in body`, `4xx body shape`, … */
  symptom: string;
  /** The request, shortened. */
  request: string;
  /** Status and the first 200 characters of the body (or what happened instead). */
  answer: string;
  /** How many requests showed it. */
  count: number;
}

/** A request taking longer than this is a finding (back-tracking regexes, unbounded query cost). */
export const SLOW_MS = Number(process.env.FUZZ_SLOW_MS ?? 10_000);

const STACK_MARKERS: { pattern: RegExp; name: string }[] = [
  {
    pattern: /(?:^|\n|\\n|\s)at (?:async )?[^\s()]*\s?\(?(?:file:\/\/|node:|\/)[^\s)]*:\d+:\d+\)?/,
    name: 'stack frame',
  },
  { pattern: /\/work\//, name: '/work/ path' },
  { pattern: /node_modules/, name: 'node_modules path' },
  { pattern: /stacktrace/i, name: '"stacktrace"' },
];

/** Collects violations, one per target and symptom, keeping the shortest request that shows it. */
export class ViolationLog {
  private readonly byKey = new Map<string, Violation>();

  add(target: string, symptom: string, request: string, answer: string): void {
    const key = `${target}\u0000${symptom}`;
    const known = this.byKey.get(key);
    if (known) {
      known.count++;
      if (request.length < known.request.length) Object.assign(known, { request, answer });
      return;
    }
    this.byKey.set(key, { target, symptom, request, answer, count: 1 });
  }

  of(target: string): Violation[] {
    return [...this.byKey.values()].filter((v) => v.target === target);
  }

  all(): Violation[] {
    return [...this.byKey.values()];
  }
}

/** A short printable form of some text: control characters and lone surrogates escaped, cut at `max`. */
export function short(text: string | null | undefined, max = 200): string {
  text ??= '';
  const cut = text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
  return JSON.stringify(cut).slice(1, -1);
}

export function describeOutcome(outcome: RawOutcome): string {
  if (outcome.kind === 'timeout') return `no answer within ${outcome.ms} ms`;
  if (outcome.kind === 'closed')
    return `connection closed without an answer${outcome.error ? ` (${outcome.error})` : ''}`;
  const { status, headers, text } = outcome.response;
  return `${status} ${headers['content-type'] ?? '(no content-type)'} ${short(text)}`;
}

/**
 * Checks every answer must pass, whatever the endpoint: there is one, it is not a 5xx (`allow503`:
 * the maintenance answer), it carries no stack trace, it came in time. Markers the request itself
 * contained (echoed input) are not counted.
 */
export function commonProblems(outcome: RawOutcome, requestText: string): string[] {
  if (outcome.kind === 'timeout') return ['no answer (timeout)'];
  if (outcome.kind === 'closed') return ['no answer (connection closed)'];
  const problems: string[] = [];
  const { status, text, ms } = outcome.response;
  if (status >= 500) problems.push(`status ${status}`);
  for (const marker of STACK_MARKERS) {
    if (marker.pattern.test(text) && !marker.pattern.test(requestText))
      problems.push(`stack trace in body (${marker.name})`);
  }
  if (ms > SLOW_MS) problems.push(`slow answer (> ${SLOW_MS} ms)`);
  return problems;
}

function parseJson(response: RawResponse): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(response.text) };
  } catch {
    return { ok: false };
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isFieldMap = (v: unknown) =>
  isPlainObject(v) && Object.keys(v).length > 0 && Object.values(v).every((messages) => isStringArray(messages));

/**
 * The original v3/v4 error bodies: DRF's `{"detail": "…"}` (with extra keys such as `code`), a
 * field map of string arrays, a bare array of strings, or 422 `{"errors": field map}`
 * (super-create); signing routes answer `{"error": "…"}` (and `{"detail": "…"}` for framework
 * refusals such as 401 and 405, as the original signing API did).
 */
export function restErrorProblem(response: RawResponse, style: RestErrorStyle): string | null {
  if (response.status < 400 || response.status >= 500) return null;
  if (!/^application\/json\b/.test(response.headers['content-type'] ?? '')) return '4xx not JSON (content-type)';
  const parsed = parseJson(response);
  if (!parsed.ok) return '4xx body not JSON';
  const body = parsed.value;
  const detail = isPlainObject(body) && typeof body.detail === 'string';
  if (style === 'signing') {
    const error = isPlainObject(body) && typeof body.error === 'string';
    return error || detail ? null : '4xx body shape (signing: {"error": string})';
  }
  if (detail || isFieldMap(body) || (isStringArray(body) && body.length > 0)) return null;
  if (response.status === 422 && isPlainObject(body) && isFieldMap(body.errors)) return null;
  return '4xx body shape (DRF: {"detail"}, field map or array of strings)';
}

/**
 * GraphQL answers: JSON; an error status comes with a non-empty `errors`; every error has a
 * `message`, no `extensions.stacktrace`, and is not an internal error (a 500 in disguise).
 */
export function graphqlProblems(response: RawResponse): string[] {
  const parsed = parseJson(response);
  // A 5xx is reported as such (commonProblems); its body is not looked at twice.
  if (response.status >= 500) return [];
  if (!parsed.ok || !isPlainObject(parsed.value)) return ['answer not a GraphQL JSON object'];
  const body = parsed.value;
  const problems: string[] = [];
  if (response.status >= 400 && !(Array.isArray(body.errors) && body.errors.length > 0)) {
    problems.push('4xx without GraphQL `errors`');
  }
  if (body.errors !== undefined) {
    if (!Array.isArray(body.errors)) return [...problems, '`errors` not an array'];
    for (const error of body.errors) {
      if (!isPlainObject(error) || typeof error.message !== 'string') {
        problems.push('error item without `message`');
        continue;
      }
      const extensions = isPlainObject(error.extensions) ? error.extensions : {};
      if ('stacktrace' in extensions) problems.push('extensions.stacktrace in error');
      if (extensions.code === 'INTERNAL_SERVER_ERROR') problems.push('INTERNAL_SERVER_ERROR in errors');
    }
  }
  return problems;
}

/** Refusals of the HTTP parser (no route involved): an answer, a 4xx, a JSON body. */
export function parserRefusalProblems(outcome: RawOutcome): string[] {
  if (outcome.kind !== 'answer') return [`no answer (${outcome.kind})`];
  const { response } = outcome;
  const problems: string[] = [];
  if (response.status >= 500) problems.push(`status ${response.status}`);
  if (!/^application\/json\b/.test(response.headers['content-type'] ?? '') || !parseJson(response).ok) {
    problems.push('refusal without a JSON body');
  }
  return problems;
}
