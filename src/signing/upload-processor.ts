import type { EntityManager } from '@mikro-orm/postgresql';
import { Addon } from '../catalogue/addon.entity.js';
import { AddonType, App, Channel, FileStatus, versionInt } from '../catalogue/catalogue.enums.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import { AddonFile, Version, VersionCompat } from '../catalogue/version.entity.js';
import type { License } from '../catalogue/license.entity.js';
import type { Logger } from '../core/logger.js';
import type { Database } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import { ReviewAction } from '../reviews/review.enums.js';
import { ReviewNote } from '../reviews/review.entity.js';
import type { ReviewFlagsService } from '../reviews/review-flags.service.js';
import type { Storage } from '../storage/storage.port.js';
import { signedFileHash, signPackage, type AddonSigner } from './crypto/index.js';
import { PackageError } from './package/package.errors.js';
import { parsePackage, type PackageLimits, type ParsedPackage } from './package/parse.js';
import { readZip } from './package/zip.js';
import { FileUpload } from './upload.entity.js';
import type { DetectedType, InjectedMessage, ValidationResults } from './validation/results.js';
import { crashResults } from './validation/results.js';
import type { Validator } from './validation/validator.js';
import { blockCovering } from '../blocklist/blocklist.service.js';
import { flagForHumanReview, HumanReviewReason } from '../reviews/human-review.js';

/** What the processor needs that is costly to start (a linter worker, a CA and its key pool): made on first use. */
export interface SigningTools {
  validator(): Promise<Validator>;
  signer(): Promise<AddonSigner>;
}

const DETECTED: Record<number, DetectedType> = {
  [AddonType.EXTENSION]: 'extension',
  [AddonType.THEME]: 'theme',
  [AddonType.DICTIONARY]: 'dictionary',
  [AddonType.SEARCH]: 'search',
  [AddonType.LANGUAGE]: 'langpack',
  [AddonType.STATICTHEME]: 'statictheme',
};

/** Defaults when the manifest gives no range. */
const DEFAULT_MIN = '42.0';
const ANY = '*';

/**
 * The background half of the signing flow, as job handlers. Each step is idempotent (a job may run
 * again after a crash): validation is recorded once, the version is created in the transaction that
 * links it to its upload, a file is signed once (`isSigned`).
 */
export class UploadProcessor {
  constructor(
    private readonly db: Database,
    private readonly files: Storage,
    private readonly tools: SigningTools,
    private readonly jobs: JobQueue<ServiceJobs>,
    private readonly flags: ReviewFlagsService,
    private readonly lifecycle: AddonLifecycle,
    private readonly logger: Logger,
    private readonly limits: Partial<PackageLimits> = {},
  ) {}

  /** `validate-upload`: lint, record the results, and for a valid upload create its version. */
  async validateUpload(uploadId: string): Promise<void> {
    const em = this.db.fork();
    const upload = await em.findOne(FileUpload, uploadId, { populate: ['validation', 'addon'] });
    if (!upload) return;
    if (!upload.processedAt) await this.validate(em, upload);
    // A v5 upload becomes a version when it is submitted to an add-on (UploadsService.submitUpload).
    if (upload.valid && upload.addon && !upload.createdVersion) await this.createVersion(em, upload);
  }

  private async validate(em: EntityManager, upload: FileUpload) {
    const listed = upload.channel === Channel.LISTED;
    const detectedType = DETECTED[upload.addonType] ?? 'extension';
    const local = await this.files.localFile(upload.storageKey);
    let results: ValidationResults;
    if (!local) {
      this.logger.error({ upload: upload.uuid }, 'uploaded file missing from storage');
      results = crashResults({ listed, detectedType });
    } else {
      try {
        const injected = await this.duplicateVersionMessages(em, upload);
        results = await (await this.tools.validator()).validate(local.path, { listed, detectedType, injected });
      } finally {
        await local.release();
      }
    }
    const outcome = { validation: results, valid: results.errors === 0, processedAt: new Date() };
    const { valid } = outcome;
    await em.transactional(async (tx) => {
      tx.assign(await tx.findOneOrFail(FileUpload, upload.uuid), outcome);
      // A valid upload's validation is recorded with the version it becomes (createVersion).
      if (!valid && upload.addon) {
        await this.lifecycle.validated(tx, {
          addonId: upload.addon.id,
          uploadId: upload.uuid,
          valid,
          versionId: null,
          actorId: upload.user.id,
        });
      }
    });
    Object.assign(upload, outcome);
  }

