import type { EntityManager } from '@mikro-orm/postgresql';
import type { Addon } from '../catalogue/addon.entity.js';
import { App, Channel } from '../catalogue/catalogue.enums.js';
import { Category } from '../catalogue/category.entity.js';
import { builtinLicenseNumber, License } from '../catalogue/license.entity.js';
import { MAX_CATEGORIES_PER_APP as MAX_CATEGORIES } from '../catalogue/listing.service.js';
import { Version } from '../catalogue/version.entity.js';
import type { RequestContext } from '../core/context.js';
import type { AppError } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { mergeTranslations, parseTranslationsInput, type Translations } from '../core/i18n/translations.js';
import { lengthProblem } from '../core/text-limits.js';
import type { ParsedPackage } from './package/parse.js';
import { signingErrors } from './signing.errors.js';
import { CATALOGUE_TEXT_LIMITS } from '../catalogue/text-limits.js';

/** The listing a submission may carry (v5: translated fields as objects of locales). */
export interface SubmissionMetadata {
  name?: unknown;
  summary?: unknown;
  description?: unknown;
  /** Category slugs of the browser's application. */
  categories?: string[] | null;
  /** A built-in licence's slug (listed versions). */
  license?: string | null;
  /** A custom licence, checked (version-edit.ts): created with the version instead of `license`. */
  customLicense?: { name: Translations; text: Translations } | null;
}

/**
 * The listing after a v5 submission's metadata: texts (objects of locales), categories and a
 * licence. A listed version needs a name, a summary, categories and a licence (v5's messages).
 */
export async function submissionListing(
  ctx: RequestContext,
  addon: Addon | null,
  pkg: ParsedPackage,
  metadata: SubmissionMetadata,
  channel: Channel,
) {
  if (addon && channel === Channel.LISTED && addon.disabledByUser) throw signingErrors.invisibleAddon();
  const problems = new FieldErrorCollector();
  const texts: Partial<Record<'name' | 'summary' | 'description', Translations | null>> = {};
  const limits = {
    name: CATALOGUE_TEXT_LIMITS.addonName,
    summary: CATALOGUE_TEXT_LIMITS.addonSummary,
    description: CATALOGUE_TEXT_LIMITS.addonDescription,
  };
  for (const field of ['name', 'summary', 'description'] as const) {
    const value = metadata[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'object' || Array.isArray(value)) {
      problems.add(field, 'You must provide an object of {lang-code:value}.');
      continue;
    }
    try {
      const parsed = parseTranslationsInput(field, value, ctx.locale);
      const merged = mergeTranslations(addon?.[field] ?? null, parsed);
      const tooLong = Object.values(merged ?? {})
        .map((text) => lengthProblem(text, limits[field]))
        .find(Boolean);
      if (tooLong) problems.add(field, tooLong);
      else texts[field] = merged;
    } catch (error) {
      const appError = error as AppError;
      problems.addAll(field, appError.fields?.[field] ?? [appError.message]);
    }
  }
  let categoryIds: number[] | undefined;
  const type = addon?.type ?? pkg.type;
  if (metadata.categories) {
    categoryIds = [];
    for (const slug of metadata.categories) {
      const category = await ctx.em.findOne(Category, { application: App.BROWSER, type, slug });
      if (!category) problems.add('categories', `Invalid category name ${slug} for application firefox.`);
      else if (!categoryIds.includes(category.id)) categoryIds.push(category.id);
    }
    if (categoryIds.length > MAX_CATEGORIES) {
      problems.add('categories', `Maximum number of categories per application (${MAX_CATEGORIES}) exceeded`);
    }
  }
  let license: License | null = null;
  if (metadata.customLicense) {
    // Unmanaged: persisted with the version that references it, in the submission's transaction.
    license = Object.assign(new License(), { builtin: 0, ...metadata.customLicense });
  } else if (metadata.license) {
    const builtin = builtinLicenseNumber(metadata.license);
    license = builtin > 0 ? await ctx.em.findOne(License, { builtin }) : null;
    if (!license) problems.add('license', `License with slug=${metadata.license} does not exist.`);
  }
  if (channel === Channel.LISTED) {
    const required = 'This field is required for add-ons with listed versions.';
    const hasText = (t: Translations | null | undefined) => !!t && Object.values(t).some((v) => v?.trim());
    const name = 'name' in texts ? texts.name : (addon?.name ?? (pkg.name ? { x: pkg.name } : null));
    const summary =
      'summary' in texts ? texts.summary : (addon?.summary ?? (pkg.description ? { x: pkg.description } : null));
    if (!problems.has('name') && !hasText(name)) problems.add('name', required);
    if (!problems.has('summary') && !hasText(summary)) problems.add('summary', required);
    if (!problems.has('categories') && !(categoryIds ?? addon?.categoryIds ?? []).length)
      problems.add('categories', required);
    if (!license && !problems.has('license') && !(addon && (await hasListedLicense(ctx.em, addon)))) {
      problems.add('license', 'This field is required for listed versions.');
    }
  }
  problems.throwIfAny();
  const changes: Partial<Pick<Addon, 'name' | 'summary' | 'description' | 'categoryIds'>> = { ...texts };
  if (categoryIds) changes.categoryIds = categoryIds;
  return { addon: changes, license };
}

async function hasListedLicense(em: EntityManager, addon: Addon): Promise<boolean> {
  const previous = await em.findOne(
    Version,
    { addon, channel: Channel.LISTED, deleted: false },
    { orderBy: { id: 'desc' }, fields: ['license'] },
  );
  return !!previous?.license;
}
