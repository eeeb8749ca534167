import type { Translations } from '../../core/i18n/translations.js';
import { AddonStatus, AddonType, App } from '../catalogue.enums.js';
import { TIME_END, TIME_START, type AddonBatch, type AddonRow, type IdCursor } from './model.js';
import { popularity } from './popularity.js';
import { Rng, Stream, fmix32, hash32 } from './prng.js';
import type { FingerprintSet, SlugAllocator } from './unique.js';
import { slugify } from './unique.js';
import { pickAuthors, type UserRange } from './users.js';
import { LEGACY_UNTIL, addVersions, type Plan } from './versions.js';
import { toCyrillic, type Vocabulary } from './vocabulary.js';
import { LANGUAGES } from './words.js';

/** What the generator reads from the database once: seeded categories, built-in licences, the tag list. */
export interface SeedReference {
  /** Category ids by `application:type`: the regular ones, and the catch-all "Other". */
  categories: ReadonlyMap<string, { regular: number[]; misc: number | null }>;
  /** Licence ids by built-in number. */
  licences: ReadonlyMap<number, number>;
  /** The tag list (`tags`), in id order: the first are the most used. */
  tags: readonly string[];
}

export interface GeneratorOptions {
  seed: number;
  /** Add-ons in this run (authors are spread over the run's users by position). */
  total: number;
  users: UserRange;
  reference: SeedReference;
  /** Next ids; advanced as rows are made. */
  ids: IdCursor;
  slugs: SlugAllocator;
  guids: FingerprintSet;
  vocabulary: Vocabulary;
}

// prettier-ignore
const TYPES = [[AddonType.EXTENSION, 600], [AddonType.STATICTHEME, 300], [AddonType.DICTIONARY, 30],
  [AddonType.LANGUAGE, 30], [AddonType.SEARCH, 36], [AddonType.PERSONA, 2], [AddonType.THEME, 2]] as const;
// prettier-ignore
const PLANS = [['public', 900], ['unlisted', 30], ['nominated', 25], ['incomplete', 15], ['disabled', 15],
  ['deleted', 15]] as const;
const STATUS: Record<Plan, AddonStatus> = {
  public: AddonStatus.PUBLIC,
  unlisted: AddonStatus.INCOMPLETE,
  nominated: AddonStatus.NOMINATED,
  incomplete: AddonStatus.INCOMPLETE,
  disabled: AddonStatus.DISABLED,
  deleted: AddonStatus.DELETED,
};
// prettier-ignore
const DEFAULT_LOCALES = [['en-US', 850], ['de', 40], ['fr', 35], ['es', 20], ['ja', 20], ['pt-BR', 15],
  ['ru', 20]] as const;
const OTHER_LOCALES = ['de', 'fr', 'es', 'ja', 'pt-BR', 'ru', 'it', 'pl', 'nl', 'zh-CN'];

/** Makes add-ons, one at a time, each from (seed, id) alone plus its position for author spreading. */
export class CatalogueGenerator {
  constructor(private readonly options: GeneratorOptions) {}

