import sharp from 'sharp';
import { animate, jpeg, png, pngBomb, readImage, webp } from '../../test/helpers/images.js';
import { InvalidImageError, MAX_IMAGE_PIXELS, Slots, renderImage, sniffImage, type ImageVariant } from './images.js';

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

describe('Slots', () => {
  it('runs at most `size` tasks at once, the others in order of arrival', async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (n: number) =>
      slots.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(n);
        running -= 1;
        if (n === 3) throw new Error('boom');
        return n;
      });
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map(task));
    expect(most).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5, 6]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(await slots.run(async () => 'free again')).toBe('free again');
  });
});
