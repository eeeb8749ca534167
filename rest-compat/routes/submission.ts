import Upload from 'graphql-upload/Upload.mjs';
import { errors } from '../../src/core/errors.js';
import { fieldMessages } from '../../src/core/messages.js';
import type {
  SubmissionCreateVersionMutation,
  SubmissionEditVersionMutation,
  SubmissionUploadDetailQuery,
  SubmissionUploadMutation,
  SubmissionRollbackMutation,
  SubmissionSubmitMutation,
  SubmissionVersionQuery,
  SubmissionVersionsQuery,
} from '../generated/operations.js';
import { parseIntParam, refuseFilterOnDetail, versionIdOrNumber, versionListVariables } from '../params/catalogue.js';
import { jsonObject } from '../params/fields.js';
import { sourceField, submissionVariables } from '../params/submission.js';
import { releaseNotesVariable, versionFieldVariables } from '../params/version-edit.js';
import { paginated } from '../pagination.js';
import { defineSubmissionRoutes, gql } from '../route.js';
import {
  shapeSubmissionVersion as shapeVersion,
  shapeSubmissionVersionDetail,
  shapeSubmitted,
  shapeUpload,
  uploadFields,
} from '../shapes/submission.js';
import { queueStandingFields, versionFields } from '../shapes/versions.js';

/**
 * The v5 submission API, as far as web-ext 8+ (and 7 with `--use-submission-api`) uses it: upload
 * a package (validated on its own), submit it to an add-on, follow the version to its signed file.
 * The same operations and pipeline as the signing API (`submitAddonVersion`, `addonUpload`), and
 * the catalogue's version queries; v5's conventions: translated fields as objects of locales, DRF
 * error bodies (`{"detail"}`, field maps), API keys or sessions.
 *
 * The table of routes; their objects are shaped in shapes/submission.ts, their bodies read in
 * params/submission.ts.
 */

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
      const { upload, channel } = jsonObject(req.body);
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
    variables: versionListVariables,
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
    shape: (data: SubmissionVersionQuery, ctx) => shapeSubmissionVersionDetail(data.addonVersion, ctx),
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
      const { upload, license } = jsonObject(req.body);
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
      const newVersion = jsonObject(req.body).version;
      if (newVersion === undefined || newVersion === null) throw errors.field('version', fieldMessages.required);
      if (typeof newVersion !== 'string') throw errors.field('version', 'Not a valid string.');
      return { addon: req.params.addon, version: parseIntParam(req.params.version), newVersion };
    },
    status: 201,
    shape: (data: SubmissionRollbackMutation, ctx) => shapeSubmissionVersionDetail(data.rollbackVersion, ctx),
  },
]);
