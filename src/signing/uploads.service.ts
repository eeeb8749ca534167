import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../accounts/user.entity.js';
import { Addon } from '../catalogue/addon.entity.js';
import { addonIdByGuid, assertMayCreateAddon, existingAddon } from '../catalogue/addon-access.js';
import { AddonStatus, addonTypeName, Channel, FileStatus } from '../catalogue/catalogue.enums.js';
import { Version } from '../catalogue/version.entity.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import type { Storage } from '../storage/storage.port.js';
import { SubmissionPolicy, type UploadNames } from './submission.policy.js';
import { submissionListing, type SubmissionMetadata } from './submission.listing.js';
import { isPackageRefusal } from './package/package.errors.js';
import { parsePackage, type PackageLimits, type ParsedPackage } from './package/parse.js';
import { signingErrors } from './signing.errors.js';
import { submissionErrors } from './submission.errors.js';
import { createVersionFromUpload } from './version-from-upload.js';
import { createAddonFromPackage, recordUpload, type ReceivedFile, type UploadRecord } from './upload-record.js';

export type { ReceivedFile } from './upload-record.js';
import { DeniedGuid } from '../catalogue/denied-guid.entity.js';
import { FileUpload } from './upload.entity.js';
import { ownUpload, readUploads, submitVersion } from './signing.access.js';
import { developerAgreement } from '../accounts/accounts.access.js';
import type { ReviewFlagsService } from '../reviews/review-flags.service.js';
import type { FileUpload as UploadedFile } from 'graphql-upload/processRequest.mjs';
import { spoolToFile } from '../core/spool.js';
import type { UploadType } from './signing.types.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import { blockCovering } from '../blocklist/blocklist.service.js';

export interface SubmitInput {
  /** From the URL (PUT); null for POST. */
  guid: string | null;
  /** From the URL (PUT) or the form (POST, optional). */
  version: string | null;
  channel: string | null;
  upload: ReceivedFile | null;
  /**
   * v5 (`POST /api/v5/addons/upload/`): store and validate the package only; it becomes a version
   * when submitted to an add-on (`submitUpload`). `guid` and `version` are ignored; `channel` is required.
   */
  detached?: boolean;
}

/** A v5 submission of an earlier upload (`POST /api/v5/addons/addon/`, `PUT …/addon/<guid>/`). */
export interface UploadSubmissionInput {
  uuid: string;
  /** The add-on (PUT; created if unknown); null for a new add-on (POST). */
  guid: string | null;
  metadata: SubmissionMetadata;
}

const CHANNELS: Record<string, Channel> = { listed: Channel.LISTED, unlisted: Channel.UNLISTED };

/**
 * The signing API's upload rules, in the original order of checks (docs/compat-notes.md §3): ownership,
 * package, add-on state, version, guid, channel. An accepted upload is stored, recorded and its
 * validation job queued in one transaction; the rest happens in `UploadProcessor`.
 */
export class UploadsService {
  constructor(
    private readonly files: Storage,
    private readonly jobs: JobQueue<ServiceJobs>,
    private readonly flags: ReviewFlagsService,
    private readonly lifecycle: AddonLifecycle,
    private readonly names: UploadNames,
    private readonly spool: { dir: string; maxBytes: number },
    private readonly limits: Partial<PackageLimits> = {},
  ) {
    this.policy = new SubmissionPolicy(names);
  }

  private readonly policy: SubmissionPolicy;

  /** `submit` for a streamed file (GraphQL multipart, or the REST layer's spooled part). */
  async submitStream(ctx: RequestContext, input: Omit<SubmitInput, 'upload'> & { upload: UploadedFile | null }) {
    await this.uploader(ctx);
    let upload: ReceivedFile | null = null;
    if (input.upload) {
      const spooled = await spoolToFile(input.upload.createReadStream(), this.spool.dir, this.spool.maxBytes);
      upload = { ...spooled, filename: input.upload.filename };
    }
    return this.submit(ctx, { ...input, upload });
  }

