/**
 * Seeded randomness for the catalogue generator. Every entity draws from its own stream,
 * `Rng.for(seed, kind, id)`, so its data depends only on the seed and its id: batches can be
 * generated in any order and `--append` continues with fresh data instead of repeating a run.
 */

/** Murmur3's finaliser: a bijection on 32-bit integers with good avalanche. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Mixes several 32-bit integers into one 32-bit hash. */
export function hash32(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) h = fmix32((h ^ fmix32(v >>> 0)) + 0x6d2b79f5);
  return h;
}

/** A string's 32-bit FNV-1a hash (with a final mix). */
export function hashString(text: string, basis = 0x811c9dc5): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return fmix32(h);
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Entity kinds, so that user 7 and add-on 7 get unrelated streams. */
export const Stream = { ADDON: 1, USER: 2, VOCABULARY: 3 } as const;

/** mulberry32: tiny, fast, good enough for synthetic data (not for secrets). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static for(seed: number, stream: number, id: number): Rng {
    return new Rng(hash32(seed, stream, id));
  }

  /** A uniform 32-bit unsigned integer. */
  uint32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform in (0, 1]: safe for logarithms and negative powers. */
  positive(): number {
    return (this.uint32() + 1) / 4294967296;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  uniform(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** One of `items`, chosen with the given relative weights. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return items[items.length - 1][0];
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    return Math.sqrt(-2 * Math.log(this.positive())) * Math.cos(2 * Math.PI * this.next());
  }

  /** `count` distinct items of `items`, in `items` order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const chosen = new Set<number>();
    const n = Math.min(count, items.length);
    while (chosen.size < n) chosen.add(Math.floor(this.next() * items.length));
    return [...chosen].sort((a, b) => a - b).map((i) => items[i]);
  }

  /** `bytes` random bytes as lower-case hex. */
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i += 4) {
      const v = this.uint32();
      out += HEX[v >>> 24] + HEX[(v >>> 16) & 255] + HEX[(v >>> 8) & 255] + HEX[v & 255];
    }
    return out.length === bytes * 2 ? out : out.slice(0, bytes * 2);
  }
}
