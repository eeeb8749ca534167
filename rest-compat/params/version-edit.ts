import { errors, type FieldErrors } from '../../src/core/errors.js';
import { fieldMessages } from '../../src/core/messages.js';
import { neutralAppName } from '../shapes/enums.js';
import { drfBoolean, jsonObject } from './fields.js';

/**
 * v5 version bodies (`POST …/versions/`, `PATCH …/versions/<id>/`, JSON or multipart) as the
 * original's serializer fields read them: types and nulls. The rules on the values (lengths,
 * licences, registered browser versions, which fields go together) are the version edit's
 * (`src/signing/version-edit.ts`). Unknown and read-only fields are ignored, as DRF does.
 */

/** Python's name of a JSON value's type, as DRF's "Expected a dictionary, but got …" says it. */
function pythonType(value: unknown): string {
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  return Array.isArray(value) ? 'list' : 'NoneType';
}

/** `release_notes`: an object of locales, or one string for the request's language (absent: unchanged). */
export function releaseNotesVariable(req: { body: unknown }): { releaseNotes?: unknown } {
  const notes = jsonObject(req.body).release_notes;
  if (notes === undefined) return {};
  if (notes !== null && typeof notes !== 'string' && (typeof notes !== 'object' || Array.isArray(notes))) {
    throw errors.field('release_notes', 'You must provide an object of {lang-code:value}.');
  }
  return { releaseNotes: notes };
}

/**
 * `compatibility`: `{"firefox": {"min": …, "max": …}, …}` or `["firefox", …]`, as ranges by
 * application (the contract's neutral names; unknown names go on for the service to refuse).
 */
function compatibilityRanges(value: unknown): { application: string; min?: string; max?: string }[] {
  const invalid = () => new Error('Invalid value');
  const entries: [unknown, unknown][] = Array.isArray(value)
    ? value.map((app) => [app, {}])
    : value && typeof value === 'object'
      ? Object.entries(value)
      : [];
  if (!entries.length) throw invalid();
  return entries.map(([app, range]) => {
    if (typeof app !== 'string' || !range || typeof range !== 'object' || Array.isArray(range)) throw invalid();
    const { min, max } = range as { min?: unknown; max?: unknown };
    if ((min !== undefined && typeof min !== 'string') || (max !== undefined && typeof max !== 'string')) {
      throw invalid();
    }
    return {
      application: neutralAppName(app, 'v5'),
      ...(min === undefined ? {} : { min }),
      ...(max === undefined ? {} : { max }),
    };
  });
}

/** The version fields sent (`VersionFieldsInputType`); each absent one stays absent (unchanged). */
export function versionFieldVariables(req: { body: unknown }): Record<string, unknown> {
  const data = jsonObject(req.body);
  const problems: FieldErrors = {};
  const fields: Record<string, unknown> = {};
  if ('approval_notes' in data) {
    const notes = data.approval_notes;
    if (notes !== null && typeof notes !== 'string' && typeof notes !== 'number') {
      (problems.approval_notes ??= []).push(fieldMessages.string);
    } else fields.approvalNotes = notes === null ? null : String(notes);
  }
  if ('is_disabled' in data) {
    const value = drfBoolean(data.is_disabled);
    if (value === null) (problems.is_disabled ??= []).push(fieldMessages.null);
    else if (value === undefined) (problems.is_disabled ??= []).push(fieldMessages.boolean);
    else fields.isDisabled = value;
  }
  if ('license' in data && 'custom_license' in data) {
    throw errors.field('non_field_errors', 'Both `license` and `custom_license` cannot be provided together.');
  }
  if ('license' in data) {
    const license = data.license;
    if (license !== null && typeof license !== 'string') {
      (problems.license ??= []).push('Incorrect type. Expected slug value.');
    } else fields.license = license;
  }
  if ('custom_license' in data) {
    const custom = data.custom_license;
    if (custom !== null && (typeof custom !== 'object' || Array.isArray(custom))) {
      (problems.custom_license ??= []).push(`Invalid data. Expected a dictionary, but got ${pythonType(custom)}.`);
    } else if (custom === null) fields.customLicense = null;
    else {
      const { name, text } = custom as { name?: unknown; text?: unknown };
      fields.customLicense = { ...(name === undefined ? {} : { name }), ...(text === undefined ? {} : { text }) };
    }
  }
  if ('compatibility' in data) {
    try {
      fields.compatibility = compatibilityRanges(data.compatibility);
    } catch (error) {
      (problems.compatibility ??= []).push((error as Error).message);
    }
  }
  if (Object.keys(problems).length) throw errors.validation(problems);
  return fields;
}
