import { Permission } from '../access/permissions.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { mergeTranslations, parseTranslationsInput } from '../core/i18n/translations.js';
import { lengthProblem } from '../core/text-limits.js';
import type { Addon } from './addon.entity.js';
import { editListing, existingAddon } from './addon-access.js';
import { AddonStatus, AddonType } from './catalogue.enums.js';
import { previewsByAddonId } from './catalogue.loaders.js';
import type { CatalogueService } from './catalogue.service.js';
import type { ListingService, UploadedFile } from './listing.service.js';
import { Preview } from './preview.entity.js';
import { CATALOGUE_TEXT_LIMITS } from './text-limits.js';

/** A preview's position: the original's positive integer column. */
export const MAX_PREVIEW_POSITION = 2_147_483_647;

export const previewMessages = {
  theme: 'Themes have generated previews only: previews cannot be added, edited or deleted.',
  positionMin: 'Ensure this value is greater than or equal to 0.',
  positionMax: `Ensure this value is less than or equal to ${MAX_PREVIEW_POSITION}.`,
  positionInvalid: 'A valid integer is required.',
};

/**
 * The developer side of an add-on's previews (screenshots), as the original's v5 preview
 * endpoints: its authors (and `Addons:Edit`) add, edit and delete them, not while an administrator
 * disabled the add-on (403 with its flags), and never for static themes, whose previews are
 * generated (403). Images are read and stored by `ListingService` (PNG or JPEG, at most 4 MB, not
 * animated: the original's API checks; its size and 4:3 ratio rules are a devhub form's, behind a
 * switch).
 */
export class PreviewsService {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly listing: ListingService,
  ) {}

  /** The add-on, when the caller may change its previews (401 anonymous, 404 unknown or deleted, 403 otherwise). */
  async editable(ctx: RequestContext, identifier: string): Promise<Addon> {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    const addon = existingAddon(ctx, await this.catalogue.lookup(ctx, identifier), 'nobody');
    await editListing(ctx, addon);
    if (addon.status === AddonStatus.DISABLED && !ctx.viewer.can(Permission.ADDONS_EDIT)) {
      throw errors.forbidden(undefined, {
        is_disabled_by_developer: addon.disabledByUser,
        is_disabled_by_vendor: true,
      });
    }
    if (addon.type === AddonType.STATICTHEME) throw errors.forbidden(previewMessages.theme);
    return addon;
  }

  /** Adds a preview, last unless `position` says where (lower positions first, ties by age). */
  async add(
    ctx: RequestContext,
    identifier: string,
    upload: UploadedFile,
    caption: unknown,
    position: number | null | undefined,
  ): Promise<Preview> {
    const addon = await this.editable(ctx, identifier);
    checkPosition(position);
    const preview = await this.listing.addPreview(ctx, String(addon.id), upload, caption);
    if (position !== null && position !== undefined && position !== preview.position) {
      preview.position = position;
      await ctx.em.flush();
      ctx.loaders.get(previewsByAddonId).clear(addon.id);
    }
    return preview;
  }

  /** Edits a preview's caption (locales given replace theirs; null drops one, or all) and position. */
  async update(
    ctx: RequestContext,
    identifier: string,
    previewId: number,
    change: { caption?: unknown; position?: number | null },
  ): Promise<Preview> {
    const addon = await this.editable(ctx, identifier);
    const preview = Number.isSafeInteger(previewId) ? await ctx.em.findOne(Preview, { id: previewId, addon }) : null;
    if (!preview) throw errors.notFound();
    if (change.caption !== undefined) {
      const caption = mergeTranslations(preview.caption, parseTranslationsInput('caption', change.caption, ctx.locale));
      const tooLong = Object.values(caption ?? {})
        .map((text) => lengthProblem(text, CATALOGUE_TEXT_LIMITS.previewCaption))
        .find(Boolean);
      if (tooLong) throw errors.field('caption', tooLong);
      preview.caption = caption;
    }
    if (change.position !== undefined && change.position !== null) {
      checkPosition(change.position);
      preview.position = change.position;
    }
    preview.modified = new Date();
    await ctx.em.flush();
    ctx.loaders.get(previewsByAddonId).clear(addon.id);
    return preview;
  }

  /** Deletes a preview and its files (404 for one the add-on does not have). */
  async delete(ctx: RequestContext, identifier: string, previewId: number): Promise<Addon> {
    const addon = await this.editable(ctx, identifier);
    return this.listing.deletePreview(ctx, String(addon.id), previewId);
  }
}

function checkPosition(position: number | null | undefined) {
  if (position === null || position === undefined) return;
  if (!Number.isInteger(position)) throw errors.field('position', previewMessages.positionInvalid);
  if (position < 0) throw errors.field('position', previewMessages.positionMin);
  if (position > MAX_PREVIEW_POSITION) throw errors.field('position', previewMessages.positionMax);
}
