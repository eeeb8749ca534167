/**
 * The length check of every free-text input. Each domain declares its inputs' limits in its own
 * folder (`src/<domain>/text-limits.ts`; README "Limits" lists them all). Services check a text's
 * length before anything else looks at it (link and address tests, lookups), so a huge value costs
 * one length comparison and is refused with a 400 naming the field: the DRF message `Ensure this
 * field has no more than N characters.` in the field map, through REST and GraphQL alike
 * (VALIDATION_FAILED with `fields`).
 *
 * Lengths count characters (code points), as the original (Python) and PostgreSQL's `varchar(n)`
 * do.
 */
import { fieldMessages } from './messages.js';

/** The original's (Django REST framework's) message. */
export const maxLengthMessage = fieldMessages.maxLength;

/**
 * Whether `text` has more than `max` characters (code points). Reads at most `2 * max + 2` code
 * units, whatever the length of the text.
 */
export function exceedsLength(text: string, max: number): boolean {
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  let count = 0;
  for (let i = 0; i < text.length; i += isPairAt(text, i) ? 2 : 1) if (++count > max) return true;
  return false;
}

/** A surrogate pair (one character, two code units) starts at `i`. */
function isPairAt(text: string, i: number): boolean {
  const high = text.charCodeAt(i);
  const low = text.charCodeAt(i + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

/** The max-length message when `text` has more than `max` characters, else null. */
export function lengthProblem(text: string | null | undefined, max: number): string | null {
  return typeof text === 'string' && exceedsLength(text, max) ? maxLengthMessage(max) : null;
}

/** `text` cut to at most `max` characters (a surrogate pair is never split). */
export function truncateText(text: string, max: number): string {
  if (!exceedsLength(text, max)) return text;
  let units = 0;
  for (let count = 0; count < max; count++) units += isPairAt(text, units) ? 2 : 1;
  return text.slice(0, units);
}
