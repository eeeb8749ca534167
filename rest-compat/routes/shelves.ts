import { SINCE_V4 } from '../gates.js';
import { DEFAULT_LOCALE } from '../../src/core/i18n/locales.js';
import type { Translations } from '../../src/core/i18n/translations.js';
import type {
  RestHeroQuery,
  RestPrimaryShelfFieldsFragment,
  RestPrimaryShelvesQuery,
  RestSecondaryShelfFieldsFragment,
  RestSecondaryShelvesQuery,
} from '../generated/operations.js';
import { drfBoolean } from '../params/fields.js';
import { defineRoutes, gql, type ShapeContext } from '../route.js';
import { addonFields, shapeAddonSubset, versionFields } from '../shapes/addons.js';
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

const flat = flatText;

function shapeCta(cta: RestSecondaryShelfFieldsFragment['cta'], ctx: ShapeContext) {
  return cta ? { url: ctx.link(cta.url), text: flat(ctx, cta.text) ?? '' } : null;
}

function shapePrimary(shelf: RestPrimaryShelfFieldsFragment | null, ctx: ShapeContext) {
  if (!shelf) return null;
  const raw = ctx.request.query.has('raw');
  const own = shelf.ownDescription;
  const description = raw
    ? (sourceText(own) ?? '')
    : flat(ctx, shelf.description, own ? DEFAULT_LOCALE : (shelf.addon ?? shelf.externalAddon)?.defaultLocale);
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
    headline: flat(ctx, shelf.headline) ?? '',
    description: flat(ctx, shelf.description) ?? '',
    cta: shapeCta(shelf.cta, ctx),
    modules: shelf.modules.map((m) => ({
      icon: m.icon,
      description: flat(ctx, m.description) ?? '',
      cta: shapeCta(m.cta, ctx),
    })),
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
]);
