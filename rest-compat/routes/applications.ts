import { ALL_APPS, App, appFromParam } from '../../src/catalogue/catalogue.enums.js';
import { errors } from '../../src/core/errors.js';
import { ALL_VERSIONS } from '../gates.js';
import type { RestAppVersionsQuery, RestRegisterAppVersionMutation } from '../generated/operations.js';
import { defineRoutes, gql, type RestRequest } from '../route.js';
import { neutralAppName } from '../shapes/enums.js';

/** The application ids browsers and manifests name (`{ec8030f7-…}` is Firefox). */
const APP_GUIDS: Partial<Record<App, string>> = {
  [App.BROWSER]: '{ec8030f7-c20a-464f-9b0e-13a3a9e97384}',
  [App.ANDROID]: '{aa3c5121-dab2-40e2-81ca-7ea25febc110}',
};

/** The path's application as the GraphQL enum's name; an unknown one is the original's 400. */
function applicationOf(req: RestRequest): keyof typeof App {
  const app = appFromParam(neutralAppName(req.params.application, req.version), ALL_APPS);
  const name = app === null ? undefined : (Object.keys(App) as (keyof typeof App)[]).find((key) => App[key] === app);
  if (!name) throw errors.badRequest('Invalid application parameter');
  return name;
}

export const applicationRoutes = defineRoutes([
  {
    // The versions add-ons may name ("the valid Gecko versions" of MDN's manifest page).
    method: 'GET',
    path: '/applications/<application>/',
    versions: ALL_VERSIONS,
    document: gql`
      query RestAppVersions($application: Application!) {
        appVersions(application: $application)
      }
    `,
    variables: (req) => ({ application: applicationOf(req) }),
    shape: (data: RestAppVersionsQuery, ctx) => ({
      guid: APP_GUIDS[App[applicationOf(ctx.request)]] ?? null,
      versions: data.appVersions,
    }),
  },
  {
    // Release automation registers a new browser version: 201 when anything was created, 202 if not.
    method: 'PUT',
    path: '/applications/<application>/<version>/',
    versions: ALL_VERSIONS,
    document: gql`
      mutation RestRegisterAppVersion($application: Application!, $version: String!) {
        registerAppVersion(application: $application, version: $version) {
          created
        }
      }
    `,
    variables: (req) => ({ application: applicationOf(req), version: req.params.version }),
    status: (data: RestRegisterAppVersionMutation) => (data.registerAppVersion.created ? 201 : 202),
    shape: () => undefined,
  },
]);
