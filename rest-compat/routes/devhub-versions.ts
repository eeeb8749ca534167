import Upload from 'graphql-upload/Upload.mjs';
import { errors } from '../../src/core/errors.js';
import { fieldMessages } from '../../src/core/messages.js';
import { previewMessages } from '../../src/catalogue/previews.js';
import type {
  DevhubAddPreviewMutation,
  DevhubDeletePreviewMutation,
  DevhubDeleteVersionMutation,
  DevhubUpdatePreviewMutation,
  DevhubUploadsQuery,
} from '../generated/operations.js';
import { parseIntParam, versionIdOrNumber } from '../params/catalogue.js';
import { jsonObject } from '../params/fields.js';
import { paginated, pageVariables } from '../pagination.js';
import { defineSubmissionRoutes, gql, type RestRequest, type SubmissionApiVersion } from '../route.js';
import { shapePreview } from '../shapes/addons.js';
import { shapeUpload, uploadFields } from '../shapes/submission.js';

/**
 * The developer hub's v5 endpoints beside the submission API (`submission.ts`): version deletion,
 * an add-on's previews (create, edit, delete) and the caller's upload list. API keys or sessions,
 * DRF error bodies, as the rest of v5's developer endpoints.
 */
type Request = RestRequest<SubmissionApiVersion>;

const v5 = { versions: ['v5'] as const, errorStyle: 'drf' as const, auth: ['jwt', 'session'] as const };

const body = (req: Request) => jsonObject(req.body);

/** A version in a v5 path: its id (digits), or its number (`2.2`, also written `v2.2`). */
function versionRef(value: string): { versionId: number | null; number: string | null } {
  const { id, number } = versionIdOrNumber(value);
  return { versionId: id, number };
}

/** `position`: an integer, as a JSON number or a (form) string; absent, null or empty: not given. */
function position(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d{1,12}\s*$/.test(value)) return Number(value);
  throw errors.field('position', previewMessages.positionInvalid);
}

/** `caption`: an object of locales, or one string for the request's language; absent: unchanged. */
function caption(value: unknown): { caption?: unknown } {
  if (value === undefined) return {};
  if (value !== null && typeof value !== 'string' && (typeof value !== 'object' || Array.isArray(value))) {
    throw errors.field('caption', 'You must provide an object of {lang-code:value}.');
  }
  return { caption: value };
}

const previewFields = gql`
  fragment DevhubPreviewFields on Preview {
    id
    position
    caption
    imageSize
    imageUrl
    thumbnailSize
    thumbnailUrl
  }
`;

export const devhubVersionRoutes = defineSubmissionRoutes([
  {
    ...v5,
    method: 'DELETE',
    path: '/addons/addon/<addon>/versions/<version>/',
    document: gql`
      mutation DevhubDeleteVersion($addon: String!, $versionId: Int, $number: String) {
        deleteAddonVersion(addon: $addon, versionId: $versionId, number: $number) {
          id
        }
      }
    `,
    variables: (req) => ({ addon: req.params.addon, ...versionRef(req.params.version!) }),
    status: 204,
    shape: (_data: DevhubDeleteVersionMutation) => null,
  },
  {
    ...v5,
    method: 'POST',
    path: '/addons/addon/<addon>/previews/',
    uploads: true,
    document: gql`
      mutation DevhubAddPreview($addon: String!, $image: Upload!, $position: Int) {
        addAddonPreview(addon: $addon, image: $image, position: $position) {
          ...DevhubPreviewFields
        }
      }
      ${previewFields}
    `,
    variables: (req) => {
      const { image, position: at } = body(req);
      if (image === undefined || image === null || image === '') throw errors.field('image', fieldMessages.required);
      if (!(image instanceof Upload)) {
        throw errors.field('image', 'The submitted data was not a file. Check the encoding type on the form.');
      }
      return { addon: req.params.addon, image, position: position(at) };
    },
    status: 201,
    shape: (data: DevhubAddPreviewMutation, ctx) => shapePreview(data.addAddonPreview, ctx),
  },
  {
    ...v5,
    method: 'PATCH',
    path: '/addons/addon/<addon>/previews/<id>/',
    document: gql`
      mutation DevhubUpdatePreview($addon: String!, $id: Int!, $caption: TranslatedInput, $position: Int) {
        updateAddonPreview(addon: $addon, previewId: $id, caption: $caption, position: $position) {
          ...DevhubPreviewFields
        }
      }
      ${previewFields}
    `,
    variables: (req) => {
      const form = body(req);
      return {
        addon: req.params.addon,
        id: parseIntParam(req.params.id),
        ...caption(form.caption),
        position: position(form.position),
      };
    },
    shape: (data: DevhubUpdatePreviewMutation, ctx) => shapePreview(data.updateAddonPreview, ctx),
  },
  {
    ...v5,
    method: 'DELETE',
    path: '/addons/addon/<addon>/previews/<id>/',
    document: gql`
      mutation DevhubDeletePreview($addon: String!, $id: Int!) {
        deleteAddonPreview(addon: $addon, previewId: $id) {
          id
        }
      }
    `,
    variables: (req) => ({ addon: req.params.addon, id: parseIntParam(req.params.id) }),
    status: 204,
    shape: (_data: DevhubDeletePreviewMutation) => null,
  },
  {
    ...v5,
    method: 'GET',
    path: '/addons/upload/',
    document: gql`
      query DevhubUploads($page: Int, $pageSize: Int) {
        myAddonUploads(page: $page, pageSize: $pageSize) {
          count
          page
          pageSize
          pageCount
          items {
            ...SubmissionUploadFields
          }
        }
      }
      ${uploadFields}
    `,
    variables: (req) => pageVariables(req),
    shape: (data: DevhubUploadsQuery, ctx) => paginated(data.myAddonUploads, ctx, (u) => shapeUpload(u, ctx)),
  },
]);
