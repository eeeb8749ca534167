import type { AppError } from '../errors.js';
import { canonicalLocale, resolveRequestLocale } from './locales.js';
import { localize, mergeTranslations, parseTranslationsInput } from './translations.js';

describe('localize (output)', () => {
  const value = { 'en-US': 'Hello', fr: 'Bonjour', de: '' };

  it('returns every non-empty translation without lang, null when there is none', () => {
    expect(localize(value, null)).toEqual({ 'en-US': 'Hello', fr: 'Bonjour' });
    expect(localize({}, null)).toBeNull();
    expect(localize(null, null)).toBeNull();
  });

  it('returns one string with lang, falling back to the default locale, else null', () => {
    expect(localize(value, 'fr')).toBe('Bonjour');
    expect(localize(value, 'de')).toBe('Hello');
    expect(localize({ fr: 'Bonjour' }, 'de', 'fr')).toBe('Bonjour');
    expect(localize({ fr: 'Bonjour' }, 'de', 'en-US')).toBeNull();
  });
});

describe('parseTranslationsInput', () => {
  it('stores a string for the current language, stripped', () => {
    expect(parseTranslationsInput('name', '  Hallo ', 'de')).toEqual({ de: 'Hallo' });
  });

  it('accepts objects with known locale codes, canonicalised, null/blank removing a locale', () => {
    expect(parseTranslationsInput('name', { EN_us: 'Hi', fr: ' ', 'pt-br': null }, 'en-US')).toEqual({
      'en-US': 'Hi',
      fr: null,
      'pt-BR': null,
    });
  });

  it('refuses unknown locale codes and other types with the original messages', () => {
    const message = (input: unknown) => {
      try {
        parseTranslationsInput('summary', input, 'en-US');
      } catch (error) {
        return (error as AppError).fields;
      }
      return undefined;
    };
    expect(message({ klingon: 'x' })).toEqual({ summary: ["The language code 'klingon' is invalid."] });
    expect(message(['x'])).toEqual({ summary: ['You must provide an object of {lang-code:value}.'] });
    expect(message({ fr: 3 })).toEqual({ summary: ['You must provide an object of {lang-code:value}.'] });
  });

  it('merges into stored translations', () => {
    expect(mergeTranslations({ 'en-US': 'A', fr: 'B' }, { fr: null, de: 'C' })).toEqual({ 'en-US': 'A', de: 'C' });
    expect(mergeTranslations({ fr: 'B' }, { fr: null })).toBeNull();
    expect(mergeTranslations({ fr: 'B' }, null)).toBeNull();
  });
});

describe('locales', () => {
  it('canonicalises codes and short forms', () => {
    expect(canonicalLocale('EN-us')).toBe('en-US');
    expect(canonicalLocale('pt_BR')).toBe('pt-BR');
    expect(canonicalLocale('en')).toBe('en-US');
    expect(canonicalLocale('xx')).toBeNull();
  });

  it('resolves the request language from lang, then Accept-Language, then en-US', () => {
    expect(resolveRequestLocale('fr', 'de')).toBe('fr');
    expect(resolveRequestLocale('xx', 'de-AT, fr;q=0.9')).toBe('de');
    expect(resolveRequestLocale(undefined, 'zz, pt-BR;q=0.2, ja;q=0.8')).toBe('ja');
    expect(resolveRequestLocale(undefined, 'fr;q=0, *')).toBe('en-US');
    expect(resolveRequestLocale(undefined, undefined)).toBe('en-US');
  });
});
