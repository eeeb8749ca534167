import { jest } from '@jest/globals';
import sharp, { type Sharp } from 'sharp';
import { animate, jpeg, png, pngBomb, readImage, webp } from '../../test/helpers/images.js';
import { AppError } from './errors.js';
import {
  ImageRenderer,
  InvalidImageError,
  MAX_ICON_PIXELS,
  MAX_IMAGE_PIXELS,
  RENDER_RETRY_SECONDS,
  renderImage,
  sniffImage,
  variantImageSize,
  type ImageVariant,
} from './images.js';

const ICONS: ImageVariant[] = [32, 64, 128].map((size) => ({
  fit: 'square',
  width: size,
  height: size,
  format: 'png',
}));
const PREVIEW: ImageVariant[] = [
  { fit: 'inside', width: 2400, height: 1800, format: 'jpeg', quality: 90 },
  { fit: 'inside', width: 640, height: 480, format: 'jpeg' },
];

describe('sniffImage', () => {
  it('tells PNG and JPEG by their signature and spots animated PNGs', async () => {
    expect(sniffImage(await png(640, 400))).toEqual({ type: 'image/png', extension: 'png', animated: false });
    expect(sniffImage(await png(10, 10, { animated: true }))).toEqual({
      type: 'image/png',
      extension: 'png',
      animated: true,
    });
    expect(sniffImage(await jpeg(1280, 800))).toEqual({ type: 'image/jpeg', extension: 'jpg', animated: false });
  });

  it('works on the first bytes of a file (an oversized upload is not read to its end)', async () => {
    expect(sniffImage((await png(64, 64, { animated: true })).subarray(0, 80))?.animated).toBe(true);
    expect(sniffImage((await jpeg(64, 64)).subarray(0, 3))?.type).toBe('image/jpeg');
  });

  it('knows nothing else', async () => {
    expect(sniffImage(Buffer.from('GIF89a...'))).toBeNull();
    expect(sniffImage(await webp(8, 8))).toBeNull();
    expect(sniffImage(Buffer.from([0xff, 0xd8]))).toBeNull();
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
  });
});

