import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createRequestContext, type RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import {
  ImageRenderer,
  InvalidImageError,
  sniffImage,
  type ImagePurpose,
  type ImageVariant,
  type RenderedImage,
  type RenderResult,
} from '../core/images.js';
import { readClientStream } from '../core/spool.js';
import { mergeTranslations, parseTranslationsInput } from '../core/i18n/translations.js';
import { lengthProblem } from '../core/text-limits.js';
import type { Storage } from '../storage/storage.port.js';
import type { Addon } from './addon.entity.js';
import { ListingAuthors, editableAddon } from './listing-authors.js';
import { addonPoliciesById, previewsByAddonId } from './catalogue.loaders.js';
import { applyListingEdit } from './listing-edit.js';
import { ownTransaction } from '../db/conflict-retries.js';
import type { AddonLifecycle } from './lifecycle/lifecycle.service.js';
import { ICON_SIZES } from './catalogue.urls.js';
import type { CatalogueService } from './catalogue.service.js';
import type { CategoriesService } from './categories.service.js';
import { type AddonAuthorDetailType, type AuthorRole, type UpdateAddonListingInput } from './listing.types.js';
import { Preview } from './preview.entity.js';
import { CATALOGUE_TEXT_LIMITS } from './text-limits.js';

export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;
export { MAX_CATEGORIES_PER_APP, MAX_TAGS } from './listing-edit.js';
/**
 * Preview images, as the original stored them (ADDON_PREVIEW_SIZES): the full image within
 * 2400×1800 and a thumbnail within 640×480, aspect kept, never enlarged. The full image keeps the
 * upload's format; the thumbnail is a JPEG (its URL ends in `.jpg`).
 */
export const PREVIEW_FULL_SIZE = { width: 2400, height: 1800 };
export const PREVIEW_THUMBNAIL_SIZE = { width: 640, height: 480 };

export interface UploadedFile {
  filename: string;
  createReadStream(): Readable;
}

/**
 * What an add-on's developers change on its listing: texts, categories, tags, licence, payment
 * flag, default locale; owners also manage authors. Previews and icon are PNG or JPEG uploads (at
 * most 4 MB, not animated), decoded and re-encoded at their stored sizes (`core/images.ts`).
 *
 * The authors' part is ListingAuthors (listing-authors.ts); its operations are answered here too.
 */
export class ListingService {
  private readonly authors: ListingAuthors;

  constructor(
    private readonly catalogue: CatalogueService,
    private readonly categories: CategoriesService,
    private readonly storage: Storage,
    /** Queues a search index update of the add-on (the `index-addon` job), in `em`'s transaction. */
    private readonly reindex: (em: EntityManager, addonId: number) => Promise<unknown>,
    /** The process's image renders (one queue for icons, previews and account pictures). */
    private readonly images: ImageRenderer = new ImageRenderer(),
    /** Queues the invitation mail (the `author-invitation-mail` job), in `em`'s transaction. */
    queueInvitationMail: (em: EntityManager, pendingId: number) => Promise<unknown> = async () => undefined,
    /** Writes the developer's disabled flag of a listing edit. */
    private readonly lifecycle?: AddonLifecycle,
  ) {
    this.authors = new ListingAuthors(catalogue, reindex, queueInvitationMail);
  }

  private editable(ctx: RequestContext, identifier: string): Promise<Addon> {
    return editableAddon(ctx, this.catalogue, identifier);
  }

