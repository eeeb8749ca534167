import { ALL_VERSIONS } from '../gates.js';
import { userName } from '../shapes/addons.js';
import Upload from 'graphql-upload/Upload.mjs';
import {
  accountInputFromBody,
  notificationChangesFromBody,
  superCreateInputFromBody,
  unsubscribeFromBody,
} from '../params/accounts.js';
import type {
  RestNotificationsQuery,
  RestSuperCreateMutation,
  RestUnsubscribeNotificationMutation,
  RestUpdateNotificationsMutation,
  RestUserFieldsFragment,
} from '../generated/operations.js';
import { loggedOut } from './signin.js';
import { defineRoutes, gql, type RestRequest, type ShapeContext } from '../route.js';
import { shapeSiteStatus, siteStatusFields } from './site.js';

/** GraphQL selection for the account object (public fields, plus private ones when allowed). */
export const userFields = gql`
  fragment RestUserFields on User {
    id
    username
    name
    url
    displayName
    created
    biography
    homepage
    location
    occupation
    averageAddonRating
    numAddonsListed
    isAddonDeveloper
    isArtist
    pictureType
    pictureUrl
    hasAnonymousUsername
    hasAnonymousDisplayName
    private {
      email
      deleted
      lastLogin
      lastLoginIp
      readDevAgreement
      permissions
      isVerified
      idpEditEmailUrl
      siteStatus {
        ...SiteStatusFields
      }
    }
  }
  ${siteStatusFields}
`;

/**
 * The account object, as the gates say: `name` (`user-name-username-fallback`),
 * `has_anonymous_display_name` (`anonymous-display-name-needs-username`); the private fields (self
 * or `Users:Edit`) add `idp_edit_email_url` (`fxa_edit_email_url` without
 * `neutral-names`) and the `site_status` object unless
 * `del-accounts-fxa-edit-email-url`. Others see a user without add-ons as the original's minimal
 * profile: every field with the personal ones empty (`minimal-profile-has-all-fields-shim`), else
 * only id, name, url and username.
 */
export function shapeUser(user: RestUserFieldsFragment, ctx: ShapeContext) {
  const base = { id: user.id, name: userName(user, ctx), url: user.url, username: user.username };
  const minimal = !user.private && !user.isAddonDeveloper && !user.isArtist;
  if (minimal && !ctx.gate('minimal-profile-has-all-fields-shim')) return base;
  const personal = (value: string | null) => (minimal ? null : value);
  return {
    ...base,
    average_addon_rating: user.averageAddonRating,
    created: ctx.timestamp(user.created),
    biography: personal(user.biography),
    has_anonymous_display_name: ctx.gate('anonymous-display-name-needs-username')
      ? user.hasAnonymousDisplayName && user.hasAnonymousUsername
      : user.hasAnonymousDisplayName,
    has_anonymous_username: user.hasAnonymousUsername,
    // A plain URL field in the original's profile serializers: only the legacy link switch wraps it.
    homepage: minimal ? null : ctx.gate('wrap-outgoing-parameter') ? ctx.link(user.homepage) : user.homepage,
    is_addon_developer: user.isAddonDeveloper,
    is_artist: user.isArtist,
    location: personal(user.location),
    occupation: personal(user.occupation),
    num_addons_listed: user.numAddonsListed,
    picture_type: personal(user.pictureType),
    picture_url: personal(user.pictureUrl),
    ...(user.private
      ? {
          display_name: user.displayName,
          email: user.private.email,
          deleted: user.private.deleted,
          last_login: ctx.timestamp(user.private.lastLogin),
          last_login_ip: user.private.lastLoginIp,
          read_dev_agreement: user.private.readDevAgreement,
          permissions: user.private.permissions,
          is_verified: user.private.isVerified,
          ...(ctx.gate('del-accounts-fxa-edit-email-url')
            ? {}
            : {
                [ctx.gate('neutral-names') ? 'idp_edit_email_url' : 'fxa_edit_email_url']: user.private.idpEditEmailUrl,
                site_status: shapeSiteStatus(user.private.siteStatus),
              }),
        }
      : {}),
  };
}

const both = ALL_VERSIONS;
const account = '/accounts/account/<user>/';
const picture = (req: RestRequest) => {
  const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
  return body.picture_upload instanceof Upload ? body.picture_upload : null;
};

const accountShape =
  <K extends string>(key: K) =>
  (data: Record<K, RestUserFieldsFragment>, ctx: ShapeContext) =>
    shapeUser(data[key], ctx);

