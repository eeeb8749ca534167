import { defineRoutes, gql, type ShapeContext } from '../route.js';
import { shapeSiteStatus, siteStatusFields } from './site.js';

/** GraphQL selection for the account object (public fields, plus private ones when allowed). */
export const userFields = gql`
  fragment RestUserFields on User {
    id
    username
    name
    displayName
    created
    biography
    homepage
    location
    occupation
    hasAnonymousUsername
    hasAnonymousDisplayName
    private {
      email
      deleted
      lastLogin
      lastLoginIp
      readDevAgreement
      permissions
    }
  }
`;

export interface UserData {
  id: number;
  username: string;
  name: string;
  displayName: string | null;
  created: string;
  biography: string | null;
  homepage: string | null;
  location: string | null;
  occupation: string | null;
  hasAnonymousUsername: boolean;
  hasAnonymousDisplayName: boolean;
  private: {
    email: string;
    deleted: boolean;
    lastLogin: string | null;
    lastLoginIp: string | null;
    readDevAgreement: string | null;
    permissions: string[];
  } | null;
}

/**
 * The v3/v4 account object. v3 `name` falls back to the username, v4 to a generated name; v3's
 * `has_anonymous_display_name` also requires an anonymous username.
 * (The accounts issue adds the add-on statistics, picture and URL fields.)
 */
export function shapeUser(user: UserData, ctx: ShapeContext) {
  const v3 = ctx.version === 'v3';
  return {
    id: user.id,
    name: v3 ? user.displayName || user.username : user.name,
    username: user.username,
    created: ctx.timestamp(user.created),
    biography: user.biography,
    has_anonymous_display_name: v3
      ? user.hasAnonymousDisplayName && user.hasAnonymousUsername
      : user.hasAnonymousDisplayName,
    has_anonymous_username: user.hasAnonymousUsername,
    homepage: ctx.link(user.homepage),
    location: user.location,
    occupation: user.occupation,
    ...(user.private
      ? {
          display_name: user.displayName,
          email: user.private.email,
          deleted: user.private.deleted,
          last_login: ctx.timestamp(user.private.lastLogin),
          last_login_ip: user.private.lastLoginIp,
          read_dev_agreement: ctx.timestamp(user.private.readDevAgreement),
          permissions: user.private.permissions,
        }
      : {}),
  };
}

export const accountRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/accounts/profile/',
    versions: ['v3', 'v4'],
    auth: ['jwt', 'session'],
    document: gql`
      query RestProfile {
        me {
          ...RestUserFields
        }
        siteStatus {
          ...SiteStatusFields
        }
      }
      ${userFields}
      ${siteStatusFields}
    `,
    shape: (data: { me: UserData; siteStatus: { readOnly: boolean; notice: string | null } }, ctx) => ({
      ...shapeUser(data.me, ctx),
      ...(ctx.version === 'v4' ? { site_status: shapeSiteStatus(data.siteStatus) } : {}),
    }),
  },
]);
