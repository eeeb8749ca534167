import type { SubmissionSubmitMutation, SubmissionUploadFieldsFragment } from '../generated/operations.js';
import type { RestQueueStandingFieldsFragment } from '../generated/operations.js';
import { gql, type ShapeContext, type SubmissionApiVersion } from '../route.js';
import { restEnums } from './enums.js';
import { shapeQueueStanding, shapeVersion as shapeCatalogueVersion, type VersionData } from './versions.js';

/** The v5 submission API's objects (routes/submission.ts): uploads, versions as developers see them, submissions. */
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
 * v5's version object (shapes/versions.ts, as v5's gates say: one `file`, status names, translated
 * fields as objects), whose file `url` is the API-key download (`/api/v4/file/…`: streamed to
 * authors, public files redirected to the mirror), which web-ext fetches with its key.
 */
export function shapeSubmissionVersion(version: VersionData & { hasSource?: boolean } & DeveloperFacts, ctx: Context) {
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

/** A v5 version detail (the version, a rollback's new version): the version, then its `queue_standing`. */
export function shapeSubmissionVersionDetail(
  version: VersionData & { hasSource?: boolean } & DeveloperFacts & {
      queueStanding: RestQueueStandingFieldsFragment | null;
    },
  ctx: Context,
) {
  return { ...shapeSubmissionVersion(version, ctx), ...shapeQueueStanding(version.queueStanding, ctx) };
}

/**
 * The add-on after a submission, with the new `version`. `current_version` falls back to the
 * submitted listed version while none is public (web-ext 7 reads it after creating a listed add-on).
 */
export function shapeSubmitted(data: SubmissionSubmitMutation, ctx: Context) {
  const { addon, createdVersion } = data.submitAddonVersion.upload;
  if (!addon || !createdVersion) throw new Error('a submitted upload has its add-on and version');
  const version = shapeSubmissionVersion(createdVersion, ctx);
  const listed = createdVersion.channel === 'LISTED';
  return {
    id: addon.id,
    categories: addon.categories.filter((c) => c.application === 'BROWSER').map((c) => c.slug),
    current_version: addon.currentVersion ? shapeSubmissionVersion(addon.currentVersion, ctx) : listed ? version : null,
    description: addon.description,
    edit_url: addon.editUrl,
    guid: addon.guid,
    latest_unlisted_version: addon.latestUnlistedVersion
      ? shapeSubmissionVersion(addon.latestUnlistedVersion, ctx)
      : null,
    name: addon.name,
    slug: addon.slug,
    status: restEnums.status(addon.status, 'v4'),
    summary: addon.summary,
    url: addon.url,
    version,
  };
}
