import type { FieldErrorCollector } from '../core/field-errors.js';
import type { Translations } from '../core/i18n/translations.js';

/** The largest position of a curated object (shelves, discovery items: a smallint). */
export const MAX_POSITION = 32_767;

export const POSITION_MESSAGE = `Ensure this value is between 0 and ${MAX_POSITION}.`;

/** A curated object's position: given replaces `stored` (0 to `MAX_POSITION`), not given or null keeps it. */
export function positionOf(
  p: FieldErrorCollector,
  field: string,
  input: number | null | undefined,
  stored: number,
): number {
  if (input === undefined || input === null) return stored;
  if (!Number.isInteger(input) || input < 0 || input > MAX_POSITION) {
    p.add(field, POSITION_MESSAGE);
    return stored;
  }
  return input;
}

/** Whether a translated text has a non-empty translation. */
export function hasText(value: Translations | null | undefined): boolean {
  return Object.values(value ?? {}).some((text) => text !== '');
}
