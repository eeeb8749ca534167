import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FileUpload as UploadedFile } from 'graphql-upload/processRequest.mjs';
import { User } from '../accounts/user.entity.js';
import { existingAddon, isAuthor } from '../catalogue/addon-access.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import { existingVersion, isChannelReviewer } from '../catalogue/version-access.js';
import { Version } from '../catalogue/version.entity.js';
import type { RequestContext } from '../core/context.js';
import { asAppError, errors } from '../core/errors.js';
import { defineLoader } from '../core/loaders.js';
import { spoolToFile } from '../core/spool.js';
import { lookupRows } from '../db/rows.js';
import { intArray } from '../db/sql.js';
import type { Storage } from '../storage/storage.port.js';
import type { UploadsService } from './uploads.service.js';
import { isArchive } from './source-archive.js';
import { VersionSource } from './version-source.entity.js';
import { editVersions } from './signing.access.js';
import {
  applyVersionFields,
  checkedReleaseNotes,
  checkVersionFields,
  refuseVendorDisabled,
  type VersionFieldsInput,
} from './version-edit.js';

/** The original's accepted source archive extensions (`VALID_SOURCE_EXTENSIONS`), in its order. */
export const SOURCE_EXTENSIONS = ['.zip', '.tar.gz', '.tgz', '.tar.bz2'] as const;
type SourceExtension = (typeof SOURCE_EXTENSIONS)[number];

export const sourceMessages = {
  unsupported: `Unsupported file type, please upload an archive file (${SOURCE_EXTENSIONS.join(', ')}).`,
  broken: 'Invalid or broken archive.',
  tooLarge: (mb: number) => `The source code archive is too large: the limit is ${mb} MB.`,
};

/** A version's source as reads show it. */
export interface SourceRecord {
  versionId: number;
  filename: string;
  size: number;
}

/** Each version's source (null without one): one statement per batch. */
export const sourceByVersionId = defineLoader<number, SourceRecord | null>('sourceByVersionId', async (ctx, ids) => {
  const rows = await lookupRows<{ version_id: number; filename: string; size: string | number }>(
    ctx.em,
    'select version_id, filename, size from version_sources where version_id = any(?::int[])',
    [intArray(ids)],
  );
  const byId = new Map(rows.map((r) => [r.version_id, r]));
  return ids.map((id) => {
    const row = byId.get(id);
    return row ? { versionId: id, filename: row.filename, size: Number(row.size) } : null;
  });
});

/** What a version edit changes: its source archive, its release notes, its other fields (undefined: unchanged). */
export interface VersionEdit {
  source: UploadedFile | null;
  /** A string (the request's language) or an object of locales; null clears them. */
  releaseNotes?: unknown;
  fields?: VersionFieldsInput;
}

/** An accepted archive, spooled to a temporary file. */
interface ReceivedSource {
  path: string;
  size: number;
  extension: SourceExtension;
}

/** What a download of a version's source streams. */
export interface SourceDownload {
  filename: string;
  /** Null when asked without the bytes (a HEAD request). */
  stream: Readable | null;
  size: number;
}

/**
 * Version source code archives (the original's `Version.source`): the add-on's authors (and
 * `Addons:Edit`) attach one to a version, replacing any earlier one; it must be one of the
 * accepted archive kinds, and really that kind of archive, within the configured size. It is kept
 * in the private file storage and recorded in the add-on's audit log (`source_code_uploaded`).
 * Authors and reviewers of the version's channel download it; everyone else gets 404.
 */
export class VersionSourceService {
  constructor(
    private readonly files: Storage,
    private readonly catalogue: CatalogueService,
    private readonly lifecycle: AddonLifecycle,
    private readonly uploads: UploadsService,
    private readonly options: { tmpDir: string; maxBytes: number },
  ) {}

