import { SINCE_V4 } from '../gates.js';
import { errors } from '../../src/core/errors.js';
import type {
  RestCannedResponsesQuery,
  RestCreateDraftCommentMutation,
  RestDraftCommentFieldsFragment,
  RestDraftCommentQuery,
  RestDraftCommentsQuery,
  RestReviewerFlagsMutation,
  RestUpdateDraftCommentMutation,
} from '../generated/operations.js';
import { paginated, pageVariables } from '../pagination.js';
import { draftCommentFromBody, reviewerFlagsFromBody } from '../params/reviewers.js';
import { defineRoutes, gql, type RestRequest } from '../route.js';

/**
 * Reviewer tools (v4 only, `/api/v4/reviewers/…`): the lifecycle operations admins run on an
 * add-on (`Reviews:Admin`). The add-on is named by its numeric id; anything else is not a route
 * of the original (404). Success is an empty 202; "already so" for resubmission is a 409.
 */
const v4 = SINCE_V4;

export function addonId(req: RestRequest): string {
  const id = req.params.addon_id;
  if (!/^\d{1,10}$/.test(id)) throw errors.notFound();
  return id;
}

/** `POST addon/<addon_id>/<action>/`: one mutation on the add-on, answered with an empty 202. */
function addonAction(action: string, document: string) {
  return {
    method: 'POST' as const,
    path: `/reviewers/addon/<addon_id>/${action}/`,
    versions: v4,
    document,
    variables: (req: RestRequest) => ({ addon: addonId(req) }),
    status: 202,
    shape: () => undefined,
  };
}

/** A lifecycle mutation with one boolean argument. */
const adminAction = (action: string, operation: string, mutation: string, argument: string, value: boolean) =>
  addonAction(
    action,
    gql`
      mutation ${operation}($addon: String!) {
        ${mutation}(addon: $addon, ${argument}: ${String(value)}) {
          id
        }
      }
    `,
  );

/**
 * `(un)subscribe[_listed|_unlisted]`: the caller's subscription to new versions of a channel (the
 * plain form is the listed channel, deprecated).
 */
const subscription = (action: string, operation: string, channel: 'LISTED' | 'UNLISTED', subscribed: boolean) =>
  addonAction(
    action,
    gql`
      mutation ${operation}($addon: String!) {
        setReviewerSubscription(addon: $addon, channel: ${channel}, subscribed: ${String(subscribed)})
      }
    `,
  );

const cannedFields = gql`
  fragment RestCannedResponseFields on CannedResponse {
    id
    title
    response
    category
  }
`;

const draftFields = gql`
  fragment RestDraftCommentFields on DraftComment {
    id
    comment
    filename
    lineno
    versionId
    user {
      id
      name
      username
      url
    }
    cannedResponse {
      ...RestCannedResponseFields
    }
  }
  ${cannedFields}
`;

const shapeDraft = (d: RestDraftCommentFieldsFragment) => ({
  id: d.id,
  comment: d.comment,
  filename: d.filename,
  lineno: d.lineno,
  version_id: d.versionId,
  user: d.user,
  canned_response: d.cannedResponse,
});

const drafts = '/reviewers/addon/<addon_id>/versions/<version_id>/draft_comments/';

/** The add-on, version and (for one comment) comment of a draft comment path; anything not an id is a 404. */
function draftVariables(req: RestRequest) {
  const id = (value: string | undefined) => {
    if (value === undefined) return undefined;
    if (!/^\d{1,9}$/.test(value)) throw errors.notFound();
    return Number(value);
  };
  return { addon: addonId(req), versionId: id(req.params.version_id), id: id(req.params.comment_id) };
}

/** One draft comment: detail, edit (with or without the trailing slash, as the contract lists it), delete. */
const draftComment = [`${drafts}<comment_id>/`, `${drafts}<comment_id>`].flatMap((path) => [
  {
    method: 'PATCH' as const,
    path,
    versions: v4,
    document: gql`
      mutation RestUpdateDraftComment($addon: String!, $versionId: Int!, $id: Int!, $input: DraftCommentInput!) {
        updateDraftComment(addon: $addon, versionId: $versionId, id: $id, input: $input) {
          ...RestDraftCommentFields
        }
      }
      ${draftFields}
    `,
    variables: (req: RestRequest) => ({ ...draftVariables(req), input: draftCommentFromBody(req.body) }),
    shape: (data: RestUpdateDraftCommentMutation) => shapeDraft(data.updateDraftComment),
  },
  ...(path.endsWith('/')
    ? [
        {
          method: 'GET' as const,
          path,
          versions: v4,
          document: gql`
            query RestDraftComment($addon: String!, $versionId: Int!, $id: Int!) {
              draftComment(addon: $addon, versionId: $versionId, id: $id) {
                ...RestDraftCommentFields
              }
            }
            ${draftFields}
          `,
          variables: draftVariables,
          shape: (data: RestDraftCommentQuery) => shapeDraft(data.draftComment),
        },
        {
          method: 'DELETE' as const,
          path,
          versions: v4,
          document: gql`
            mutation RestDeleteDraftComment($addon: String!, $versionId: Int!, $id: Int!) {
              deleteDraftComment(addon: $addon, versionId: $versionId, id: $id)
            }
          `,
          variables: draftVariables,
          status: 204,
          shape: () => undefined,
        },
      ]
    : []),
]);

