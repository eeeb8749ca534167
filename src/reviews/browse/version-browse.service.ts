import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Addon } from '../../catalogue/addon.entity.js';
import { AddonType, Channel } from '../../catalogue/catalogue.enums.js';
import { AddonFile, Version } from '../../catalogue/version.entity.js';
import { foundVersionsFilter } from '../../catalogue/version-access.js';
import type { RequestContext } from '../../core/context.js';
import { errors } from '../../core/errors.js';
import type { Hooks } from '../../core/hooks.js';
import type { ReviewHooks, UploadValidation } from '../review.hooks.js';
import { readFileValidation, type ReviewMaterialAccess } from '../review-material-access.js';
import { browseUrls } from './browse.urls.js';
import type { PackageEntry } from './contents.entity.js';
import type { FileDiff, FileStatus } from './file-diff.js';
import { decodeText, DIRECTORY_MIMETYPE, mimetypeByName } from './mime.js';
import { compareTreePaths, type PackageContentsStore, type StoredEntry } from './package-contents.js';

/** A file entry of a browse (status null) or a compare; a deleted file's type fields are null. */
/** A tree entry as browse and compare show it (`at`: where a file of the browsed package is read from). */
export interface BrowseEntry extends Omit<StoredEntry, 'category' | 'mimetype'> {
  category: PackageEntry['category'] | null;
  mimetype: string | null;
  status: FileStatus | null;
}

/** The selected file of a browse or compare. */
export interface SelectedFile {
  entry: BrowseEntry;
  /** Text content (browse only; '' for images, binaries, directories and files over `contentMax`). */
  content: string | null;
  /** Whether the file exists in the version (a compare may select a file deleted since the base). */
  exists: boolean;
  usesUnknownMinifiedCode: boolean;
  /** Null for a directory or a deleted file. */
  downloadUrl: string | null;
}

export interface VersionContents {
  addon: Addon;
  version: Version;
  /** The version's package. */
  file: AddonFile;
  entries: BrowseEntry[];
  selected: SelectedFile;
  hasBeenValidated: boolean;
  /** The validation report of the upload the version came from (HTML and JSON); null when unknown. */
  validationUrl: string | null;
  validationJsonUrl: string | null;
}

export interface VersionComparison extends VersionContents {
  base: Version;
  baseFile: AddonFile;
  diff: FileDiff | null;
}

export interface BrowseSettings {
  /**
   * Text files larger than this, in bytes, are offered for download only (their `content` is '',
   * as the original answers for what it does not render); they are never read for a browse.
   */
  contentMax: number;
}

const MANIFEST = 'manifest.json';
/** Longer paths cannot be in a package (zip names are at most 1,024 bytes). */
const MAX_PATH = 1024;

/**
 * Reviewers browsing and comparing the files of versions (docs/compat-notes.md §4.5): who may is
 * `ReviewMaterialAccess`'s rule (reviewers of the version's channel, the add-on's authors); the
 * contents come from `PackageContentsStore`, the uploads' validations from the module that stores
 * uploads (`ReviewHooks`).
 */
export class VersionBrowseService {
  constructor(
    private readonly access: ReviewMaterialAccess,
    private readonly store: PackageContentsStore,
    private readonly settings: BrowseSettings,
    private readonly hooks: Hooks<ReviewHooks>,
  ) {}

  /** The add-on's versions, newest first; unlisted ones for unlisted reviewers and authors only. */
  async versions(ctx: RequestContext, addonIdentifier: string): Promise<Version[]> {
    const { addon, unlisted } = await this.access.addonVersions(ctx, addonIdentifier);
    return ctx.em.find(
      Version,
      {
        addon: addon.id,
        ...(unlisted ? {} : { channel: Channel.LISTED }),
        ...foundVersionsFilter(ctx.viewer),
      },
      { orderBy: { created: 'desc', id: 'desc' } },
    );
  }