  /**
   * Edits a version (v5's PATCH): attaches `edit.source` (when given) as its source, sets its
   * release notes and its other fields (version-edit.ts), after the caller's rights on the version
   * (authors of an add-on disabled by an administrator: 403); returns the version as the version
   * query shows it. Runs without the executor's transaction (the archive is streamed and stored
   * first): everything is checked before the archive is read, the rows are written in one
   * transaction of its own, then the archive is stored.
   */
  async attach(ctx: RequestContext, addonIdentifier: string, versionId: number, edit: VersionEdit) {
    const { addon, userId } = await this.editableAddon(ctx, addonIdentifier);
    await refuseVendorDisabled(ctx, addon);
    const version = existingVersion(
      ctx,
      Number.isSafeInteger(versionId) ? await ctx.em.findOne(Version, { id: versionId, addon: addon.id }) : null,
      'nobody',
    );
    const releaseNotes =
      edit.releaseNotes === undefined
        ? undefined
        : checkedReleaseNotes(version.releaseNotes, edit.releaseNotes, ctx.locale);
    const fields = edit.fields ? await checkVersionFields(ctx, addon, version, edit.fields) : {};
    const received = edit.source ? await this.receive(edit.source) : null;
    try {
      if (releaseNotes !== undefined || Object.keys(fields).length) {
        await ctx.em.transactional(async (tx) => {
          const locked = await tx.findOneOrFail(Version, version.id, { lockMode: LockMode.PESSIMISTIC_WRITE });
          if (releaseNotes !== undefined) locked.releaseNotes = releaseNotes;
          await tx.flush();
          await applyVersionFields(tx, this.lifecycle, version.id, fields, userId, { keepBounds: false });
        });
      }
      if (received) await this.store(ctx, addon, version, userId, received);
    } finally {
      if (received) await rm(received.path, { force: true });
    }
    return this.catalogue.getVersion(ctx, addonIdentifier, version.id);
  }

  /**
   * v5's version creation (`POST …/addons/addon/<id>/versions/`): submits the validated upload
   * `uploadUuid` as a new version of the existing add-on, with its source archive, release notes
   * and other fields when given. Everything is checked before anything is submitted: a refused
   * field or archive leaves no version behind.
   */
  async createVersion(
    ctx: RequestContext,
    addonIdentifier: string,
    input: { uploadUuid: string; license: string | null; releaseNotes?: unknown; fields?: VersionFieldsInput },
    upload: UploadedFile | null,
  ) {
    const { addon, userId } = await this.editableAddon(ctx, addonIdentifier);
    if (!addon.guid) throw errors.notFound();
    const releaseNotes =
      input.releaseNotes === undefined ? undefined : checkedReleaseNotes(null, input.releaseNotes, ctx.locale);
    const { license: checkedLicense, ...fields } = await checkVersionFields(ctx, addon, null, {
      ...input.fields,
      ...(input.license === null ? {} : { license: input.license }),
    });
    const customLicense =
      checkedLicense?.kind === 'custom' ? { name: checkedLicense.name, text: checkedLicense.text } : null;
    const received = upload ? await this.receive(upload) : null;
    try {
      const submitted = await this.uploads.submitUpload(ctx, {
        uuid: input.uploadUuid,
        guid: addon.guid,
        metadata: { license: input.license, customLicense },
      });
      const { versionId } = await this.uploads.describe(ctx, submitted.upload);
      const version = versionId === null ? null : await ctx.em.findOne(Version, versionId, { refresh: true });
      if (!version) throw new Error('a submitted upload has its version');
      // An unlisted version is created without a licence: the custom one sent is set afterwards.
      if (customLicense && !version.license) Object.assign(fields, { license: checkedLicense });
      if (releaseNotes !== undefined || Object.keys(fields).length) {
        await ctx.em.transactional(async (tx) => {
          if (releaseNotes !== undefined) (await tx.findOneOrFail(Version, version.id)).releaseNotes = releaseNotes;
          await tx.flush();
          await applyVersionFields(tx, this.lifecycle, version.id, fields, userId, { keepBounds: true });
        });
      }
      if (received) await this.store(ctx, addon, version, userId, received);
      return this.catalogue.getVersion(ctx, String(addon.id), version.id);
    } finally {
      if (received) await rm(received.path, { force: true });
    }
  }

  /** The add-on, for its authors and `Addons:Edit` (anonymous 401, unknown or deleted 404, others 403). */
  private async editableAddon(ctx: RequestContext, identifier: string) {
    const userId = ctx.viewer.userId;
    if (userId === null) throw errors.notAuthenticated();
    const addon = existingAddon(ctx, await this.catalogue.lookup(ctx, identifier), 'nobody');
    await editVersions(ctx, addon);
    return { addon, userId };
  }

