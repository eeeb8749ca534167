import Upload from 'graphql-upload/Upload.mjs';
import { errors } from '../../src/core/errors.js';
import { fieldMessages } from '../../src/core/messages.js';
import type {
  SubmissionCreateVersionMutation,
  SubmissionEditVersionMutation,
  SubmissionSubmitMutation,
  SubmissionUploadDetailQuery,
  SubmissionUploadFieldsFragment,
  SubmissionUploadMutation,
  SubmissionRollbackMutation,
  SubmissionVersionQuery,
  SubmissionVersionsQuery,
} from '../generated/operations.js';
import { categorySlugs } from '../params/addon-edit.js';
import { parseIntParam, parseVersionFilter, refuseFilterOnDetail } from '../params/catalogue.js';
import { paginated, pageVariables } from '../pagination.js';
import {
  defineSubmissionRoutes,
  gql,
  type RestRequest,
  type ShapeContext,
  type SubmissionApiVersion,
} from '../route.js';
import {
  queueStandingFields,
  shapeQueueStanding,
  shapeVersion as shapeCatalogueVersion,
  versionFields,
  type VersionData,
} from '../shapes/addons.js';
import { restEnums } from '../shapes/enums.js';
import { releaseNotesVariable, versionFieldVariables } from '../params/version-edit.js';

/**
 * The v5 submission API, as far as web-ext 8+ (and 7 with `--use-submission-api`) uses it: upload
 * a package (validated on its own), submit it to an add-on, follow the version to its signed file.
 * The same operations and pipeline as the signing API (`submitAddonVersion`, `addonUpload`), and
 * the catalogue's version queries; v5's conventions: translated fields as objects of locales, DRF
 * error bodies (`{"detail"}`, field maps), API keys or sessions.
 */
type Request = RestRequest<SubmissionApiVersion>;
type Context = ShapeContext<SubmissionApiVersion>;

export const uploadFields = gql`
  fragment SubmissionUploadFields on AddonUpload {
    uuid
    channel
    processed
    submitted
    valid
    validationResults
    version
  }
`;

/** v5's upload object (keys in the original serializer's order). */
export function shapeUpload(u: SubmissionUploadFieldsFragment, ctx: Context) {
  return {
    uuid: u.uuid,
    channel: restEnums.channel(u.channel),
    processed: u.processed,
    submitted: u.submitted,
    url: `${ctx.baseUrl}/api/v5/addons/upload/${u.uuid}/`,
    valid: u.valid,
    validation: u.validationResults,
    version: u.version,
  };
}

/**
 * v5's version object (shapes/addons.ts, as v5's gates say: one `file`, status names, translated
 * fields as objects), whose file `url` is the API-key download (`/api/v4/file/…`: streamed to
 * authors, public files redirected to the mirror), which web-ext fetches with its key.
 */
function shapeVersion(version: VersionData & { hasSource?: boolean } & DeveloperFacts, ctx: Context) {
  const shaped = withDeveloperFields(withSource(shapeCatalogueVersion(version, ctx), version), version);
  const file = version.files[0];
  if (!file || !('file' in shaped) || !shaped.file) return shaped;
  const url = `${ctx.baseUrl}/api/v4/file/${file.id}/${new URL(file.url).pathname.split('/').pop()}`;
  return { ...shaped, file: { ...shaped.file, url } };
}

/** v5's `has_source` (whether a source code archive is attached), where the document asked for it. */
function withSource<T extends object>(shaped: T, version: { hasSource?: boolean }): T & { has_source?: boolean } {
  return version.hasSource === undefined ? shaped : { ...shaped, has_source: version.hasSource };
}

/** What a document may ask for the developer's view of a version (`approvalNotes`: null for other viewers). */
interface DeveloperFacts {
  approvalNotes?: string | null;
  isDisabled?: boolean;
}

/**
 * The developer's view of a version (the original's developer version serializer: `approval_notes`
 * after `id`, `is_disabled` after `file`), where the document asked for it and the viewer may read
 * the notes (authors, reviewers of its channel, `Addons:Edit`); other viewers get the plain version.
 */
function withDeveloperFields<T extends object>(
  shaped: T,
  version: DeveloperFacts,
): T & { approval_notes?: string; is_disabled?: boolean } {
  if (version.approvalNotes === undefined || version.approvalNotes === null) return shaped;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(shaped)) {
    if (key === 'channel') out.approval_notes = version.approvalNotes;
    out[key] = value;
    if (key === 'file' || key === 'files') out.is_disabled = version.isDisabled ?? false;
  }
  return out as T;
}

/**
 * A version edit's `source`: a multipart file part. Anything else named `source` is DRF's refusal
 * of a non-file (a JSON body cannot carry one); absent or null: no change.
 */
function sourceField(req: Request): Upload | null {
  const { source } = form(req);
  if (source === undefined || source === null) return null;
  if (source instanceof Upload) return source;
  throw errors.field('source', 'The submitted data was not a file. Check the encoding type on the form.');
}

/**
 * The add-on after a submission, with the new `version`. `current_version` falls back to the
 * submitted listed version while none is public (web-ext 7 reads it after creating a listed add-on).
 */
