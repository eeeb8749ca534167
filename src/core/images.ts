import type { default as SharpFunction, Sharp } from 'sharp';
import { Slots } from './slots.js';

/**
 * Uploaded images (add-on icons and previews, account pictures), decoded and re-encoded with sharp
 * (libvips). Two steps:
 *
 * 1. `sniffImage` reads the header bytes only: the type (PNG or JPEG, nothing else) and whether a
 *    PNG is animated. It works on the first bytes of an oversized upload, so callers keep the
 *    original order of their refusals (type, animation, size).
 * 2. `renderImage` decodes the whole file ONCE (refusing truncated or corrupt data and anything
 *    over its pixel limit), turned upright by its EXIF orientation, in sRGB, and already scaled
 *    down to the largest size any variant needs (a JPEG is shrunk while it is decoded); each
 *    requested variant is then resized from those pixels and encoded without metadata (EXIF, GPS,
 *    XMP, ICC profiles are not copied). The variants' sizes are computed from the upload's own.
 *
 * `ImageRenderer` is what the services use: a pixel limit per purpose (icons and account pictures,
 * which end up as small squares, get a lower one than previews) and at most `concurrency` uploads
 * decoded at once on libuv's thread pool (shared with file-system and crypto work). A burst of
 * uploads waits its turn in a bounded queue; one more than `maxWaiting` is refused at once with
 * THROTTLED (429 and `Retry-After`), so waiting requests cannot pile up with their buffers.
 */

export type ImageType = 'image/png' | 'image/jpeg';
export type ImageExtension = 'png' | 'jpg';

/** What the header bytes say about an upload. */
export interface SniffedImage {
  type: ImageType;
  extension: ImageExtension;
  /** An animated PNG (an `acTL` chunk before the image data). */
  animated: boolean;
}

/**
 * Decoding stops above this many pixels (sharp's `limitInputPixels`): a small file can declare a
 * huge image (a "decompression bomb": a 100-megapixel PNG of zeros compresses to 100 KB). 50
 * megapixels is more than the largest camera photos that fit in the 4 MB upload limit; it is the
 * previews' default (`PREVIEW_MAX_MEGAPIXELS`).
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
/**
 * The default limit of icons and account pictures (`ICON_MAX_MEGAPIXELS`): they are stored as
 * squares of at most 200 pixels, so 16 megapixels (4000×4000) is plenty, and a third of the work.
 */
export const MAX_ICON_PIXELS = 16_000_000;
/** Uploads decoded at the same time in this process; the others wait their turn. */
export const MAX_CONCURRENT_RENDERS = 2;
/** Uploads that may wait for a free render (`IMAGE_RENDER_QUEUE`); one more is a 429. */
export const MAX_WAITING_RENDERS = 8;
/** `Retry-After` of a refused render: a render takes well under a second. */
export const RENDER_RETRY_SECONDS = 2;

/** The data is not an image sharp can decode completely (or is over the pixel limit). */
export class InvalidImageError extends Error {
  constructor(reason: string) {
    super(`Invalid image: ${reason}`);
    this.name = 'InvalidImageError';
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG or JPEG by its signature, or null for anything else. */
export function sniffImage(data: Buffer): SniffedImage | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(PNG_SIGNATURE)) {
    return { type: 'image/png', extension: 'png', animated: hasPngChunkBeforeData(data, 'acTL') };
  }
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) {
    return { type: 'image/jpeg', extension: 'jpg', animated: false };
  }
  return null;
}

/**
 * Whether a chunk comes before the first image data. libvips reads an animated PNG's default image
 * and says nothing of its frames, so the animation-control chunk is looked for here.
 */
function hasPngChunkBeforeData(data: Buffer, name: string): boolean {
  let offset = 8;
  while (offset + 8 <= data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.subarray(offset + 4, offset + 8).toString('latin1');
    if (type === name) return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    offset += 12 + length;
  }
  return false;
}

