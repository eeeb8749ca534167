import { SINCE_V4 } from '../gates.js';
import { DEFAULT_LOCALE } from '../../src/core/i18n/locales.js';
import type { Translations } from '../../src/core/i18n/translations.js';
import type {
  RestHeroQuery,
  RestHomeShelvesEditorialQuery,
  RestHomeShelvesQuery,
  RestPrimaryShelfFieldsFragment,
  RestPrimaryShelvesQuery,
  RestSecondaryShelfFieldsFragment,
  RestSecondaryShelvesQuery,
} from '../generated/operations.js';
import { drfBoolean } from '../params/fields.js';
import { defineRoutes, gql, type ShapeContext } from '../route.js';
import { addonFields, shapeAddon, shapeAddonSubset, versionFields } from '../shapes/addons.js';
import { restEnums } from '../shapes/enums.js';
import { flatText, sourceText } from '../shapes/editorial-text.js';

const primaryFields = gql`
  fragment RestPrimaryShelfFields on PrimaryShelf {
    gradient {
      start
      end
    }
    featuredImage
    description
    ownDescription
    addon {
      ...RestAddonFields
      currentVersion {
        ...RestVersionFields
      }
    }
    externalAddon {
      id
      guid
      homepage
      name
      type
      defaultLocale
    }
  }
  ${addonFields}
  ${versionFields}
`;

const secondaryFields = gql`
  fragment RestSecondaryShelfFields on SecondaryShelf {
    headline
    description
    cta {
      url
      text
    }
    modules {
      icon
      description
      cta {
        url
        text
      }
    }
  }
`;

/**
 * A curated text: v3/v4 (`l10n_flat_input_output`) one string in the request language (`''` when
 * none); v5 a translated object, as every translated field (the request's `lang` only, with it).
 */
function text(ctx: ShapeContext, value: Translations | null | undefined, fallback: string = DEFAULT_LOCALE) {
  if (ctx.gate('l10n_flat_input_output')) return flatText(ctx, value, fallback) ?? '';
  return ctx.translated(value ?? null, fallback);
}

/**
 * A call to action (and a home shelf's footer): v3/v4 (`wrap-outgoing-parameter`) `{url, text}`, the
 * URL a string wrapped with `wrap_outgoing_links`; v5 `{url, outgoing, text}`, both URLs strings.
 */
function shapeLink(url: string | null, value: Translations | null, ctx: ShapeContext) {
  if (ctx.gate('wrap-outgoing-parameter')) return { url: ctx.link(url), text: flatText(ctx, value) ?? '' };
  return { url, outgoing: ctx.wrapLink(url), text: text(ctx, value) };
}

function shapeCta(cta: RestSecondaryShelfFieldsFragment['cta'], ctx: ShapeContext) {
  return cta ? shapeLink(cta.url, cta.text, ctx) : null;
}

function shapePrimary(shelf: RestPrimaryShelfFieldsFragment | null, ctx: ShapeContext) {
  if (!shelf) return null;
  const raw = ctx.request.query.has('raw');
  const own = shelf.ownDescription;
  const description = raw
    ? (sourceText(own) ?? '')
    : text(ctx, shelf.description, own ? DEFAULT_LOCALE : (shelf.addon ?? shelf.externalAddon)?.defaultLocale);
  const external = shelf.externalAddon;
  return {
    gradient: shelf.gradient,
    featured_image: shelf.featuredImage,
    description,
    ...(external
      ? {
          external: {
            id: external.id,
            guid: external.guid,
            homepage: externalHomepage(external.homepage, external.defaultLocale, ctx),
            name: ctx.translated(external.name, external.defaultLocale),
            type: restEnums.type(external.type, ctx.version),
          },
        }
      : { addon: shelf.addon ? shapeAddonSubset(shelf.addon, ctx, { promoted: true }) : null }),
  };
}

function externalHomepage(homepage: Translations | null, defaultLocale: string, ctx: ShapeContext) {
  const value = ctx.translated(homepage, defaultLocale);
  if (value === null || typeof value === 'string') return ctx.link(value);
  return Object.fromEntries(Object.entries(value).map(([locale, url]) => [locale, ctx.link(url) ?? url]));
}

function shapeSecondary(shelf: RestSecondaryShelfFieldsFragment | null, ctx: ShapeContext) {
  if (!shelf) return null;
  return {
    headline: text(ctx, shelf.headline),
    description: text(ctx, shelf.description),
    cta: shapeCta(shelf.cta, ctx),
    modules: shelf.modules.map((m) => ({
      icon: m.icon,
      description: text(ctx, m.description),
      cta: shapeCta(m.cta, ctx),
    })),
  };
}

const homeShelfFields = gql`
  fragment RestHomeShelfFields on HomeShelf {
    title
    endpoint
    addonType
    criteria
    footerText
    footerPathname
    collectionOwner
  }
`;

type HomeShelfData = RestHomeShelvesQuery['homeShelves'][number];

