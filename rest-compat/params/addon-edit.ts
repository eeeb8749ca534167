import Upload from 'graphql-upload/Upload.mjs';
import { errors, type FieldErrors } from '../../src/core/errors.js';
import { fieldMessages } from '../../src/core/messages.js';
import { drfBoolean, jsonObject } from './fields.js';

/**
 * v5 add-on bodies (`POST`/`PUT`/`PATCH /addons/addon/…`, `PATCH …/eula_policy/`) as the original's
 * serializer fields read them: types, nulls, blanks. The rules on the values (lengths first, links,
 * slugs, locales, categories) are the listing service's (`src/catalogue/listing-edit.ts`).
 */

/** Python's name of a JSON value's type, as DRF's "Expected a list of items but got type" says it. */
function pythonType(value: unknown): string {
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  return value && typeof value === 'object' ? 'dict' : 'NoneType';
}

/**
 * `categories`: a list of the browser's category slugs, or v4's `{"firefox": […]}` (other
 * applications' lists are ignored, as the original since it dropped Android's categories).
 * Null or absent: no categories given.
 */
export function categorySlugs(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  const list =
    value && typeof value === 'object' && !Array.isArray(value) ? (value as { firefox?: unknown }).firefox : value;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) {
    throw errors.field('categories', `Expected a list of items but got type "${pythonType(list)}".`);
  }
  if (list.some((slug) => typeof slug !== 'string')) throw errors.field('categories', 'Invalid category name.');
  return list as string[];
}

const TRANSLATED = {
  name: 'name',
  summary: 'summary',
  description: 'description',
  developer_comments: 'developerComments',
  homepage: 'homepage',
  support_url: 'supportUrl',
  support_email: 'supportEmail',
  eula: 'eula',
  privacy_policy: 'privacyPolicy',
} as const;
type TranslatedKey = keyof typeof TRANSLATED;

const BOOLEANS = { is_experimental: 'isExperimental', requires_payment: 'requiresPayment' } as const;

/** What a v5 add-on edit asks for: the listing input (with the developer's disabled flag), an icon. */
export interface AddonEdit {
  input: Record<string, unknown>;
  /** A new icon (a multipart file part). */
  icon: Upload | null;
}

/**
 * A translated field as v5 takes it: an object of locales (null removes one; a number is its text),
 * or null. A blank text is refused ("This field may not be blank."); removing is null's job.
 */
function translated(key: string, value: unknown, problems: FieldErrors): unknown {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    (problems[key] ??= []).push('You must provide an object of {lang-code:value}.');
    return undefined;
  }
  const texts: Record<string, unknown> = {};
  for (const [locale, text] of Object.entries(value as Record<string, unknown>)) {
    const asText = typeof text === 'number' ? String(text) : text;
    if (typeof asText === 'string' && !asText.trim()) {
      (problems[key] ??= []).push(fieldMessages.blank);
      return undefined;
    }
    texts[locale] = asText;
  }
  return texts;
}

/** A string field: numbers as their text; null is refused unless `nullable`; a blank is refused. */
function text(key: string, value: unknown, problems: FieldErrors, nullable: boolean): string | null | undefined {
  if (value === null) {
    if (!nullable) (problems[key] ??= []).push(fieldMessages.null);
    return nullable ? null : undefined;
  }
  const asText = typeof value === 'number' ? String(value) : value;
  if (typeof asText !== 'string') {
    (problems[key] ??= []).push(fieldMessages.string);
    return undefined;
  }
  if (!asText.trim()) {
    (problems[key] ??= []).push(fieldMessages.blank);
    return undefined;
  }
  return asText;
}

/**
 * The fields of `PATCH /addons/addon/<addon>/` (JSON, or multipart with `icon`): those listed in
 * `only` when given (the eula_policy route's). Unknown and read-only fields are ignored, as DRF does.
 */
export function parseAddonEdit(body: unknown, only?: readonly string[]): AddonEdit {
  const data = jsonObject(body);
  const has = (key: string) => key in data && (!only || only.includes(key));
  const problems: FieldErrors = {};
  const input: Record<string, unknown> = {};
  const edit: AddonEdit = { input, icon: null };

  for (const key of Object.keys(TRANSLATED) as TranslatedKey[]) {
    if (!has(key)) continue;
    const value = translated(key, data[key], problems);
    if (value !== undefined) input[TRANSLATED[key]] = value;
  }
  for (const [key, field] of Object.entries(BOOLEANS)) {
    if (!has(key)) continue;
    const value = drfBoolean(data[key]);
    if (value === null) (problems[key] ??= []).push(fieldMessages.null);
    else if (value === undefined) (problems[key] ??= []).push(fieldMessages.boolean);
    else input[field] = value;
  }
  if (has('is_disabled')) {
    const value = drfBoolean(data.is_disabled);
    if (value === null) (problems.is_disabled ??= []).push(fieldMessages.null);
    else if (value === undefined) (problems.is_disabled ??= []).push(fieldMessages.boolean);
    else input.isDisabled = value;
  }
  if (has('slug')) {
    const slug = text('slug', data.slug, problems, false);
    if (slug !== undefined) input.slug = slug;
  }
  if (has('contributions_url')) {
    const url = text('contributions_url', data.contributions_url, problems, true);
    if (url !== undefined) input.contributionsUrl = url;
  }
  if (has('default_locale')) {
    const value = data.default_locale;
    if (value === null) (problems.default_locale ??= []).push(fieldMessages.null);
    else if (typeof value !== 'string')
      (problems.default_locale ??= []).push(fieldMessages.choice(JSON.stringify(value)));
    else input.defaultLocale = value;
  }
  if (has('tags')) {
    const tags = data.tags;
    if (tags === null) (problems.tags ??= []).push(fieldMessages.null);
    else if (!Array.isArray(tags))
      (problems.tags ??= []).push(`Expected a list of items but got type "${pythonType(tags)}".`);
    else if (tags.some((tag) => typeof tag !== 'string')) (problems.tags ??= []).push(fieldMessages.string);
    else input.tags = tags;
  }
  if (has('categories')) {
    if (data.categories === null) (problems.categories ??= []).push(fieldMessages.null);
    else {
      try {
        input.categories = categorySlugs(data.categories)!.map((slug) => ({ application: 'BROWSER', slug }));
      } catch (error) {
        for (const [key, messages] of Object.entries((error as { fields?: FieldErrors }).fields ?? {})) {
          (problems[key] ??= []).push(...messages);
        }
      }
    }
  }
  if (has('icon')) {
    const icon = data.icon;
    if (icon instanceof Upload) edit.icon = icon;
    else if (icon === null || icon === '') input.clearIcon = true;
    else (problems.icon ??= []).push('The submitted data was not a file. Check the encoding type on the form.');
  }
  if (Object.keys(problems).length) throw errors.validation(problems);
  return edit;
}
