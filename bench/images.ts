/**
 * The image suite (in-process, no server or database): what one upload costs `renderImage`
 * (src/core/images.ts) on 40-megapixel images, PNG and JPEG, as an icon (3 square PNGs), a preview
 * (2 JPEGs) and an account picture (1 PNG), against two baselines measured in the same run:
 *
 * - `one decode`: sharp decoding the whole file to raw pixels once, nothing else;
 * - `per variant`: the previous renderer, one pipeline (so one decode) from the file per variant.
 *
 * Decodes are counted on sharp itself: pipelines whose input is the upload's bytes and that
 * produce pixels (`toBuffer`), so `metadata()` (header only) is not one. Then a burst of
 * concurrent uploads against an `ImageRenderer` with its default slots and queue: how many are
 * rendered, how many refused (THROTTLED) and how fast a refusal comes, as a ratio of one render.
 */
import sharp, { type Sharp } from 'sharp';
import {
  ImageRenderer,
  MAX_CONCURRENT_RENDERS,
  MAX_WAITING_RENDERS,
  renderImage,
  type ImageVariant,
} from '../src/core/images.js';
import { fmt } from './lib.js';

export interface ImagesRow {
  image: string;
  purpose: string;
  variants: number;
  /** Decodes of the upload by the current renderer and by the per-variant baseline. */
  decodes: number;
  perVariantDecodes: number;
  /** Medians, in milliseconds. */
  oneDecodeMs: number;
  perVariantMs: number;
  renderMs: number;
}

export interface ImagesReport {
  megapixels: number;
  runs: number;
  rows: ImagesRow[];
  burst: { uploads: number; rendered: number; refused: number; refusalMs: number; renderMs: number };
  failures: string[];
}

const PURPOSES: [string, ImageVariant[]][] = [
  ['icon', [32, 64, 128].map((size): ImageVariant => ({ fit: 'square', width: size, height: size, format: 'png' }))],
  [
    'preview',
    [
      { fit: 'inside', width: 2400, height: 1800, format: 'jpeg', quality: 90 },
      { fit: 'inside', width: 640, height: 480, format: 'jpeg' },
    ],
  ],
  ['picture', [{ fit: 'inside', width: 200, height: 200, format: 'png' }]],
];

/** The renderer before this suite existed: each variant decoded from the file on its own. */
async function perVariant(data: Buffer, variants: readonly ImageVariant[]): Promise<void> {
  for (const variant of variants) {
    let pipeline = sharp(data, { limitInputPixels: 50_000_000, failOn: 'error' }).autoOrient();
    pipeline =
      variant.fit === 'square'
        ? pipeline.resize(variant.width, variant.width, {
            fit: 'contain',
            background: { r: 0, g: 0, b: 0, alpha: 0 },
          })
        : pipeline.resize(variant.width, variant.height, { fit: 'inside', withoutEnlargement: true });
    await (
      variant.format === 'jpeg'
        ? pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: variant.quality ?? 80 })
        : pipeline.png()
    ).toBuffer();
  }
}

/** A photo-like 8000×5000 image: gradients with some texture (compresses like a screenshot, not like noise). */
async function source(width: number, height: number): Promise<Sharp> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      pixels[o] = (x * 255) / width;
      pixels[o + 1] = (y * 255) / height;
      pixels[o + 2] = ((x >> 4) ^ (y >> 4)) & 0xff;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