export const accountRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/accounts/profile/',
    versions: both,
    document: gql`
      query RestProfile {
        me {
          ...RestUserFields
        }
      }
      ${userFields}
    `,
    shape: accountShape('me'),
  },
  {
    method: 'GET',
    path: account,
    versions: both,
    document: gql`
      query RestAccount($user: String!) {
        user(user: $user) {
          ...RestUserFields
        }
      }
      ${userFields}
    `,
    variables: (req) => ({ user: req.params.user }),
    shape: accountShape('user'),
  },
  {
    method: 'PATCH',
    path: account,
    versions: both,
    uploads: true,
    document: gql`
      mutation RestEditAccount($user: String!, $input: AccountInput!, $picture: Upload) {
        editUser(user: $user, input: $input, picture: $picture) {
          ...RestUserFields
        }
      }
      ${userFields}
    `,
    variables: (req) => ({
      user: req.params.user,
      input: accountInputFromBody(req.body),
      picture: picture(req),
    }),
    shape: accountShape('editUser'),
  },
  // The contract writes this path without its trailing slash; both forms are served.
  ...[`${account}picture/`, `${account}picture`].map((path) => ({
    method: 'DELETE' as const,
    path,
    versions: both,
    document: gql`
      mutation RestDeleteAccountPicture($user: String!) {
        deleteUserPicture(user: $user) {
          ...RestUserFields
        }
      }
      ${userFields}
    `,
    variables: (req: RestRequest) => ({ user: req.params.user }),
    shape: accountShape('deleteUserPicture'),
  })),
  {
    method: 'GET',
    path: `${account}notifications/`,
    versions: both,
    document: gql`
      query RestNotifications($user: String!) {
        notifications(user: $user) {
          name
          enabled
          mandatory
        }
      }
    `,
    variables: (req) => ({ user: req.params.user }),
    shape: (data: RestNotificationsQuery) => data.notifications,
  },
  {
    method: 'POST',
    path: `${account}notifications/`,
    versions: both,
    document: gql`
      mutation RestUpdateNotifications($user: String!, $changes: [NotificationChange!]!) {
        updateNotifications(user: $user, changes: $changes) {
          name
          enabled
          mandatory
        }
      }
    `,
    variables: (req) => ({ user: req.params.user, changes: notificationChangesFromBody(req.body) }),
    shape: (data: RestUpdateNotificationsMutation) => data.updateNotifications,
  },
  {
    // The one-click unsubscribe link of notification mails (no sign-in: the token and hash are it).
    method: 'POST',
    path: '/accounts/unsubscribe/',
    versions: both,
    // The original authenticates this view by the token alone: an Authorization header is ignored.
    auth: [],
    document: gql`
      mutation RestUnsubscribeNotification($token: String, $hash: String, $notification: String) {
        unsubscribeNotification(token: $token, hash: $hash, notification: $notification) {
          name
          enabled
          mandatory
        }
      }
    `,
    variables: (req) => unsubscribeFromBody(req.body),
    shape: (data: RestUnsubscribeNotificationMutation) => data.unsubscribeNotification,
  },
  {
    method: 'DELETE',
    path: account,
    versions: both,
    document: gql`
      mutation RestDeleteAccount($user: String!) {
        deleteUser(user: $user)
      }
    `,
    variables: (req) => ({ user: req.params.user }),
    status: 204,
    shape: () => null,
  },
  {
    method: 'DELETE',
    path: '/accounts/session/',
    versions: both,
    document: gql`
      mutation RestLogout {
        logout
      }
    `,
    shape: (_data, ctx) => loggedOut(ctx),
  },
  {
    method: 'POST',
    path: '/accounts/super-create/',
    versions: both,
    document: gql`
      mutation RestSuperCreate($input: SuperCreateInput!) {
        superCreateAccount(input: $input) {
          userId
          username
          email
          displayName
          idpId
          groups {
            id
            name
            rules
          }
          sessionCookie {
            name
            value
            encoded
          }
        }
      }
    `,
    variables: (req) => ({ input: superCreateInputFromBody(req.body) }),
    status: 201,
    shape: (data: RestSuperCreateMutation) => {
      const a = data.superCreateAccount;
      return {
        user_id: a.userId,
        username: a.username,
        email: a.email,
        display_name: a.displayName,
        idp_id: a.idpId,
        groups: a.groups,
        session_cookie: a.sessionCookie,
      };
    },
  },
]);