  /**
   * Edits the listing (every field given, checked by `applyListingEdit`), the developer's disabled
   * flag (`isDisabled`: owners, through the lifecycle) and the icon (an upload, or `clearIcon`), all
   * or nothing: an uploaded icon is decoded first, the rows are written in one transaction (the
   * operation's, else one of its own), the icon's files are stored once it committed.
   */
  async updateListing(
    ctx: RequestContext,
    identifier: string,
    input: UpdateAddonListingInput,
    icon?: UploadedFile | null,
  ): Promise<Addon> {
    await this.editable(ctx, identifier);
    const rendered = icon ? await this.renderIcon(icon) : null;
    const { isDisabled, clearIcon, ...listing } = input;
    let previousIconType: string | null = null;
    const edit = async (tx: RequestContext) => {
      const addon = await this.editable(tx, identifier);
      const problems = await applyListingEdit(tx, addon, listing, this.categories);
      if (problems.has()) {
        tx.em.clear();
        throw errors.validation(problems.fields);
      }
      previousIconType = addon.iconType;
      if (rendered) [addon.iconType, addon.iconHash] = ['image/png', Date.now().toString(36).slice(-8)];
      else if (clearIcon) [addon.iconType, addon.iconHash] = [null, null];
      await tx.em.flush();
      await this.reindex(tx.em, addon.id);
      if (isDisabled !== undefined && isDisabled !== null) {
        if (!this.lifecycle) throw new Error('ListingService was built without the lifecycle');
        // The lifecycle writes the row again (locked, refreshed): `addon` shows the flag.
        await this.lifecycle.setDisabledByDeveloper(tx, String(addon.id), isDisabled);
      }
      return addon;
    };
    const addon = ctx.em.isInTransaction()
      ? await edit(ctx)
      : await ownTransaction(ctx.em, (em) => edit(createRequestContext({ ...ctx, em })));
    if (rendered) await this.storeIcon(addon.id, rendered, previousIconType);
    ctx.loaders.get(addonPoliciesById).clear(addon.id);
    return addon;
  }

  // Authors (listing-authors.ts)

  authorDetails(ctx: RequestContext, addonId: number): Promise<AddonAuthorDetailType[]> {
    return this.authors.authorDetails(ctx, addonId);
  }

  addAuthor(ctx: RequestContext, identifier: string, userRef: string, role: AuthorRole, listed: boolean) {
    return this.authors.addAuthor(ctx, identifier, userRef, role, listed);
  }

  updateAuthor(
    ctx: RequestContext,
    identifier: string,
    userId: number,
    change: { role?: AuthorRole | null; listed?: boolean | null; position?: number | null },
  ) {
    return this.authors.updateAuthor(ctx, identifier, userId, change);
  }

  removeAuthor(ctx: RequestContext, identifier: string, userId: number) {
    return this.authors.removeAuthor(ctx, identifier, userId);
  }

  pendingAuthors(ctx: RequestContext, identifier: string): Promise<AddonAuthorDetailType[]> {
    return this.authors.pendingAuthors(ctx, identifier);
  }

  inviteAuthor(ctx: RequestContext, identifier: string, userId: number, role: AuthorRole, listed: boolean) {
    return this.authors.inviteAuthor(ctx, identifier, userId, role, listed);
  }

  updatePendingAuthor(
    ctx: RequestContext,
    identifier: string,
    userId: number,
    change: { role?: AuthorRole | null; listed?: boolean | null },
  ) {
    return this.authors.updatePendingAuthor(ctx, identifier, userId, change);
  }

  cancelPendingAuthor(ctx: RequestContext, identifier: string, userId: number): Promise<boolean> {
    return this.authors.cancelPendingAuthor(ctx, identifier, userId);
  }

  answerInvitation(ctx: RequestContext, identifier: string, accept: boolean): Promise<Addon> {
    return this.authors.answerInvitation(ctx, identifier, accept);
  }

  /** Reads an upload up to the image limit, refusing anything that is not a still PNG or JPEG by its header. */
  private async readImage(upload: UploadedFile, field: string) {
    const { data, size } = await readClientStream(upload.createReadStream(), MAX_IMAGE_BYTES);
    if (size > MAX_IMAGE_BYTES) throw errors.field(field, 'Please use images smaller than 4MB.');
    const sniffed = sniffImage(data);
    if (!sniffed) throw errors.field(field, 'Images must be either PNG or JPG.');
    if (sniffed.animated) throw errors.field(field, 'Images cannot be animated.');
    return { data, sniffed };
  }

  /**
   * Decodes and re-encodes an upload; data sharp cannot decode (or over the purpose's pixel limit)
   * is refused like another format; a full render queue is THROTTLED.
   */
  private async render(
    data: Buffer,
    variants: ImageVariant[],
    field: string,
    purpose: ImagePurpose,
  ): Promise<RenderResult> {
    try {
      return await this.images.render(data, variants, purpose);
    } catch (error) {
      if (error instanceof InvalidImageError) throw errors.field(field, 'Images must be either PNG or JPG.');
      throw error;
    }
  }

