import { ALL_VERSIONS, gate } from '../gates.js';
import {
  parseDetailAppParams,
  parseIntParam,
  refuseFilterOnDetail,
  versionListVariables,
} from '../params/catalogue.js';
import { groupedRatingsParam } from '../params/ratings.js';
import { App } from '../../src/catalogue/catalogue.enums.js';
import type { Translations } from '../../src/core/i18n/translations.js';
import type {
  RestAddonDetailQuery,
  RestAddonEulaPolicyQuery,
  RestAddonVersionQuery,
  RestAddonVersionsQuery,
  RestCategoriesQuery,
} from '../generated/operations.js';
import { paginated } from '../pagination.js';
import { defineRoutes, gql } from '../route.js';
import { addonFields, shapeAddon, versionFields } from '../shapes/addons.js';
import { fullVersionFields, queueStandingFields, shapeVersion, shapeVersionDetail } from '../shapes/versions.js';
import { enumName, restEnums } from '../shapes/enums.js';

/** One text of a translated field: the requested locale's, else en-US's, else any. */
function oneLocale(value: Translations, lang: string | null): string {
  return (lang ? value[lang] : undefined) ?? value['en-US'] ?? Object.values(value)[0] ?? '';
}

export const catalogueRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/addons/addon/<addon>/',
    versions: ALL_VERSIONS,
    cache: 'anonymous',
    plainViewers: true,
    document: gql`
      query RestAddonDetail($id: String!, $app: Application, $appVersion: String, $withGrouped: Boolean!) {
        grouped: ratings(addon: $id, pageSize: 1) @include(if: $withGrouped) {
          groupedRatings {
            score
            count
          }
        }
        addon(id: $id) {
          ...RestAddonFields
          currentVersion(app: $app, appVersion: $appVersion) {
            ...RestVersionFields
          }
          latestUnlistedVersion {
            ...RestVersionFields
          }
          canSeeUnlisted
        }
      }
      ${addonFields}
      ${versionFields}
    `,
    variables: (req) => {
      const { app, appVersion } = parseDetailAppParams(req.query, req.version);
      // `ratings.grouped_counts` on request (what the add-on page's rating bars read).
      const withGrouped = !gate(req.version, 'del-addon-detail-grouped-ratings') && groupedRatingsParam(req.query);
      return { id: req.params.addon, app: app === null ? null : enumName(App, app), appVersion, withGrouped };
    },
    shape: (data: RestAddonDetailQuery, ctx) =>
      shapeAddon(data.addon, ctx, { groupedRatings: data.grouped?.groupedRatings ?? undefined }),
  },
  {
    // Every category, unpaginated, its name in the request's language (addons-frontend sorts them by name).
    method: 'GET',
    path: '/addons/categories/',
    versions: ['v5'],
    document: gql`
      query RestCategories {
        categories {
          id
          name
          slug
          application
          misc
          type
          weight
        }
      }
    `,
    shape: (data: RestCategoriesQuery, ctx) =>
      data.categories.map((c) => ({
        id: c.id,
        name: oneLocale(c.name, ctx.request.query.get('lang')),
        slug: c.slug,
        application: restEnums.app(c.application, ctx.version),
        misc: c.misc,
        type: restEnums.type(c.type, ctx.version),
        weight: c.weight,
        description: null,
      })),
  },
  {
    // The licence agreement and privacy policy pages read these (v5's clients; the contract has no such route).
    method: 'GET',
    path: '/addons/addon/<addon>/eula_policy/',
    versions: ['v5'],
    document: gql`
      query RestAddonEulaPolicy($id: String!) {
        addon(id: $id) {
          defaultLocale
          eula
          privacyPolicy
        }
      }
    `,
    variables: (req) => ({ id: req.params.addon }),
    shape: (data: RestAddonEulaPolicyQuery, ctx) => ({
      eula: ctx.translated(data.addon.eula, data.addon.defaultLocale),
      privacy_policy: ctx.translated(data.addon.privacyPolicy, data.addon.defaultLocale),
    }),
  },
  {
    method: 'GET',
    path: '/addons/addon/<addon>/versions/',
    // v5's version endpoints are the submission API's (routes/submission.ts), which take API keys.
    versions: ['v3', 'v4'],
    // The operation also takes API keys (v5 submission routes); v3/v4 keep sessions only.
    auth: ['session'],
    cache: 'anonymous',
    plainViewers: true,
    document: gql`
      query RestAddonVersions($addon: String!, $filter: String, $page: Int, $pageSize: Int) {
        addonVersions(addon: $addon, filter: $filter, page: $page, pageSize: $pageSize) {
          count
          page
          pageSize
          pageCount
          items {
            ...RestFullVersionFields
          }
        }
      }
      ${fullVersionFields}
    `,
    variables: versionListVariables,
    shape: (data: RestAddonVersionsQuery, ctx) => paginated(data.addonVersions, ctx, (v) => shapeVersion(v, ctx)),
  },
  {
    method: 'GET',
    path: '/addons/addon/<addon>/versions/<version>/',
    versions: ['v3', 'v4'],
    // The operation also takes API keys (v5 submission routes); v3/v4 keep sessions only.
    auth: ['session'],
    cache: 'anonymous',
    plainViewers: true,
    document: gql`
      query RestAddonVersion($addon: String!, $id: Int!) {
        addonVersion(addon: $addon, id: $id) {
          ...RestFullVersionFields
          queueStanding {
            ...RestQueueStandingFields
          }
        }
      }
      ${fullVersionFields}
      ${queueStandingFields}
    `,
    variables: (req) => {
      refuseFilterOnDetail(req.query);
      return { addon: req.params.addon, id: parseIntParam(req.params.version) };
    },
    shape: (data: RestAddonVersionQuery, ctx) => shapeVersionDetail(data.addonVersion, ctx),
  },
]);
