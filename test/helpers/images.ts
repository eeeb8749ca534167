import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** Real image files for upload tests, made by sharp, and a reader for what the service stored. */

const colour = { r: 40, g: 120, b: 200, alpha: 1 };

export function png(width: number, height: number, options: { animated?: boolean; alpha?: boolean } = {}) {
  const background = options.alpha ? { ...colour, alpha: 0.5 } : colour;
  const image = sharp({ create: { width, height, channels: options.alpha ? 4 : 3, background } })
    .png()
    .toBuffer();
  return options.animated ? image.then(animate) : image;
}

/** A JPEG; `exif` writes camera metadata with a GPS position (which the service must not keep). */
export function jpeg(width: number, height: number, options: { exif?: boolean } = {}) {
  let image = sharp({ create: { width, height, channels: 3, background: colour } }).jpeg();
  if (options.exif) {
    image = image.withExif({
      IFD0: { Make: 'TestCam', Model: 'T-1', Copyright: 'Secret Owner' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 7/1' },
    });
  }
  return image.toBuffer();
}

export function webp(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .webp()
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An animated PNG: an `acTL` chunk (2 frames) right after IHDR; decoders show the default image. */
export function animate(image: Buffer): Buffer {
  const afterHeader = 8 + 25;
  const control = Buffer.alloc(8);
  control.writeUInt32BE(2, 0);
  return Buffer.concat([image.subarray(0, afterHeader), pngChunk('acTL', control), image.subarray(afterHeader)]);
}

/**
 * A valid PNG whose header declares `width`×`height` pixels of zeros: a few hundred KB that would
 * decode to `width`×`height` bytes (a decompression bomb).
 */
export function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(height * (width + 1)), { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** What a stored or served file really is: format and size read by decoding it, and its EXIF. */
export async function readImage(data: Buffer) {
  const meta = await sharp(data).metadata();
  await sharp(data, { failOn: 'error' }).raw().toBuffer(); // decodes completely
  return { format: meta.format, width: meta.width, height: meta.height, hasExif: Boolean(meta.exif) };
}
