import { randomUUID, createHash } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../accounts/user.entity.js';
import { Addon, AddonUser } from '../catalogue/addon.entity.js';
import { existingAddon } from '../catalogue/addon-access.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import { versionById } from '../catalogue/catalogue.loaders.js';
import type { VersionRecord } from '../catalogue/catalogue.records.js';
import { AddonStatus, AddonType, Channel, FileStatus } from '../catalogue/catalogue.enums.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import { Version } from '../catalogue/version.entity.js';
import { blockCovering } from '../blocklist/blocklist.service.js';
import type { RequestContext } from '../core/context.js';
import { compareAppVersions } from '../core/app-versions.js';
import { selectRows } from '../db/rows.js';
import { errors } from '../core/errors.js';
import { fieldMessages } from '../core/messages.js';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import type { Mailer } from '../mail/mailer.port.js';
import { mails } from '../mail/templates.js';
import type { Storage } from '../storage/storage.port.js';
import { PackageError, isPackageRefusal } from './package/package.errors.js';
import { checkVersion, parsePackage, type PackageLimits } from './package/parse.js';
import { rewritePackageVersion } from './package/rollback-package.js';
import { createVersionFromUpload } from './version-from-upload.js';
import { FileUpload } from './upload.entity.js';
import { rollBackVersions } from './signing.access.js';

export interface RollbackInput {
  /** The add-on's id, slug or guid. */
  addon: string;
  /** The earlier version to re-publish. */
  versionId: number;
  /** The new version's string. */
  newVersion: string;
}

/** Why a rollback is refused: the new string under `version`, the rest as non-field errors. */
export const rollbackMessages = {
  disabled: 'You cannot roll back a version of a disabled add-on.',
  notExtension: 'Only extensions can be rolled back.',
  notApproved: 'Only an approved, signed version can be rolled back to.',
  latest: 'This is already the latest approved version of its channel.',
  notPrevious: 'A listed add-on can only be rolled back to the approved listed version before its latest one.',
  sourceBlocked: (version: string) => `Version ${version} is blocked: it cannot be re-published.`,
  blocked: (version: string) => `Version ${version} is covered by a block of this add-on.`,
  exists: (version: string) => `Version ${version} already exists.`,
  deleted: (version: string) => `Version ${version} was uploaded before and deleted.`,
  inProgress: (version: string) => `Version ${version} was uploaded already and is being processed.`,
  notGreater: (version: string, latest: string) =>
    `Version ${version} must be greater than the latest version ${latest}.`,
};

const refuse = (message: string) => errors.validation({ non_field_errors: [message] });
const refuseVersion = (message: string) => errors.field('version', message);

/**
 * Rolling back a bad release (the original's devhub rollback): an earlier approved, signed version's
 * package is re-published as a new version string, a copy signed anew. Authors (or Addons:Edit)
 * choose an approved version of either channel that is not its channel's latest (listed: the one
 * before the latest, as the original offers); the new string passes the upload rules, is unused
 * (deleted versions included) and greater than every version of the add-on; neither the source
 * nor the new string may be covered by a block. The copy keeps the original's code (the unsigned
 * upload, or the signed file without its signature files) with `manifest.json`'s `version`
 * rewritten, and becomes a version through the upload path (compatibility, permissions, licence),
 * with the source's release notes and review date. It is not sent to a human (the code was
 * reviewed; no review is requested, so it is never in the queue): the scan and signing jobs approve it. The audit log records `version_rollback`; the authors are mailed.
 */