describe('renderImage', () => {
  it('makes exact squares (icons), the whole image centred on transparency, small ones scaled up', async () => {
    const { original, variants } = await renderImage(await jpeg(300, 150), ICONS);
    expect(original).toEqual({ width: 300, height: 150, type: 'image/jpeg' });
    expect(variants.map((v) => [v.width, v.height, v.type, v.extension])).toEqual([
      [32, 32, 'image/png', 'png'],
      [64, 64, 'image/png', 'png'],
      [128, 128, 'image/png', 'png'],
    ]);
    for (const [i, size] of [32, 64, 128].entries()) {
      expect(await readImage(variants[i].data)).toMatchObject({ format: 'png', width: size, height: size });
    }
    const { data, info } = await sharp(variants[2].data).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    const pixel = (x: number, y: number) => [...data.subarray((y * 128 + x) * 4, (y * 128 + x) * 4 + 4)];
    expect(pixel(0, 0)[3]).toBe(0); // padding above the 128×64 image
    const centre = pixel(64, 64); // the JPEG's colour, give or take its compression
    [40, 120, 200].forEach((value, channel) => expect(Math.abs(centre[channel] - value)).toBeLessThanOrEqual(3));
    expect(centre[3]).toBe(255);

    const tiny = await renderImage(await png(16, 16), ICONS);
    expect(tiny.variants.map((v) => [v.width, v.height])).toEqual([
      [32, 32],
      [64, 64],
      [128, 128],
    ]);
  });

  it('fits within a box without enlarging (previews, pictures)', async () => {
    const large = await renderImage(await jpeg(3000, 1000), PREVIEW);
    expect(large.variants.map((v) => [v.width, v.height, v.extension])).toEqual([
      [2400, 800, 'jpg'],
      [640, 213, 'jpg'],
    ]);
    expect(await readImage(large.variants[1].data)).toMatchObject({ format: 'jpeg', width: 640, height: 213 });
    const tall = await renderImage(await png(500, 1000), PREVIEW);
    expect(tall.variants.map((v) => [v.width, v.height])).toEqual([
      [500, 1000],
      [240, 480],
    ]);
    const small = await renderImage(await png(64, 40), PREVIEW);
    expect(small.variants.map((v) => [v.width, v.height])).toEqual([
      [64, 40],
      [64, 40],
    ]);
  });

  it('strips metadata: a JPEG with EXIF (camera, GPS) comes out without it, as JPEG or PNG', async () => {
    const photo = await jpeg(800, 600, { exif: true });
    const exif = (await sharp(photo).metadata()).exif?.toString('latin1') ?? '';
    expect(exif).toContain('TestCam');
    expect(exif).toContain('Secret Owner');
    const { variants } = await renderImage(photo, [
      PREVIEW[0],
      { fit: 'inside', width: 200, height: 200, format: 'png' },
    ]);
    for (const variant of variants) {
      const meta = await sharp(variant.data).metadata();
      expect([meta.exif, meta.xmp, meta.icc, meta.iptc]).toEqual([undefined, undefined, undefined, undefined]);
      expect(variant.data.includes('TestCam')).toBe(false);
      expect(variant.data.includes('Secret Owner')).toBe(false);
    }
  });

  it('turns photos upright by their EXIF orientation before dropping it', async () => {
    const sideways = await sharp({ create: { width: 60, height: 40, channels: 3, background: 'red' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const { original, variants } = await renderImage(sideways, [PREVIEW[0]]);
    expect(original).toMatchObject({ width: 40, height: 60 });
    expect([variants[0].width, variants[0].height]).toEqual([40, 60]);
    expect((await sharp(variants[0].data).metadata()).orientation).toBeUndefined();
  });

  it('flattens transparency onto white for JPEG outputs and keeps it in PNG ones', async () => {
    const { variants } = await renderImage(await png(20, 20, { alpha: true }), [
      { fit: 'inside', width: 640, height: 480, format: 'jpeg' },
      { fit: 'inside', width: 640, height: 480, format: 'png' },
    ]);
    expect((await sharp(variants[0].data).metadata()).hasAlpha).toBe(false);
    expect((await sharp(variants[1].data).metadata()).hasAlpha).toBe(true);
  });

  it('decodes an animated PNG as its default image (refusing animations is the callers’ rule)', async () => {
    const { variants } = await renderImage(animate(await png(10, 10)), [ICONS[0]]);
    expect(variants[0].width).toBe(32);
  });

  it('refuses what does not decode completely: truncated, corrupt, other formats, bombs', async () => {
    const image = await png(64, 64);
    const photo = await jpeg(640, 480);
    const corrupt = Buffer.from(image);
    corrupt[corrupt.length - 20] ^= 0xff; // IDAT checksum
    const refused: [string, Buffer][] = [
      ['truncated PNG', image.subarray(0, image.length - 20)],
      ['truncated JPEG', photo.subarray(0, Math.floor(photo.length / 2))],
      ['PNG header on garbage', Buffer.concat([image.subarray(0, 33), Buffer.alloc(500, 7)])],
      ['JPEG markers only', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xd9])],
      ['PNG with a bad checksum', corrupt],
      ['WebP', await webp(8, 8)],
      [
        'GIF',
        await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
          .gif()
          .toBuffer(),
      ],
      ['empty', Buffer.alloc(0)],
    ];
    for (const [name, data] of refused) {
      await expect(renderImage(data, ICONS).then(() => name)).rejects.toBeInstanceOf(InvalidImageError);
    }
  });

  it('refuses a decompression bomb before decoding it', async () => {
    const bomb = pngBomb(10_000, 10_000); // 100 megapixels in ~100 KB
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(10_000 * 10_000).toBeGreaterThan(MAX_IMAGE_PIXELS);
    const started = Date.now();
    await expect(renderImage(bomb, ICONS)).rejects.toThrow(/pixel limit/);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('one decode per upload', () => {
  /**
   * Pipelines that produce pixels from the upload's encoded bytes (sharp keeps its input in
   * `options.input.buffer`); `metadata()` reads the header only and is not one of them.
   */
  async function decodesOf(upload: Buffer, run: () => Promise<unknown>): Promise<number> {
    const toBuffer = jest.spyOn(sharp.prototype as Sharp, 'toBuffer');
    try {
      await run();
      const inputs = toBuffer.mock.contexts as unknown as { options: { input: { buffer?: Buffer } } }[];
      return inputs.filter((pipeline) => pipeline.options.input.buffer === upload).length;
    } finally {
      toBuffer.mockRestore();
    }
  }

  it('decodes an icon (3 sizes), a preview (2) and a picture once each, whatever the variants', async () => {
    const photo = await jpeg(3000, 2000);
    const image = await png(1500, 1000, { alpha: true });
    for (const [upload, variants] of [
      [photo, ICONS],
      [image, ICONS],
      [photo, PREVIEW],
      [image, [...PREVIEW, ...ICONS]],
      [image, [{ fit: 'inside', width: 200, height: 200, format: 'png' } as ImageVariant]],
    ] as const) {
      let rendered = 0;
      expect(
        await decodesOf(upload, async () => {
          rendered = (await renderImage(upload, variants)).variants.length;
        }),
      ).toBe(1);
      expect(rendered).toBe(variants.length);
    }
  });

  it('gives each variant the size sharp gives it when resizing the PNG directly', async () => {
    const boxes: ImageVariant[] = [...ICONS, ...PREVIEW, { fit: 'inside', width: 200, height: 200, format: 'png' }];
    let seed = 7;
    const next = (max: number) => 1 + ((seed = (seed * 48271) % 2147483647) % max);
    for (let i = 0; i < 12; i++) {
      const [width, height] = i % 3 ? [next(2600), next(2600)] : [next(40), next(2600)];
      const upload = await png(width, height);
      const { variants } = await renderImage(upload, boxes);
      for (const [j, variant] of boxes.entries()) {
        const direct = await sharp(upload)
          .resize(variant.width, variant.fit === 'square' ? variant.width : variant.height, {
            fit: 'inside',
            withoutEnlargement: variant.fit === 'inside',
          })
          .raw()
          .toBuffer({ resolveWithObject: true });
        const inner = variantImageSize(width, height, variant);
        expect([width, height, j, ...inner]).toEqual([width, height, j, direct.info.width, direct.info.height]);
        const stored = variant.fit === 'square' ? [variant.width, variant.width] : inner;
        expect([width, height, j, variants[j].width, variants[j].height]).toEqual([width, height, j, ...stored]);
      }
    }
  });

  it('centres a square icon exactly as before: transparent bands above and below a wide image', async () => {
    const { variants } = await renderImage(await png(300, 100), [ICONS[0]]);
    const { data, info } = await sharp(variants[0].data).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([32, 32, 4]);
    // 300×100 in 32×32: an 32×11 image from row 10 (floor((32 - 11) / 2)) to row 20.
    const alphaOfRow = (y: number) => [...Array(32).keys()].map((x) => data[(y * 32 + x) * 4 + 3]);
    expect(alphaOfRow(9).every((a) => a === 0)).toBe(true);
    expect(alphaOfRow(10).every((a) => a === 255)).toBe(true);
    expect(alphaOfRow(20).every((a) => a === 255)).toBe(true);
    expect(alphaOfRow(21).every((a) => a === 0)).toBe(true);
  });
});

describe('ImageRenderer', () => {
  it('holds icons and pictures to a lower pixel limit than previews', async () => {
    const renderer = new ImageRenderer();
    const large = pngBomb(5000, 4000); // 20 megapixels (of zeros), a few KB
    expect(5000 * 4000).toBeGreaterThan(MAX_ICON_PIXELS);
    expect(5000 * 4000).toBeLessThan(MAX_IMAGE_PIXELS);
    await expect(renderer.render(large, ICONS, 'icon')).rejects.toThrow(/pixel limit/);
    await expect(renderer.render(large, [ICONS[0]], 'picture')).rejects.toBeInstanceOf(InvalidImageError);
    const preview = await renderer.render(large, PREVIEW, 'preview');
    expect(preview.original).toEqual({ width: 5000, height: 4000, type: 'image/png' });
    expect(preview.variants.map((v) => [v.width, v.height])).toEqual([
      [2250, 1800],
      [600, 480],
    ]);
    // Just under the limit is fine, and the limits are settings.
    expect((await renderer.render(pngBomb(4000, 4000), [ICONS[0]], 'icon')).variants[0].width).toBe(32);
    const strict = new ImageRenderer({ iconMaxPixels: 1000, previewMaxPixels: 5000 });
    await expect(strict.render(await png(40, 40), ICONS, 'icon')).rejects.toThrow(/pixel limit/);
    await expect(strict.render(await png(80, 80), PREVIEW, 'preview')).rejects.toThrow(/pixel limit/);
    expect((await strict.render(await png(40, 40), PREVIEW, 'preview')).variants).toHaveLength(2);
  });

  it('refuses a render at once with THROTTLED when its queue is full, and takes it once there is room', async () => {
    const renderer = new ImageRenderer({ concurrency: 2, maxWaiting: 3 });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const held = Array.from({ length: 5 }, () => renderer.slots.run(() => gate));
    expect(renderer.slots.queued).toBe(3);
    const image = await png(64, 64);
    const refused = await renderer.render(image, ICONS, 'icon').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: 'THROTTLED',
      retryAfter: RENDER_RETRY_SECONDS,
      message: `Request was throttled. Expected available in ${RENDER_RETRY_SECONDS} seconds.`,
    });
    open();
    await Promise.all(held);
    expect((await renderer.render(image, ICONS, 'icon')).variants).toHaveLength(3);
  });
});
