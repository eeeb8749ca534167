import { errors } from '../../src/core/errors.js';
import type {
  RestAddonPendingAuthorsQuery,
  RestAnswerAuthorInvitationMutation,
  RestCancelPendingAuthorMutation,
  RestInviteAddonAuthorMutation,
  RestUpdatePendingAuthorMutation,
  RestAddonAuthorsQuery,
  RestRemoveAddonAuthorMutation,
  RestUpdateAddonAuthorMutation,
} from '../generated/operations.js';
import { defineRoutes, gql, type RestRequest } from '../route.js';

const ROLES: Record<string, 'OWNER' | 'DEVELOPER'> = { owner: 'OWNER', developer: 'DEVELOPER' };

type AuthorDetail = RestAddonAuthorsQuery['addon']['authorDetails'][number];

/** The original's author object: user_id, name, email, role (owner | developer), listed, position. */
function shapeAuthor(a: AuthorDetail) {
  return {
    user_id: a.userId,
    name: a.name,
    email: a.email,
    role: a.role.toLowerCase(),
    listed: a.listed,
    position: a.position,
  };
}

/** The author `<user_id>` of the add-on, or a 404 as the original answers for a non-author. */
function pick(authors: readonly AuthorDetail[], req: RestRequest) {
  const found = authors.find((a) => String(a.userId) === req.params.user_id);
  if (!found) throw errors.notFound();
  return shapeAuthor(found);
}

function userId(req: RestRequest): number {
  const raw = req.params.user_id ?? '';
  if (!/^\d{1,9}$/.test(raw)) throw errors.notFound();
  return Number(raw);
}

/** PATCH body: role, listed, position, each optional; other types are field errors. */
function patchVariables(req: RestRequest, problems: Record<string, string[]> = {}) {
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) throw errors.badRequest('Invalid data.');
  let role: string | null = null;
  if (body.role !== undefined) {
    role = typeof body.role === 'string' ? (ROLES[body.role] ?? null) : null;
    if (!role) problems.role = [`"${String(body.role)}" is not a valid choice.`];
  }
  if (body.listed !== undefined && typeof body.listed !== 'boolean') problems.listed = ['Must be a valid boolean.'];
  const position = body.position;
  if (
    position !== undefined &&
    !(Number.isInteger(position) && (position as number) >= 0 && (position as number) < 1e6)
  ) {
    problems.position = ['A valid integer is required.'];
  }
  if (Object.keys(problems).length) throw errors.validation(problems);
  return {
    role,
    listed: typeof body.listed === 'boolean' ? body.listed : null,
    position: position === undefined ? null : position,
  };
}

/** POST pending-authors/ body: user_id (required), role, listed. */
function inviteVariables(req: RestRequest) {
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) throw errors.badRequest('Invalid data.');
  const problems: Record<string, string[]> = {};
  const id = body.user_id;
  if (id === undefined || id === null) problems.user_id = ['This field is required.'];
  else if (!(Number.isInteger(id) || (typeof id === 'string' && /^\d{1,9}$/.test(id)))) {
    problems.user_id = ['A valid integer is required.'];
  } else if (Number(id) > 2_147_483_647) problems.user_id = ['A valid integer is required.'];
  const { role, listed } = patchVariables(req, problems);
  return { addon: req.params.addon, userId: Number(id), role: role ?? 'DEVELOPER', listed: listed ?? true };
}

const pendingFields = `
  userId
  name
  email
  role
  listed
`;

function shapePending(a: Omit<AuthorDetail, 'position'>) {
  return { user_id: a.userId, name: a.name, email: a.email, role: a.role.toLowerCase(), listed: a.listed };
}

