import type { EntityManager } from '@mikro-orm/postgresql';
import { Addon } from '../catalogue/addon.entity.js';
import { AddonType, App, Channel, FileStatus, versionInt } from '../catalogue/catalogue.enums.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import type { License } from '../catalogue/license.entity.js';
import { AddonFile, Version, VersionCompat } from '../catalogue/version.entity.js';
import type { Logger } from '../core/logger.js';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import { flagForHumanReview, HumanReviewReason } from '../reviews/human-review.js';
import { ReviewNote } from '../reviews/review.entity.js';
import { ReviewAction } from '../reviews/review.enums.js';
import type { ParsedPackage } from './package/parse.js';
import type { FileUpload } from './upload.entity.js';

/** Defaults when the manifest gives no range. */
const DEFAULT_MIN = '42.0';
const ANY = '*';

/** `<slug>-<version>.xpi`, kept to storage-safe characters. */
export function fileName(addon: Addon, version: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^[._]+/, '');
  return `${safe(addon.slug).slice(0, 50) || 'addon'}-${safe(version) || '0'}.xpi`;
}

/** What making a version from an upload needs besides the transaction. */
export interface VersionCreationDeps {
  lifecycle: AddonLifecycle;
  jobs: JobQueue<ServiceJobs>;
  logger?: Logger;
}

/**
 * The version a valid, submitted upload becomes, with its compatibility and file, linked to the
 * upload in the caller's transaction (exactly once: the link and the version commit together);
 * a listed one waits for review; its `scan-version` job is queued (which scans it, then signs an
 * automatically signed one), unless `scanNow`: the validation job that made it scans and signs it
 * next, on the package it has read, and its redelivery does if it stops before.
 * `license`: a listed version's licence given with the submission (v5), else the last listed one's.
 * `reviewed`: a rollback's copy of reviewed code keeps its source's review date (no review is requested).
 */
export async function createVersionFromUpload(
  tx: EntityManager,
  deps: VersionCreationDeps,
  upload: FileUpload,
  pkg: ParsedPackage,
  options: { license?: License | null; reviewed?: Date | null; scanNow?: boolean } = {},
): Promise<Version> {
  if (!upload.addon) throw new Error(`upload ${upload.uuid} is not submitted to an add-on`);
  const addon = await tx.findOneOrFail(Addon, upload.addon.id);
  const previousListed = await tx.findOne(
    Version,
    { addon, channel: Channel.LISTED, deleted: false },
    { orderBy: { id: 'desc' } },
  );
  const version = Object.assign(new Version(), {
    addon,
    version: upload.version,
    channel: upload.channel,
    license: upload.channel === Channel.LISTED ? (options.license ?? previousListed?.license ?? null) : null,
    reviewed: options.reviewed ?? null,
  });
  tx.persist(version);
  // A listed language pack or dictionary says which locale it is for (the language tools list it).
  if (upload.channel === Channel.LISTED && pkg.targetLocale) addon.targetLocale = pkg.targetLocale;
  addCompatibility(tx, version, pkg);
  const file = tx.create(AddonFile, {
    version,
    status: FileStatus.AWAITING_REVIEW,
    filename: fileName(addon, upload.version),
    hash: upload.hash,
    size: upload.size,
    permissions: pkg.permissions,
    optionalPermissions: pkg.optionalPermissions,
    hostPermissions: pkg.hostPermissions,
    dataCollectionPermissions: pkg.dataCollectionPermissions,
    optionalDataCollectionPermissions: pkg.optionalDataCollectionPermissions,
    storageKey: upload.storageKey,
  });
  tx.assign(upload, { createdVersion: version });
  if (upload.channel === Channel.LISTED && !options.reviewed) {
    tx.create(ReviewNote, { addon, version, user: upload.user, action: ReviewAction.REVIEW_REQUESTED });
  }
  await tx.flush();
  // A listed version now waits for review: the add-on's status follows (incomplete -> nominated).
  await deps.lifecycle.validated(tx, {
    addonId: addon.id,
    uploadId: upload.uuid,
    valid: true,
    versionId: version.id,
    actorId: upload.user.id,
  });
  // The scanners run first; the signature (automatic signing) follows unless an action stops it.
  if (!options.scanNow) {
    await deps.jobs.send('scan-version', { versionId: version.id, sign: upload.automatedSigning }, { transaction: tx });
  }
  if (!upload.automatedSigning) {
    const reason =
      upload.channel === Channel.LISTED
        ? HumanReviewReason.LISTED_SUBMISSION
        : HumanReviewReason.AUTO_APPROVAL_DISABLED;
    await flagForHumanReview(tx, version.id, reason);
  }
  deps.logger?.info({ upload: upload.uuid, version: version.id, file: file.id }, 'version created from upload');
  return version;
}

function addCompatibility(em: EntityManager, version: Version, pkg: ParsedPackage) {
  const ranges: [App, { strictMinVersion: string | null; strictMaxVersion: string | null }][] = [
    [App.BROWSER, pkg.apps.firefox],
  ];
  if (pkg.apps.android.strictMinVersion || pkg.apps.android.strictMaxVersion || pkg.type !== AddonType.STATICTHEME) {
    ranges.push([App.ANDROID, pkg.apps.android]);
  }
  for (const [application, range] of ranges) {
    const min = range.strictMinVersion ?? DEFAULT_MIN;
    const max = range.strictMaxVersion ?? ANY;
    em.create(VersionCompat, {
      version,
      application,
      min,
      max,
      minInt: versionInt(min) ?? 0,
      maxInt: versionInt(max) ?? Number.MAX_SAFE_INTEGER,
    });
  }
}