/** One output of `renderImage`. */
export interface ImageVariant {
  /**
   * `square`: exactly `width`×`width`, the whole image centred on a transparent background (PNG)
   * or white (JPEG), scaled up if smaller. `inside`: the aspect ratio kept, within
   * `width`×`height`, never scaled up.
   */
  fit: 'square' | 'inside';
  width: number;
  height: number;
  format: 'png' | 'jpeg';
  /** JPEG quality (1–100); default 80. */
  quality?: number;
}

export interface RenderedImage {
  data: Buffer;
  width: number;
  height: number;
  type: ImageType;
  extension: ImageExtension;
}

export interface RenderResult {
  /** The upload's own size, upright (after its EXIF orientation). */
  original: { width: number; height: number; type: ImageType };
  /** One entry per requested variant, in order. */
  variants: RenderedImage[];
}

const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };
const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };

type SharpModule = typeof SharpFunction;

/** sharp (libvips, native) is loaded with the first image, not at every start. */
let sharpLoading: Promise<SharpModule> | null = null;
const loadSharp = () =>
  (sharpLoading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false); // every upload is new: libvips' operation cache would only hold memory
    return sharp;
  }));

/** What an image is for: icons and account pictures get a lower pixel limit than previews. */
export type ImagePurpose = 'icon' | 'picture' | 'preview';

export interface ImageRendererOptions {
  /** Uploads decoded at once (default `MAX_CONCURRENT_RENDERS`). */
  concurrency?: number;
  /** Uploads waiting for a render; one more is refused with THROTTLED (default `MAX_WAITING_RENDERS`). */
  maxWaiting?: number;
  /** Pixel limit of icons and account pictures (default `MAX_ICON_PIXELS`). */
  iconMaxPixels?: number;
  /** Pixel limit of previews (default `MAX_IMAGE_PIXELS`). */
  previewMaxPixels?: number;
}

/** The process's image renders: one semaphore with a bounded queue, a pixel limit per purpose. */
export class ImageRenderer {
  /** The render slots (tests hold them to fill the queue). */
  readonly slots: Slots;
  private readonly maxPixels: Record<ImagePurpose, number>;

  constructor(options: ImageRendererOptions = {}) {
    this.slots = new Slots(
      options.concurrency ?? MAX_CONCURRENT_RENDERS,
      options.maxWaiting ?? MAX_WAITING_RENDERS,
      RENDER_RETRY_SECONDS,
    );
    const icon = options.iconMaxPixels ?? MAX_ICON_PIXELS;
    this.maxPixels = { icon, picture: icon, preview: options.previewMaxPixels ?? MAX_IMAGE_PIXELS };
  }

  /**
   * `renderImage` within a render slot, at the purpose's pixel limit. Throws `InvalidImageError`
   * for data that does not decode (or is over the limit), THROTTLED when the queue is full.
   */
  render(data: Buffer, variants: readonly ImageVariant[], purpose: ImagePurpose): Promise<RenderResult> {
    return this.slots.run(() => renderImage(data, variants, this.maxPixels[purpose]));
  }
}

const open = (sharp: SharpModule, data: Buffer, maxPixels: number): Sharp =>
  sharp(data, { limitInputPixels: maxPixels, failOn: 'error' });

/**
 * The size of a variant's image (for a square, of the image centred in it), from the upload's
 * upright size, computed as sharp computes it for `fit: 'inside'` / `'contain'` on a PNG: one
 * scale for both axes, rounded, never below one pixel. (Resizing a JPEG directly, sharp's
 * shrink-on-load made the shorter side one pixel off that rounding for some sizes, e.g. 2057×2134
 * within 640×480 was 462×480 for 462.7; JPEGs now get the same sizes as PNGs.)
 */
export function variantImageSize(width: number, height: number, variant: ImageVariant): [number, number] {
  const boxHeight = variant.fit === 'square' ? variant.width : variant.height;
  let shrink = Math.max(width / variant.width, height / boxHeight);
  if (variant.fit === 'inside') shrink = Math.max(1, shrink); // never enlarged
  return [Math.round(width / Math.min(shrink, width)), Math.round(height / Math.min(shrink, height))];
}

