import type { EntityManager } from '@mikro-orm/postgresql';
import { Permission } from '../access/permissions.js';
import type { Addon } from '../catalogue/addon.entity.js';
import { authorRole } from '../catalogue/addon-access.js';
import {
  AddonStatus,
  AddonType,
  type App,
  CURRENT_APPS,
  appFromParam,
  versionInt,
} from '../catalogue/catalogue.enums.js';
import { builtinLicenseNumber, License, licenseSlug } from '../catalogue/license.entity.js';
import { ActivityAction } from '../catalogue/lifecycle/lifecycle.enums.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import { versionDisabling } from '../catalogue/lifecycle/version-disabling.js';
import { Version, VersionCompat } from '../catalogue/version.entity.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { mergeTranslations, parseTranslationsInput, type Translations } from '../core/i18n/translations.js';
import { fieldMessages } from '../core/messages.js';
import { lengthProblem } from '../core/text-limits.js';
import { selectRows } from '../db/rows.js';
import { CATALOGUE_TEXT_LIMITS } from '../catalogue/text-limits.js';

/**
 * The developer-writable fields of a version beyond its release notes and source (v5's version
 * create and edit): notes for reviewers, disabling, licence (built-in or custom), compatibility.
 * Each is undefined when not sent (unchanged). Checked in full first (`checkVersionFields`, no
 * writes: a refused edit changes nothing), then written in one transaction (`applyVersionFields`).
 */
export interface VersionFieldsInput {
  approvalNotes?: string | null;
  isDisabled?: boolean | null;
  /** A built-in licence's slug. */
  license?: string | null;
  /** `{name, text}`, each translated (an object of locales or one string). */
  customLicense?: unknown;
  compatibility?: readonly CompatibilityRangeInput[] | null;
}

/** One application's range; the application by its name (`browser`, `android`). */
export interface CompatibilityRangeInput {
  application: string;
  min?: string | null;
  max?: string | null;
}

export const versionEditMessages = {
  bothLicenses: 'Both `license` and `custom_license` cannot be provided together.',
  unknownLicense: (slug: string) => `License with slug=${slug} does not exist.`,
  wrongLicenseType: 'Wrong add-on type for this license.',
  customLicenseTheme: 'Custom licenses are not supported for themes.',
  notADictionary: (got: string) => `Invalid data. Expected a dictionary, but got ${got}.`,
  invalidCompat: 'Invalid value',
  invalidApp: 'Invalid app specified',
  unknownMax: 'Unknown max app version specified',
  unknownMin: 'Unknown min app version specified',
  noCustomCompat: 'This type of add-on does not allow custom compatibility.',
};

/** Add-on types whose versions take no compatibility from their developers. */
const NO_COMPAT_TYPES: readonly number[] = [AddonType.DICTIONARY, AddonType.SEARCH];

/** Defaults of a range given without a bound, as an upload without one in its manifest gets. */
const DEFAULT_MIN = '42.0';
const ANY = '*';

interface CheckedRange {
  application: App;
  min: string | null;
  max: string | null;
}

type CheckedLicense =
  | { kind: 'builtin'; license: License }
  | { kind: 'custom'; update: License | null; name: Translations; text: Translations };

/** What `applyVersionFields` writes: each undefined when unchanged. */
export interface CheckedVersionFields {
  approvalNotes?: string;
  isDisabled?: boolean;
  license?: CheckedLicense;
  compatibility?: CheckedRange[];
}

/**
 * The original's refusal of an add-on disabled by an administrator to its own authors (403 with
 * the add-on's disabled flags, as its add-on child endpoints answer); `Addons:Edit` passes.
 */
export async function refuseVendorDisabled(ctx: RequestContext, addon: Addon): Promise<void> {
  if (addon.status !== AddonStatus.DISABLED || ctx.viewer.can(Permission.ADDONS_EDIT)) return;
  if ((await authorRole(ctx, addon.id)) === null) return;
  throw errors.forbidden(undefined, { is_disabled_by_developer: addon.disabledByUser, is_disabled_by_vendor: true });
}

/** The version's release notes after the edit: merged per locale, each translation within its limit. */
export function checkedReleaseNotes(current: Translations | null, input: unknown, locale: string): Translations | null {
  const merged = mergeTranslations(current, parseTranslationsInput('release_notes', input, locale));
  for (const text of Object.values(merged ?? {})) {
    const tooLong = lengthProblem(text, CATALOGUE_TEXT_LIMITS.releaseNotes);
    if (tooLong) throw errors.field('release_notes', tooLong);
  }
  return merged && Object.keys(merged).length ? merged : null;
}

