import { errors } from '../../src/core/errors.js';
import { fieldMessages } from '../../src/core/messages.js';
import { gate, type ApiVersion } from '../gates.js';
import { drfBoolean, jsonObject } from './fields.js';

/**
 * JSON bodies of the v3/v4 collection endpoints as GraphQL input. A key that is absent stays
 * absent (the service tells "not given" from null); values are coerced the way the original's
 * serializer fields accept them, with their messages for what they refuse.
 */
function boolean(field: string, value: unknown): boolean | null {
  const parsed = drfBoolean(value);
  if (parsed === undefined) throw errors.field(field, fieldMessages.boolean);
  return parsed;
}

function text(field: string, value: unknown): string | null {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw errors.field(field, fieldMessages.string);
}

/** A translated field: an object of locales, or (`l10n_flat_input_output`) one string for the current language. */
function translated(field: string, value: unknown, flat: boolean): unknown {
  if (value === null || (flat && typeof value === 'string')) return value;
  if (typeof value === 'object' && !Array.isArray(value)) return value;
  throw errors.field(field, 'You must provide an object of {lang-code:value}.');
}

/** `name`, `description`, `slug`, `public`, `default_locale`; other keys are ignored. */
export function collectionInputFromBody(body: unknown, version: ApiVersion): Record<string, unknown> {
  const flat = gate(version, 'l10n_flat_input_output');
  const data = jsonObject(body);
  const input: Record<string, unknown> = {};
  if ('name' in data) input.name = translated('name', data.name, flat);
  if ('description' in data) input.description = translated('description', data.description, flat);
  if ('slug' in data) input.slug = text('slug', data.slug);
  if ('public' in data) input.public = boolean('public', data.public);
  if ('default_locale' in data) input.defaultLocale = text('default_locale', data.default_locale);
  return input;
}

/** `addon` (id or slug) and `notes` of a collection item; absent ones are left out. */
export function itemInputFromBody(body: unknown, withAddon: boolean, version: ApiVersion): Record<string, unknown> {
  const data = jsonObject(body);
  const input: Record<string, unknown> = {};
  if (withAddon && 'addon' in data) {
    input.addon = typeof data.addon === 'string' || data.addon === null ? data.addon : JSON.stringify(data.addon);
  }
  if ('notes' in data) input.notes = translated('notes', data.notes, gate(version, 'l10n_flat_input_output'));
  return input;
}