interface Decoded {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/**
 * The one decode: upright, in sRGB (8 bits per channel), at the largest size any variant needs
 * (never larger than the upload), as raw pixels.
 */
async function decode(
  sharp: SharpModule,
  data: Buffer,
  maxPixels: number,
  width: number,
  height: number,
  sizes: [number, number][],
) {
  const needWidth = Math.min(width, Math.max(...sizes.map(([w]) => w)));
  const needHeight = Math.min(height, Math.max(...sizes.map(([, h]) => h)));
  let pipeline = open(sharp, data, maxPixels).autoOrient();
  if (needWidth !== width || needHeight !== height) {
    pipeline = pipeline.resize(needWidth, needHeight, { fit: 'fill' });
  }
  const { data: pixels, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data: pixels, width: info.width, height: info.height, channels: info.channels } satisfies Decoded;
}

/** One variant from the decoded pixels: resized to its size, centred in its square, encoded. */
function variantPipeline(
  sharp: SharpModule,
  decoded: Decoded,
  variant: ImageVariant,
  [width, height]: [number, number],
): Sharp {
  let pipeline = sharp(decoded.data, {
    raw: { width: decoded.width, height: decoded.height, channels: decoded.channels },
  });
  if (width !== decoded.width || height !== decoded.height) pipeline = pipeline.resize(width, height, { fit: 'fill' });
  if (variant.fit === 'square' && (width !== variant.width || height !== variant.width)) {
    const left = Math.floor((variant.width - width) / 2);
    const top = Math.floor((variant.width - height) / 2);
    pipeline = pipeline.extend({
      left,
      right: variant.width - width - left,
      top,
      bottom: variant.width - height - top,
      background: variant.format === 'png' ? TRANSPARENT : WHITE,
    });
  }
  if (variant.format === 'jpeg')
    return pipeline.flatten({ background: WHITE }).jpeg({ quality: variant.quality ?? 80 });
  return pipeline.png();
}

/**
 * Decodes a PNG or JPEG completely, once, and writes each variant from that decode. Throws
 * `InvalidImageError` for data sharp cannot decode (truncated, corrupt, another format, over
 * `maxPixels`). No semaphore: services go through `ImageRenderer.render`.
 */
export async function renderImage(
  data: Buffer,
  variants: readonly ImageVariant[],
  maxPixels = MAX_IMAGE_PIXELS,
): Promise<RenderResult> {
  const sharp = await loadSharp();
  try {
    const meta = await open(sharp, data, maxPixels).metadata();
    if (meta.format !== 'png' && meta.format !== 'jpeg') throw new InvalidImageError(`format ${meta.format}`);
    if ((meta.pages ?? 1) > 1) throw new InvalidImageError('several frames');
    if (!(meta.width > 0 && meta.height > 0)) throw new InvalidImageError('no size');
    // The header's size, before a pixel is decoded (sharp checks it again while decoding).
    if (meta.width * meta.height > maxPixels) throw new InvalidImageError('Input image exceeds pixel limit');
    const { width, height } = meta.autoOrient;
    const original = { width, height, type: (meta.format === 'png' ? 'image/png' : 'image/jpeg') as ImageType };
    const sizes = variants.map((variant) => variantImageSize(width, height, variant));
    const decoded = variants.length ? await decode(sharp, data, maxPixels, width, height, sizes) : null;
    const rendered: RenderedImage[] = [];
    // One after the other: an upload takes one slot, and one thread of the pool, at a time.
    for (const [i, variant] of variants.entries()) {
      const { data: output, info } = await variantPipeline(sharp, decoded!, variant, sizes[i]).toBuffer({
        resolveWithObject: true,
      });
      rendered.push({
        data: output,
        width: info.width,
        height: info.height,
        type: variant.format === 'png' ? 'image/png' : 'image/jpeg',
        extension: variant.format === 'png' ? 'png' : 'jpg',
      });
    }
    return { original, variants: rendered };
  } catch (error) {
    if (error instanceof InvalidImageError) throw error;
    throw new InvalidImageError((error as Error).message);
  }
}
