import { ALL_VERSIONS, SINCE_V4 } from '../gates.js';
import type {
  RestDiscoveryEditorialQuery,
  RestDiscoveryItemFieldsFragment,
  RestDiscoveryQuery,
} from '../generated/operations.js';
import { defineRoutes, gql, type RestRequest, type ShapeContext } from '../route.js';
import { addonFields, shapeAddonSubset, versionFields } from '../shapes/addons.js';
import { flatText, sourceText } from '../shapes/editorial-text.js';
import { escapeHtml } from '../../src/core/html.js';

const itemFields = gql`
  fragment RestDiscoveryItemFields on DiscoveryItem {
    customHeading
    customDescription
    description
    isRecommendation
    addon {
      ...RestAddonFields
      currentVersion {
        ...RestVersionFields
      }
    }
  }
  ${addonFields}
  ${versionFields}
`;

/** The description in the request language; the add-on summary falls back to its default locale. */
function descriptionText(item: RestDiscoveryItemFieldsFragment, ctx: ShapeContext): string | null {
  return flatText(ctx, item.description, item.customDescription ? undefined : item.addon.defaultLocale);
}

/**
 * v3's HTML heading: the custom heading (escaped) with `{addon_name}` as a link to the add-on
 * naming its authors and `{start_sub_heading}`/`{end_sub_heading}` as a span; without one,
 * `<name> <span>by <a href="<url>"><authors></a></span>`.
 */
function heading(item: RestDiscoveryItemFieldsFragment, ctx: ShapeContext): string {
  const { addon } = item;
  const name = escapeHtml(flatText(ctx, addon.name, addon.defaultLocale) ?? '');
  const authors = escapeHtml(addon.authors.map(({ user }) => user.name).join(', '));
  const url = escapeHtml(addon.url);
  const custom = flatText(ctx, item.customHeading);
  if (!custom) return `${name} <span>by <a href="${url}">${authors}</a></span>`;
  return escapeHtml(custom)
    .replaceAll('{start_sub_heading}', '<span>')
    .replaceAll('{end_sub_heading}', '</span>')
    .replaceAll('{addon_name}', `<a href="${url}">${name} by ${authors}</a>`);
}

function shapeItem(item: RestDiscoveryItemFieldsFragment, ctx: ShapeContext) {
  const text = descriptionText(item, ctx);
  if (ctx.gate('disco-heading-and-description-shim')) {
    return {
      heading: heading(item, ctx),
      description: text === null ? null : `<blockquote>${escapeHtml(text)}</blockquote>`,
      is_recommendation: item.isRecommendation,
      addon: shapeAddonSubset(item.addon, ctx),
    };
  }
  return {
    description_text: text,
    is_recommendation: item.isRecommendation,
    addon: shapeAddonSubset(item.addon, ctx),
  };
}

/** `edition=china`; also its alias `MozillaOnline` (any case) unless `disco-china-edition-only`. */
const CHINA = ['china', 'mozillaonline'];

/**
 * `edition` and `telemetry-client-id` (validated by the service: anything but a sha256 in hex is
 * ignored). v3 also accepts `platform`, `branch` and `study` (recommendations are computed here,
 * they need none) and gives no recommendations once `edition` is given.
 */
function discoveryVariables(req: RestRequest) {
  const edition = (req.query.get('edition') ?? '').toLowerCase();
  const china = req.gate('disco-china-edition-only') ? edition === 'china' : CHINA.includes(edition);
  const noRecommendations = china || (req.gate('disco-legacy-addon-subset') && req.query.has('edition'));
  return {
    edition: china ? 'CHINA' : 'DEFAULT',
    clientId: noRecommendations ? null : req.query.get('telemetry-client-id'),
  };
}

export const discoveryRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/discovery/',
    versions: ALL_VERSIONS,
    document: gql`
      query RestDiscovery($edition: DiscoveryEdition!, $clientId: String) {
        discoveryItems(edition: $edition, telemetryClientId: $clientId) {
          ...RestDiscoveryItemFields
        }
      }
      ${itemFields}
    `,
    variables: discoveryVariables,
    shape: (data: RestDiscoveryQuery, ctx) => ({
      count: data.discoveryItems.length,
      results: data.discoveryItems.map((item) => shapeItem(item, ctx)),
    }),
  },
  {
    method: 'GET',
    path: '/discovery/editorial/',
    versions: SINCE_V4,
    document: gql`
      query RestDiscoveryEditorial($recommended: Boolean!) {
        discoveryEditorial(recommended: $recommended) {
          customDescription
          addon {
            guid
          }
        }
      }
    `,
    variables: (req) => ({ recommended: req.query.get('recommended') === 'true' }),
    shape: (data: RestDiscoveryEditorialQuery) => ({
      results: data.discoveryEditorial.map((item) => ({
        addon: { guid: item.addon.guid },
        custom_description: sourceText(item.customDescription),
      })),
    }),
  },
]);