  /**
   * The uploaded archive, spooled to a temporary file (the caller removes it) once its name has an
   * accepted extension, it is within the size limit and it is that kind of archive.
   */
  private async receive(upload: UploadedFile): Promise<ReceivedSource> {
    const extension = sourceExtension(upload.filename);
    if (!extension) throw errors.field('source', sourceMessages.unsupported);
    let spooled: { path: string; size: number };
    try {
      spooled = await spoolToFile(upload.createReadStream(), this.options.tmpDir, this.options.maxBytes);
    } catch (error) {
      // spoolToFile's own refusal past the limit; a broken client stream stays its 400.
      if (asAppError(error)?.message.startsWith('The file is too large')) {
        throw errors.field('source', sourceMessages.tooLarge(Math.floor(this.options.maxBytes / (1024 * 1024))));
      }
      throw error;
    }
    if (!(await isArchive(spooled.path, extension))) {
      await rm(spooled.path, { force: true });
      throw errors.field('source', sourceMessages.broken);
    }
    return { ...spooled, extension };
  }

  /**
   * Stores a received archive as the version's source (a new key each time), then replaces the
   * row and records the audit entry in one transaction; the replaced file is removed after commit,
   * the new one when the transaction fails.
   */
  private async store(
    ctx: RequestContext,
    addon: { id: number; slug: string },
    version: { id: number; version: string },
    userId: number,
    received: ReceivedSource,
  ): Promise<void> {
    const filename = `${safeName(addon.slug)}-${safeName(version.version)}-src${received.extension}`;
    const key = `version_source/${version.id}/${randomUUID().replace(/-/g, '')}/${filename}`;
    await this.files.putFile(key, received.path);
    let previous: string | null = null;
    try {
      await ctx.em.transactional(async (tx) => {
        const existing = await tx.findOne(VersionSource, { version: version.id });
        previous = existing?.storageKey ?? null;
        if (existing) tx.remove(existing);
        await tx.flush();
        tx.create(VersionSource, {
          version: tx.getReference(Version, version.id),
          storageKey: key,
          filename,
          size: received.size,
          uploadedBy: tx.getReference(User, userId),
        });
        await tx.flush();
        await this.lifecycle.sourceUploaded(tx, {
          addonId: addon.id,
          versionId: version.id,
          actorId: userId,
          details: { filename, size: received.size, replaced: existing !== null },
        });
      });
    } catch (error) {
      await this.files.delete(key).catch(() => {});
      throw error;
    }
    if (previous) await this.files.delete(previous).catch(() => {});
  }

  /** Whether the caller may download the source of this version (authors, reviewers of its channel). */
  async mayDownload(ctx: RequestContext, version: { addon: { id: number }; channel: number }): Promise<boolean> {
    if (!ctx.viewer.isAuthenticated) return false;
    return isChannelReviewer(ctx.viewer, version.channel) || (await isAuthor(ctx, version.addon.id));
  }

  /** The download URL of the version's source, for a caller who may download it; else null. */
  async downloadUrl(
    ctx: RequestContext,
    version: { id: number; addon: { id: number }; channel: number },
  ): Promise<string | null> {
    const source = await ctx.loaders.get(sourceByVersionId).load(version.id);
    if (!source || !(await this.mayDownload(ctx, version))) return null;
    return `${ctx.request.baseUrl}/downloads/source/${version.id}`;
  }

  /**
   * The source archive of a version for `/downloads/source/<id>`: 401 for anonymous callers, 404
   * for an unknown version, one without source, or a caller who is neither an author nor a
   * reviewer of its channel (deleted add-ons and versions: `Addons:ViewDeleted` only). Without
   * `bytes` (a HEAD request) the size comes from the storage's metadata: nothing is read.
   */
  async download(ctx: RequestContext, versionId: number, bytes = true): Promise<SourceDownload> {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    if (!Number.isSafeInteger(versionId) || versionId < 1 || versionId > 2_147_483_647) throw errors.notFound();
    const version = await ctx.em.findOne(Version, versionId, { populate: ['addon'] });
    if (!version) throw errors.notFound();
    existingAddon(ctx, version.addon, 'viewDeleted');
    existingVersion(ctx, version, 'viewDeleted');
    const source = await ctx.em.findOne(VersionSource, { version: versionId });
    if (!source || !(await this.mayDownload(ctx, version))) throw errors.notFound();
    const stored = bytes ? await this.files.open(source.storageKey) : await this.files.size(source.storageKey);
    if (stored === null) throw errors.notFound();
    return { filename: source.filename, ...(typeof stored === 'number' ? { stream: null, size: stored } : stored) };
  }
}

/** The accepted extension the name ends with (case-insensitive), or null. */
export function sourceExtension(filename: string): SourceExtension | null {
  const name = filename.toLowerCase();
  return SOURCE_EXTENSIONS.find((ext) => name.endsWith(ext)) ?? null;
}

/** A storage-key-safe form of a slug or version string. */
function safeName(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9_.-]/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 100) || '_'
  );
}
