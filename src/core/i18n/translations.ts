import { errors } from '../errors.js';
import { canonicalLocale, DEFAULT_LOCALE } from './locales.js';

/** A translated field as stored: locale code -> text. */
export type Translations = Record<string, string>;

/**
 * Output rule of v3/v4 (`l10n_flat_input_output`): without `lang`, every non-empty translation as
 * an object (null if none); with `lang`, one string: that language, else the object's default
 * locale, else null.
 */
export function localize(
  value: Translations | null | undefined,
  lang: string | null | undefined,
  defaultLocale: string = DEFAULT_LOCALE,
): Translations | string | null {
  const present = Object.entries(value ?? {}).filter(([, text]) => typeof text === 'string' && text !== '');
  if (!lang) return present.length ? Object.fromEntries(present) : null;
  const map = Object.fromEntries(present);
  return map[lang] ?? map[defaultLocale] ?? null;
}

/**
 * Input rule: a string is stored for the request's current language; an object must use known
 * locale codes ("The language code 'xx' is invalid." otherwise). Values are stripped; null clears.
 * Returns the translations to store (an empty string or null value removes that locale).
 */
export function parseTranslationsInput(
  field: string,
  input: unknown,
  currentLocale: string,
): Record<string, string | null> | null {
  if (input === null || input === undefined) return null;
  if (typeof input === 'string') return { [currentLocale]: input.trim() || null };
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw errors.field(field, 'You must provide an object of {lang-code:value}.');
  }
  const result: Record<string, string | null> = {};
  for (const [code, text] of Object.entries(input as Record<string, unknown>)) {
    const locale = canonicalLocale(code);
    if (!locale) throw errors.field(field, `The language code '${code}' is invalid.`);
    if (text !== null && typeof text !== 'string') {
      throw errors.field(field, 'You must provide an object of {lang-code:value}.');
    }
    result[locale] = text === null ? null : text.trim() || null;
  }
  return result;
}

/** Applies parsed input to stored translations (null/empty removes a locale). */
export function mergeTranslations(
  current: Translations | null | undefined,
  update: Record<string, string | null> | null,
): Translations | null {
  if (update === null) return null;
  const merged: Translations = { ...(current ?? {}) };
  for (const [locale, text] of Object.entries(update)) {
    if (text === null) delete merged[locale];
    else merged[locale] = text;
  }
  return Object.keys(merged).length ? merged : null;
}
