import { originalChoiceName } from '../../src/abuse/abuse.enums.js';
import { ALL_VERSIONS } from '../gates.js';
import { userName } from '../shapes/addons.js';
import { wireAppNameOf } from '../shapes/enums.js';
import {
  addonReportFromBody,
  collectionReportFromBody,
  ratingReportFromBody,
  userReportFromBody,
} from '../params/abuse.js';
import type {
  RestAbuseDsaFieldsFragment,
  RestAbuseUserFieldsFragment,
  RestReportAddonMutation,
  RestReportCollectionMutation,
  RestReportRatingMutation,
  RestReportUserMutation,
} from '../generated/operations.js';
import { defineRoutes, gql, type ShapeContext } from '../route.js';

/**
 * Abuse reports (docs/compat-notes.md §4.7): `POST /api/{v3,v4}/abuse/report/addon/` and `…/user/`, for
 * anyone (a session or an API key records the reporter). v4 takes and echoes every field of the
 * contract; v3 is the 2018 form (`addon` or `user`, and `message`). v5 is today's feedback form: the
 * reasons and DSA fields of every report (gate `abuse-legacy-report-choices` off), and reports of
 * ratings and collections (`…/rating/`, `…/collection/`, v5 only).
 */
const both = ALL_VERSIONS;
const V5 = ['v5'] as const;

const userFields = gql`
  fragment RestAbuseUserFields on UserSummary {
    id
    name
    url
    username
    displayName
  }
`;

const dsaFields = gql`
  fragment RestAbuseDsaFields on AbuseReport {
    reporter {
      ...RestAbuseUserFields
    }
    reporterName
    reporterEmail
    message
    reason
    lang
    illegalCategory
    illegalSubcategory
  }
`;

/** The fields of every v5 report: who reported, the message, reason and DSA notice. */
function shapeDsa(r: RestAbuseDsaFieldsFragment, ctx: ShapeContext) {
  return {
    reporter: shapeUser(r.reporter, ctx),
    reporter_email: r.reporterEmail,
    reporter_name: r.reporterName,
    message: r.message,
    reason: r.reason,
    lang: r.lang,
    illegal_category: r.illegalCategory,
    illegal_subcategory: r.illegalSubcategory,
  };
}

/** The original's minimal user (v3 names a user without a display name by their username). */
function shapeUser(user: RestAbuseUserFieldsFragment | null, ctx: ShapeContext) {
  if (!user) return null;
  return { id: user.id, name: userName(user, ctx), url: user.url, username: user.username };
}

function shapeAddonReport(r: RestReportAddonMutation['reportAddon'], ctx: ShapeContext) {
  const common = { reporter: shapeUser(r.reporter, ctx), addon: r.addon, message: r.message };
  if (ctx.gate('abuse-legacy-report-output')) return common;
  // `neutral-names` off (v5): the original's `amo` and `rtamo` for the stored `site` and `return_to_site`.
  const names = (value: string | null) => (ctx.gate('neutral-names') ? value : originalChoiceName(value));
  const dsa = ctx.gate('abuse-legacy-report-choices')
    ? {}
    : {
        reporter_email: r.reporterEmail,
        reporter_name: r.reporterName,
        location: r.location,
        illegal_category: r.illegalCategory,
        illegal_subcategory: r.illegalSubcategory,
      };
  return {
    ...common,
    ...dsa,
    addon_install_method: r.addonInstallMethod,
    addon_install_origin: r.addonInstallOrigin,
    addon_install_source: names(r.addonInstallSource),
    addon_install_source_url: r.addonInstallSourceUrl,
    addon_name: r.addonName,
    addon_signature: r.addonSignature,
    addon_summary: r.addonSummary,
    addon_version: r.addonVersion,
    app: r.app === null ? null : wireAppNameOf(r.app, ctx.version),
    appversion: r.appversion,
    client_id: r.clientId,
    install_date: ctx.timestamp(r.installDate),
    lang: r.lang,
    operating_system: r.operatingSystem,
    operating_system_version: r.operatingSystemVersion,
    reason: r.reason,
    report_entry_point: names(r.reportEntryPoint),
  };
}

export const abuseRoutes = defineRoutes([
  {
    method: 'POST',
    path: '/abuse/report/addon/',
    versions: both,
    document: gql`
      mutation RestReportAddon($input: AddonAbuseReportInput!) {
        reportAddon(input: $input) {
          reporter {
            ...RestAbuseUserFields
          }
          addon {
            guid
            id
            slug
          }
          message
          reason
          reportEntryPoint
          addonInstallMethod
          addonInstallOrigin
          addonInstallSource
          addonInstallSourceUrl
          addonName
          addonSignature
          addonSummary
          addonVersion
          app
          appversion
          lang
          clientId
          installDate
          operatingSystem
          operatingSystemVersion
          reporterName
          reporterEmail
          location
          illegalCategory
          illegalSubcategory
        }
      }
      ${userFields}
    `,
    variables: (req) => ({ input: addonReportFromBody(req.body, req.version) }),
    status: 201,
    shape: (data: RestReportAddonMutation, ctx) => shapeAddonReport(data.reportAddon, ctx),
  },
  {
    method: 'POST',
    path: '/abuse/report/user/',
    versions: both,
    document: gql`
      mutation RestReportUser($input: UserAbuseReportInput!) {
        reportUser(input: $input) {
          reporter {
            ...RestAbuseUserFields
          }
          user {
            ...RestAbuseUserFields
          }
          message
          ...RestAbuseDsaFields
        }
      }
      ${userFields}
      ${dsaFields}
    `,
    variables: (req) => ({ input: userReportFromBody(req.body, req.version) }),
    status: 201,
    shape: (data: RestReportUserMutation, ctx) => {
      const r = data.reportUser;
      const user = shapeUser(r.user, ctx);
      if (ctx.gate('abuse-legacy-report-choices')) {
        return { reporter: shapeUser(r.reporter, ctx), user, message: r.message };
      }
      const { reporter, reporter_email, reporter_name, ...rest } = shapeDsa(r, ctx);
      return { reporter, reporter_email, reporter_name, user, ...rest };
    },
  },
  {
    method: 'POST',
    path: '/abuse/report/rating/',
    versions: V5,
    document: gql`
      mutation RestReportRating($input: RatingAbuseReportInput!) {
        reportRating(input: $input) {
          rating {
            id
          }
          ...RestAbuseDsaFields
        }
      }
      ${userFields}
      ${dsaFields}
    `,
    variables: (req) => ({ input: ratingReportFromBody(req.body) }),
    status: 201,
    shape: (data: RestReportRatingMutation, ctx) => {
      const { reporter, reporter_email, reporter_name, ...rest } = shapeDsa(data.reportRating, ctx);
      return { reporter, reporter_email, reporter_name, rating: data.reportRating.rating, ...rest };
    },
  },
  {
    method: 'POST',
    path: '/abuse/report/collection/',
    versions: V5,
    document: gql`
      mutation RestReportCollection($input: CollectionAbuseReportInput!) {
        reportCollection(input: $input) {
          collection {
            id
          }
          ...RestAbuseDsaFields
        }
      }
      ${userFields}
      ${dsaFields}
    `,
    variables: (req) => ({ input: collectionReportFromBody(req.body) }),
    status: 201,
    shape: (data: RestReportCollectionMutation, ctx) => {
      const { reporter, reporter_email, reporter_name, ...rest } = shapeDsa(data.reportCollection, ctx);
      return { reporter, reporter_email, reporter_name, collection: data.reportCollection.collection, ...rest };
    },
  },
]);