  /**
   * Adds a preview: the image re-encoded within `PREVIEW_FULL_SIZE` (PNG or JPEG as uploaded) and a
   * JPEG thumbnail within `PREVIEW_THUMBNAIL_SIZE`; `image_size` and `thumbnail_size` are theirs.
   */
  async addPreview(ctx: RequestContext, identifier: string, upload: UploadedFile, caption: unknown) {
    const addon = await this.editable(ctx, identifier);
    const captions = mergeTranslations({}, parseTranslationsInput('caption', caption ?? null, ctx.locale));
    const tooLong = Object.values(captions ?? {})
      .map((t) => lengthProblem(t, CATALOGUE_TEXT_LIMITS.previewCaption))
      .find(Boolean);
    if (tooLong) throw errors.field('caption', tooLong);
    const { data, sniffed } = await this.readImage(upload, 'image');
    const {
      variants: [full, thumbnail],
    } = await this.render(
      data,
      [
        { fit: 'inside', ...PREVIEW_FULL_SIZE, format: sniffed.type === 'image/png' ? 'png' : 'jpeg', quality: 90 },
        { fit: 'inside', ...PREVIEW_THUMBNAIL_SIZE, format: 'jpeg', quality: 80 },
      ],
      'image',
      'preview',
    );
    const count = await ctx.em.count(Preview, { addon });
    const preview = ctx.em.create(Preview, {
      addon,
      position: count,
      caption: captions,
      imageSize: [full.width, full.height],
      thumbnailSize: [thumbnail.width, thumbnail.height],
      imageFormat: full.extension,
      modified: new Date(),
    });
    await ctx.em.flush();
    ctx.loaders.get(previewsByAddonId).clear(addon.id);
    const bucket = Math.floor(preview.id / 1000);
    await this.storage.put(`previews/full/${bucket}/${preview.id}.${full.extension}`, full.data);
    await this.storage.put(`previews/thumbs/${bucket}/${preview.id}.jpg`, thumbnail.data);
    return preview;
  }

  async deletePreview(ctx: RequestContext, identifier: string, previewId: number) {
    const addon = await this.editable(ctx, identifier);
    const preview = await ctx.em.findOne(Preview, { id: previewId, addon });
    if (!preview) throw errors.notFound();
    const bucket = Math.floor(preview.id / 1000);
    ctx.em.remove(preview);
    await ctx.em.flush();
    ctx.loaders.get(previewsByAddonId).clear(addon.id);
    await this.storage.delete(`previews/full/${bucket}/${preview.id}.${preview.imageFormat}`);
    await this.storage.delete(`previews/thumbs/${bucket}/${preview.id}.jpg`);
    return addon;
  }

  /**
   * Sets the icon: one square PNG per size of `ICON_SIZES` (the whole image centred on a
   * transparent background), stored where `iconUrl(size)` points.
   */
  async setIcon(ctx: RequestContext, identifier: string, upload: UploadedFile) {
    const addon = await this.editable(ctx, identifier);
    const rendered = await this.renderIcon(upload);
    const previousType = addon.iconType;
    await this.storeIcon(addon.id, rendered, previousType);
    addon.iconType = 'image/png';
    addon.iconHash = Date.now().toString(36).slice(-8);
    await ctx.em.flush();
    return addon;
  }

  /** An icon upload, checked and rendered at every size of `ICON_SIZES`. */
  private async renderIcon(upload: UploadedFile): Promise<RenderedImage[]> {
    const { data } = await this.readImage(upload, 'icon');
    const { variants } = await this.render(
      data,
      ICON_SIZES.map((size): ImageVariant => ({ fit: 'square', width: size, height: size, format: 'png' })),
      'icon',
      'icon',
    );
    return variants;
  }

  /** Stores an add-on's icon files; those of an icon stored as uploaded JPEGs (before re-encoding) go. */
  private async storeIcon(addonId: number, variants: RenderedImage[], previousType: string | null) {
    const bucket = Math.floor(addonId / 1000);
    const key = (size: number, extension: string) => `addon_icons/${bucket}/${addonId}-${size}.${extension}`;
    for (const [i, size] of ICON_SIZES.entries()) await this.storage.put(key(size, 'png'), variants[i].data);
    if (previousType === 'image/jpeg') for (const size of ICON_SIZES) await this.storage.delete(key(size, 'jpg'));
  }
}
