import type { EntityManager } from '@mikro-orm/postgresql';
import { AddonType, Channel } from '../catalogue/catalogue.enums.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import { AddonFile, Version } from '../catalogue/version.entity.js';
import type { Logger } from '../core/logger.js';
import type { Database } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import { ReviewAction } from '../reviews/review.enums.js';
import { ReviewNote } from '../reviews/review.entity.js';
import type { ReviewFlagsService } from '../reviews/review-flags.service.js';
import type { PackageScan, ScannersService } from '../scanners/scanners.service.js';
import type { Storage } from '../storage/storage.port.js';
import type { AddonSigner } from './crypto/index.js';
import { signedFileHash } from './crypto/digest.js';
import { isPackageRefusal } from './package/package.errors.js';
import { parsePackageFiles, type PackageLimits } from './package/parse.js';
import { readZip, type ZipMember } from '../archive/zip.js';
import { FileUpload } from './upload.entity.js';
import type { DetectedType, InjectedMessage, ValidationResults } from './validation/results.js';
import { crashResults } from './validation/results.js';
import type { Validator } from './validation/validator.js';
import { blockCovering } from '../blocklist/blocklist.service.js';
import { createVersionFromUpload } from './version-from-upload.js';

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

/** A stored package read once, whole: its key in storage and its files. */
export interface ReadPackage {
  storageKey: string;
  files: readonly ZipMember[];
}

