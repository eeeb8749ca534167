import { errors } from '../../src/core/errors.js';
import { BROWSER_NAMES, Browser } from '../../src/discovery/browser-mappings/browser-mapping.entity.js';
import { ALL_VERSIONS } from '../gates.js';
import type {
  RestAddonRecommendationsQuery,
  RestAddonTagsQuery,
  RestBrowserMappingsQuery,
  RestReplacementAddonsQuery,
} from '../generated/operations.js';
import { paginated, pageVariables } from '../pagination.js';
import { defineRoutes, gql, type RestRequest } from '../route.js';
import { addonFields, shapeAddon, versionFields } from '../shapes/addons.js';

/** `browser`: required, one of the browsers' names (the original's `ParseError`, 400, otherwise). */
function browserVariable(req: RestRequest) {
  const name = req.query.get('browser');
  const browser = Object.entries(BROWSER_NAMES).find(([, n]) => n === name)?.[0];
  if (browser === undefined) throw errors.badRequest('Invalid browser parameter');
  return Browser[Number(browser) as Browser];
}

/**
 * The add-on extras of the original's add-ons API: the tag list, replacement add-ons, browser
 * mappings (the browser's "import extensions from Chrome"), and the recommendations of an add-on's
 * page ("other add-ons you might like", from the service's own recommender).
 */
export const addonExtrasRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/addons/tags/',
    versions: ALL_VERSIONS,
    cache: 'public',
    cacheTags: () => ['tags:all'],
    document: gql`
      query RestAddonTags {
        addonTags
      }
    `,
    shape: (data: RestAddonTagsQuery) => data.addonTags,
  },
  {
    method: 'GET',
    path: '/addons/replacement-addon/',
    versions: ALL_VERSIONS,
    document: gql`
      query RestReplacementAddons($page: Int, $pageSize: Int) {
        replacementAddons(page: $page, pageSize: $pageSize) {
          count
          page
          pageSize
          pageCount
          items {
            guid
            replacement
          }
        }
      }
    `,
    variables: pageVariables,
    shape: (data: RestReplacementAddonsQuery, ctx) =>
      paginated(data.replacementAddons, ctx, (item) => ({ guid: item.guid, replacement: item.replacement })),
  },
  {
    method: 'GET',
    path: '/addons/browser-mappings/',
    versions: ALL_VERSIONS,
    // Firefox asks at every import: kept until a mapping changes or an add-on leaves or joins the public ones.
    cache: 'public',
    cacheTags: () => ['bm:all', 'l:all'],
    document: gql`
      query RestBrowserMappings($browser: Browser!, $page: Int, $pageSize: Int) {
        browserMappings(browser: $browser, page: $page, pageSize: $pageSize) {
          count
          page
          pageSize
          pageCount
          items {
            extensionId
            addonGuid
          }
        }
      }
    `,
    variables: (req) => ({ browser: browserVariable(req), ...pageVariables(req) }),
    shape: (data: RestBrowserMappingsQuery, ctx) =>
      paginated(data.browserMappings, ctx, (item) => ({ extension_id: item.extensionId, addon_guid: item.addonGuid })),
  },
  {
    method: 'GET',
    path: '/addons/recommendations/',
    versions: ALL_VERSIONS,
    document: gql`
      query RestAddonRecommendations($guid: String, $recommended: Boolean!) {
        addonRecommendations(guid: $guid, recommended: $recommended) {
          outcome
          fallbackReason
          addons {
            ...RestAddonFields
            currentVersion {
              ...RestVersionFields
            }
          }
        }
      }
      ${addonFields}
      ${versionFields}
    `,
    variables: (req) => ({
      guid: req.query.get('guid'),
      recommended: (req.query.get('recommended') ?? '').toLowerCase() === 'true',
    }),
    // Keys in the original's order; one page of at most four, never more.
    shape: (data: RestAddonRecommendationsQuery, ctx) => {
      const { outcome, fallbackReason, addons } = data.addonRecommendations;
      return {
        outcome: outcome.toLowerCase(),
        fallback_reason: fallbackReason ? fallbackReason.toLowerCase() : null,
        page_size: 1,
        page_count: 1,
        count: addons.length,
        next: null,
        previous: null,
        results: addons.map((addon) => shapeAddon(addon, ctx, { search: true })),
      };
    },
  },
]);
