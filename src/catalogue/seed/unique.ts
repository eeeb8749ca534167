import { hashString } from './prng.js';

/**
 * A set of strings kept as 64-bit fingerprints (two 32-bit hashes) in an open-addressing table:
 * about 16 bytes per entry instead of a string per entry, so that half a million slugs fit in a few
 * megabytes. A false positive (two strings with the same fingerprint) only makes a caller add a
 * suffix it did not need; it never lets a duplicate through.
 */
export class FingerprintSet {
  private high: Uint32Array;
  private low: Uint32Array;
  private count = 0;

  constructor(capacity = 1024) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.high = new Uint32Array(size);
    this.low = new Uint32Array(size);
  }

  get size(): number {
    return this.count;
  }

  has(text: string): boolean {
    const [h, l] = fingerprint(text);
    return this.slot(h, l) < 0;
  }

  /** Adds `text`; false if it (or a string with the same fingerprint) was already there. */
  add(text: string): boolean {
    const [h, l] = fingerprint(text);
    const slot = this.slot(h, l);
    if (slot < 0) return false;
    this.high[slot] = h;
    this.low[slot] = l;
    if (++this.count * 2 > this.high.length) this.grow();
    return true;
  }

  /** The empty slot for (h, l), or -1 when present. */
  private slot(h: number, l: number): number {
    const mask = this.high.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      if (this.high[i] === 0 && this.low[i] === 0) return i;
      if (this.high[i] === h && this.low[i] === l) return -1;
    }
  }

  private grow(): void {
    const { high, low } = this;
    this.high = new Uint32Array(high.length * 2);
    this.low = new Uint32Array(low.length * 2);
    for (let i = 0; i < high.length; i++) {
      if (high[i] === 0 && low[i] === 0) continue;
      const slot = this.slot(high[i], low[i]);
      this.high[slot] = high[i];
      this.low[slot] = low[i];
    }
  }
}

function fingerprint(text: string): [number, number] {
  const h = hashString(text);
  const l = hashString(text, 0x01234567);
  // (0, 0) marks an empty slot.
  return h === 0 && l === 0 ? [0, 1] : [h, l];
}

/**
 * Allocates unique slugs: the name's slug when free, else `<slug>-<id>` (ids are unique, and a
 * generated name has no digits, so such a slug can only clash with a pre-existing add-on's; then
 * `-2`, `-3`… follow).
 */
export class SlugAllocator {
  readonly taken = new FingerprintSet();

  allocate(base: string, id: number): string {
    if (this.taken.add(base)) return base;
    let slug = `${base}-${id}`;
    for (let n = 2; !this.taken.add(slug); n++) slug = `${base}-${id}-${n}`;
    return slug;
  }
}

export { slugify } from '../slug.js';