export class RollbackService {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly files: Storage,
    private readonly jobs: JobQueue<ServiceJobs>,
    private readonly lifecycle: AddonLifecycle,
    private readonly mailer: Mailer,
    private readonly settings: { siteUrl: string; serviceName: string },
    private readonly limits: Partial<PackageLimits> = {},
  ) {}

  /**
   * Runs in the operation's transaction (`ctx.em`); returns the new version, which the caller may
   * see as an author or Addons:Edit (whether or not a reviewer of its channel).
   */
  async rollback(ctx: RequestContext, input: RollbackInput): Promise<VersionRecord> {
    const userId = ctx.viewer.userId;
    if (userId === null) throw errors.notAuthenticated();
    const record = existingAddon(ctx, await this.catalogue.find(ctx, input.addon), 'nobody');
    await rollBackVersions(ctx, record);
    const em = ctx.em;
    // Locked first: concurrent rollbacks (or lifecycle changes) of the add-on wait, and see each other's versions.
    const addon = await em.findOneOrFail(Addon, record.id, { refresh: true, lockMode: LockMode.PESSIMISTIC_WRITE });
    const source = await em.findOne(
      Version,
      { id: input.versionId, addon, deleted: false },
      { populate: ['files', 'license'] },
    );
    if (!source) throw errors.notFound();
    if (addon.status === AddonStatus.DISABLED || addon.disabledByUser) throw refuse(rollbackMessages.disabled);
    if (addon.type !== AddonType.EXTENSION) throw refuse(rollbackMessages.notExtension);
    await this.assertRollbackable(em, addon, source);
    const newVersion = await this.checkNewVersion(em, addon, input.newVersion);
    if (await blockCovering(em, addon.guid, source.version))
      throw refuse(rollbackMessages.sourceBlocked(source.version));
    if (await blockCovering(em, addon.guid, newVersion)) throw refuseVersion(rollbackMessages.blocked(newVersion));

    const user = await em.findOneOrFail(User, userId);
    const { upload, pkg } = await this.copyPackage(em, addon, source, newVersion, user);
    try {
      await this.lifecycle.submitted(em, {
        addon,
        created: false,
        uploadId: upload.uuid,
        version: newVersion,
        channel: source.channel,
        actorId: userId,
      });
      const version = await createVersionFromUpload(em, { lifecycle: this.lifecycle, jobs: this.jobs }, upload, pkg, {
        license: source.license,
        reviewed: source.reviewed,
      });
      version.releaseNotes = source.releaseNotes;
      await em.flush();
      await this.lifecycle.rolledBack(em, {
        addonId: addon.id,
        versionId: version.id,
        fromVersionId: source.id,
        fromVersion: source.version,
        version: newVersion,
        actorId: userId,
      });
      const created = await ctx.loaders.get(versionById).load(version.id);
      if (!created) throw new Error(`version ${version.id} was not created`);
      return created;
    } catch (error) {
      await this.files.delete(upload.storageKey);
      throw error;
    }
  }

  /** Approved and signed, and (listed) the one before its channel's latest, else not the latest. */
  private async assertRollbackable(em: EntityManager, addon: Addon, source: Version) {
    const files = source.files.getItems();
    if (!files.length || !files.every((f) => f.status === FileStatus.APPROVED && f.isSigned)) {
      throw refuse(rollbackMessages.notApproved);
    }
    const approved = await selectRows<{ id: number }>(
      em,
      `select v.id from versions v
        where v.addon_id = ? and v.channel = ? and not v.deleted
          and exists (select 1 from files f where f.version_id = v.id and f.status = ?)
        order by v.created desc, v.id desc limit 2`,
      [addon.id, source.channel, FileStatus.APPROVED],
    );
    if (approved[0]?.id === source.id) throw refuse(rollbackMessages.latest);
    if (source.channel === Channel.LISTED && approved[1]?.id !== source.id) throw refuse(rollbackMessages.notPrevious);
  }

  /** The upload rules of a version string, then unused and greater than every version of the add-on. */
  private async checkNewVersion(em: EntityManager, addon: Addon, value: string): Promise<string> {
    const version = value.trim();
    if (!version) throw refuseVersion(fieldMessages.blank);
    try {
      checkVersion(version);
    } catch (error) {
      if (error instanceof PackageError) throw refuseVersion(error.message);
      throw error;
    }
    const versions = await em.find(Version, { addon }, { fields: ['version', 'deleted'] });
    const previous = versions.find((v) => v.version === version);
    if (previous) throw refuseVersion((previous.deleted ? rollbackMessages.deleted : rollbackMessages.exists)(version));
    if (await em.count(FileUpload, { addon, version, processedAt: null })) {
      throw refuseVersion(rollbackMessages.inProgress(version));
    }
    const latest = versions
      .filter((v) => !v.deleted)
      .map((v) => v.version)
      .reduce<string | null>((top, v) => (top === null || compareAppVersions(v, top) > 0 ? v : top), null);
    if (latest !== null && compareAppVersions(version, latest) <= 0) {
      throw refuseVersion(rollbackMessages.notGreater(version, latest));
    }
    return version;
  }

  /**
   * The source's package (its upload, else its signed file) with the new version string, stored as
   * a processed, valid upload of the add-on that the upload path turns into a version.
   */
  private async copyPackage(em: EntityManager, addon: Addon, source: Version, version: string, user: User) {
    const original = await em.findOne(FileUpload, { createdVersion: source }, { orderBy: { created: 'desc' } });
    const file = source.files.getItems()[0];
    const key = original?.storageKey ?? file.storageKey;
    const uuid = randomUUID().replaceAll('-', '');
    const storageKey = `uploads/${uuid.slice(0, 2)}/${uuid}.xpi`;
    const bytes = await this.withLocal(key, (path) => rewritePackageVersion(path, version, this.limits)).catch(
      (error: unknown) => {
        throw isPackageRefusal(error) ? refuse(error.message) : error;
      },
    );
    await this.files.put(storageKey, bytes);
    try {
      const pkg = await this.withLocal(storageKey, (path) => parsePackage(path, { limits: this.limits }));
      if (pkg.version !== version || (addon.guid && pkg.guid && pkg.guid !== addon.guid)) {
        throw new Error(`rollback package of version ${source.id} does not carry ${version}`);
      }
      const upload = em.create(FileUpload, {
        uuid,
        user,
        addon,
        version,
        channel: source.channel,
        addonType: addon.type,
        automatedSigning: true,
        filename: `rollback-${file.filename}`.slice(0, 255),
        storageKey,
        size: bytes.length,
        hash: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
        validation: original?.validation ?? null,
        processedAt: new Date(),
        valid: true,
      });
      await em.flush();
      return { upload, pkg };
    } catch (error) {
      await this.files.delete(storageKey);
      if (isPackageRefusal(error)) throw refuse(error.message);
      throw error;
    }
  }

  private async withLocal<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    const local = await this.files.localFile(key);
    if (!local) throw new Error(`${key} missing from storage`);
    try {
      return await use(local.path);
    } finally {
      await local.release();
    }
  }

  /** `version.rolled_back`'s subscriber: each author is told the rollback was submitted. */
  async mailAuthors(em: EntityManager, versionId: number, fromVersionId: number): Promise<void> {
    const version = await em.findOne(Version, versionId, { populate: ['addon'] });
    const from = await em.findOne(Version, fromVersionId, { fields: ['version'] });
    if (!version || !from) return;
    const authors = await em.find(AddonUser, { addon: version.addon }, { populate: ['user'] });
    const name = version.addon.name;
    const addonName = (name && (name[version.addon.defaultLocale] ?? Object.values(name)[0])) || version.addon.slug;
    for (const { user } of authors) {
      await this.mailer.send({
        to: user.email,
        ...mails.versionRolledBack.render({
          addonName,
          version: version.version,
          fromVersion: from.version,
          versionUrl: `${this.settings.siteUrl}/developers/addon/${version.addon.slug}/versions/${version.id}`,
          serviceName: this.settings.serviceName,
        }),
      });
    }
  }
}