const pendingRoutes = [
  {
    method: 'GET',
    path: '/addons/addon/<addon>/pending-authors/',
    versions: ['v5'],
    auth: ['jwt', 'session'],
    document: gql`
      query RestAddonPendingAuthors($addon: String!) {
        addonPendingAuthors(addon: $addon) {
          ${pendingFields}
        }
      }
    `,
    variables: (req: RestRequest) => ({ addon: req.params.addon }),
    shape: (data: RestAddonPendingAuthorsQuery) => data.addonPendingAuthors.map(shapePending),
  },
  {
    method: 'GET',
    path: '/addons/addon/<addon>/pending-authors/<user_id>/',
    versions: ['v5'],
    auth: ['jwt', 'session'],
    document: gql`
      query RestAddonPendingAuthor($addon: String!) {
        addonPendingAuthors(addon: $addon) {
          ${pendingFields}
        }
      }
    `,
    variables: (req: RestRequest) => (userId(req), { addon: req.params.addon }),
    shape: (data: RestAddonPendingAuthorsQuery, ctx: { request: RestRequest }) => {
      const found = data.addonPendingAuthors.find((a) => String(a.userId) === ctx.request.params.user_id);
      if (!found) throw errors.notFound();
      return shapePending(found);
    },
  },
  {
    method: 'POST',
    path: '/addons/addon/<addon>/pending-authors/',
    versions: ['v5'],
    auth: ['jwt', 'session'],
    errorStyle: 'drf',
    document: gql`
      mutation RestInviteAddonAuthor($addon: String!, $userId: Int!, $role: AuthorRole!, $listed: Boolean!) {
        inviteAddonAuthor(addon: $addon, userId: $userId, role: $role, listed: $listed) {
          ${pendingFields}
        }
      }
    `,
    variables: inviteVariables,
    status: 201,
    shape: (data: RestInviteAddonAuthorMutation) => shapePending(data.inviteAddonAuthor),
  },
  {
    method: 'PATCH',
    path: '/addons/addon/<addon>/pending-authors/<user_id>/',
    versions: ['v5'],
    auth: ['jwt', 'session'],
    errorStyle: 'drf',
    document: gql`
      mutation RestUpdatePendingAuthor($addon: String!, $userId: Int!, $role: AuthorRole, $listed: Boolean) {
        updateAddonPendingAuthor(addon: $addon, userId: $userId, role: $role, listed: $listed) {
          ${pendingFields}
        }
      }
    `,
    variables: (req: RestRequest) => {
      const { role, listed } = patchVariables(req);
      return { addon: req.params.addon, userId: userId(req), role, listed };
    },
    shape: (data: RestUpdatePendingAuthorMutation) => shapePending(data.updateAddonPendingAuthor),
  },
  {
    method: 'DELETE',
    path: '/addons/addon/<addon>/pending-authors/<user_id>/',
    versions: ['v5'],
    auth: ['jwt', 'session'],
    document: gql`
      mutation RestCancelPendingAuthor($addon: String!, $userId: Int!) {
        cancelAddonPendingAuthor(addon: $addon, userId: $userId)
      }
    `,
    variables: (req: RestRequest) => ({ addon: req.params.addon, userId: userId(req) }),
    status: 204,
    shape: (_data: RestCancelPendingAuthorMutation) => null,
  },
  ...(['confirm', 'decline'] as const).map(
    (answer) =>
      ({
        method: 'POST',
        path: `/addons/addon/<addon>/pending-authors/${answer}/`,
        versions: ['v5'],
        auth: ['jwt', 'session'],
        document: gql`
          mutation RestAnswerAuthorInvitation($addon: String!, $accept: Boolean!) {
            confirm: confirmAddonAuthorInvitation(addon: $addon) @include(if: $accept) {
              id
            }
            decline: declineAddonAuthorInvitation(addon: $addon) @skip(if: $accept) {
              id
            }
          }
        `,
        variables: (req: RestRequest) => ({ addon: req.params.addon, accept: answer === 'confirm' }),
        shape: (_data: RestAnswerAuthorInvitationMutation) => null,
      }) as const,
  ),
] as const;

const listDocument = gql`
  query RestAddonAuthors($addon: String!) {
    addon(id: $addon) {
      id
      authorDetails {
        userId
        name
        email
        role
        listed
        position
      }
    }
  }
`;

/**
 * v5 add-on authors (the original's AddonAuthorViewSet): the list and one author for the add-on's
 * authors, edits and removal for its owners; and its pending authors (AddonPendingAuthorViewSet):
 * invitations owners send, edit and withdraw, which the invitee confirms or declines. The rules are
 * ListingService's.
 */
export const authorRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/addons/addon/<addon>/authors/',
    versions: ['v5'],
    auth: ['session'],
    document: listDocument,
    variables: (req) => ({ addon: req.params.addon }),
    shape: (data: RestAddonAuthorsQuery) => data.addon.authorDetails.map(shapeAuthor),
  },
  {
    method: 'GET',
    path: '/addons/addon/<addon>/authors/<user_id>/',
    versions: ['v5'],
    auth: ['session'],
    document: listDocument,
    variables: (req) => (userId(req), { addon: req.params.addon }),
    shape: (data: RestAddonAuthorsQuery, ctx) => pick(data.addon.authorDetails, ctx.request),
  },
  {
    method: 'PATCH',
    path: '/addons/addon/<addon>/authors/<user_id>/',
    versions: ['v5'],
    auth: ['session'],
    errorStyle: 'drf',
    document: gql`
      mutation RestUpdateAddonAuthor(
        $addon: String!
        $userId: Int!
        $role: AuthorRole
        $listed: Boolean
        $position: Int
      ) {
        updateAddonAuthor(addon: $addon, userId: $userId, role: $role, listed: $listed, position: $position) {
          id
          authorDetails {
            userId
            name
            email
            role
            listed
            position
          }
        }
      }
    `,
    variables: (req) => ({ addon: req.params.addon, userId: userId(req), ...patchVariables(req) }),
    shape: (data: RestUpdateAddonAuthorMutation, ctx) => pick(data.updateAddonAuthor.authorDetails, ctx.request),
  },
  {
    method: 'DELETE',
    path: '/addons/addon/<addon>/authors/<user_id>/',
    versions: ['v5'],
    auth: ['session'],
    document: gql`
      mutation RestRemoveAddonAuthor($addon: String!, $userId: Int!) {
        removeAddonAuthor(addon: $addon, userId: $userId) {
          id
        }
      }
    `,
    variables: (req) => ({ addon: req.params.addon, userId: userId(req) }),
    status: 204,
    shape: (_data: RestRemoveAddonAuthorMutation) => null,
  },
  ...pendingRoutes,
]);
