import { errors } from '../../src/core/errors.js';
import { reviewerFlagsFromBody } from '../params/reviewers.js';
import { defineRoutes, gql, type RestRequest } from '../route.js';

/**
 * Reviewer tools (v4 only, `/api/v4/reviewers/…`): the lifecycle operations admins run on an
 * add-on (`Reviews:Admin`). The add-on is named by its numeric id; anything else is not a route
 * of the original (404). Success is an empty 202; "already so" for resubmission is a 409.
 */
const v4 = ['v4'] as const;

function addonId(req: RestRequest): string {
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

interface ReviewerFlagsData {
  updateAddonReviewerFlags: {
    autoApprovalDisabled: boolean;
    autoApprovalDisabledUntilNextApproval: boolean;
    autoApprovalDelayedUntil: string | null;
    needsAdminCodeReview: boolean;
    needsAdminContentReview: boolean;
    needsAdminThemeReview: boolean;
  };
}

export const reviewerRoutes = defineRoutes([
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
    shape: ({ updateAddonReviewerFlags: f }: ReviewerFlagsData, ctx) => ({
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