  /** The status object's facts: validation, and the files of the version with this string. */
  async describe(ctx: RequestContext, upload: FileUpload): Promise<UploadType> {
    await ctx.em.populate(upload, ['validation', 'addon']);
    const version = upload.addon
      ? await ctx.em.findOne(Version, { addon: upload.addon, version: upload.version }, { populate: ['files'] })
      : null;
    const files = version?.files.getItems() ?? [];
    const reviewed = files.length > 0 && files.every((f) => f.reviewed !== null);
    const active = files.length > 0 && files.every((f) => f.status === FileStatus.APPROVED);
    const processed = upload.processedAt !== null;
    return {
      uuid: upload.uuid,
      guid: upload.addon?.guid ?? '',
      submitted: upload.addon !== null,
      addonId: upload.addon?.id ?? null,
      versionId: version?.id ?? null,
      version: upload.version,
      channel: upload.channel,
      automatedSigning: upload.automatedSigning,
      processed,
      valid: processed && upload.valid,
      validationResults: upload.validation,
      files: files.map((f) => ({ id: f.id, filename: f.filename, hash: f.hash, signed: f.isSigned, status: f.status })),
      reviewed,
      active,
      passedReview: reviewed && active,
      created: upload.created,
    };
  }

  async submit(ctx: RequestContext, input: SubmitInput): Promise<{ upload: FileUpload; created: boolean }> {
    try {
      return await this.accept(ctx, input);
    } finally {
      if (input.upload) await rm(input.upload.path, { force: true });
    }
  }

  /**
   * The signed-in uploader, who must have accepted the developer agreement whatever the credential
   * (the JWT scheme already refuses API keys of users without it; sessions reach this check).
   */
  private async uploader(ctx: RequestContext): Promise<User> {
    const userId = ctx.viewer.userId;
    if (userId === null) throw errors.notAuthenticated();
    const user = await ctx.em.findOneOrFail(User, userId);
    developerAgreement(ctx, user);
    return user;
  }

  private async accept(ctx: RequestContext, input: SubmitInput) {
    const user = await this.uploader(ctx);
    if (input.detached) return this.acceptDetached(ctx, user, input);
    const existing = input.guid === null ? null : await this.findByGuid(ctx.em, input.guid);
    await submitVersion(ctx, existing);
    if (!existing) assertMayCreateAddon(ctx);
    if (!input.upload) throw signingErrors.missingUpload();
    const pkg = await this.parse(input.upload.path);
    const checked = await this.checkSubmission(ctx.em, user, existing, pkg, {
      guid: input.guid,
      version: input.version,
      channel: existing ? await this.channelFor(ctx.em, existing, input.channel) : Channel.UNLISTED,
    });
    if (existing && checked.channel === Channel.LISTED) await this.assertListable(ctx.em, existing);
    return this.record(ctx.em, { addon: existing, user, pkg, ...checked, file: input.upload });
  }

  /**
   * The rules of a submission to an add-on (or a new one), in the original order of checks, after
   * ownership and the package's parse: add-on state, version, guid, type, content. Shared by the
   * v3/v4 one-step upload and the v5 submission of a validated upload.
   */
  private async checkSubmission(
    em: EntityManager,
    user: User,
    addon: Addon | null,
    pkg: ParsedPackage,
    input: { guid: string | null; version: string | null; channel: Channel },
  ) {
    if (addon?.status === AddonStatus.DELETED) throw signingErrors.duplicateGuid();
    if (addon && pkg.guid && pkg.guid !== addon.guid) throw signingErrors.guidMismatch(pkg.guid, addon.guid ?? '');
    if (!addon && input.guid && pkg.guid && pkg.guid !== input.guid) {
      throw signingErrors.guidMismatch(pkg.guid, input.guid);
    }
    if (addon?.status === AddonStatus.DISABLED) throw signingErrors.disabledByVendor(this.names.vendorName);
    if (addon?.guid && (await em.count(DeniedGuid, { guid: addon.guid }))) throw signingErrors.duplicateGuid();
    const version = input.version ?? pkg.version;
    if (version !== pkg.version) throw signingErrors.versionMismatch();
    if (addon) await this.assertNewVersion(em, addon, version);

    const guid = addon?.guid ?? pkg.guid ?? this.policy.urlGuid(input.guid) ?? `{${randomUUID()}}`;
    if (await blockCovering(em, guid, version)) {
      throw signingErrors.versionBlocked(version, `/api/v5/blocklist/block/${encodeURIComponent(guid)}/`);
    }
    if (!addon) {
      // POST with a manifest id of an existing add-on, a denied id, or a deleted add-on's.
      const taken = await this.findByGuid(em, guid);
      if (taken || (await em.count(DeniedGuid, { guid }))) throw signingErrors.duplicateGuid();
    }
    if (addon && addon.type !== pkg.type) {
      throw signingErrors.typeMismatch(addonTypeName(pkg.type), addonTypeName(addon.type));
    }
    this.policy.assertAllowedContent(pkg, guid, user, !addon);
    const channel = input.channel;
    const automatedSigning =
      channel === Channel.UNLISTED && !(addon && (await this.flags.blocksAutoApproval(em, addon)));
    return { guid, version, channel, automatedSigning };
  }

