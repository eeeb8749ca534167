import Upload from 'graphql-upload/Upload.mjs';
import { errors } from '../../src/core/errors.js';
import { fieldMessages } from '../../src/core/messages.js';
import type {
  SubmissionSubmitMutation,
  SubmissionUploadDetailQuery,
  SubmissionUploadFieldsFragment,
  SubmissionUploadMutation,
  SubmissionVersionQuery,
  SubmissionVersionsQuery,
} from '../generated/operations.js';
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

/**
 * The v5 submission API, as far as web-ext 8+ (and 7 with `--use-submission-api`) uses it: upload
 * a package (validated on its own), submit it to an add-on, follow the version to its signed file.
 * The same operations and pipeline as the signing API (`submitAddonVersion`, `addonUpload`), and
 * the catalogue's version queries; v5's conventions: translated fields as objects of locales, DRF
 * error bodies (`{"detail"}`, field maps), API keys or sessions.
 */
type Request = RestRequest<SubmissionApiVersion>;
type Context = ShapeContext<SubmissionApiVersion>;

const uploadFields = gql`
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
function shapeUpload(u: SubmissionUploadFieldsFragment, ctx: Context) {
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
function shapeVersion(version: VersionData, ctx: Context) {
  const shaped = shapeCatalogueVersion(version, ctx);
  const file = version.files[0];
  if (!file || !('file' in shaped) || !shaped.file) return shaped;
  const url = `${ctx.baseUrl}/api/v4/file/${file.id}/${new URL(file.url).pathname.split('/').pop()}`;
  return { ...shaped, file: { ...shaped.file, url } };
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
  let categories = body.categories;
  // v4's shape `{"firefox": […]}` is accepted too.
  if (isObject(categories)) categories = categories.firefox ?? [];
  if (categories !== undefined && categories !== null) {
    if (!Array.isArray(categories) || categories.some((c) => typeof c !== 'string')) {
      throw errors.field('categories', 'Expected a list of items but got type "' + typeof categories + '".');
    }
  }
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
      categories: categories ?? null,
      license: license ?? null,
    },
  };
}

function form(req: Request): Record<string, unknown> {
  return isObject(req.body) ? req.body : {};
}

const v5 = { versions: ['v5'] as const, errorStyle: 'drf' as const };

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
      query SubmissionVersion($addon: String!, $id: Int!) {
        addonVersion(addon: $addon, id: $id) {
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
      refuseFilterOnDetail(req.query);
      return { addon: req.params.addon, id: parseIntParam(req.params.version) };
    },
    shape: (data: SubmissionVersionQuery, ctx) => ({
      ...shapeVersion(data.addonVersion, ctx),
      ...shapeQueueStanding(data.addonVersion.queueStanding, ctx),
    }),
  },
]);