export const reviewerRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/reviewers/canned-responses/',
    versions: v4,
    document: gql`
      query RestCannedResponses {
        cannedResponses {
          ...RestCannedResponseFields
        }
      }
      ${cannedFields}
    `,
    shape: (data: RestCannedResponsesQuery) => data.cannedResponses,
  },
  {
    method: 'GET',
    path: drafts,
    versions: v4,
    document: gql`
      query RestDraftComments($addon: String!, $versionId: Int!, $page: Int, $pageSize: Int) {
        draftComments(addon: $addon, versionId: $versionId, page: $page, pageSize: $pageSize) {
          count
          page
          pageSize
          pageCount
          items {
            ...RestDraftCommentFields
          }
        }
      }
      ${draftFields}
    `,
    variables: (req) => ({ ...draftVariables(req), ...pageVariables(req) }),
    shape: (data: RestDraftCommentsQuery, ctx) => paginated(data.draftComments, ctx, shapeDraft),
  },
  {
    method: 'POST',
    path: drafts,
    versions: v4,
    document: gql`
      mutation RestCreateDraftComment($addon: String!, $versionId: Int!, $input: DraftCommentInput!) {
        createDraftComment(addon: $addon, versionId: $versionId, input: $input) {
          ...RestDraftCommentFields
        }
      }
      ${draftFields}
    `,
    variables: (req) => ({ ...draftVariables(req), input: draftCommentFromBody(req.body) }),
    status: 201,
    shape: (data: RestCreateDraftCommentMutation) => shapeDraft(data.createDraftComment),
  },
  ...draftComment,
  subscription('subscribe', 'RestReviewerSubscribe', 'LISTED', true),
  subscription('subscribe_listed', 'RestReviewerSubscribeListed', 'LISTED', true),
  subscription('subscribe_unlisted', 'RestReviewerSubscribeUnlisted', 'UNLISTED', true),
  subscription('unsubscribe', 'RestReviewerUnsubscribe', 'LISTED', false),
  subscription('unsubscribe_listed', 'RestReviewerUnsubscribeListed', 'LISTED', false),
  subscription('unsubscribe_unlisted', 'RestReviewerUnsubscribeUnlisted', 'UNLISTED', false),
  {
    // The add-on's reviewer flags (Reviews:Admin): 200 with all of them after the change.
    method: 'PATCH',
    path: '/reviewers/addon/<addon_id>/flags/',
    versions: v4,
    document: gql`
      mutation RestReviewerFlags($addon: String!, $flags: AddonReviewerFlagsInput!) {
        updateAddonReviewerFlags(addon: $addon, flags: $flags) {
          autoApprovalDisabled
          autoApprovalDisabledUntilNextApproval
          autoApprovalDelayedUntil
          needsAdminCodeReview
          needsAdminContentReview
          needsAdminThemeReview
        }
      }
    `,
    variables: (req) => ({ addon: addonId(req), flags: reviewerFlagsFromBody(req.body) }),
    shape: ({ updateAddonReviewerFlags: f }: RestReviewerFlagsMutation, ctx) => ({
      auto_approval_disabled: f.autoApprovalDisabled,
      auto_approval_disabled_until_next_approval: f.autoApprovalDisabledUntilNextApproval,
      auto_approval_delayed_until: ctx.timestamp(f.autoApprovalDelayedUntil),
      needs_admin_code_review: f.needsAdminCodeReview,
      needs_admin_content_review: f.needsAdminContentReview,
      needs_admin_theme_review: f.needsAdminThemeReview,
    }),
  },
  adminAction('disable', 'RestReviewerDisableAddon', 'setAddonDisabledByVendor', 'disabled', true),
  adminAction('enable', 'RestReviewerEnableAddon', 'setAddonDisabledByVendor', 'disabled', false),
  adminAction('deny_resubmission', 'RestReviewerDenyResubmission', 'setAddonResubmissionDenied', 'denied', true),
  adminAction('allow_resubmission', 'RestReviewerAllowResubmission', 'setAddonResubmissionDenied', 'denied', false),
]);
