import { ALL_VERSIONS } from '../gates.js';
import Upload from 'graphql-upload/Upload.mjs';
import { parseIntParam } from '../params/catalogue.js';
import { FileReply, RedirectReply } from '../http.js';
import type {
  RestFileDownloadQuery,
  RestSubmitVersionMutation,
  RestUploadFieldsFragment,
  RestUploadStatusQuery,
} from '../generated/operations.js';
import { defineRoutes, gql, type RestRequest, type ShapeContext } from '../route.js';

/**
 * The signing API (docs/compat-notes.md §3): JWT only, errors as `{"error": …}`, the upload status object
 * with absolute URLs (sign-addon follows `url` and `download_url` as given).
 */
const uploadFields = gql`
  fragment RestUploadFields on AddonUpload {
    uuid
    guid
    version
    automatedSigning
    processed
    valid
    validationResults
    reviewed
    active
    passedReview
    files {
      id
      filename
      hash
      signed
    }
  }
`;

const path = (value: string) => encodeURIComponent(value);

/** The status object, keys in the original serializer's order. */
export function shapeUpload(u: RestUploadFieldsFragment, ctx: ShapeContext) {
  const api = `${ctx.baseUrl}/api/${ctx.version}`;
  return {
    guid: u.guid,
    active: u.active,
    automated_signing: u.automatedSigning,
    url: `${api}/addons/${path(u.guid)}/versions/${path(u.version)}/uploads/${u.uuid}/`,
    files: u.files.map((f) => ({
      download_url: `${api}/file/${f.id}/${path(f.filename)}`,
      hash: f.hash,
      signed: f.signed,
    })),
    passed_review: u.passedReview,
    pk: u.uuid,
    processed: u.processed,
    reviewed: u.reviewed,
    valid: u.valid,
    validation_results: u.validationResults,
    validation_url: `${ctx.baseUrl}/developers/upload/${u.uuid}`,
    version: u.version,
  };
}

/** Multipart fields (parsed by `multipartBody`); a JSON or empty body has none. */
function form(req: RestRequest): Record<string, unknown> {
  return req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
}
const fileField = (req: RestRequest) => (form(req).upload instanceof Upload ? form(req).upload : null);
const textField = (req: RestRequest, name: string) => {
  const value = form(req)[name];
  return typeof value === 'string' ? value : null;
};

const submitDocument = gql`
  mutation RestSubmitVersion($upload: Upload, $guid: String, $version: String, $channel: String) {
    submitAddonVersion(upload: $upload, guid: $guid, version: $version, channel: $channel) {
      addonCreated
      upload {
        ...RestUploadFields
      }
    }
  }
  ${uploadFields}
`;

const statusDocument = gql`
  query RestUploadStatus($guid: String!, $version: String!, $uuid: String) {
    addonUpload(guid: $guid, version: $version, uuid: $uuid) {
      ...RestUploadFields
    }
  }
  ${uploadFields}
`;

const downloadDocument = gql`
  query RestFileDownload($id: Int!) {
    fileDownload(id: $id) {
      id
      filename
      hash
      public
    }
  }
`;

function shapeDownload({ fileDownload: file }: RestFileDownloadQuery, ctx: ShapeContext) {
  if (file.public) {
    return new RedirectReply(`${ctx.baseUrl}/downloads/file/${file.id}/${path(file.filename)}`, {
      'X-Target-Digest': file.hash,
    });
  }
  return new FileReply(file.id, 'application/x-xpinstall', {
    'Content-Disposition': `attachment; filename="${file.filename}"`,
    'X-Target-Digest': file.hash,
  });
}

const signing = { versions: ALL_VERSIONS, auth: ['jwt'] as const, errorStyle: 'signing' as const };

export const signingRoutes = defineRoutes([
  {
    ...signing,
    method: 'PUT',
    path: '/addons/<guid>/versions/<version>/',
    uploads: true,
    document: submitDocument,
    variables: (req) => ({
      upload: fileField(req),
      guid: req.params.guid,
      version: req.params.version,
      channel: textField(req, 'channel'),
    }),
    status: (data: RestSubmitVersionMutation) => (data.submitAddonVersion.addonCreated ? 201 : 202),
    shape: (data: RestSubmitVersionMutation, ctx) => shapeUpload(data.submitAddonVersion.upload, ctx),
  },
  {
    ...signing,
    method: 'POST',
    path: '/addons/',
    uploads: true,
    document: submitDocument,
    // New add-ons are always unlisted: a `channel` field is ignored.
    variables: (req) => ({ upload: fileField(req), guid: null, version: textField(req, 'version'), channel: null }),
    status: 201,
    shape: (data: RestSubmitVersionMutation, ctx) => shapeUpload(data.submitAddonVersion.upload, ctx),
  },
  {
    ...signing,
    method: 'GET',
    path: '/addons/<guid>/versions/<version>/',
    document: statusDocument,
    variables: (req) => ({ guid: req.params.guid, version: req.params.version, uuid: null }),
    shape: (data: RestUploadStatusQuery, ctx) => shapeUpload(data.addonUpload, ctx),
  },
  {
    ...signing,
    method: 'GET',
    path: '/addons/<guid>/versions/<version>/uploads/<uuid>/',
    document: statusDocument,
    variables: (req) => ({ guid: req.params.guid, version: req.params.version, uuid: req.params.uuid }),
    shape: (data: RestUploadStatusQuery, ctx) => shapeUpload(data.addonUpload, ctx),
  },
  ...['/file/<file>/<name>', '/file/<file>/'].map((filePath) => ({
    method: 'GET' as const,
    path: filePath,
    versions: ALL_VERSIONS,
    document: downloadDocument,
    variables: (req: RestRequest) => ({ id: Math.max(0, parseIntParam(req.params.file)) }),
    shape: shapeDownload,
  })),
]);
