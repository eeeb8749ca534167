import { createHash } from 'node:crypto';
import type { FileUpload as UploadedFile } from 'graphql-upload/processRequest.mjs';
import type { RequestContext } from '../core/context.js';
import { ImageRenderer, InvalidImageError, sniffImage, type RenderedImage } from '../core/images.js';
import { readClientStream } from '../core/spool.js';
import type { Storage } from '../storage/storage.port.js';
import type { User } from './user.entity.js';

const DEFAULT_MAX_PICTURE_BYTES = 4 * 1024 * 1024;

/**
 * Account pictures are stored as PNG (the contract: `picture_type` is only `image/png`) within
 * 200×200, aspect kept, never enlarged (the original's resize_photo).
 */
export const PICTURE_SIZE = { width: 200, height: 200 };

/** What locates a stored picture: the account and the picture's type and hash (null: none). */
export type PictureFacts = Pick<User, 'id' | 'pictureType'> & { pictureHash?: string | null };

/** Account pictures: checked and re-encoded uploads, their storage keys and public URLs. */
export class AccountPictures {
  private readonly images: ImageRenderer;

  constructor(
    private readonly storage: Storage,
    images?: ImageRenderer,
    /** Largest profile picture (default 4 MB). */
    private readonly maxBytes: number = DEFAULT_MAX_PICTURE_BYTES,
  ) {
    this.images = images ?? new ImageRenderer();
  }

  /**
   * PNG or JPEG, not animated, at most `maxBytes`: checked in the original's order, then decoded
   * (data that does not decode, or over the pictures' pixel limit, is "not PNG or JPG", as the
   * original's check said) and re-encoded as a PNG within `PICTURE_SIZE`, without metadata. A full
   * render queue is THROTTLED (429).
   */
  async check(picture: Promise<UploadedFile>): Promise<RenderedImage | string[]> {
    let file: UploadedFile;
    try {
      file = await picture;
    } catch {
      return ['Please use images smaller than 4MB.'];
    }
    const { data, size } = await readClientStream(file.createReadStream(), this.maxBytes);
    const sniffed = sniffImage(data);
    if (!sniffed) return ['Images must be either PNG or JPG.'];
    if (sniffed.animated) return ['Images cannot be animated.'];
    if (size > this.maxBytes) return ['Please use images smaller than 4MB.'];
    try {
      const { variants } = await this.images.render(
        data,
        [{ fit: 'inside', ...PICTURE_SIZE, format: 'png' }],
        'picture',
      );
      return variants[0];
    } catch (error) {
      if (error instanceof InvalidImageError) return ['Images must be either PNG or JPG.'];
      throw error;
    }
  }

  /** Makes `image` the account's picture (the row is flushed by the caller); the previous file goes. */
  async replace(user: User, image: RenderedImage): Promise<void> {
    const previous = this.key(user);
    const hash = createHash('sha256').update(image.data).digest('hex').slice(0, 8);
    user.pictureType = image.type;
    user.pictureHash = hash;
    const key = this.key(user)!;
    await this.storage.put(key, image.data);
    if (previous && previous !== key) await this.storage.delete(previous);
  }

  /** Removes a stored picture's file (by its key). */
  delete(key: string): Promise<void> {
    return this.storage.delete(key);
  }

  key(user: Pick<User, 'id' | 'pictureType'>): string | null {
    if (!user.pictureType) return null;
    const extension = user.pictureType === 'image/jpeg' ? 'jpg' : 'png';
    return `userpics/${Math.floor(user.id / 1000)}/${user.id}.${extension}`;
  }

  /** The picture's public URL (cache-busted), or null. */
  url(ctx: RequestContext, picture: PictureFacts | null): string | null {
    const key = picture && this.key(picture);
    return key ? `${this.storage.url(ctx.request.baseUrl, key)}?modified=${picture.pictureHash}` : null;
  }
}
