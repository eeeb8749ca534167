import sharp, { type Sharp } from 'sharp';

/**
 * Uploaded images (add-on icons and previews, account pictures), decoded and re-encoded with sharp
 * (libvips). Two steps:
 *
 * 1. `sniffImage` reads the header bytes only: the type (PNG or JPEG, nothing else) and whether a
 *    PNG is animated. It works on the first bytes of an oversized upload, so callers keep the
 *    original order of their refusals (type, animation, size).
 * 2. `renderImage` decodes the whole file (refusing truncated or corrupt data and anything over
 *    `MAX_IMAGE_PIXELS`) and writes each requested variant: resized, turned upright by its EXIF
 *    orientation, in sRGB, and without metadata (EXIF, GPS, XMP, ICC profiles are not copied).
 *
 * Decoding runs on libuv's thread pool (sharp is asynchronous) and at most `MAX_CONCURRENT_RENDERS`
 * uploads are processed at once: the pool is shared with file-system and crypto work, and a burst
 * of uploads queues here instead of taking every thread and the memory of every decoded image.
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
 * megapixels is more than the largest camera photos that fit in the 4 MB upload limit.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** Uploads decoded at the same time in this process; the others wait their turn. */
export const MAX_CONCURRENT_RENDERS = 2;

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

sharp.cache(false); // every upload is new: libvips' operation cache would only hold memory

/** A small counting semaphore: `run` waits for a free slot. */
export class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}

const renders = new Slots(MAX_CONCURRENT_RENDERS);

const open = (data: Buffer): Sharp => sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' });

function variantPipeline(data: Buffer, variant: ImageVariant): Sharp {
  let pipeline = open(data).autoOrient();
  if (variant.fit === 'square') {
    pipeline = pipeline.resize(variant.width, variant.width, {
      fit: 'contain',
      background: variant.format === 'png' ? TRANSPARENT : WHITE,
    });
  } else {
    pipeline = pipeline.resize(variant.width, variant.height, { fit: 'inside', withoutEnlargement: true });
  }
  if (variant.format === 'jpeg')
    return pipeline.flatten({ background: WHITE }).jpeg({ quality: variant.quality ?? 80 });
  return pipeline.png();
}

/**
 * Decodes a PNG or JPEG completely and writes each variant. Throws `InvalidImageError` for data
 * sharp cannot decode (truncated, corrupt, another format, over `MAX_IMAGE_PIXELS`).
 */
export async function renderImage(data: Buffer, variants: readonly ImageVariant[]): Promise<RenderResult> {
  return renders.run(async () => {
    try {
      const meta = await open(data).metadata();
      if (meta.format !== 'png' && meta.format !== 'jpeg') throw new InvalidImageError(`format ${meta.format}`);
      if ((meta.pages ?? 1) > 1) throw new InvalidImageError('several frames');
      const original = {
        width: meta.autoOrient.width,
        height: meta.autoOrient.height,
        type: (meta.format === 'png' ? 'image/png' : 'image/jpeg') as ImageType,
      };
      const rendered: RenderedImage[] = [];
      // One after the other: an upload takes one slot, and one thread of the pool, at a time.
      for (const variant of variants) {
        const { data: output, info } = await variantPipeline(data, variant).toBuffer({ resolveWithObject: true });
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
  });
}
