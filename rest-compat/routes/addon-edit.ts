import type {
  RestAddonDeleteConfirmQuery,
  RestAddonDeleteMutation,
  RestAddonEditMutation,
  RestAddonEulaPolicyEditMutation,
} from '../generated/operations.js';
import { parseAddonEdit } from '../params/addon-edit.js';
import { defineRoutes, gql } from '../route.js';
import { addonFields, shapeAddon, versionFields } from '../shapes/addons.js';

/**
 * The developer hub's add-on endpoints of v5 (the original's `addons.rst`, "Edit", "Addon Icon",
 * "Delete", "Delete Confirm", "EULA and Privacy Policy Edit"), over the listing's and the
 * lifecycle's operations: `updateAddonListing` (listing, disabled flag, icon), `addonDeleteConfirmation`,
 * `deleteAddon`. API keys or sessions, DRF error bodies.
 */
const v5 = { versions: ['v5'] as const };

/** The add-on detail after an edit: the one `GET /addons/addon/<addon>/` answers. */
const editedAddonFields = gql`
  fragment RestEditedAddonFields on Addon {
    ...RestAddonFields
    currentVersion {
      ...RestVersionFields
    }
    latestUnlistedVersion {
      ...RestVersionFields
    }
    canSeeUnlisted
  }
  ${addonFields}
  ${versionFields}
`;

export const addonEditRoutes = defineRoutes([
  {
    // JSON, or multipart with an `icon` file (and other flat fields): one operation, all or nothing.
    ...v5,
    method: 'PATCH',
    path: '/addons/addon/<addon>/',
    uploads: true,
    document: gql`
      mutation RestAddonEdit($addon: String!, $input: UpdateAddonListingInput!, $icon: Upload) {
        updateAddonListing(addon: $addon, input: $input, icon: $icon) {
          ...RestEditedAddonFields
        }
      }
      ${editedAddonFields}
    `,
    variables: (req) => {
      const { input, icon } = parseAddonEdit(req.body);
      return { addon: req.params.addon, input, icon };
    },
    shape: (data: RestAddonEditMutation, ctx) => shapeAddon(data.updateAddonListing, ctx),
  },
  {
    ...v5,
    method: 'GET',
    path: '/addons/addon/<addon>/delete_confirm/',
    document: gql`
      query RestAddonDeleteConfirm($addon: String!) {
        addonDeleteConfirmation(addon: $addon)
      }
    `,
    variables: (req) => ({ addon: req.params.addon }),
    shape: (data: RestAddonDeleteConfirmQuery) => ({ delete_confirm: data.addonDeleteConfirmation }),
  },
  {
    ...v5,
    method: 'DELETE',
    path: '/addons/addon/<addon>/',
    document: gql`
      mutation RestAddonDelete($addon: String!, $confirmation: String!) {
        deleteAddon(addon: $addon, confirmation: $confirmation)
      }
    `,
    // A missing token is the empty one: refused by the lifecycle after the permission check, as the original.
    variables: (req) => ({ addon: req.params.addon, confirmation: req.query.get('delete_confirm') ?? '' }),
    status: 204,
    shape: (_data: RestAddonDeleteMutation) => null,
  },
  {
    ...v5,
    method: 'PATCH',
    path: '/addons/addon/<addon>/eula_policy/',
    document: gql`
      mutation RestAddonEulaPolicyEdit($addon: String!, $input: UpdateAddonListingInput!) {
        updateAddonListing(addon: $addon, input: $input) {
          defaultLocale
          eula
          privacyPolicy
        }
      }
    `,
    variables: (req) => ({
      addon: req.params.addon,
      input: parseAddonEdit(req.body, ['eula', 'privacy_policy']).input,
    }),
    shape: (data: RestAddonEulaPolicyEditMutation, ctx) => ({
      eula: ctx.translated(data.updateAddonListing.eula, data.updateAddonListing.defaultLocale),
      privacy_policy: ctx.translated(data.updateAddonListing.privacyPolicy, data.updateAddonListing.defaultLocale),
    }),
  },
]);