  /** Appends the `index`-th add-on of the run and every row that belongs to it to `batch`. */
  addAddon(batch: AddonBatch, index: number): void {
    const { seed, ids, vocabulary } = this.options;
    const id = ids.addons++;
    const rng = Rng.for(seed, Stream.ADDON, id);
    const type = rng.weighted(TYPES);
    const plan = rng.weighted(PLANS);
    const locale = rng.weighted(DEFAULT_LOCALES);
    const created = TIME_START + Math.floor((TIME_END - TIME_START) * Math.pow(rng.next(), 0.7));
    const extension = type === AddonType.EXTENSION;
    const legacy = type === AddonType.THEME || (extension && created < LEGACY_UNTIL && rng.chance(0.6));
    const apps = applications(rng, type, legacy);
    const androidOnly = !apps.includes(App.BROWSER);

    const locales = [locale, ...(rng.chance(0.2) ? rng.sample(without(OTHER_LOCALES, locale), rng.int(1, 3)) : [])];
    const name = translate(locales, (l) => localised(l, addonName(rng, type, vocabulary)));
    const summary = translate(locales, (l) => localised(l, vocabulary.summary(rng, rng.int(8, 20))));
    const hasDescription = rng.chance(extension ? 0.95 : type === AddonType.STATICTHEME ? 0.5 : 0.7);
    const description = hasDescription
      ? translate(locales, (l) => localised(l, vocabulary.description(rng, rng.int(30, 120))))
      : null;
    const slug = this.options.slugs.allocate(slugify(name[locale]), id);

    const versions = addVersions(
      rng,
      { addonId: id, type, plan, slug, locale, created, apps, legacy, androidOnly },
      ids,
      batch,
      this.options.reference.licences,
      vocabulary,
    );
    const stats = popularity(rng, plan === 'unlisted');
    const isPublic = plan === 'public';
    const compatApps = versions.compat.map((c) => c.application);
    const promotedApps = compatApps.filter((a) => a === App.BROWSER || a === App.ANDROID);
    const promoted = isPublic && promotedApps.length > 0 && rng.chance(stats.average_daily_users >= 100 ? 0.2 : 0.006);
    const word = () => vocabulary.word(rng, 0.3);

    const addon: AddonRow = {
      id,
      guid: this.guid(rng, type, slug, id),
      slug,
      type,
      status: STATUS[plan],
      disabled_by_user: rng.chance(isPublic ? 0.03 : 0.01),
      default_locale: locale,
      name,
      summary,
      description,
      developer_comments: rng.chance(0.05) ? { [locale]: vocabulary.summary(rng, rng.int(8, 30)) } : null,
      homepage: rng.chance(0.35) ? { [locale]: `https://${word()}.example.com/` } : null,
      support_url: rng.chance(0.2) ? { [locale]: `https://${word()}.example.org/support` } : null,
      support_email: rng.chance(0.1) ? { [locale]: `support@${word()}.example.com` } : null,
      privacy_policy: extension && rng.chance(0.05) ? { [locale]: vocabulary.description(rng, 40) } : null,
      contributions_url: rng.chance(0.05) ? `https://donate.example.com/${word()}` : null,
      requires_payment: extension && rng.chance(0.01),
      is_experimental: extension && rng.chance(0.03),
      public_stats: rng.chance(0.9),
      icon_type: extension && rng.chance(0.75) ? 'image/png' : null,
      icon_hash: null,
      ...stats,
      current_version_id: versions.current?.id ?? null,
      promoted_category: promoted ? rng.int(1, 6) : null,
      target_locale: null,
      promoted_apps: promoted ? promotedApps : [],
      tags: tags(rng, type, this.options.reference.tags),
      category_ids: this.categories(rng, type, apps),
      compat_apps: compatApps,
      compat_min: versions.compat.map((c) => c.min_int),
      compat_max: versions.compat.map((c) => c.max_int),
      platforms: versions.platforms,
      colors: type === AddonType.STATICTHEME ? colors(rng) : null,
      last_updated: versions.current?.reviewed ?? null,
      created,
      modified: versions.modified,
    };
    if (addon.icon_type) addon.icon_hash = rng.hex(4);
    batch.addons.push(addon);
    batch.authors.push(...pickAuthors(rng, id, index, this.options.total, this.options.users, ids));
    this.previews(rng, batch, addon);
    if (isPublic && (extension || type === AddonType.STATICTHEME)) this.featured(rng, batch, addon);
  }

  /** `{uuid}` (id-derived first group, so unique per run) or `name@domain`, unused so far. */
  private guid(rng: Rng, type: AddonType, slug: string, id: number): string | null {
    if (type === AddonType.PERSONA) return null;
    const domain =
      type === AddonType.DICTIONARY
        ? 'dictionaries.example.org'
        : type === AddonType.LANGUAGE
          ? 'langpacks.example.org'
          : type === AddonType.SEARCH
            ? 'search.example.org'
            : 'example.com';
    let guid = type === AddonType.EXTENSION && rng.chance(0.4) ? `${slug}@${domain}` : null;
    if (type !== AddonType.EXTENSION && type !== AddonType.STATICTHEME) guid = `${slug}@${domain}`;
    if (guid && this.options.guids.add(guid)) return guid;
    const first = fmix32(id ^ hash32(this.options.seed, 11));
    for (;;) {
      const hex = first.toString(16).padStart(8, '0') + rng.hex(12);
      const variant = '89ab'[rng.int(0, 3)];
      guid = `{${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}}`;
      if (this.options.guids.add(guid)) return guid;
    }
  }

  private categories(rng: Rng, type: AddonType, apps: App[]): number[] {
    const chosen = new Set<number>();
    for (const app of apps) {
      const entry = this.options.reference.categories.get(`${app}:${type}`);
      if (!entry) continue;
      const main = app === apps[0];
      if (!main && !rng.chance(0.8)) continue;
      if (entry.misc !== null && (entry.regular.length === 0 || rng.chance(0.05))) chosen.add(entry.misc);
      else for (const c of rng.sample(entry.regular, main && rng.chance(0.4) ? 2 : 1)) chosen.add(c);
    }
    return [...chosen].sort((a, b) => a - b);
  }

