import { errors } from '../../src/core/errors.js';
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

/** `POST addon/<addon_id>/<action>/`: one lifecycle mutation with one boolean argument, answered 202. */
function adminAction(action: string, operation: string, mutation: string, argument: string, value: boolean) {
  return {
    method: 'POST' as const,
    path: `/reviewers/addon/<addon_id>/${action}/`,
    versions: v4,
    document: gql`
      mutation ${operation}($addon: String!) {
        ${mutation}(addon: $addon, ${argument}: ${String(value)}) {
          id
        }
      }
    `,
    variables: (req: RestRequest) => ({ addon: addonId(req) }),
    status: 202,
    shape: () => undefined,
  };
}

export const reviewerRoutes = defineRoutes([
  adminAction('disable', 'RestReviewerDisableAddon', 'setAddonDisabledByVendor', 'disabled', true),
  adminAction('enable', 'RestReviewerEnableAddon', 'setAddonDisabledByVendor', 'disabled', false),
  adminAction('deny_resubmission', 'RestReviewerDenyResubmission', 'setAddonResubmissionDenied', 'denied', true),
  adminAction('allow_resubmission', 'RestReviewerAllowResubmission', 'setAddonResubmissionDenied', 'denied', false),
]);
