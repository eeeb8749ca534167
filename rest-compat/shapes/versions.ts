import type {
  RestFullVersionFieldsFragment,
  RestVersionFieldsFragment,
  RestQueueStandingFieldsFragment,
} from '../generated/operations.js';
import { gql, type ShapeContext } from '../route.js';
import { restEnums } from './enums.js';

/** Version fields; `license.text` is asked for only where it is shown (version endpoints). */
export const versionFields = gql`
  fragment RestVersionFields on Version {
    id
    version
    channel
    releaseNotes
    reviewed
    url
    editUrl
    isStrictCompatibilityEnabled
    compatibility {
      application
      min
      max
    }
    license {
      id
      name
      url
      isCustom
      slug
    }
    files {
      id
      created
      hash
      platform
      size
      status
      isWebextension
      isRestartRequired
      isVendorSigned
      permissions
      optionalPermissions
      hostPermissions
      dataCollectionPermissions
      optionalDataCollectionPermissions
      url
    }
  }
`;

/** A version as the version fragments select it (RestFullVersionFields adds the licence text). */
export type VersionData = RestVersionFieldsFragment | RestFullVersionFieldsFragment;

/** Version endpoints show the licence text. */
export const fullVersionFields = gql`
  fragment RestFullVersionFields on Version {
    ...RestVersionFields
    license {
      text
    }
  }
  ${versionFields}
`;

/** File status names (v5). */
const FILE_STATUS_NAMES: Record<number, string> = { 1: 'unreviewed', 4: 'public', 5: 'disabled' };

/** What a version detail asks for its authors: its standing in the review queue. */
export const queueStandingFields = gql`
  fragment RestQueueStandingFields on QueueStanding {
    position
    total
    dueDate
    reviewsPerDay
    estimatedReviewDate
  }
`;

/**
 * A version detail's `queue_standing` (this service's addition, v4 and v5): where the version
 * stands in the review queue and when its review may come, for its authors and the channel's
 * reviewers; null otherwise and when it is not waiting.
 */
export function shapeQueueStanding(standing: RestQueueStandingFieldsFragment | null, ctx: ShapeContext) {
  if (ctx.gate('del-version-queue-standing')) return {};
  return {
    queue_standing: standing && {
      position: standing.position,
      total: standing.total,
      due_date: ctx.timestamp(standing.dueDate),
      reviews_per_day: standing.reviewsPerDay,
      estimated_review_date: ctx.timestamp(standing.estimatedReviewDate),
    },
  };
}

/**
 * The version object: `files` (`version-files`, with `platform`, `is_restart_required` and
 * `is_webextension` as their gates say) or one `file`; the licence `text` only when read.
 */
export function shapeVersion(version: VersionData, ctx: ShapeContext, options: { search?: boolean } = {}) {
  const defaultLocale = 'en-US';
  const compatibility: Record<string, { min: string; max: string }> = {};
  for (const c of version.compatibility) {
    if (restEnums.appInVersion(c.application, ctx.version)) {
      compatibility[restEnums.app(c.application, ctx.version)] = { min: c.min, max: c.max };
    }
  }
  const license = version.license
    ? {
        id: version.license.id,
        ...(ctx.gate('del-version-license-is-custom') ? {} : { is_custom: version.license.isCustom }),
        name: ctx.translated(version.license.name, defaultLocale),
        ...(ctx.gate('del-version-license-slug') ? {} : { slug: version.license.slug }),
        ...('text' in version.license ? { text: ctx.translated(version.license.text, defaultLocale) } : {}),
        url: version.license.url,
      }
    : null;
  const files = version.files.map((f) => ({
    id: f.id,
    created: ctx.timestamp(f.created),
    hash: f.hash,
    ...(ctx.gate('is-restart-required-shim') ? { is_restart_required: f.isRestartRequired } : {}),
    ...(ctx.gate('is-webextension-shim') ? { is_webextension: f.isWebextension } : {}),
    ...(ctx.gate('neutral-names')
      ? { is_vendor_signed_extension: f.isVendorSigned }
      : { is_mozilla_signed_extension: f.isVendorSigned }),
    ...(ctx.gate('platform-shim') ? { platform: restEnums.platform(f.platform) } : {}),
    size: f.size,
    status: ctx.gate('file-status-integer') ? f.status : (FILE_STATUS_NAMES[f.status] ?? 'unreviewed'),
    url: f.url,
    ...(ctx.gate('del-file-host-permissions')
      ? { permissions: [...f.permissions, ...f.hostPermissions] }
      : {
          permissions: f.permissions,
          host_permissions: f.hostPermissions,
          data_collection_permissions: f.dataCollectionPermissions,
          optional_data_collection_permissions: f.optionalDataCollectionPermissions,
        }),
    ...(ctx.gate('del-file-optional-permissions') ? {} : { optional_permissions: f.optionalPermissions }),
  }));
  return {
    id: version.id,
    channel: restEnums.channel(version.channel),
    compatibility,
    edit_url: version.editUrl,
    ...(ctx.gate('version-files') ? { files } : { file: files[0] ?? null }),
    is_strict_compatibility_enabled: version.isStrictCompatibilityEnabled,
    ...(options.search ? {} : { license }),
    ...(options.search ? {} : { release_notes: ctx.translated(version.releaseNotes) }),
    reviewed: ctx.timestamp(version.reviewed),
    url: version.url,
    version: version.version,
  };
}

/** A version detail (v3/v4): the version, then its `queue_standing`. */
export function shapeVersionDetail(
  version: VersionData & { queueStanding: RestQueueStandingFieldsFragment | null },
  ctx: ShapeContext,
) {
  return { ...shapeVersion(version, ctx), ...shapeQueueStanding(version.queueStanding, ctx) };
}