/**
 * Checks every field sent (all problems in one 400, DRF's field names and messages). `version` is
 * the version edited, null for a version being created (its licence is new, its ranges partial).
 */
export async function checkVersionFields(
  ctx: RequestContext,
  addon: Pick<Addon, 'type'>,
  version: Version | null,
  input: VersionFieldsInput,
): Promise<CheckedVersionFields> {
  const problems = new FieldErrorCollector();
  const checked: CheckedVersionFields = {};
  if (input.license !== undefined && input.customLicense !== undefined) {
    throw errors.field('non_field_errors', versionEditMessages.bothLicenses);
  }
  if (input.approvalNotes !== undefined) {
    const notes = input.approvalNotes ?? '';
    if (!problems.check('approval_notes', lengthProblem(notes, CATALOGUE_TEXT_LIMITS.approvalNotes))) {
      if (notes.includes('\0')) problems.add('approval_notes', fieldMessages.nullCharacters);
      else checked.approvalNotes = notes.trim();
    }
  }
  if (input.isDisabled !== undefined) {
    if (input.isDisabled === null) problems.add('is_disabled', fieldMessages.null);
    else checked.isDisabled = input.isDisabled;
  }
  const isTheme = addon.type === AddonType.STATICTHEME;
  if (input.license !== undefined) {
    const builtin = input.license === null ? 0 : builtinLicenseNumber(input.license);
    const license = builtin > 0 ? await ctx.em.findOne(License, { builtin }) : null;
    if (input.license === null) problems.add('license', fieldMessages.null);
    else if (!license) problems.add('license', versionEditMessages.unknownLicense(input.license));
    else if ((licenseSlug(license.builtin) ?? '').startsWith('cc-') !== isTheme) {
      problems.add('license', versionEditMessages.wrongLicenseType);
    } else checked.license = { kind: 'builtin', license };
  }
  if (input.customLicense !== undefined) {
    const custom = await checkCustomLicense(ctx, version, input.customLicense, isTheme, problems);
    if (custom) checked.license = custom;
  }
  if (input.compatibility !== undefined) {
    const ranges = await checkCompatibility(ctx.em, addon, input.compatibility, problems);
    if (ranges) checked.compatibility = ranges;
  }
  problems.throwIfAny();
  return checked;
}

async function checkCustomLicense(
  ctx: RequestContext,
  version: Version | null,
  input: unknown,
  isTheme: boolean,
  problems: FieldErrorCollector,
): Promise<CheckedLicense | null> {
  const field = 'custom_license';
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    const got =
      input === null ? 'null' : Array.isArray(input) ? 'list' : typeof input === 'string' ? 'str' : typeof input;
    return problems.add(field, input === null ? fieldMessages.null : versionEditMessages.notADictionary(got));
  }
  if (isTheme) return problems.add(field, versionEditMessages.customLicenseTheme);
  const current = version?.license ? await ctx.em.findOne(License, version.license.id, { populate: ['text'] }) : null;
  // A custom licence is edited in place (a partial edit); a built-in one is replaced by a new custom one.
  const update = current && current.builtin === 0 ? current : null;
  const { name: nameInput, text: textInput } = input as { name?: unknown; text?: unknown };
  const texts: Partial<Record<'name' | 'text', Translations | null>> = {};
  for (const [part, value, limit] of [
    ['name', nameInput, CATALOGUE_TEXT_LIMITS.licenseName],
    ['text', textInput, CATALOGUE_TEXT_LIMITS.licenseText],
  ] as const) {
    try {
      const merged =
        value === undefined
          ? (update?.[part] ?? null)
          : mergeTranslations(update?.[part] ?? {}, parseTranslationsInput(part, value, ctx.locale));
      const tooLong = Object.values(merged ?? {})
        .map((t) => lengthProblem(t, limit))
        .find(Boolean);
      if (tooLong) problems.add(field, `${part}: ${tooLong}`);
      else if (!merged) problems.add(field, `${part}: ${fieldMessages.required}`);
      else texts[part] = merged;
    } catch (error) {
      const messages = (error as { fields?: Record<string, string[]> }).fields?.[part];
      if (!messages) throw error;
      for (const message of messages) problems.add(field, `${part}: ${message}`);
    }
  }
  if (!texts.name || !texts.text) return null;
  return { kind: 'custom', update, name: texts.name, text: texts.text };
}

/**
 * The ranges sent: an object of applications (each `{min, max}`, either may be left out) or a list
 * of applications. A minimum must be a registered browser version without `*`, a maximum any
 * registered one of that application.
 */
