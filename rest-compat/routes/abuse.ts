import { ALL_VERSIONS } from '../gates.js';
import { userName } from '../shapes/addons.js';
import { wireAppNameOf } from '../shapes/enums.js';
import { addonReportFromBody, userReportFromBody } from '../params/abuse.js';
import type {
  RestAbuseUserFieldsFragment,
  RestReportAddonMutation,
  RestReportUserMutation,
} from '../generated/operations.js';
import { defineRoutes, gql, type ShapeContext } from '../route.js';

/**
 * Abuse reports (docs/compat-notes.md §4.7): `POST /api/{v3,v4}/abuse/report/addon/` and `…/user/`, for
 * anyone (a session or an API key records the reporter). v4 takes and echoes every field of the
 * contract; v3 is the 2018 form (`addon` or `user`, and `message`).
 */
const both = ALL_VERSIONS;

const userFields = gql`
  fragment RestAbuseUserFields on UserSummary {
    id
    name
    url
    username
    displayName
  }
`;

/** The original's minimal user (v3 names a user without a display name by their username). */
function shapeUser(user: RestAbuseUserFieldsFragment | null, ctx: ShapeContext) {
  if (!user) return null;
  return { id: user.id, name: userName(user, ctx), url: user.url, username: user.username };
}

function shapeAddonReport(r: RestReportAddonMutation['reportAddon'], ctx: ShapeContext) {
  const common = { reporter: shapeUser(r.reporter, ctx), addon: r.addon, message: r.message };
  if (ctx.gate('abuse-legacy-report-output')) return common;
  return {
    ...common,
    addon_install_method: r.addonInstallMethod,
    addon_install_origin: r.addonInstallOrigin,
    addon_install_source: r.addonInstallSource,
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
    report_entry_point: r.reportEntryPoint,
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
        }
      }
      ${userFields}
    `,
    variables: (req) => ({ input: userReportFromBody(req.body, req.version) }),
    status: 201,
    shape: (data: RestReportUserMutation, ctx) => ({
      reporter: shapeUser(data.reportUser.reporter, ctx),
      user: shapeUser(data.reportUser.user, ctx),
      message: data.reportUser.message,
    }),
  },
]);