  /** A version's file tree and one file (`path`, or the manifest by default). */
  async browse(ctx: RequestContext, addonIdentifier: string, versionId: number, path: string | null) {
    const version = await this.access.version(ctx, addonIdentifier, versionId);
    const file = await this.packageOf(ctx, version);
    const entries = (await this.store.entries(ctx.em, file)).map((e) => ({ ...e, status: null }));
    const entry = select(entries, path, version.addon.type);
    const validation = await this.validation(ctx, version);
    const content = await this.content(file, entry);
    return {
      addon: version.addon,
      version,
      file,
      entries,
      selected: {
        entry,
        content,
        exists: true,
        usesUnknownMinifiedCode: validation.minified.has(entry.path),
        downloadUrl: this.downloadUrl(ctx, version, entry),
      },
      ...this.validationUrls(ctx, validation.upload),
    } satisfies VersionContents;
  }

  /**
   * A version compared with a base version of the same add-on: every path's status (`A`, `D`,
   * `M` or ''), deleted files included, and the selected file's diff (computed once per pair).
   */
  async compare(
    ctx: RequestContext,
    addonIdentifier: string,
    baseVersionId: number,
    versionId: number,
    path: string | null,
  ): Promise<VersionComparison> {
    const base = await this.access.version(ctx, addonIdentifier, baseVersionId);
    const version = await this.access.version(ctx, addonIdentifier, versionId);
    const [baseFile, file] = await Promise.all([this.packageOf(ctx, base), this.packageOf(ctx, version)]);
    const [before, after] = await Promise.all([this.store.entries(ctx.em, baseFile), this.store.entries(ctx.em, file)]);
    const entries = compareEntries(before, after);
    const entry = select(entries, path, version.addon.type);
    const [validation, baseValidation] = await Promise.all([this.validation(ctx, version), this.validation(ctx, base)]);
    const trees = { base: before, file: after };
    const diff =
      entry.category === 'directory' ? null : await this.store.diff(ctx.em, baseFile, file, entry.path, trees);
    return {
      addon: version.addon,
      version,
      file,
      base,
      baseFile,
      entries,
      selected: {
        entry,
        content: null,
        exists: entry.status !== 'D',
        usesUnknownMinifiedCode: validation.minified.has(entry.path) || baseValidation.minified.has(entry.path),
        downloadUrl: this.downloadUrl(ctx, version, entry),
      },
      ...this.validationUrls(ctx, validation.upload),
      diff,
    };
  }

  /** One file of a version's package, for download (the caller's access checked first). */
  async download(ctx: RequestContext, addonIdentifier: string, versionId: number, path: string) {
    const version = await this.access.version(ctx, addonIdentifier, versionId);
    const file = await this.packageOf(ctx, version);
    const entry =
      path.length <= MAX_PATH ? (await this.store.entries(ctx.em, file)).find((e) => e.path === path) : null;
    if (!entry || entry.category === 'directory') throw errors.notFound('File not found');
    return { fileId: file.id, path: entry.path, filename: entry.filename, size: entry.size ?? 0 };
  }

  /** The bytes of a file whose access `download` checked, streamed (a large member is never held whole). */
  async open(em: EntityManager, fileId: number, path: string): Promise<{ stream: Readable; size: number } | null> {
    const file = await em.findOne(AddonFile, fileId);
    return file ? this.store.open(em, file, path) : null;
  }

  /** The size `open` would answer, from the package's tree (a HEAD request), or null. */
  async size(em: EntityManager, fileId: number, path: string): Promise<number | null> {
    const file = await em.findOne(AddonFile, fileId);
    return file ? this.store.size(em, file, path) : null;
  }

  private downloadUrl(ctx: RequestContext, version: Version, entry: BrowseEntry): string | null {
    if (entry.category === 'directory' || entry.status === 'D') return null;
    return browseUrls.download(ctx.request.baseUrl, version.addon.id, version.id, entry.path);
  }

  private validationUrls(ctx: RequestContext, upload: string | null) {
    const base = ctx.request.baseUrl;
    return {
      hasBeenValidated: upload !== null,
      validationUrl: upload && browseUrls.validation(base, upload),
      validationJsonUrl: upload && browseUrls.validationJson(base, upload),
    };
  }

  private async packageOf(ctx: RequestContext, version: Version): Promise<AddonFile> {
    const [file] = await ctx.em.find(AddonFile, { version: version.id }, { orderBy: { id: 'asc' }, limit: 1 });
    if (!file || !file.storageKey) throw errors.notFound('File not found');
    return file;
  }

