import type { Translations } from '../../src/core/i18n/translations.js';
import type { RestAddonFieldsFragment } from '../generated/operations.js';
import { gql, type ShapeContext } from '../route.js';
import { restEnums } from './enums.js';
import { shapeVersion, type VersionData } from './versions.js';

/** The version fragment goes with the add-on's (its current version); versions.ts shapes it. */
export { versionFields, type VersionData } from './versions.js';

/** The GraphQL selection behind every v3/v4 add-on object. */
export const addonFields = gql`
  fragment RestAddonFields on Addon {
    id
    guid
    slug
    type
    status
    defaultLocale
    name
    summary
    description
    developerComments
    homepage
    supportUrl
    supportEmail
    contributionsUrl
    requiresPayment
    isExperimental
    isNoindexed
    publicStats
    averageDailyUsers
    weeklyDownloads
    tags
    created
    lastUpdated
    isDisabled
    hasEula
    hasPrivacyPolicy
    ratings {
      average
      bayesianAverage
      count
      textCount
    }
    promoted {
      category
      apps
    }
    categories {
      slug
      application
    }
    authors {
      user: userSummary {
        id
        username
        displayName
        name
      }
    }
    previews {
      id
      position
      caption
      imageSize
      imageUrl
      thumbnailSize
      thumbnailUrl
    }
    icon32: iconUrl(size: 32)
    icon64: iconUrl(size: 64)
    icon128: iconUrl(size: 128)
    url
    editUrl
    reviewUrl
    ratingsUrl
    versionsUrl
    featuredFor
  }
`;

/** An add-on as RestAddonFields selects it, with the versions and the visibility an operation may add. */
export type AddonData = RestAddonFieldsFragment & {
  currentVersion?: VersionData | null;
  latestUnlistedVersion?: VersionData | null;
  canSeeUnlisted?: boolean;
};

/** Context of an add-on object: the detail shows more than a search result. */
export interface AddonShapeOptions {
  search?: boolean;
  score?: number | null;
  /** The detail's `show_grouped_ratings`: counts per score, as `ratings.grouped_counts`. */
  groupedRatings?: { score: number; count: number }[];
}

/** `promoted`: one object or null (`promoted-groups-shim`), else a list of them. */
export function shapePromoted(promoted: AddonData['promoted'], ctx: ShapeContext) {
  const group = promoted && {
    category: restEnums.promoted(promoted.category),
    apps: promoted.apps.map((a) => restEnums.app(a, ctx.version)),
  };
  if (ctx.gate('promoted-groups-shim')) return group;
  return group ? [group] : [];
}

/** A user's name as the version shows it (`user-name-username-fallback`). */
export const userName = (user: { displayName: string | null; username: string; name: string }, ctx: ShapeContext) =>
  ctx.gate('user-name-username-fallback') ? user.displayName || user.username : user.name;

/** A preview object (the add-on's `previews`, and v5's preview create and edit answers). */
export function shapePreview(p: AddonData['previews'][number], ctx: ShapeContext, defaultLocale?: string) {
  return {
    id: p.id,
    caption: ctx.translated(p.caption, defaultLocale),
    image_size: p.imageSize,
    image_url: p.imageUrl,
    ...(ctx.gate('del-preview-position') ? {} : { position: p.position }),
    thumbnail_size: p.thumbnailSize,
    thumbnail_url: p.thumbnailUrl,
  };
}

