import { DEFAULT_LOCALE } from '../../src/core/i18n/locales.js';
import type { Translations } from '../../src/core/i18n/translations.js';
import type { ShapeContext } from '../route.js';

/**
 * Editorial texts (hero shelves, discovery) are flat strings, as the original's gettext fields:
 * the request language (`lang`, else Accept-Language), else `fallback`, else any translation;
 * null if none.
 */
export function flatText(
  ctx: ShapeContext,
  value: Translations | null | undefined,
  fallback: string = DEFAULT_LOCALE,
): string | null {
  if (!value) return null;
  return value[ctx.request.locale] || value[fallback] || Object.values(value).find(Boolean) || null;
}

/** The text as curated, without localisation: the default locale's, else any; null if none. */
export function sourceText(value: Translations | null | undefined): string | null {
  if (!value) return null;
  return value[DEFAULT_LOCALE] || Object.values(value).find(Boolean) || null;
}
