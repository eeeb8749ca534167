import type { RequestContext } from '../core/context.js';
import { isEmailAddress } from '../core/email.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { canonicalLocale } from '../core/i18n/locales.js';
import { mergeTranslations, parseTranslationsInput, type Translations } from '../core/i18n/translations.js';
import { fieldMessages } from '../core/messages.js';
import { lengthProblem } from '../core/text-limits.js';
import { Addon } from './addon.entity.js';
import { AddonType } from './catalogue.enums.js';
import type { CategoriesService } from './categories.service.js';
import { unknownTags } from './tags.service.js';
import { License } from './license.entity.js';
import type { UpdateAddonListingInput } from './listing.types.js';
import { Version } from './version.entity.js';
import { CATALOGUE_TEXT_LIMITS } from './text-limits.js';

export const MAX_TAGS = 10;
export const MAX_CATEGORIES_PER_APP = 2;

/**
 * Where contributions may be collected (the original's list of hosts, each exact: `patreon.com`
 * without `www.` is refused, as there); GitHub only for its sponsors pages.
 */
export const CONTRIBUTION_DOMAINS = [
  'buymeacoffee.com',
  'www.buymeacoffee.com',
  'donate.mozilla.org',
  'flattr.com',
  'github.com',
  'ko-fi.com',
  'liberapay.com',
  'www.micropayment.de',
  'opencollective.com',
  'www.patreon.com',
  'www.paypal.com',
  'paypal.me',
] as const;

type TextField =
  | 'name'
  | 'summary'
  | 'description'
  | 'developerComments'
  | 'homepage'
  | 'supportUrl'
  | 'supportEmail'
  | 'eula'
  | 'privacyPolicy';

/** Each translated text field: its API name, its length limit, and what else its texts must be. */
const TEXT_FIELDS: Record<TextField, { api: string; limit: number; kind?: 'letters' | 'url' | 'email' }> = {
  name: { api: 'name', limit: CATALOGUE_TEXT_LIMITS.addonName, kind: 'letters' },
  summary: { api: 'summary', limit: CATALOGUE_TEXT_LIMITS.addonSummary, kind: 'letters' },
  description: { api: 'description', limit: CATALOGUE_TEXT_LIMITS.addonDescription },
  developerComments: { api: 'developer_comments', limit: CATALOGUE_TEXT_LIMITS.developerComments },
  homepage: { api: 'homepage', limit: CATALOGUE_TEXT_LIMITS.addonHomepage, kind: 'url' },
  supportUrl: { api: 'support_url', limit: CATALOGUE_TEXT_LIMITS.supportUrl, kind: 'url' },
  supportEmail: { api: 'support_email', limit: CATALOGUE_TEXT_LIMITS.supportEmail, kind: 'email' },
  eula: { api: 'eula', limit: CATALOGUE_TEXT_LIMITS.addonEula },
  privacyPolicy: { api: 'privacy_policy', limit: CATALOGUE_TEXT_LIMITS.addonPrivacyPolicy },
};
/** Fields a listing cannot go without, in its default locale. */
const REQUIRED: readonly TextField[] = ['name', 'summary'];
const THEME_TYPES: readonly number[] = [AddonType.THEME, AddonType.STATICTHEME];

/** Django's URL test as the original applies it to homepages: http(s) and a host with a dot (or localhost, an IP). */
export function isWebUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    if (!['http:', 'https:'].includes(url.protocol)) return false;
    const host = url.hostname;
    return host === 'localhost' || /^\[[0-9a-f:.]+\]$/i.test(host) || /^[^.]+(\.[^.]+)+$/.test(host);
  } catch {
    return false;
  }
}

/** A link of the listing: a web URL, and not one of the service's own pages. */
function linkProblem(value: string, baseUrl: string): string | null {
  if (!isWebUrl(value)) return fieldMessages.url;
  const site = new URL(baseUrl);
  const host = new URL(value).hostname;
  if (host === site.hostname || host.endsWith(`.${site.hostname}`)) {
    return `This field can only be used to link to external websites. URLs on ${site.origin} are not allowed.`;
  }
  return null;
}