async function median(runs: number, task: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await task();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function countDecodes(upload: Buffer, task: () => Promise<unknown>): Promise<number> {
  const prototype = sharp.prototype as unknown as { toBuffer: (...args: unknown[]) => unknown };
  const toBuffer = prototype.toBuffer;
  let count = 0;
  prototype.toBuffer = function (this: { options: { input: { buffer?: Buffer } } }, ...args: unknown[]) {
    if (this.options.input.buffer === upload) count += 1;
    return toBuffer.apply(this, args);
  };
  try {
    await task();
  } finally {
    prototype.toBuffer = toBuffer;
  }
  return count;
}

export function imagesSettings() {
  return { runs: Number(process.env.BENCH_IMAGE_RUNS ?? 5) };
}

export async function runImagesSuite(options: {
  settings: { runs: number };
  log: (line: string) => void;
}): Promise<ImagesReport> {
  const { runs } = options.settings;
  const [width, height] = [8000, 5000];
  const image = await source(width, height);
  const files: [string, Buffer][] = [
    ['PNG', await image.clone().png().toBuffer()],
    ['JPEG', await image.clone().jpeg({ quality: 90 }).toBuffer()],
  ];
  const rows: ImagesRow[] = [];
  const failures: string[] = [];
  for (const [name, data] of files) {
    options.log(`images: ${name} ${width}×${height}, ${(data.length / 1024 / 1024).toFixed(1)} MB`);
    const oneDecodeMs = await median(runs, () => sharp(data, { failOn: 'error' }).raw().toBuffer());
    for (const [purpose, variants] of PURPOSES) {
      const decodes = await countDecodes(data, () => renderImage(data, variants));
      const perVariantDecodes = await countDecodes(data, () => perVariant(data, variants));
      if (decodes !== 1) failures.push(`${name} ${purpose}: ${decodes} decodes`);
      rows.push({
        image: name,
        purpose,
        variants: variants.length,
        decodes,
        perVariantDecodes,
        oneDecodeMs,
        perVariantMs: await median(runs, () => perVariant(data, variants)),
        renderMs: await median(runs, () => renderImage(data, variants)),
      });
    }
  }

  // A burst: more concurrent icon uploads (16 megapixels, the icon limit) than slots and queue hold.
  const icon = await (await source(4000, 4000)).png().toBuffer();
  const renderer = new ImageRenderer();
  const uploads = (MAX_CONCURRENT_RENDERS + MAX_WAITING_RENDERS) * 2;
  const renderMs = await median(runs, () => renderer.render(icon, PURPOSES[0][1], 'icon'));
  const refusals: number[] = [];
  const started = performance.now();
  const outcomes = await Promise.allSettled(
    Array.from({ length: uploads }, () =>
      renderer.render(icon, PURPOSES[0][1], 'icon').catch((error: unknown) => {
        refusals.push(performance.now() - started);
        throw error;
      }),
    ),
  );
  const rendered = outcomes.filter((o) => o.status === 'fulfilled').length;
  if (rendered !== MAX_CONCURRENT_RENDERS + MAX_WAITING_RENDERS) failures.push(`burst: ${rendered} rendered`);
  return {
    megapixels: (width * height) / 1e6,
    runs,
    rows,
    burst: {
      uploads,
      rendered,
      refused: refusals.length,
      refusalMs: refusals.length ? Math.max(...refusals) : 0,
      renderMs,
    },
    failures,
  };
}

export function printImagesReport(report: ImagesReport): void {
  console.log(`\nimages: one upload of ${report.megapixels} megapixels, median of ${report.runs} runs`);
  console.log('image  purpose  variants  decodes (before)  per-variant/one-decode  render/one-decode  speed-up');
  for (const r of report.rows) {
    console.log(
      `${r.image.padEnd(6)} ${r.purpose.padEnd(8)} ${String(r.variants).padStart(8)}  ` +
        `${`${r.decodes} (${r.perVariantDecodes})`.padStart(16)}  ${`${fmt(r.perVariantMs / r.oneDecodeMs)}x`.padStart(22)}  ` +
        `${`${fmt(r.renderMs / r.oneDecodeMs)}x`.padStart(17)}  ${`${fmt(r.perVariantMs / r.renderMs)}x`.padStart(8)}`,
    );
  }
  const b = report.burst;
  console.log(
    `burst of ${b.uploads} concurrent 16-megapixel icons: ${b.rendered} rendered, ${b.refused} refused (THROTTLED), ` +
      `the last refusal after ${fmt(b.refusalMs / b.renderMs)}x one render`,
  );
}
