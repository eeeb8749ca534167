import type { IncomingMessage } from 'node:http';
import { errors } from './errors.js';
import { fieldMessages } from './messages.js';

/**
 * Checks every request body and argument goes through before any service sees it, for both APIs.
 * PostgreSQL refuses NUL in text (a 500 if it reaches a query), and a deeply nested JSON body
 * overflows the stack of whatever walks it recursively later (GraphQL's value coercion, shapers).
 */

/** JSON bodies deeper than this are refused before parsing; no input of the service nests past ~5. */
export const MAX_JSON_DEPTH = 64;

export const NUL_MESSAGE = fieldMessages.nullCharacters;

/** True when a JSON text nests arrays/objects deeper than `maxDepth` (one linear pass, strings skipped). */
export function jsonNestsDeeperThan(text: Buffer, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** `verify` hook for express.json: refuses over-deep bodies with the body parser's 400 shape. */
export function refuseDeepJson(_req: IncomingMessage, _res: unknown, body: Buffer): void {
  if (jsonNestsDeeperThan(body, MAX_JSON_DEPTH)) {
    throw Object.assign(new Error(`JSON parse error - nesting deeper than ${MAX_JSON_DEPTH} levels`), {
      status: 400,
      expose: true,
      type: 'entity.too.deep',
    });
  }
}

export const SURROGATE_MESSAGE = 'Text must be valid Unicode: it holds an unpaired surrogate.';

export interface TextProblem {
  /** Where: a dotted path of object keys ('' for the value itself, or inside an array). */
  path: string;
  message: string;
}

function textProblem(text: string): string | null {
  if (text.includes('\0')) return NUL_MESSAGE;
  // JSON and URLs can carry lone UTF-16 surrogates; PostgreSQL's jsonb refuses them.
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed()) return SURROGATE_MESSAGE;
  return null;
}

/**
 * The first string (or object key) inside `value` that no text column can store: a NUL
 * character or an unpaired surrogate. Iterative and depth-bounded, so hostile nesting cannot
 * recurse; objects other than plain ones (uploads) are skipped.
 */
export function findInvalidText(value: unknown, path = ''): TextProblem | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path, depth: 0 }];
  while (stack.length) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      const message = textProblem(item.value);
      if (message) return { path: item.path, message };
      continue;
    }
    if (!item.value || typeof item.value !== 'object' || item.depth > MAX_JSON_DEPTH) continue;
    if (Array.isArray(item.value)) {
      item.value.forEach((v) => stack.push({ value: v, path: item.path, depth: item.depth + 1 }));
      continue;
    }
    const prototype = Object.getPrototypeOf(item.value);
    if (prototype !== Object.prototype && prototype !== null) continue;
    for (const [key, v] of Object.entries(item.value)) {
      const message = textProblem(key);
      if (message) return { path: item.path, message };
      stack.push({ value: v, path: item.path ? `${item.path}.${key}` : key, depth: item.depth + 1 });
    }
  }
  return null;
}

/** Throws the 400 for findInvalidText's finding: a field error when it names a field. */
export function refuseInvalidText(problem: TextProblem | null): void {
  if (problem === null) return;
  if (!problem.path) throw errors.badRequest(problem.message);
  throw errors.validation({ [problem.path.split('.')[0]]: [problem.message] });
}
