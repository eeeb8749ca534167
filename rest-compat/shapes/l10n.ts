import { DEFAULT_LOCALE } from '../../src/core/i18n/locales.js';
import { localize, type Translations } from '../../src/core/i18n/translations.js';
import type { LinkOutput, TranslatedOutput } from '../route.js';

/**
 * A translated field as the request's version sends it. Without `lang`: every locale with text.
 * With `lang`, under `l10n_flat_input_output` (v3, v4): the text in that locale, else in the
 * default one, as one string. Otherwise (v5): an object of that locale's text; when it has none,
 * the requested locale is null beside the default locale's text, and `_default` names it.
 */
export function translatedOutput(
  value: Translations | null | undefined,
  lang: string | null,
  flat: boolean,
  defaultLocale?: string,
): TranslatedOutput | null {
  if (!lang || flat) return localize(value, lang, defaultLocale);
  const found = localize(value, lang, defaultLocale);
  if (found === null || typeof found !== 'string') return found;
  const present = value?.[lang];
  if (typeof present === 'string' && present !== '') return { [lang]: found };
  // `localize` fell back to the default locale's text.
  const fallback = defaultLocale ?? DEFAULT_LOCALE;
  return { [fallback]: found, [lang]: null, _default: fallback };
}

/**
 * An external link as the request's version sends it: under `wrap-outgoing-parameter` (v3, v4) a
 * string, wrapped through the redirector when the request asks (`wrap_outgoing_links`); otherwise
 * (v5) `{url, outgoing}`, null without a link.
 */
export function linkOutput(
  url: string | null | undefined,
  legacy: boolean,
  wrapRequested: boolean,
  wrap: (url: string | null | undefined) => string | null,
): LinkOutput | null {
  if (legacy) return wrapRequested ? wrap(url) : (url ?? null);
  if (!url) return null;
  return { url, outgoing: wrap(url) ?? url };
}

/**
 * A translated external link (homepage, support URL). Legacy: the translated output with each
 * link as `linkOutput` gives it. v5: `{url, outgoing}` of two translated outputs (the `_default`
 * marker and missing locales kept as they are).
 */
export function translatedLinkOutput(
  translated: TranslatedOutput | null,
  legacy: boolean,
  wrapRequested: boolean,
  wrap: (url: string | null | undefined) => string | null,
): unknown {
  if (translated === null) return null;
  const one = (url: string) => linkOutput(url, legacy, wrapRequested, wrap) as string;
  if (legacy) {
    if (typeof translated === 'string') return one(translated);
    return Object.fromEntries(Object.entries(translated).map(([locale, url]) => [locale, url && (one(url) ?? url)]));
  }
  const outgoing = (locale: string, url: string | null) => (locale === '_default' || !url ? url : (wrap(url) ?? url));
  if (typeof translated === 'string') return { url: translated, outgoing: outgoing('', translated) };
  return {
    url: translated,
    outgoing: Object.fromEntries(Object.entries(translated).map(([locale, url]) => [locale, outgoing(locale, url)])),
  };
}
