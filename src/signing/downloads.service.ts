import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { existingAddon } from '../catalogue/addon-access.js';
import { isPublicAddon, isVisibleVersion } from '../catalogue/public.js';
import { existingVersion } from '../catalogue/version-access.js';
import { AddonFile } from '../catalogue/version.entity.js';
import { downloadFile } from './signing.access.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import type { Storage } from '../storage/storage.port.js';

export interface DownloadInfo {
  id: number;
  filename: string;
  hash: string;
  public: boolean;
}

/**
 * Who may download which file (docs/compat-notes.md §3): public files (approved, listed, on a public
 * add-on) go through the public mirror; other files only to their authors and to reviewers of
 * their channel; everything else is "not found".
 */
export class DownloadsService {
  constructor(private readonly files: Storage) {}

  async describe(ctx: RequestContext, fileId: number): Promise<DownloadInfo> {
    const userId = ctx.viewer.userId;
    if (userId === null) throw errors.notAuthenticated();
    const file = await this.load(ctx.em, fileId);
    if (!file) throw errors.notFound();
    const { version } = file;
    const addon = version.addon;
    existingAddon(ctx, addon, 'viewDeleted');
    existingVersion(ctx, version, 'viewDeleted');
    const info = { id: file.id, filename: file.filename, hash: file.hash };
    return { ...info, public: await downloadFile(ctx, file, isPublicFile(file)) };
  }

  /** A public file for the mirror (`/downloads/file/<id>/…`), or null. */
  async publicFile(em: EntityManager, fileId: number): Promise<DownloadInfo | null> {
    const file = await this.load(em, fileId);
    return file && isPublicFile(file) ? { id: file.id, filename: file.filename, hash: file.hash, public: true } : null;
  }

  /** The bytes of a file whose access was just checked. */
  async open(em: EntityManager, fileId: number): Promise<{ stream: Readable; size: number } | null> {
    const file = await em.findOne(AddonFile, fileId, { fields: ['storageKey'] });
    return file?.storageKey ? this.files.open(file.storageKey) : null;
  }

  /** The size of a file whose access was just checked, nothing read (a HEAD request), or null. */
  async size(em: EntityManager, fileId: number): Promise<number | null> {
    const file = await em.findOne(AddonFile, fileId, { fields: ['storageKey'] });
    return file?.storageKey ? this.files.size(file.storageKey) : null;
  }

  private load(em: EntityManager, fileId: number) {
    if (!Number.isSafeInteger(fileId) || fileId < 1 || fileId > 2_147_483_647) return Promise.resolve(null);
    return em.findOne(AddonFile, fileId, { populate: ['version', 'version.addon'] });
  }
}

function isPublicFile(file: AddonFile): boolean {
  const { version } = file;
  const addon = version.addon;
  return isVisibleVersion(version, [file.status]) && isPublicAddon(addon);
}