function shapeSubmitted(data: SubmissionSubmitMutation, ctx: Context) {
  const { addon, createdVersion } = data.submitAddonVersion.upload;
  if (!addon || !createdVersion) throw new Error('a submitted upload has its add-on and version');
  const version = shapeVersion(createdVersion, ctx);
  const listed = createdVersion.channel === 'LISTED';
  return {
    id: addon.id,
    categories: addon.categories.filter((c) => c.application === 'BROWSER').map((c) => c.slug),
    current_version: addon.currentVersion ? shapeVersion(addon.currentVersion, ctx) : listed ? version : null,
    description: addon.description,
    edit_url: addon.editUrl,
    guid: addon.guid,
    latest_unlisted_version: addon.latestUnlistedVersion ? shapeVersion(addon.latestUnlistedVersion, ctx) : null,
    name: addon.name,
    slug: addon.slug,
    status: restEnums.status(addon.status, 'v4'),
    summary: addon.summary,
    url: addon.url,
    version,
  };
}

const submitDocument = gql`
  mutation SubmissionSubmit($uploadUuid: String!, $guid: String, $metadata: SubmissionMetadataInput) {
    submitAddonVersion(uploadUuid: $uploadUuid, guid: $guid, metadata: $metadata) {
      addonCreated
      upload {
        ...SubmissionUploadFields
        createdVersion {
          ...RestVersionFields
        }
        addon {
          id
          guid
          slug
          status
          name
          summary
          description
          editUrl
          url
          categories {
            slug
            application
          }
          currentVersion {
            ...RestVersionFields
          }
          latestUnlistedVersion {
            ...RestVersionFields
          }
        }
      }
    }
  }
  ${uploadFields}
  ${versionFields}
`;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `{"version": {"upload": "<uuid>", "license": …}, "name": …, "summary": …, "categories": […]}`:
 * the upload to submit and the listing metadata (web-ext's `--amo-metadata` merges into it).
 */
function submissionVariables(req: Request, guid: string | null) {
  const body = isObject(req.body) ? req.body : {};
  const version = body.version;
  if (!isObject(version)) throw errors.field('version', fieldMessages.required);
  if (typeof version.upload !== 'string' || !version.upload) throw errors.field('upload', fieldMessages.required);
  const categories = categorySlugs(body.categories);
  const license = version.license;
  if (license !== undefined && license !== null && typeof license !== 'string') {
    throw errors.field('license', 'Incorrect type. Expected slug value.');
  }
  return {
    uploadUuid: version.upload,
    guid,
    metadata: {
      name: body.name ?? null,
      summary: body.summary ?? null,
      description: body.description ?? null,
      categories,
      license: license ?? null,
    },
  };
}

function form(req: Request): Record<string, unknown> {
  return isObject(req.body) ? req.body : {};
}

const v5 = { versions: ['v5'] as const, errorStyle: 'drf' as const };

/** A version in a v5 path: its id (digits), or its number (`2.2`, also written `v2.2`). */
function versionIdOrNumber(value: string): { id: number | null; number: string | null } {
  if (/^\d+$/.test(value)) return { id: parseIntParam(value), number: null };
  return { id: null, number: /^v\d/.test(value) ? value.slice(1) : value };
}

export const submissionRoutes = defineSubmissionRoutes([
  {
    ...v5,
    method: 'POST',
    path: '/addons/upload/',
    uploads: true,
    document: gql`
      mutation SubmissionUpload($upload: Upload, $channel: String) {
        submitAddonVersion(upload: $upload, channel: $channel, submit: false) {
          upload {
            ...SubmissionUploadFields
          }
        }
      }
      ${uploadFields}
    `,
    variables: (req) => {
      const { upload, channel } = form(req);
      return {
        upload: upload instanceof Upload ? upload : null,
        channel: typeof channel === 'string' ? channel : null,
      };
    },
    status: 201,
    shape: (data: SubmissionUploadMutation, ctx) => shapeUpload(data.submitAddonVersion.upload, ctx),
  },
  {
    ...v5,
    method: 'GET',
    path: '/addons/upload/<uuid>/',
    document: gql`
      query SubmissionUploadDetail($uuid: String!) {
        addonUpload(uuid: $uuid) {
          ...SubmissionUploadFields
        }
      }
      ${uploadFields}
    `,
    variables: (req) => ({ uuid: req.params.uuid }),
    shape: (data: SubmissionUploadDetailQuery, ctx) => shapeUpload(data.addonUpload, ctx),
  },
  {
    ...v5,
    method: 'POST',
    path: '/addons/addon/',
    document: submitDocument,
    variables: (req) => submissionVariables(req, null),
    status: 201,
    shape: shapeSubmitted,
  },
  {
    ...v5,
    method: 'PUT',
    path: '/addons/addon/<guid>/',
    document: submitDocument,
    variables: (req) => submissionVariables(req, req.params.guid),
    status: (data: SubmissionSubmitMutation) => (data.submitAddonVersion.addonCreated ? 201 : 200),
    shape: shapeSubmitted,
  },
  {
    ...v5,
    method: 'GET',
    path: '/addons/addon/<addon>/versions/',
    document: gql`
      query SubmissionVersions($addon: String!, $filter: String, $page: Int, $pageSize: Int) {
        addonVersions(addon: $addon, filter: $filter, page: $page, pageSize: $pageSize) {
          count
          page
          pageSize
          pageCount
          items {
            ...RestVersionFields
            hasSource
            approvalNotes
            isDisabled
          }
        }
      }
      ${versionFields}
    `,
    variables: (req) => ({ addon: req.params.addon, filter: parseVersionFilter(req.query), ...pageVariables(req) }),
    shape: (data: SubmissionVersionsQuery, ctx) => paginated(data.addonVersions, ctx, (v) => shapeVersion(v, ctx)),
  },
  {
    ...v5,
    method: 'GET',
    path: '/addons/addon/<addon>/versions/<version>/',
    document: gql`
      query SubmissionVersion($addon: String!, $id: Int, $number: String) {
        addonVersion(addon: $addon, id: $id, number: $number) {
          ...RestVersionFields
          hasSource
          approvalNotes
          isDisabled
          license {
            text
          }
          queueStanding {
            ...RestQueueStandingFields
          }
        }
      }
      ${versionFields}
      ${queueStandingFields}
    `,
    variables: (req) => {
      refuseFilterOnDetail(req.query);
      return { addon: req.params.addon, ...versionIdOrNumber(req.params.version!) };
    },
    shape: (data: SubmissionVersionQuery, ctx) => ({
      ...shapeVersion(data.addonVersion, ctx),
      ...shapeQueueStanding(data.addonVersion.queueStanding, ctx),
    }),
  },
  {
    ...v5,
    method: 'POST',
    path: '/addons/addon/<addon>/versions/',
    uploads: true,
    document: gql`
      mutation SubmissionCreateVersion(
        $addon: String!
        $upload: String!
        $license: String
        $source: Upload
        $releaseNotes: TranslatedInput
        $fields: VersionFieldsInputType
      ) {
        createAddonVersion(
          addon: $addon
          uploadUuid: $upload
          license: $license
          source: $source
          releaseNotes: $releaseNotes
          fields: $fields
        ) {
          ...RestVersionFields
          hasSource
          approvalNotes
          isDisabled
        }
      }
      ${versionFields}
    `,
    variables: (req) => {
      const { upload, license } = form(req);
      if (typeof upload !== 'string' || !upload) throw errors.field('upload', fieldMessages.required);
      if (license !== undefined && license !== null && typeof license !== 'string') {
        throw errors.field('license', 'Incorrect type. Expected slug value.');
      }
      const { is_disabled: _createIgnores, ...fields } = versionFieldVariables(req);
      return {
        addon: req.params.addon,
        upload,
        license: license ?? null,
        source: sourceField(req),
        ...releaseNotesVariable(req),
        fields,
      };
    },
    status: 201,
    shape: (data: SubmissionCreateVersionMutation, ctx) => shapeVersion(data.createAddonVersion, ctx),
  },
  {
    ...v5,
    method: 'PATCH',
    path: '/addons/addon/<addon>/versions/<version>/',
    uploads: true,
    document: gql`
      mutation SubmissionEditVersion(
        $addon: String!
        $id: Int!
        $source: Upload
        $releaseNotes: TranslatedInput
        $fields: VersionFieldsInputType
      ) {
        editVersion(addon: $addon, id: $id, source: $source, releaseNotes: $releaseNotes, fields: $fields) {
          ...RestVersionFields
          hasSource
          approvalNotes
          isDisabled
          license {
            text
          }
        }
      }
      ${versionFields}
    `,
    variables: (req) => ({
      addon: req.params.addon,
      id: parseIntParam(req.params.version),
      source: sourceField(req),
      ...releaseNotesVariable(req),
      fields: versionFieldVariables(req),
    }),
    shape: (data: SubmissionEditVersionMutation, ctx) => shapeVersion(data.editVersion, ctx),
  },
  {
    // Not in the original's API (its rollback is a devhub form): `{"version": "<new version string>"}`.
    ...v5,
    method: 'POST',
    path: '/addons/addon/<addon>/versions/<version>/rollback/',
    document: gql`
      mutation SubmissionRollback($addon: String!, $version: Int!, $newVersion: String!) {
        rollbackVersion(addon: $addon, version: $version, newVersion: $newVersion) {
          ...RestVersionFields
          license {
            text
          }
          queueStanding {
            ...RestQueueStandingFields
          }
        }
      }
      ${versionFields}
      ${queueStandingFields}
    `,
    variables: (req) => {
      const newVersion = form(req).version;
      if (newVersion === undefined || newVersion === null) throw errors.field('version', fieldMessages.required);
      if (typeof newVersion !== 'string') throw errors.field('version', 'Not a valid string.');
      return { addon: req.params.addon, version: parseIntParam(req.params.version), newVersion };
    },
    status: 201,
    shape: (data: SubmissionRollbackMutation, ctx) => ({
      ...shapeVersion(data.rollbackVersion, ctx),
      ...shapeQueueStanding(data.rollbackVersion.queueStanding, ctx),
    }),
  },
]);
