import { SINCE_V4 } from '../gates.js';
import { defineRoutes, gql } from '../route.js';

export const siteStatusFields = gql`
  fragment SiteStatusFields on SiteStatus {
    readOnly
    notice
  }
`;

interface SiteStatusData {
  readOnly: boolean;
  notice: string | null;
}

export const shapeSiteStatus = (status: SiteStatusData) => ({ read_only: status.readOnly, notice: status.notice });

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
    shape: (data: { siteStatus: SiteStatusData }) => shapeSiteStatus(data.siteStatus),
  },
]);