async function checkCompatibility(
  em: EntityManager,
  addon: Pick<Addon, 'type'>,
  input: readonly CompatibilityRangeInput[] | null,
  problems: FieldErrorCollector,
): Promise<CheckedRange[] | null> {
  const field = 'compatibility';
  if (NO_COMPAT_TYPES.includes(addon.type)) return problems.add(field, versionEditMessages.noCustomCompat);
  if (!input || input.length === 0) return problems.add(field, versionEditMessages.invalidCompat);
  const ranges: CheckedRange[] = [];
  for (const range of input) {
    const application = /^[a-z]+$/.test(range.application) ? appFromParam(range.application, CURRENT_APPS) : null;
    if (application === null) return problems.add(field, versionEditMessages.invalidApp);
    const known = async (value: string, min: boolean) =>
      value.length <= 255 &&
      !(min && value.includes('*')) &&
      (
        await selectRows<{ id: number }>(em, 'select id from app_versions where application = ? and version = ?', [
          application,
          value,
        ])
      ).length > 0;
    if (range.max != null && !(await known(range.max, false)))
      return problems.add(field, versionEditMessages.unknownMax);
    if (range.min != null && !(await known(range.min, true)))
      return problems.add(field, versionEditMessages.unknownMin);
    const at = ranges.findIndex((r) => r.application === application);
    const checked = { application, min: range.min ?? null, max: range.max ?? null };
    if (at >= 0) ranges[at] = checked;
    else ranges.push(checked);
  }
  return ranges;
}

/**
 * Writes the checked fields of `versionId` in `tx`: notes for reviewers on the row; the licence
 * (a custom one edited in place or created); the ranges replacing the version's own (a bound left
 * out: the version's existing one when `keepBounds`, for a version just created from its manifest,
 * else the default, as the original); disabling through the lifecycle. Licence, compatibility and
 * disabling each go through the lifecycle's write path (audit entry, the add-on's derived columns
 * and status).
 */
export async function applyVersionFields(
  tx: EntityManager,
  lifecycle: AddonLifecycle,
  versionId: number,
  fields: CheckedVersionFields,
  actorId: number,
  options: { keepBounds: boolean },
): Promise<void> {
  const version = await tx.findOneOrFail(Version, versionId, { populate: ['addon'] });
  const addonId = version.addon.id;
  if (fields.approvalNotes !== undefined) version.approvalNotes = fields.approvalNotes;
  if (fields.license) {
    const checked = fields.license;
    if (checked.kind === 'builtin') version.license = checked.license;
    else if (checked.update)
      tx.assign(await tx.findOneOrFail(License, checked.update.id), { name: checked.name, text: checked.text });
    else version.license = tx.create(License, { builtin: 0, name: checked.name, text: checked.text, url: null });
    await tx.flush();
    await lifecycle.applyChangeIn(tx, addonId, {
      action: ActivityAction.VERSION_LICENSE_CHANGED,
      actorId,
      versionId,
      details: { license: version.license?.id ?? null, custom: checked.kind === 'custom' },
      derive: false,
    });
  }
  await tx.flush();
  if (fields.compatibility) await replaceCompatibility(tx, lifecycle, version, fields.compatibility, actorId, options);
  if (fields.isDisabled !== undefined) {
    const change = await versionDisabling(tx, version, fields.isDisabled, actorId);
    if (change) await lifecycle.applyChangeIn(tx, addonId, change);
  }
}

async function replaceCompatibility(
  tx: EntityManager,
  lifecycle: AddonLifecycle,
  version: Version,
  ranges: readonly CheckedRange[],
  actorId: number,
  options: { keepBounds: boolean },
): Promise<void> {
  const existing = await tx.find(VersionCompat, { version: version.id });
  const written: { application: number; min: string; max: string }[] = [];
  for (const row of existing) tx.remove(row);
  await tx.flush();
  for (const range of ranges) {
    const before = options.keepBounds ? existing.find((c) => c.application === range.application) : undefined;
    const min = range.min ?? before?.min ?? DEFAULT_MIN;
    const max = range.max ?? before?.max ?? ANY;
    tx.create(VersionCompat, {
      version,
      application: range.application,
      min,
      max,
      minInt: versionInt(min) ?? 0,
      maxInt: versionInt(max) ?? Number.MAX_SAFE_INTEGER,
    });
    written.push({ application: range.application, min, max });
  }
  await tx.flush();
  await lifecycle.applyChangeIn(tx, version.addon.id, {
    action: ActivityAction.VERSION_COMPATIBILITY_CHANGED,
    actorId,
    versionId: version.id,
    details: { version: version.version, ranges: written },
    derive: false,
  });
}
