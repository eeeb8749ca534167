/** Locales the catalogue accepts for translated fields and `lang` (the original's AMO_LANGUAGES). */
// prettier-ignore
export const LOCALES = [
  'af', 'ar', 'ast', 'az', 'bg', 'bn', 'bs', 'ca', 'cak', 'cs', 'cy', 'da', 'de', 'dsb', 'el', 'en-CA', 'en-GB',
  'en-US', 'es', 'et', 'eu', 'fa', 'fi', 'fr', 'fy-NL', 'ga-IE', 'gl', 'gu', 'he', 'hr', 'hsb', 'hu', 'ia', 'id',
  'is', 'it', 'ja', 'ka', 'kab', 'kk', 'km', 'kn', 'ko', 'lt', 'lv', 'mk', 'mn', 'ms', 'my', 'nb-NO', 'ne-NP', 'nl',
  'nn-NO', 'pa-IN', 'pl', 'pt-BR', 'pt-PT', 'ro', 'ru', 'si', 'sk', 'sl', 'sq', 'sr', 'sv-SE', 'ta', 'te', 'th',
  'tl', 'tr', 'trs', 'uk', 'ur', 'uz', 'vi', 'zh-CN', 'zh-TW',
] as const;

export const DEFAULT_LOCALE = 'en-US';

const canonical = new Map<string, string>(LOCALES.map((l) => [l.toLowerCase(), l]));
/** Short forms that map to a regional locale (`en` -> `en-US`, `sv` -> `sv-SE`). */
const aliases = new Map<string, string>([
  ['en', 'en-US'],
  ['pt', 'pt-PT'],
  ['zh', 'zh-CN'],
  ['sv', 'sv-SE'],
  ['nb', 'nb-NO'],
  ['nn', 'nn-NO'],
  ['ga', 'ga-IE'],
  ['fy', 'fy-NL'],
  ['pa', 'pa-IN'],
  ['ne', 'ne-NP'],
  ['es-es', 'es'],
]);

/** The canonical spelling of a supported locale code, or null. Case and `_` vs `-` do not matter. */
export function canonicalLocale(code: string | null | undefined): string | null {
  if (!code) return null;
  const key = code.trim().replace(/_/g, '-').toLowerCase();
  return canonical.get(key) ?? aliases.get(key) ?? null;
}

/** Picks the request language: a valid `lang` parameter, else the best Accept-Language match, else en-US. */
export function resolveRequestLocale(lang: unknown, acceptLanguage: string | undefined): string {
  if (typeof lang === 'string') {
    const chosen = canonicalLocale(lang);
    if (chosen) return chosen;
  }
  if (acceptLanguage) {
    const ranked = acceptLanguage
      .split(',')
      .map((part, index) => {
        const [tag, ...params] = part.trim().split(';');
        const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
        return { tag: tag.trim(), q: q ? Number.parseFloat(q.slice(2)) : 1, index };
      })
      .filter((r) => r.tag && r.tag !== '*' && Number.isFinite(r.q) && r.q > 0)
      .sort((a, b) => b.q - a.q || a.index - b.index);
    for (const { tag } of ranked) {
      const exact = canonicalLocale(tag);
      if (exact) return exact;
      const base = canonicalLocale(tag.split('-')[0]);
      if (base) return base;
    }
  }
  return DEFAULT_LOCALE;
}
