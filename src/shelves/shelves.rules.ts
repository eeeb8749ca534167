import { errors, type FieldErrors } from '../core/errors.js';
import { mergeTranslations, parseTranslationsInput, type Translations } from '../core/i18n/translations.js';
import { lengthProblem, type TextLimit } from '../core/text-limits.js';

/** The gradient's start colour of every primary shelf (the original's `GRADIENT_START_COLOR`). */
export const SHELF_GRADIENT_START = 'color-ink-80';

/** The end colours a primary shelf may use (the original's `GRADIENT_COLORS`), by name. */
export const SHELF_GRADIENTS = [
  'color-blue-70',
  'color-green-70',
  'color-pink-70',
  'color-purple-70',
  'color-violet-70',
] as const;

/** A secondary shelf has exactly this many modules. */
export const SECONDARY_MODULES = 3;

export const MESSAGES = {
  required: 'This field is required.',
  notNull: 'This field may not be null.',
  blank: 'This field may not be blank.',
  url: 'Enter a valid URL.',
  choice: (value: string) => `"${value}" is not a valid choice.`,
  modules: `Exactly ${SECONDARY_MODULES} modules are required.`,
  cta: 'Both the call to action URL and text must be defined, or neither, for enabled shelves.',
  gradient: 'Gradient color is required for enabled shelves',
  externalHomepage: 'External primary shelves need a homepage defined in addon details.',
  addon: (value: string) => `Invalid pk or slug "${value}" - object does not exist.`,
  position: 'Ensure this value is between 0 and 32767.',
} as const;

/**
 * Collects field problems; every check of one input runs before any is reported. Texts are
 * length-checked before anything else looks at them: a text over its limit is not looked at further.
 */
export class Problems {
  readonly fields: FieldErrors = {};

  add(field: string, message: string): void {
    (this.fields[field] ??= []).push(message);
  }

  has(field?: string): boolean {
    return field === undefined ? Object.keys(this.fields).length > 0 : field in this.fields;
  }

  throwIfAny(): void {
    if (this.has()) throw errors.validation(this.fields);
  }

  /**
   * A translated text after `input` (string: the request language; object: known locales), each
   * translation within `limit`. `undefined` input keeps `stored`; an unusable input reports and keeps it.
   */
  translated(
    field: string,
    input: unknown,
    stored: Translations | null,
    locale: string,
    limit: TextLimit,
  ): Translations | null {
    if (input === undefined) return stored;
    try {
      const merged = mergeTranslations(stored, parseTranslationsInput(field, input, locale));
      const tooLong = Object.values(merged ?? {})
        .map((text) => lengthProblem(text, limit))
        .find(Boolean);
      if (tooLong) {
        this.add(field, tooLong);
        return stored;
      }
      return merged;
    } catch (error) {
      const messages = (error as { fields?: FieldErrors }).fields?.[field];
      if (!messages) throw error;
      messages.forEach((m) => this.add(field, m));
      return stored;
    }
  }

  /** A plain string within `limit` (null or blank: null). */
  text(field: string, input: string | null | undefined, stored: string | null, limit: TextLimit): string | null {
    if (input === undefined) return stored;
    const problem = lengthProblem(input, limit);
    if (problem) {
      this.add(field, problem);
      return stored;
    }
    return input?.trim() || null;
  }
}

/** An absolute http(s) URL with a host. */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Whether a translated text has a non-empty translation. */
export function hasText(value: Translations | null | undefined): boolean {
  return Object.values(value ?? {}).some((text) => text !== '');
}