/**
 * The background half of the signing flow, as job handlers. An upload's `validate-upload` job is
 * one pass over its package, read once: the linter (in its worker) and the scanners that read the
 * package run side by side, then the version is made, its scan applied and, for automatic signing
 * with no scanner action, its file signed, in the same job. Each step is idempotent and recorded
 * before the next (a job may run again after a crash and goes on from the first step not
 * recorded): validation is recorded once, the version is created in the transaction that links it
 * to its upload, scan results and their action commit together, a file is signed once (`isSigned`).
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
    private readonly scanners: ScannersService,
    private readonly limits: Partial<PackageLimits> = {},
  ) {}

  /** `validate-upload`: lint and scan, record the results; a valid submitted upload becomes a version, scanned and signed. */
  async validateUpload(uploadId: string): Promise<void> {
    const em = this.db.fork();
    const upload = await em.findOne(FileUpload, uploadId, { populate: ['validation', 'addon'] });
    if (!upload) return;
    // A v5 upload becomes a version when it is submitted to an add-on (UploadsService.submitUpload).
    const makesVersion = () => upload.valid && upload.addon && !upload.createdVersion;
    if (upload.processedAt && !makesVersion() && !upload.createdVersion) return;
    // The package is read once here, for the linter's side, the version and the signature.
    const local = await this.files.localFile(upload.storageKey);
    let pkg: ReadPackage | null;
    let scan: PackageScan | undefined;
    let versionId = upload.createdVersion?.id ?? null;
    try {
      pkg = local ? await this.read(upload, local.path) : null;
      if (!upload.processedAt) scan = await this.validate(em, upload, local?.path ?? null, pkg);
      if (makesVersion()) versionId = (await this.createVersion(em, upload, pkg))?.id ?? null;
    } finally {
      await local?.release();
    }
    if (versionId !== null) await this.scanAndSign(versionId, upload.automatedSigning, { pkg, scan });
  }

  /**
   * `scan-version` (a version made outside the validation job: v5 submission, rollback), and the
   * validation job's last steps: the scanners, then the signature unless an action holds it.
   */
  async scanAndSign(
    versionId: number,
    sign: boolean,
    prepared: { pkg?: ReadPackage | null; scan?: PackageScan } = {},
  ): Promise<void> {
    const pkg = prepared.pkg ?? undefined;
    const signNow = await this.scanners.scanVersion(versionId, sign, { members: pkg?.files, scan: prepared.scan });
    if (signNow) await this.signVersion(versionId, pkg);
  }

  /** The stored package's files, or null (logged) when it no longer reads: validation reports it. */
  private async read(upload: FileUpload, path: string): Promise<ReadPackage | null> {
    try {
      return { storageKey: upload.storageKey, files: await readZip(path, this.limits) };
    } catch (error) {
      if (!isPackageRefusal(error)) throw error;
      this.logger.error({ upload: upload.uuid, err: error }, 'stored upload no longer reads');
      return null;
    }
  }

  /** The linter and the package's scanners, side by side; records the validation, returns the scan. */
  private async validate(
    em: EntityManager,
    upload: FileUpload,
    path: string | null,
    pkg: ReadPackage | null,
  ): Promise<PackageScan | undefined> {
    const listed = upload.channel === Channel.LISTED;
    const detectedType = DETECTED[upload.addonType] ?? 'extension';
    let results: ValidationResults;
    let scan: PackageScan | undefined;
    if (path === null) {
      this.logger.error({ upload: upload.uuid }, 'uploaded file missing from storage');
      results = crashResults({ listed, detectedType });
    } else {
      const injected = await this.duplicateVersionMessages(em, upload);
      const validator = await this.tools.validator();
      [results, scan] = await Promise.all([
        validator.validate(path, { listed, detectedType, injected }),
        this.scanPackage(em, upload, pkg),
      ]);
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
    return scan;
  }

  /**
   * The scan of a submitted upload's package, made while the linter runs (a v5 upload is scanned
   * once it is submitted). A failure here is left to the version's scan, which runs it again.
   */
  private async scanPackage(em: EntityManager, upload: FileUpload, pkg: ReadPackage | null) {
    if (!pkg || !upload.addon) return undefined;
    return this.scanners.scanPackage(em, pkg.files, upload.addon.id).catch((err: unknown) => {
      this.logger.warn({ upload: upload.uuid, err }, 'package scan failed: left to the version scan');
      return undefined;
    });
  }

  /** A version with this string appeared since the upload was accepted (a concurrent upload won). */
  private async duplicateVersionMessages(em: EntityManager, upload: FileUpload): Promise<InjectedMessage[]> {
    if (!upload.addon) return [];
    const taken = await em.count(Version, { addon: upload.addon, version: upload.version });
    return taken ? [{ type: 'error', message: `Version ${upload.version} already exists.`, id: 'version_exists' }] : [];
  }

  /** The version, from the package as read (the request's parse ran on the same bytes, so this passes). */
  private async createVersion(em: EntityManager, upload: FileUpload, read: ReadPackage | null) {
    if (!read) return null;
    let pkg;
    try {
      pkg = await parsePackageFiles(read.files, { limits: this.limits });
    } catch (error) {
      if (!isPackageRefusal(error)) throw error;
      this.logger.error({ upload: upload.uuid, err: error }, 'stored upload no longer parses');
      return null;
    }
    const deps = { lifecycle: this.lifecycle, jobs: this.jobs, logger: this.logger };
    return em.transactional((tx) => createVersionFromUpload(tx, deps, upload, pkg, { scanNow: true }));
  }

  /**
   * `sign-version`: sign the version's file and approve it (automatic approval of an unlisted
   * version, or a reviewer's approval). Approval comes after the signature, so an approved file
   * always has signed bytes.
   */
  async signVersion(versionId: number, pkg?: ReadPackage): Promise<void> {
    const em = this.db.fork();
    const version = await em.findOne(Version, versionId, { populate: ['files', 'addon'] });
    if (!version || version.deleted) return;
    if (await blockCovering(em, version.addon.guid, version.version)) {
      // Blocked since it was submitted or approved: browsers refuse it, and it is not signed.
      this.logger.warn({ version: version.id, guid: version.addon.guid }, 'version is blocked: not signed');
      return;
    }
    for (const file of version.files.getItems()) {
      if (!file.isSigned) await this.signFile(em, version, file, pkg?.storageKey === file.storageKey ? pkg : undefined);
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

  private async signFile(em: EntityManager, version: Version, file: AddonFile, pkg?: ReadPackage) {
    const entries = pkg?.files ?? (await this.readFile(file));
    const guid = version.addon.guid ?? '';
    const { signPackage } = await import('./crypto/sign-package.js'); // node-forge: loaded with the first signing
    const signed = await signPackage(entries, { guid, signer: await this.tools.signer() });
    const key = `files/${version.addon.id}/${file.id}/${file.filename}`;
    await this.files.put(key, signed);
    await em.transactional(async (tx) => {
      const current = await tx.findOneOrFail(AddonFile, file.id);
      tx.assign(current, { isSigned: true, hash: signedFileHash(signed), size: signed.length, storageKey: key });
    });
    this.logger.info({ version: version.id, file: file.id, bytes: signed.length }, 'file signed');
  }

  private async readFile(file: AddonFile): Promise<ZipMember[]> {
    const local = await this.files.localFile(file.storageKey);
    if (!local) throw new Error(`file ${file.id}: ${file.storageKey} missing from storage`);
    try {
      return await readZip(local.path, this.limits);
    } finally {
      await local.release();
    }
  }
}