/** The contributions link's problems, all of them (the original lists the host's and the scheme's together). */
export function contributionProblems(value: string): string[] {
  let host: string | null = null;
  let scheme = '';
  let path = '';
  try {
    const url = new URL(value);
    host = url.hostname;
    scheme = url.protocol;
    path = url.pathname;
  } catch {
    // Not a URL: neither an allowed host nor https.
  }
  const problems: string[] = [];
  if (!host || !(CONTRIBUTION_DOMAINS as readonly string[]).includes(host)) {
    problems.push(`URL domain must be one of [${CONTRIBUTION_DOMAINS.join(', ')}].`);
  } else if (host === 'github.com' && !path.startsWith('/sponsors/')) {
    problems.push('URL path for GitHub Sponsors must contain /sponsors/.');
  }
  if (scheme !== 'https:') problems.push('URLs must start with https://.');
  return problems;
}

/** An add-on slug's problem (length first), or null. */
export function slugProblem(slug: string): string | null {
  const tooLong = lengthProblem(slug, CATALOGUE_TEXT_LIMITS.addonSlug);
  if (tooLong) return tooLong;
  if (!/^[\p{L}\p{N}_~-]+$/u.test(slug) || !/[\p{L}\p{N}]/u.test(slug)) {
    return 'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.';
  }
  if (/^\d+$/.test(slug)) return 'This slug cannot be used. Please choose another.';
  return null;
}

/**
 * Applies a listing edit to `addon` (nothing is flushed): every field given, each checked as the
 * original checks it (a text's length before anything else reads it). Returns the problems found;
 * the caller discards the changes when there are any.
 */
export async function applyListingEdit(
  ctx: RequestContext,
  addon: Addon,
  input: UpdateAddonListingInput,
  categories: CategoriesService,
): Promise<FieldErrorCollector> {
  const problems = new FieldErrorCollector();
  const given = (Object.keys(TEXT_FIELDS) as TextField[]).filter((field) => input[field] !== undefined);
  const isTheme = THEME_TYPES.includes(addon.type);
  // Loaded on demand (lazy columns): the texts given are merged into them.
  if (given.includes('eula') || given.includes('privacyPolicy')) {
    await ctx.em.populate(addon, ['eula', 'privacyPolicy'], { refresh: true });
  }
  for (const field of given) {
    const { api, limit, kind } = TEXT_FIELDS[field];
    if ((field === 'eula' || field === 'privacyPolicy') && isTheme) {
      problems.add(api, 'Themes have no licence agreement or privacy policy.');
      continue;
    }
    try {
      const merged = mergeTranslations(addon[field], parseTranslationsInput(api, input[field], ctx.locale));
      for (const text of Object.values(merged ?? {})) {
        // The length first: a text over the limit is not parsed as a URL or an address.
        if (problems.check(api, lengthProblem(text, limit))) continue;
        if (kind === 'letters' && !/[\p{L}\p{N}]/u.test(text)) {
          problems.add(api, 'Ensure this field contains at least one letter or number character.');
        } else if (kind === 'url') problems.check(api, linkProblem(text, ctx.request.baseUrl));
        else if (kind === 'email' && !isEmailAddress(text)) problems.add(api, fieldMessages.email);
      }
      addon[field] = merged;
    } catch (error) {
      problems.absorb(error);
    }
  }

  let localeChanged = false;
  if (input.defaultLocale !== undefined && input.defaultLocale !== null) {
    const locale = canonicalLocale(input.defaultLocale);
    if (!locale) problems.add('default_locale', fieldMessages.choice(input.defaultLocale));
    else if (locale !== addon.defaultLocale) [addon.defaultLocale, localeChanged] = [locale, true];
  }
  // Each text field given has its default locale's text; so do the required ones when it changes.
  for (const field of new Set([...given, ...(localeChanged ? REQUIRED : [])])) {
    const { api } = TEXT_FIELDS[field];
    const value: Translations | null = addon[field];
    if (problems.has(api) || value?.[addon.defaultLocale]) continue;
    if (REQUIRED.includes(field)) {
      problems.add(api, `A value in the default locale of "${addon.defaultLocale}" is required.`);
    } else if (value) {
      problems.add(
        api,
        `A value in the default locale of "${addon.defaultLocale}" is required if other translations are set.`,
      );
    }
  }

  if (input.slug !== undefined && input.slug !== null) {
    const slug = input.slug.trim();
    if (!problems.check('slug', slugProblem(slug)) && slug !== addon.slug) {
      if (await ctx.em.count(Addon, { slug, id: { $ne: addon.id } })) {
        problems.add('slug', 'addon with this slug already exists.');
      } else addon.slug = slug;
    }
  }

  if (input.contributionsUrl !== undefined) {
    const url = input.contributionsUrl?.trim() || null;
    if (!problems.check('contributions_url', lengthProblem(url, CATALOGUE_TEXT_LIMITS.contributionsUrl)) && url) {
      problems.addAll('contributions_url', contributionProblems(url));
    }
    addon.contributionsUrl = url;
  }
  if (input.requiresPayment !== undefined && input.requiresPayment !== null)
    addon.requiresPayment = input.requiresPayment;
  if (input.isExperimental !== undefined && input.isExperimental !== null) addon.isExperimental = input.isExperimental;

  if (input.tags) {
    const tags = [...new Set(input.tags.map((tag) => tag.trim().toLowerCase()).filter(Boolean))];
    if (tags.length > MAX_TAGS) problems.add('tags', `You can have a maximum of ${MAX_TAGS} tags.`);
    else {
      // Each one of the tag list (the original's choices), once its length is known to fit.
      const fitting = tags.filter((tag) => !problems.check('tags', lengthProblem(tag, CATALOGUE_TEXT_LIMITS.tag)));
      for (const tag of await unknownTags(ctx.em, fitting)) problems.add('tags', fieldMessages.choice(tag));
    }
    addon.tags = tags;
  }

  if (input.categories) await applyCategories(ctx, addon, input.categories, categories, problems);
  if (input.license) await applyLicense(ctx, addon, input.license, problems);
  return problems;
}

