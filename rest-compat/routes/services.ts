import { SINCE_V4 } from '../gates.js';
import type { RestClientInfoQuery } from '../generated/operations.js';
import { defineRoutes, gql, type RouteDefinition } from '../route.js';

/** A query's parameters as the original's `QueryDict` shows them: one value per name, the last. */
const queryObject = (query: URLSearchParams) => Object.fromEntries(query.entries());

/** `services/403/`, `404/`, `500/`: the error asked for, in the body every such error has. */
const probe = (status: 403 | 404 | 500, error: string): RouteDefinition => ({
  method: 'GET',
  path: `/services/${status}/`,
  versions: SINCE_V4,
  // One named operation per path (documents are compiled, and their types generated, by name).
  document: gql`query RestFail${status} { failWith(error: ${error}) }`,
});

/** The original's debugging helpers (internal): what the service sees of a request, errors on demand. */
export const servicesRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/services/client_info/',
    versions: SINCE_V4,
    document: gql`
      query RestClientInfo {
        clientInfo {
          userAgent
          countryCode
          forwardedFor
          remoteAddress
        }
      }
    `,
    // The original's WSGI names; GET and POST as the request's data (a GET has no POST data).
    shape: (data: RestClientInfoQuery, ctx) => ({
      HTTP_USER_AGENT: data.clientInfo.userAgent,
      HTTP_X_COUNTRY_CODE: data.clientInfo.countryCode,
      HTTP_X_FORWARDED_FOR: data.clientInfo.forwardedFor,
      REMOTE_ADDR: data.clientInfo.remoteAddress,
      POST: {},
      GET: queryObject(ctx.request.query),
    }),
  },
  probe(403, 'FORBIDDEN'),
  probe(404, 'NOT_FOUND'),
  probe(500, 'INTERNAL'),
]);
