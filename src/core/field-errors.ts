import { errors, type FieldErrors } from './errors.js';
import { mergeTranslations, parseTranslationsInput, type Translations } from './i18n/translations.js';
import { lengthProblem } from './text-limits.js';

/**
 * Collects the field problems of one input, so every check runs before any is reported: one 400
 * (GraphQL VALIDATION_FAILED) naming every bad field, `errors.validation(fields)`. Fields keep
 * the order they were first reported in, and each field its messages in the order added.
 * Texts are length-checked before anything else looks at them: a text over its limit is not
 * looked at further.
 */
export class FieldErrorCollector {
  readonly fields: FieldErrors = {};

  /** Records the problem; returns null, so that a check can `return fields.add(…)`. */
  add(field: string, message: string): null {
    (this.fields[field] ??= []).push(message);
    return null;
  }

  /** Adds each of `messages` to `field`. */
  addAll(field: string, messages: readonly string[]): void {
    for (const message of messages) this.add(field, message);
  }

  /** Adds `problem` (a message, or null/undefined when there is none); whether it was one. */
  check(field: string, problem: string | null | undefined): boolean {
    if (problem == null) return false;
    this.add(field, problem);
    return true;
  }

  /** Any problem (of `field`, when given)? */
  has(field?: string): boolean {
    return field === undefined ? Object.keys(this.fields).length > 0 : field in this.fields;
  }

  /**
   * Adds the field messages an error carries (only those of `field`, when given); an error
   * carrying none (for `field`) is not a validation problem and is thrown again.
   */
  absorb(error: unknown, field?: string): void {
    const fields = (error as { fields?: FieldErrors }).fields;
    if (field !== undefined) {
      const messages = fields?.[field];
      if (!messages) throw error;
      this.addAll(field, messages);
      return;
    }
    if (!fields) throw error;
    for (const [key, messages] of Object.entries(fields)) this.addAll(key, messages);
  }

  throwIfAny(): void {
    if (this.has()) throw errors.validation(this.fields);
  }

  /** Several translated texts at once (`translated` for each `[field, input, stored, limit]`), in order. */
  translatedAll<
    const F extends readonly (readonly [field: string, input: unknown, stored: Translations | null, limit: number])[],
  >(locale: string, fields: F): { -readonly [K in keyof F]: Translations | null } {
    return fields.map(([field, input, stored, limit]) => this.translated(field, input, stored, locale, limit)) as {
      -readonly [K in keyof F]: Translations | null;
    };
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
    limit: number,
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
      this.absorb(error, field);
      return stored;
    }
  }

  /** A plain string within `limit` (null or blank: null). */
  text(field: string, input: string | null | undefined, stored: string | null, limit: number): string | null {
    if (input === undefined) return stored;
    const problem = lengthProblem(input, limit);
    if (problem) {
      this.add(field, problem);
      return stored;
    }
    return input?.trim() || null;
  }
}