/** The add-on object (detail, or a search result with `search`), as the request's gates say. */
export function shapeAddon(addon: AddonData, ctx: ShapeContext, options: AddonShapeOptions = {}) {
  const legacy = ctx.gate('del-addons-promoted-public-stats');
  const locale = addon.defaultLocale;
  const t = (value: Translations | null) => ctx.translated(value, locale);
  const html = (value: Translations | null) => ctx.translated(wrapHtmlLinks(value, ctx), locale);
  const byApp: Record<string, string[]> = {};
  const slugs: string[] = [];
  for (const c of addon.categories) {
    if (!restEnums.appInVersion(c.application, ctx.version)) continue;
    (byApp[restEnums.app(c.application, ctx.version)] ??= []).push(c.slug);
    if (!slugs.includes(c.slug)) slugs.push(c.slug);
  }
  const contributions = ctx.link(addon.contributionsUrl);
  const authorPicture = !options.search || ctx.gate('search-authors-picture-url');
  return {
    id: addon.id,
    authors: addon.authors.map(({ user }) => ({
      id: user.id,
      name: userName(user, ctx),
      url: ctx.absolute(`/user/${user.id}/`),
      username: user.username,
      ...(authorPicture ? { picture_url: ctx.absolute('/static/img/anon_user.png') } : {}),
    })),
    average_daily_users: addon.averageDailyUsers,
    categories: ctx.gate('categories-application') ? byApp : slugs,
    // The original's outgoing URL field sends an empty one as null (its v4 sent the empty string).
    contributions_url: contributions === null && ctx.gate('contributions-url-empty-string') ? '' : contributions,
    ...(ctx.gate('del-addons-created-field') ? {} : { created: ctx.timestamp(addon.created) }),
    current_version: addon.currentVersion ? shapeVersion(addon.currentVersion, ctx, options) : null,
    default_locale: addon.defaultLocale,
    description: html(addon.description),
    developer_comments: html(addon.developerComments),
    edit_url: addon.editUrl,
    guid: addon.guid,
    has_eula: addon.hasEula,
    has_privacy_policy: addon.hasPrivacyPolicy,
    homepage: ctx.translatedLink(addon.homepage, locale),
    icon_url: addon.icon64,
    icons: ctx.gate('del-addons-icon-128')
      ? { 32: addon.icon32, 64: addon.icon64 }
      : { 32: addon.icon32, 64: addon.icon64, 128: addon.icon128 },
    is_disabled: addon.isDisabled,
    is_experimental: addon.isExperimental,
    // The original: null in search results.
    ...(ctx.gate('del-addon-is-noindexed') ? {} : { is_noindexed: options.search ? null : addon.isNoindexed }),
    ...(ctx.gate('is-featured-addon-shim') ? { is_featured: addon.featuredFor.length > 0 } : {}),
    ...(ctx.gate('is-source-public-shim') ? { is_source_public: false } : {}),
    last_updated: ctx.timestamp(addon.lastUpdated),
    ...(addon.canSeeUnlisted && !options.search
      ? { latest_unlisted_version: addon.latestUnlistedVersion ? shapeVersion(addon.latestUnlistedVersion, ctx) : null }
      : {}),
    name: t(addon.name),
    previews: addon.previews.map((p) => shapePreview(p, ctx, locale)),
    ...(legacy ? {} : { promoted: shapePromoted(addon.promoted, ctx), public_stats: addon.publicStats }),
    ratings: {
      average: addon.ratings.average,
      bayesian_average: addon.ratings.bayesianAverage,
      count: addon.ratings.count,
      text_count: addon.ratings.textCount,
      ...(options.groupedRatings ? { grouped_counts: groupedCounts(options.groupedRatings) } : {}),
    },
    ratings_url: addon.ratingsUrl,
    requires_payment: addon.requiresPayment,
    review_url: addon.reviewUrl,
    slug: addon.slug,
    status: restEnums.status(addon.status, ctx.version),
    summary: html(addon.summary),
    support_email: t(addon.supportEmail),
    support_url: ctx.translatedLink(addon.supportUrl, locale),
    tags: addon.tags,
    type: restEnums.type(addon.type, ctx.version),
    url: addon.url,
    versions_url: addon.versionsUrl,
    weekly_downloads: addon.weeklyDownloads,
    ...(options.search && ctx.gate('addons-search-_score-field') ? { _score: options.score ?? 0 } : {}),
  };
}

/** Counts per score, every score from 1 to 5 present. */
function groupedCounts(grouped: { score: number; count: number }[]): Record<string, number> {
  const counts: Record<string, number> = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  for (const g of grouped) counts[g.score] = g.count;
  return counts;
}

/** Links inside HTML fields always go through the outgoing redirector. */
function wrapHtmlLinks(value: Translations | null, ctx: ShapeContext): Translations | null {
  if (!value) return value;
  return Object.fromEntries(
    Object.entries(value).map(([locale, html]) => [
      locale,
      html.replace(/href=(["'])(https?:\/\/[^"']+)\1/gi, (_m, quote: string, url: string) => {
        return `href=${quote}${ctx.wrapLink(url) ?? url}${quote}`;
      }),
    ]),
  );
}

/**
 * The add-on subset of hero shelves and discovery items (v4): id, authors, average_daily_users,
 * current_version (id, compatibility, is_strict_compatibility_enabled, files), guid, icon_url,
 * name, ratings, previews, slug, theme_data, type, url; `promoted` on hero shelves. v3 discovery:
 * id, current_version (compatibility, files), guid, icon_url, name, slug, theme_data, type, url.
 * `theme_data` is null: lightweight-theme data is not kept (static themes carry none either).
 */
export function shapeAddonSubset(addon: AddonData, ctx: ShapeContext, options: { promoted?: boolean } = {}) {
  const full = shapeAddon(addon, ctx);
  const version = full.current_version;
  const files = version && ('files' in version ? { files: version.files } : { file: version.file });
  if (ctx.gate('disco-legacy-addon-subset')) {
    return {
      id: full.id,
      current_version: version ? { compatibility: version.compatibility, ...files } : null,
      guid: full.guid,
      icon_url: full.icon_url,
      name: full.name,
      slug: full.slug,
      theme_data: null,
      type: full.type,
      url: full.url,
    };
  }
  return {
    id: full.id,
    authors: full.authors,
    average_daily_users: full.average_daily_users,
    current_version: version
      ? {
          id: version.id,
          compatibility: version.compatibility,
          is_strict_compatibility_enabled: version.is_strict_compatibility_enabled,
          ...files,
        }
      : null,
    guid: full.guid,
    icon_url: full.icon_url,
    name: full.name,
    ratings: full.ratings,
    previews: full.previews,
    ...(options.promoted ? { promoted: full.promoted ?? null } : {}),
    slug: full.slug,
    theme_data: null,
    type: full.type,
    url: full.url,
  };
}