async function applyCategories(
  ctx: RequestContext,
  addon: Addon,
  refs: NonNullable<UpdateAddonListingInput['categories']>,
  categories: CategoriesService,
  problems: FieldErrorCollector,
) {
  const ids: number[] = [];
  const perApp = new Map<number, string[]>();
  for (const ref of refs) {
    const category = await categories.find(ctx.em, ref.application, addon.type, ref.slug);
    if (!category) {
      problems.add('categories', 'Invalid category name.');
      continue;
    }
    const slugs = perApp.get(ref.application) ?? [];
    if (!slugs.includes(ref.slug)) slugs.push(ref.slug);
    perApp.set(ref.application, slugs);
    if (!ids.includes(category.id)) ids.push(category.id);
  }
  const lists = [...perApp.values()];
  if (lists.some((slugs) => slugs.length > MAX_CATEGORIES_PER_APP)) {
    problems.add('categories', `Maximum number of categories per application (${MAX_CATEGORIES_PER_APP}) exceeded`);
  } else if (lists.some((slugs) => slugs.length > 1 && slugs.includes('other'))) {
    problems.add('categories', 'The "other" category cannot be combined with another category');
  }
  addon.categoryIds = ids;
}

async function applyLicense(
  ctx: RequestContext,
  addon: Addon,
  input: NonNullable<UpdateAddonListingInput['license']>,
  problems: FieldErrorCollector,
) {
  if (!addon.currentVersion) return problems.add('license', 'The add-on has no current version to license.');
  const version = await ctx.em.findOneOrFail(Version, addon.currentVersion.id);
  if (input.builtin) {
    const license = await ctx.em.findOne(License, { builtin: input.builtin });
    if (!license) return problems.add('license', 'Invalid licence.');
    version.license = license;
    return;
  }
  const name = parseTranslationsInput('license', input.name, ctx.locale);
  const text = parseTranslationsInput('license', input.text, ctx.locale);
  const clean = (t: Record<string, string | null> | null) => mergeTranslations({}, t);
  if (!clean(name) || !clean(text)) return problems.add('license', 'A custom licence needs a name and a text.');
  const tooLong =
    Object.values(clean(name)!)
      .map((t) => lengthProblem(t, CATALOGUE_TEXT_LIMITS.licenseName))
      .find(Boolean) ??
    Object.values(clean(text)!)
      .map((t) => lengthProblem(t, CATALOGUE_TEXT_LIMITS.licenseText))
      .find(Boolean);
  if (tooLong) return problems.add('license', tooLong);
  version.license = ctx.em.create(License, { builtin: 0, name: clean(name), text: clean(text) });
}