  /** A version with this string appeared since the upload was accepted (a concurrent upload won). */
  private async duplicateVersionMessages(em: EntityManager, upload: FileUpload): Promise<InjectedMessage[]> {
    if (!upload.addon) return [];
    const taken = await em.count(Version, { addon: upload.addon, version: upload.version });
    return taken ? [{ type: 'error', message: `Version ${upload.version} already exists.`, id: 'version_exists' }] : [];
  }

  private async createVersion(em: EntityManager, upload: FileUpload) {
    const pkg = await this.reparse(upload);
    if (!pkg) return;
    await em.transactional((tx) =>
      createVersionFromUpload(tx, { lifecycle: this.lifecycle, jobs: this.jobs, logger: this.logger }, upload, pkg),
    );
  }

  /** The stored upload parsed again (the request's parse ran on the same bytes, so this passes). */
  private async reparse(upload: FileUpload): Promise<ParsedPackage | null> {
    const local = await this.files.localFile(upload.storageKey);
    if (!local) return null;
    try {
      return await parsePackage(local.path, { limits: this.limits });
    } catch (error) {
      if (!(error instanceof PackageError)) throw error;
      this.logger.error({ upload: upload.uuid, err: error }, 'stored upload no longer parses');
      return null;
    } finally {
      await local.release();
    }
  }

  /**
   * `sign-version`: sign the version's file and approve it (automatic approval of an unlisted
   * version, or a reviewer's approval). Approval comes after the signature, so an approved file
   * always has signed bytes.
   */
  async signVersion(versionId: number): Promise<void> {
    const em = this.db.fork();
    const version = await em.findOne(Version, versionId, { populate: ['files', 'addon'] });
    if (!version || version.deleted) return;
    if (await blockCovering(em, version.addon.guid, version.version)) {
      // Blocked since it was submitted or approved: browsers refuse it, and it is not signed.
      this.logger.warn({ version: version.id, guid: version.addon.guid }, 'version is blocked: not signed');
      return;
    }
    for (const file of version.files.getItems()) {
      if (!file.isSigned) await this.signFile(em, version, file);
    }
    await em.transactional(async (tx) => {
      const v = await tx.findOneOrFail(Version, version.id);
      if (v.channel === Channel.UNLISTED && !(await this.hasReviewNote(tx, v))) {
        tx.create(ReviewNote, { addon: v.addon, version: v, user: null, action: ReviewAction.APPROVED });
      }
      await tx.flush();
      await this.lifecycle.approveSignedVersion(tx, version.id);
    });
  }

  private async hasReviewNote(em: EntityManager, version: Version) {
    return (await em.count(ReviewNote, { version, action: ReviewAction.APPROVED })) > 0;
  }

  private async signFile(em: EntityManager, version: Version, file: AddonFile) {
    const local = await this.files.localFile(file.storageKey);
    if (!local) throw new Error(`file ${file.id}: ${file.storageKey} missing from storage`);
    let entries;
    try {
      entries = await readZip(local.path, this.limits);
    } finally {
      await local.release();
    }
    const guid = version.addon.guid ?? '';
    const signed = await signPackage(entries, { guid, signer: await this.tools.signer() });
    const key = `files/${version.addon.id}/${file.id}/${file.filename}`;
    await this.files.put(key, signed);
    await em.transactional(async (tx) => {
      const current = await tx.findOneOrFail(AddonFile, file.id);
      tx.assign(current, { isSigned: true, hash: signedFileHash(signed), size: signed.length, storageKey: key });
    });
    this.logger.info({ version: version.id, file: file.id, bytes: signed.length }, 'file signed');
  }
}

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
 * a listed one waits for review; its `scan-version` job is queued (which queues `sign-version` for an
 * automatically signed one).
 * `license`: a listed version's licence given with the submission (v5), else the last listed one's.
 * `reviewed`: a rollback's copy of reviewed code keeps its source's review date (no review is requested).
 */
export async function createVersionFromUpload(
  tx: EntityManager,
  deps: VersionCreationDeps,
  upload: FileUpload,
  pkg: ParsedPackage,
  options: { license?: License | null; reviewed?: Date | null } = {},
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
  // The scanners run first; their job queues the signature (automatic signing) unless an action stops it.
  await deps.jobs.send('scan-version', { versionId: version.id, sign: upload.automatedSigning }, { transaction: tx });
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
