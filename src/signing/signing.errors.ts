import { errors } from '../core/errors.js';

/** The signing API's messages (docs/compat-notes.md §3); its routes answer 4xx errors as `{"error": …}`. */
export const signingErrors = {
  notOwner: () => errors.forbidden('You do not own this addon.'),
  addonNotFound: (guid: string) => errors.notFound(`Could not find add-on with id "${guid}".`),
  uploadNotFound: () => errors.notFound('No uploaded file for that addon and version.'),
  missingUpload: () => bad('Missing "upload" key in multipart file data.'),
  guidMismatch: (manifest: string, existing: string) =>
    bad(
      `The add-on ID in your manifest.json or install.rdf (${manifest}) does not match the ID of your add-on on AMO (${existing})`,
    ),
  duplicateGuid: () => bad('Duplicate add-on ID found.'),
  versionMismatch: () => bad('Version does not match the manifest file.'),
  /** The original's words, with the block's API address where it links the block's page. */
  versionBlocked: (version: string, blockUrl: string) =>
    bad(
      `Version ${version} matches ${blockUrl} for this add-on. You can contact the site's administrators for additional information.`,
    ),
  versionExists: (version: string) => errors.conflict(`Version ${version} already exists.`),
  versionDeleted: (version: string) => errors.conflict(`Version ${version} was uploaded before and deleted.`),
  versionInProgress: (version: string) =>
    errors.conflict(`Version ${version} was uploaded already and is being processed.`),
  disabledByVendor: (vendor: string) =>
    bad(`You cannot add versions to an addon that has status: Disabled by ${vendor}.`),
  missingListedMetadata: () =>
    bad(
      'You cannot add a listed version to this addon via the API due to missing metadata. Please submit via the website',
    ),
  invisibleAddon: () =>
    bad('You cannot add a listed version to an add-on that is invisible (disabled by its developer).'),
  typeMismatch: (uploaded: string, existing: string) =>
    bad(`<em:type> in your install.rdf (${uploaded}) does not match the type of your add-on on AMO (${existing})`),
  trademark: (vendor: string, browser: string) =>
    bad(`Add-on names cannot contain the ${vendor} or ${browser} trademarks.`),
  experiment: () => bad('You cannot submit this type of add-on'),
  reservedGuid: (suffix: string) => bad(`You cannot submit an add-on with a guid ending "${suffix}"`),
  vendorSigned: (vendor: string) => bad(`You cannot submit a ${vendor} Signed Extension`),
  notWritable: () => bad('Uploads are not accepted at the moment.'),
};

function bad(message: string) {
  return errors.badRequest(message);
}
