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

const disabledByVendor = (disabled: boolean) => ({
  method: 'POST' as const,
  path: `/reviewers/addon/<addon_id>/${disabled ? 'disable' : 'enable'}/`,
  versions: v4,
  document: gql`
    mutation ${disabled ? 'RestReviewerDisableAddon' : 'RestReviewerEnableAddon'}($addon: String!) {
      setAddonDisabledByVendor(addon: $addon, disabled: ${String(disabled)}) {
        id
      }
    }
  `,
  variables: (req: RestRequest) => ({ addon: addonId(req) }),
  status: 202,
  shape: () => undefined,
});

const resubmission = (denied: boolean) => ({
  method: 'POST' as const,
  path: `/reviewers/addon/<addon_id>/${denied ? 'deny_resubmission' : 'allow_resubmission'}/`,
  versions: v4,
  document: gql`
    mutation ${denied ? 'RestReviewerDenyResubmission' : 'RestReviewerAllowResubmission'}($addon: String!) {
      setAddonResubmissionDenied(addon: $addon, denied: ${String(denied)}) {
        id
      }
    }
  `,
  variables: (req: RestRequest) => ({ addon: addonId(req) }),
  status: 202,
  shape: () => undefined,
});

export const reviewerRoutes = defineRoutes([
  disabledByVendor(true),
  disabledByVendor(false),
  resubmission(true),
  resubmission(false),
]);
