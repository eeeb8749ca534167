import { AddonType } from '../../catalogue/catalogue.enums.js';
import { packageErrors } from './package.errors.js';

/** A parsed manifest.json: any JSON object. Readers below take what they need, type-checked. */
export type Manifest = Readonly<Record<string, unknown>>;

export interface AppCompatibility {
  strictMinVersion: string | null;
  strictMaxVersion: string | null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}

export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function integerOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function hasKey(manifest: Manifest, key: string): boolean {
  return Object.hasOwn(manifest, key);
}

/** Python truthiness, as the original tests `experiment_apis`: `{}` and `[]` declare nothing. */
function isDeclared(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

function stringEnd(text: string, quote: number): number {
  for (let i = quote + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

function commentEnd(text: string, start: number): number {
  if (text[start + 1] === '*') {
    const close = text.indexOf('*/', start + 2);
    return close === -1 ? text.length : close + 2;
  }
  let end = start + 2;
  while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
  return end;
}

/** Removes `//` and `/* *\/` comments outside strings; each becomes a space so tokens stay apart. */
export function stripJsonComments(text: string): string {
  const parts: string[] = [];
  let copyFrom = 0;
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      i = stringEnd(text, i);
    } else if (text[i] === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      parts.push(text.slice(copyFrom, i), ' ');
      i = commentEnd(text, i);
      copyFrom = i;
    } else {
      i++;
    }
  }
  parts.push(text.slice(copyFrom));
  return parts.join('');
}

/** UTF-8 (a BOM is dropped), comments allowed. Throws on invalid UTF-8 or JSON. */
export function parseJsonWithComments(data: Buffer): unknown {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  return JSON.parse(stripJsonComments(text));
}

export function parseManifest(data: Buffer): Manifest {
  let manifest: unknown;
  try {
    manifest = parseJsonWithComments(data);
  } catch {
    throw packageErrors.invalidManifest();
  }
  if (!isObject(manifest)) throw packageErrors.invalidManifest();
  return manifest;
}

/** `browser_specific_settings` wins whenever the key exists, even without a `gecko` block. */
function applicationSettings(manifest: Manifest): Record<string, unknown> {
  return objectOrEmpty(
    hasKey(manifest, 'browser_specific_settings') ? manifest.browser_specific_settings : manifest.applications,
  );
}

/** The declared add-on id; anything but a string (or nothing) is an invalid id. */
export function manifestGuid(manifest: Manifest): string | null {
  const id = objectOrEmpty(applicationSettings(manifest).gecko).id;
  if (id === undefined || id === null) return null;
  if (typeof id !== 'string') throw packageErrors.invalidGuid();
  return id;
}

function compatibility(block: Record<string, unknown>, fallback: AppCompatibility): AppCompatibility {
  return {
    strictMinVersion: stringOrNull(block.strict_min_version) ?? fallback.strictMinVersion,
    strictMaxVersion: stringOrNull(block.strict_max_version) ?? fallback.strictMaxVersion,
  };
}

/** `gecko` applies to the desktop browser; Android reads `gecko_android` first, then `gecko`. */
export function appCompatibility(manifest: Manifest): { firefox: AppCompatibility; android: AppCompatibility } {
  const settings = applicationSettings(manifest);
  const firefox = compatibility(objectOrEmpty(settings.gecko), { strictMinVersion: null, strictMaxVersion: null });
  return { firefox, android: compatibility(objectOrEmpty(settings.gecko_android), firefox) };
}

/**
 * The data an extension says it collects (`browser_specific_settings.gecko.data_collection_permissions`):
 * `required` and `optional` lists of categories.
 */
export function dataCollectionPermissions(manifest: Manifest): { required: string[]; optional: string[] } {
  const block = objectOrEmpty(objectOrEmpty(applicationSettings(manifest).gecko).data_collection_permissions);
  return { required: stringList(block.required), optional: stringList(block.optional) };
}

export function isExperiment(manifest: Manifest): boolean {
  return isDeclared(manifest.experiment_apis) || isDeclared(manifest.theme_experiment);
}

/** Keys that describe a package without giving it any behaviour. */
const DESCRIPTIVE_KEYS: ReadonlySet<string> = new Set([
  '$schema',
  'manifest_version',
  'name',
  'short_name',
  'description',
  'version',
  'version_name',
  'default_locale',
  'author',
  'developer',
  'homepage_url',
  'icons',
  'applications',
  'browser_specific_settings',
]);

/** A search provider override and nothing else: any other feature makes it an extension. */
function isSearchEngine(manifest: Manifest): boolean {
  const overrides = manifest.chrome_settings_overrides;
  if (!isObject(overrides) || !isObject(overrides.search_provider)) return false;
  if (Object.keys(overrides).length !== 1) return false;
  return Object.keys(manifest).every((key) => key === 'chrome_settings_overrides' || DESCRIPTIVE_KEYS.has(key));
}

/**
 * The locale a language pack (`langpack_id`) or a dictionary (the first key of `dictionaries`) is
 * for; null for other add-ons or a value that is no locale.
 */
export function targetLocale(manifest: Manifest): string | null {
  const id = hasKey(manifest, 'langpack_id')
    ? manifest.langpack_id
    : Object.keys(objectOrEmpty(manifest.dictionaries))[0];
  return typeof id === 'string' && /^[A-Za-z0-9-]{1,35}$/.test(id) ? id : null;
}

export function detectAddonType(manifest: Manifest): AddonType {
  if (hasKey(manifest, 'langpack_id')) return AddonType.LANGUAGE;
  if (hasKey(manifest, 'dictionaries')) return AddonType.DICTIONARY;
  const hasScripts = hasKey(manifest, 'background') || hasKey(manifest, 'content_scripts');
  if (hasKey(manifest, 'theme') && !hasScripts) return AddonType.STATICTHEME;
  if (isSearchEngine(manifest)) return AddonType.SEARCH;
  return AddonType.EXTENSION;
}

/** Message ids are case-insensitive; stored lower-cased. */
export type LocaleMessages = ReadonlyMap<string, string>;

/** `_locales/<locale>/messages.json` candidates: folders use `en_US`, manifests say either. */
export function localeMessagesPaths(locale: string): string[] {
  const spellings = new Set([locale, locale.replaceAll('-', '_'), locale.replaceAll('_', '-')]);
  return [...spellings].map((spelling) => `_locales/${spelling}/messages.json`);
}

/** Best effort: a broken messages file leaves names unresolved rather than refusing the package. */
export function parseLocaleMessages(data: Buffer): LocaleMessages {
  const messages = new Map<string, string>();
  let json: unknown;
  try {
    json = parseJsonWithComments(data);
  } catch {
    return messages;
  }
  for (const [id, entry] of Object.entries(objectOrEmpty(json))) {
    if (isObject(entry) && typeof entry.message === 'string') messages.set(id.toLowerCase(), entry.message);
  }
  return messages;
}

const MESSAGE_REFERENCE = /__MSG_([A-Za-z0-9@_]+?)__/g;

/** Replaces `__MSG_id__` references that the messages define; unknown ones stay visible. */
export function localize(text: string | null, messages: LocaleMessages): string | null {
  if (text === null) return null;
  return text.replace(MESSAGE_REFERENCE, (reference, id: string) => messages.get(id.toLowerCase()) ?? reference);
}