  private previews(rng: Rng, batch: AddonBatch, addon: AddonRow): void {
    const { type } = addon;
    let count = 0;
    if (type === AddonType.EXTENSION) count = rng.int(0, 3);
    else if (type === AddonType.STATICTHEME) count = rng.chance(0.9) ? 1 : rng.int(2, 3);
    else if (type === AddonType.THEME || type === AddonType.PERSONA) count = rng.int(0, 1);
    for (let position = 0; position < count; position++) {
      const art = type !== AddonType.EXTENSION;
      const [w, h] = art ? [720, 92] : rng.pick(SCREENSHOT_SIZES);
      batch.previews.push({
        id: this.options.ids.previews++,
        addon_id: addon.id,
        position,
        caption: rng.chance(0.3)
          ? { [addon.default_locale]: this.options.vocabulary.sentence(rng, rng.int(3, 8)) }
          : null,
        image_size: [w, h],
        thumbnail_size: art ? [w, h] : [533, Math.round((533 * h) / w)],
        image_format: rng.chance(0.85) ? 'png' : 'jpg',
        modified: addon.modified,
      });
    }
  }

  /** A few hundred per 500k: the popular ones much more likely. */
  private featured(rng: Rng, batch: AddonBatch, addon: AddonRow): void {
    if (!rng.chance(addon.average_daily_users >= 1000 ? 0.12 : 0.0003)) return;
    const apps = addon.compat_apps.filter((a) => a === App.BROWSER || a === App.ANDROID);
    const featuredApps = apps.length > 1 && rng.chance(0.6) ? apps : apps.slice(0, 1);
    for (const application of featuredApps) {
      batch.featured.push({
        id: this.options.ids.featured_addons++,
        addon_id: addon.id,
        application,
        locale: rng.chance(0.8) ? null : rng.pick(['en-US', 'de', 'fr', 'es', 'ja', 'ru']),
      });
    }
  }
}

const SCREENSHOT_SIZES = [
  [1280, 800],
  [1000, 750],
  [700, 525],
  [1920, 1080],
] as const;

function applications(rng: Rng, type: AddonType, legacy: boolean): App[] {
  if (type !== AddonType.EXTENSION) {
    const apps: App[] = [App.BROWSER];
    if (type === AddonType.DICTIONARY && rng.chance(0.05)) apps.push(App.MAILCLIENT);
    if (type === AddonType.SEARCH && rng.chance(0.1)) apps.push(App.ANDROID);
    return apps;
  }
  if (!legacy && rng.chance(0.015)) return [App.ANDROID];
  const apps: App[] = [App.BROWSER];
  if (!legacy && rng.chance(0.2)) apps.push(App.ANDROID);
  if (rng.chance(0.01)) apps.push(App.MAILCLIENT);
  if (rng.chance(0.005)) apps.push(App.SUITE);
  return apps;
}

function addonName(rng: Rng, type: AddonType, vocabulary: Vocabulary): string {
  const words = rng.weighted([
    [1, 25],
    [2, 40],
    [3, 25],
    [4, 10],
  ] as const);
  switch (type) {
    case AddonType.DICTIONARY:
      return rng.chance(0.5) ? `${rng.pick(LANGUAGES)} Dictionary` : `${rng.pick(LANGUAGES)} Spell Checker`;
    case AddonType.LANGUAGE:
      return `${rng.pick(LANGUAGES)} Language Pack`;
    case AddonType.SEARCH:
      return `${vocabulary.title(rng, Math.min(words, 2))} Search`;
    default:
      return vocabulary.title(rng, words);
  }
}

/** Russian texts in Cyrillic; the other locales keep the (pseudo-)Latin text. */
const localised = (locale: string, text: string) => (locale === 'ru' ? toCyrillic(text) : text);

function translate(locales: string[], make: (locale: string) => string): Translations {
  const out: Translations = {};
  for (const locale of locales) out[locale] = make(locale);
  return out;
}

const without = <T>(items: readonly T[], item: T) => items.filter((i) => i !== item);

function tags(rng: Rng, type: AddonType, list: readonly string[]): string[] {
  let count = 0;
  if (type === AddonType.EXTENSION) count = rng.weighted(TAG_COUNTS);
  else if (type === AddonType.STATICTHEME && rng.chance(0.1)) count = 1;
  count = Math.min(count, list.length);
  const chosen = new Set<string>();
  // Skewed: the first tags of the list are the most used.
  while (chosen.size < count) chosen.add(list[Math.floor(list.length * Math.pow(rng.next(), 1.5))]);
  return [...chosen].sort();
}

const TAG_COUNTS = [
  [0, 35],
  [1, 25],
  [2, 20],
  [3, 12],
  [4, 8],
] as const;

/** 2–5 dominant colours with ratios summing to about 1, largest first. */
function colors(rng: Rng): AddonRow['colors'] {
  const weights = Array.from({ length: rng.int(2, 5) }, () => rng.uniform(0.05, 1));
  const total = weights.reduce((a, b) => a + b, 0);
  return weights
    .sort((a, b) => b - a)
    .map((w) => ({
      h: rng.int(0, 360),
      s: rng.int(0, 100),
      l: rng.int(0, 100),
      ratio: Math.round((w / total) * 1000) / 1000,
    }));
}
