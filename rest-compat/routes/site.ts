import { SINCE_V4 } from '../gates.js';
import type { RestSiteStatusQuery, SiteStatusFieldsFragment } from '../generated/operations.js';
import { defineRoutes, gql } from '../route.js';

export const siteStatusFields = gql`
  fragment SiteStatusFields on SiteStatus {
    readOnly
    notice
  }
`;

export const shapeSiteStatus = (status: SiteStatusFieldsFragment) => ({
  read_only: status.readOnly,
  notice: status.notice,
});

export const siteRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/site/',
    versions: SINCE_V4,
    document: gql`
      query RestSiteStatus {
        siteStatus {
          ...SiteStatusFields
        }
      }
      ${siteStatusFields}
    `,
    shape: (data: RestSiteStatusQuery) => shapeSiteStatus(data.siteStatus),
  },
]);