/**
 * Where a shelf's add-ons are listed in full: the search with its criteria (and the shelf's type
 * when the criteria name none, as the shelf searches), or the vendor's collection's add-ons.
 */
function shelfUrl(shelf: HomeShelfData, ctx: ShapeContext): string {
  const api = `/api/${ctx.version}`;
  if (shelf.endpoint === 'collections') {
    const owner = encodeURIComponent(shelf.collectionOwner ?? '');
    return ctx.absolute(`${api}/accounts/account/${owner}/collections/${encodeURIComponent(shelf.criteria)}/addons/`);
  }
  const query = new URLSearchParams(shelf.criteria.slice(1));
  const criteria = query.has('type')
    ? shelf.criteria
    : `${shelf.criteria}${shelf.criteria === '?' ? '' : '&'}type=${restEnums.type(shelf.addonType, ctx.version)}`;
  return ctx.absolute(`${api}/addons/search/${criteria}`);
}

/** The footer's link: a pathname is on this site; an http(s) URL as curated; none: null. */
function footerUrl(pathname: string | null, ctx: ShapeContext): string | null {
  if (!pathname) return null;
  return pathname.startsWith('/') ? ctx.absolute(pathname) : pathname;
}

function shapeHomeShelf(shelf: HomeShelfData, ctx: ShapeContext) {
  return {
    title: text(ctx, shelf.title),
    url: shelfUrl(shelf, ctx),
    endpoint: shelf.endpoint,
    addon_type: restEnums.type(shelf.addonType, ctx.version),
    criteria: shelf.criteria,
    footer: shapeLink(footerUrl(shelf.footerPathname, ctx), shelf.footerText, ctx),
    addons: shelf.addons.map((addon) => shapeAddon(addon, ctx, { search: true })),
  };
}

/**
 * `all=true` (a DRF boolean): disabled shelves too, for `Admin:Curation` only (401 anonymous, 403
 * others; the original served them to anyone). Page parameters are ignored (unpaginated).
 */
const allVariable = (query: URLSearchParams) => ({ all: drfBoolean(query.get('all')) === true });

export const shelfRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/hero/',
    versions: SINCE_V4,
    document: gql`
      query RestHero {
        heroShelves {
          primary {
            ...RestPrimaryShelfFields
          }
          secondary {
            ...RestSecondaryShelfFields
          }
        }
      }
      ${primaryFields}
      ${secondaryFields}
    `,
    shape: (data: RestHeroQuery, ctx) => ({
      primary: shapePrimary(data.heroShelves.primary, ctx),
      secondary: shapeSecondary(data.heroShelves.secondary, ctx),
    }),
  },
  {
    method: 'GET',
    path: '/hero/primary/',
    versions: SINCE_V4,
    document: gql`
      query RestPrimaryShelves($all: Boolean!) {
        primaryShelves(all: $all) {
          ...RestPrimaryShelfFields
        }
      }
      ${primaryFields}
    `,
    variables: (req) => allVariable(req.query),
    shape: (data: RestPrimaryShelvesQuery, ctx) => ({
      results: data.primaryShelves.map((shelf) => shapePrimary(shelf, ctx)),
    }),
  },
  {
    method: 'GET',
    path: '/hero/secondary/',
    versions: SINCE_V4,
    document: gql`
      query RestSecondaryShelves($all: Boolean!) {
        secondaryShelves(all: $all) {
          ...RestSecondaryShelfFields
        }
      }
      ${secondaryFields}
    `,
    variables: (req) => allVariable(req.query),
    shape: (data: RestSecondaryShelvesQuery, ctx) => ({
      results: data.secondaryShelves.map((shelf) => shapeSecondary(shelf, ctx)),
    }),
  },
  {
    method: 'GET',
    path: '/shelves/',
    versions: ['v5'],
    document: gql`
      query RestHomeShelves {
        homeShelves {
          ...RestHomeShelfFields
          addons {
            ...RestAddonFields
            currentVersion {
              ...RestVersionFields
            }
          }
        }
        heroShelves {
          primary {
            ...RestPrimaryShelfFields
          }
          secondary {
            ...RestSecondaryShelfFields
          }
        }
      }
      ${homeShelfFields}
      ${primaryFields}
      ${secondaryFields}
    `,
    shape: (data: RestHomeShelvesQuery, ctx) => ({
      results: data.homeShelves.map((shelf) => shapeHomeShelf(shelf, ctx)),
      primary: shapePrimary(data.heroShelves.primary, ctx),
      secondary: shapeSecondary(data.heroShelves.secondary, ctx),
    }),
  },
  {
    method: 'GET',
    path: '/shelves/editorial/',
    versions: ['v5'],
    document: gql`
      query RestHomeShelvesEditorial {
        homeShelves {
          title
          footerText
        }
      }
    `,
    // The texts as curated (for translation files): enabled shelves', as everyone sees them.
    shape: (data: RestHomeShelvesEditorialQuery) => ({
      results: data.homeShelves.map((shelf) => ({
        title: sourceText(shelf.title),
        footer_text: sourceText(shelf.footerText),
      })),
    }),
  },
]);