  /** v5's upload: the package's own rules now, the add-on's when it is submitted. */
  private async acceptDetached(ctx: RequestContext, user: User, input: SubmitInput) {
    // No add-on yet: the author rule applies when the upload is submitted (`submitUpload`).
    await submitVersion(ctx, null);
    if (input.channel === null || input.channel === '') throw submissionErrors.required('channel');
    const channel = CHANNELS[input.channel];
    if (channel === undefined) throw submissionErrors.choice('channel', input.channel);
    if (!input.upload) throw submissionErrors.noFile('upload');
    const pkg = await this.parse(input.upload.path);
    const known = pkg.guid ? await this.findByGuid(ctx.em, pkg.guid) : null;
    this.policy.assertAllowedContent(pkg, pkg.guid, user, !known);
    return this.record(ctx.em, {
      addon: null,
      user,
      pkg,
      guid: pkg.guid ?? '',
      version: pkg.version,
      channel,
      automatedSigning: false,
      file: input.upload,
      detached: true,
    });
  }

  /**
   * v5: submits a validated upload of the viewer's to an add-on (`guid`, created if unknown) or to
   * a new add-on (`guid` null), with the upload's channel. Every rule of the one-step upload
   * applies, then the listing a listed version needs; the add-on (if new), the link and the
   * version (exactly once: the upload row is locked) are written in one transaction.
   */
  async submitUpload(
    ctx: RequestContext,
    input: UploadSubmissionInput,
  ): Promise<{ upload: FileUpload; created: boolean }> {
    const user = await this.uploader(ctx);
    const uuid = input.uuid.toLowerCase();
    const upload = ownUpload(
      ctx,
      /^[0-9a-f]{32}$/.test(uuid) ? await ctx.em.findOne(FileUpload, uuid) : null,
      input.uuid,
    );
    if (upload.addon) throw submissionErrors.alreadySubmitted();
    if (!upload.processedAt || !upload.valid) throw submissionErrors.notValid();

    const existing = input.guid === null ? null : await this.findByGuid(ctx.em, input.guid);
    await submitVersion(ctx, existing);
    if (!existing) assertMayCreateAddon(ctx);
    const pkg = await this.parseStored(upload.storageKey);
    const checked = await this.checkSubmission(ctx.em, user, existing, pkg, {
      guid: input.guid,
      version: upload.version,
      channel: upload.channel,
    });
    const listing = await submissionListing(ctx, existing, pkg, input.metadata, checked.channel);

    return ctx.em.transactional(async (tx) => {
      const locked = await tx.findOneOrFail(FileUpload, upload.uuid, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (locked.addon) throw submissionErrors.alreadySubmitted();
      const created = !existing;
      const addon = existing ? tx.merge(existing) : await createAddonFromPackage(tx, pkg, checked.guid, user);
      tx.assign(addon, listing.addon);
      tx.assign(locked, { addon, automatedSigning: checked.automatedSigning });
      await tx.flush();
      await this.lifecycle.submitted(tx, {
        addon,
        created,
        uploadId: locked.uuid,
        version: locked.version,
        channel: locked.channel,
        actorId: user.id,
      });
      await createVersionFromUpload(tx, { lifecycle: this.lifecycle, jobs: this.jobs }, locked, pkg, {
        license: listing.license,
      });
      return { upload: locked, created };
    });
  }

  /** A stored upload parsed again (it parsed when it was uploaded). */
  private async parseStored(storageKey: string): Promise<ParsedPackage> {
    const local = await this.files.localFile(storageKey);
    if (!local) throw new Error(`${storageKey} missing from storage`);
    try {
      return await this.parse(local.path);
    } finally {
      await local.release();
    }
  }

  /** A v5 upload by its uuid: the uploader's, or (submitted) an author's of its add-on. */
  async uploadByUuid(ctx: RequestContext, uuid: string): Promise<FileUpload> {
    const userId = ctx.viewer.userId;
    if (userId === null) throw errors.notAuthenticated();
    const id = uuid.toLowerCase();
    const upload = /^[0-9a-f]{32}$/.test(id)
      ? await ctx.em.findOne(FileUpload, id, { populate: ['validation', 'addon'] })
      : null;
    await readUploads(ctx, { upload });
    return upload!;
  }

  /** The upload for a version: the one named, else the newest; only an author's (or an admin's, reading). */
  async status(ctx: RequestContext, guid: string, version: string, uuid: string | null): Promise<FileUpload> {
    const userId = ctx.viewer.userId;
    if (userId === null) throw errors.notAuthenticated();
    const notFound = () => signingErrors.addonNotFound(guid);
    const addon = existingAddon(ctx, await this.findByGuid(ctx.em, guid), 'nobody', notFound);
    await readUploads(ctx, { addon });
    const where = uuid === null ? { addon, version } : { addon, version, uuid: uuid.toLowerCase() };
    if (uuid !== null && !/^[0-9a-f]{32}$/i.test(uuid)) throw signingErrors.uploadNotFound();
    const upload = await ctx.em.findOne(FileUpload, where, { orderBy: { created: 'desc' }, populate: ['validation'] });
    if (!upload) throw signingErrors.uploadNotFound();
    return upload;
  }

  /** An upload with its results and add-on, for its report page. */
  byUuid(em: EntityManager, uuid: string): Promise<FileUpload | null> {
    return em.findOne(FileUpload, uuid, { populate: ['validation', 'addon'] });
  }

  async findByGuid(em: EntityManager, guid: string): Promise<Addon | null> {
    const id = await addonIdByGuid(em, guid);
    return id === null ? null : em.findOne(Addon, id);
  }

  private async parse(path: string): Promise<ParsedPackage> {
    try {
      return await parsePackage(path, { limits: this.limits, browserName: this.names.browserName });
    } catch (error) {
      if (isPackageRefusal(error)) throw errors.badRequest(error.message);
      throw error;
    }
  }

  /** Any earlier version with that string, deleted or not, or an upload of it still in progress. */
  private async assertNewVersion(em: EntityManager, addon: Addon, version: string) {
    const previous = await em.findOne(Version, { addon, version }, { fields: ['id', 'deleted'] });
    if (previous) throw previous.deleted ? signingErrors.versionDeleted(version) : signingErrors.versionExists(version);
    const pending = await em.count(FileUpload, { addon, version, processedAt: null });
    if (pending) throw signingErrors.versionInProgress(version);
  }

  /** The `channel` parameter when valid, else the most recent version's, else unlisted. */
  private async channelFor(em: EntityManager, addon: Addon, param: string | null): Promise<Channel> {
    if (param !== null && CHANNELS[param] !== undefined) return CHANNELS[param];
    const latest = await em.findOne(Version, { addon }, { orderBy: { id: 'desc' }, fields: ['channel'] });
    return latest?.channel ?? Channel.UNLISTED;
  }

  /** A listed version needs what the listing shows: name, summary and categories. */
  private async assertListable(em: EntityManager, addon: Addon) {
    if (addon.disabledByUser) throw signingErrors.invisibleAddon();
    const hasText = (t: Record<string, string> | null) => !!t && Object.values(t).some((v) => v.trim());
    if (!hasText(addon.name) || !hasText(addon.summary) || !addon.categoryIds.length) {
      throw signingErrors.missingListedMetadata();
    }
  }

  private record(em: EntityManager, args: UploadRecord) {
    return recordUpload(em, { files: this.files, jobs: this.jobs, lifecycle: this.lifecycle }, args);
  }
}