  private async content(file: AddonFile, entry: BrowseEntry): Promise<string> {
    if (entry.category !== 'text' || (entry.size ?? 0) > this.settings.contentMax) return '';
    const bytes = await this.store.readEntry(file, entry);
    return bytes ? decodeText(bytes) : '';
  }

  /**
   * A file's linter results (the validation of the upload its version came from), as the
   * original's `reviewers/addon/<id>/file/<file_id>/validation/`: any kind of reviewer (401
   * anonymous, 403 otherwise, authors included: the operation's `@Requires`, before the add-on is
   * looked up); then an unknown add-on, or a file not of it, is a 404; then the file's channel
   * (`readFileValidation`: unlisted needs Addons:ReviewUnlisted, listed a reviewer of the add-on's
   * type; 403); no validation: 404.
   */
  async fileValidation(ctx: RequestContext, addonIdentifier: string, fileId: number): Promise<UploadValidation> {
    const addon = await this.access.addon(ctx, addonIdentifier);
    const file = Number.isSafeInteger(fileId)
      ? await ctx.em.findOne(AddonFile, { id: fileId, version: { addon: addon.id } }, { populate: ['version'] })
      : null;
    if (!file) throw errors.notFound();
    readFileValidation(ctx, addon, file.version.channel);
    const validation = (await this.hooks.steps.versionValidation?.(ctx.em, file.version.id)) ?? null;
    if (!validation) throw errors.notFound();
    return validation;
  }

  /** The version's validation: its upload (when validated) and the linter's unknown minified files. */
  private async validation(ctx: RequestContext, version: Version) {
    const upload = (await this.hooks.steps.versionUpload?.(ctx.em, version.id)) ?? null;
    const validation = upload?.validation ?? null;
    const minified = new Set<string>(validation?.metadata?.unknownMinifiedFiles ?? []);
    return { upload: validation ? upload!.uuid : null, minified };
  }
}

/**
 * The requested path (404 "File not found" when the tree has none), or by default the manifest,
 * a search engine's XML file, or the first file.
 */
function select(entries: BrowseEntry[], path: string | null, addonType: number): BrowseEntry {
  if (path !== null) {
    const entry = path.length <= MAX_PATH ? entries.find((e) => e.path === path) : undefined;
    if (!entry) throw errors.notFound('File not found');
    return entry;
  }
  const files = entries.filter((e) => e.category !== 'directory' && e.status !== 'D');
  const entry =
    files.find((e) => e.path === MANIFEST) ??
    (addonType === AddonType.SEARCH
      ? files.find((e) => e.depth === 0 && e.path.toLowerCase().endsWith('.xml'))
      : null) ??
    files[0];
  if (!entry) throw errors.notFound('File not found');
  return entry;
}

/**
 * The newer tree with statuses, plus the files deleted since the base (type fields null, as the
 * original) and their directories when the newer tree has none; in tree order.
 */
function compareEntries(before: PackageEntry[], after: PackageEntry[]): BrowseEntry[] {
  const old = new Map(before.map((e) => [e.path, e]));
  const entries = new Map<string, BrowseEntry>();
  for (const e of after) {
    const was = old.get(e.path);
    const status: FileStatus =
      e.category === 'directory' ? '' : !was || was.category === 'directory' ? 'A' : was.sha256 === e.sha256 ? '' : 'M';
    entries.set(e.path, { ...e, status });
  }
  for (const e of before) {
    if (e.category === 'directory' || entries.has(e.path)) continue;
    entries.set(e.path, {
      ...e,
      // Where the base package holds it: nothing to read in this version.
      at: undefined,
      size: null,
      sha256: null,
      category: null,
      mimetype: mimetypeByName(e.path),
      status: 'D',
    });
    const parts = e.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (!entries.has(dir)) {
        entries.set(dir, {
          path: dir,
          filename: parts[i - 1],
          depth: i - 1,
          size: null,
          sha256: null,
          category: 'directory',
          mimetype: DIRECTORY_MIMETYPE,
          status: '',
        });
      }
    }
  }
  return [...entries.values()].sort((a, b) => compareTreePaths(a.path, b.path));
}
