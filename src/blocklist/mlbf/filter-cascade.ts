import { createHash, randomBytes } from 'node:crypto';

/**
 * A multi-level Bloom filter cascade in the file format browsers read (format version 2 of
 * Mozilla's filter-cascade, read by Firefox's rust-cascade). Written from the format:
 *
 *   u16 LE  version (2)
 *   u8      inverted (0 | 1)
 *   u8      salt length L, then L bytes of salt
 *   per layer, from layer 1:
 *     u8      hash algorithm (2: the low 32 bits of SHA-256)
 *     u32 LE  size in bits (m)
 *     u32 LE  number of hash functions (k)
 *     u8      layer number (1-based)
 *     ceil(m / 8) bytes: bit i is byte i >> 3, mask 1 << (i & 7)
 *
 * Bit index j of a key at layer d is `u32le(sha256(salt ‖ u32le(j) ‖ u8(d) ‖ key)[0..4]) mod m`.
 * A key is in the cascade when the number of consecutive layers (from the first) that contain it is
 * odd; `inverted` flips the answer.
 *
 * Layer parameters follow the CRLite paper (Larisch et al., 2017) as both reference builders do:
 * the first layer's false-positive rate is r / (√2·s) for r included and s excluded keys (so about
 * r/√2 excluded keys fall through to layer 2), deeper layers use 1/2; k = round(log2(1/p)) and
 * m = r·log2(1/p) / ln 2 bits, at least 256.
 */
export const CASCADE_VERSION = 2;
export const SHA256L32 = 2;
const MIN_LAYER_BITS = 256;
const MAX_LAYERS = 254;
const SALT_BYTES = 16;

export interface CascadeLayer {
  readonly size: number;
  readonly hashCount: number;
  readonly bits: Uint8Array;
}

export interface FilterCascade {
  readonly salt: Buffer;
  readonly inverted: boolean;
  readonly layers: readonly CascadeLayer[];
}

export class CascadeError extends Error {}

/** Bit index `counter` of `key` in a layer of `size` bits at `depth` (1-based). */
function bitIndex(salt: Buffer, counter: number, depth: number, key: Buffer, size: number): number {
  const prefix = Buffer.allocUnsafe(5);
  prefix.writeUInt32LE(counter, 0);
  prefix.writeUInt8(depth, 4);
  const digest = createHash('sha256').update(salt).update(prefix).update(key).digest();
  return digest.readUInt32LE(0) % size;
}

function layerHas(layer: CascadeLayer, depth: number, salt: Buffer, key: Buffer): boolean {
  for (let j = 0; j < layer.hashCount; j++) {
    const bit = bitIndex(salt, j, depth, key, layer.size);
    if ((layer.bits[bit >> 3]! & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}

function layerInsert(layer: CascadeLayer, depth: number, salt: Buffer, key: Buffer): void {
  const bits = layer.bits;
  for (let j = 0; j < layer.hashCount; j++) {
    const bit = bitIndex(salt, j, depth, key, layer.size);
    bits[bit >> 3]! |= 1 << (bit & 7);
  }
}

/** An empty layer for `included` keys with `excluded` keys to keep out (CRLite's parameters). */
function newLayer(included: number, excluded: number, top: boolean): CascadeLayer {
  const log2Rate = top ? Math.min(Math.log2(included / Math.max(excluded, 1)) - 0.5, -1) : -1;
  const hashCount = Math.max(1, Math.round(-log2Rate));
  const size = Math.max(MIN_LAYER_BITS, Math.round((included * -log2Rate) / Math.LN2));
  return { size, hashCount, bits: new Uint8Array(Math.ceil(size / 8)) };
}

/**
 * Builds the cascade holding exactly `include` against `exclude` (two disjoint sets of keys); every
 * key of `include` answers true and every key of `exclude` false. Other keys answer anything.
 */
export function buildCascade(
  include: Iterable<string>,
  exclude: Iterable<string>,
  options: { salt?: Buffer } = {},
): FilterCascade {
  const salt = options.salt ?? randomBytes(SALT_BYTES);
  if (salt.length > 255) throw new CascadeError('salt longer than 255 bytes');
  const included = new Set(include);
  const excluded = [...new Set(exclude)];
  if (excluded.some((key) => included.has(key))) throw new CascadeError('a key is both included and excluded');
  let encode = [...included].map((key) => Buffer.from(key, 'utf8'));
  let check = excluded.map((key) => Buffer.from(key, 'utf8'));
  const layers: CascadeLayer[] = [];
  if (encode.length === 0) {
    // Nothing to include: one empty layer answers false for every key.
    return { salt, inverted: false, layers: [newLayer(1, check.length, true)] };
  }
  while (encode.length > 0) {
    if (layers.length === MAX_LAYERS) throw new CascadeError('the cascade needs more than 254 layers');
    const depth = layers.length + 1;
    const layer = newLayer(encode.length, check.length, depth === 1);
    for (const key of encode) layerInsert(layer, depth, salt, key);
    const falsePositives = check.filter((key) => layerHas(layer, depth, salt, key));
    layers.push(layer);
    [encode, check] = [falsePositives, encode];
  }
  return { salt, inverted: false, layers };
}

/** Whether `key` is in the cascade (the browser's lookup). */
export function cascadeHas(cascade: FilterCascade, key: string): boolean {
  const bytes = Buffer.from(key, 'utf8');
  let result = false;
  for (let i = 0; i < cascade.layers.length; i++) {
    if (!layerHas(cascade.layers[i]!, i + 1, cascade.salt, bytes)) break;
    result = !result;
  }
  return cascade.inverted ? !result : result;
}

/** The cascade's bytes, in format version 2. */
export function serializeCascade(cascade: FilterCascade): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt16LE(CASCADE_VERSION, 0);
  header.writeUInt8(cascade.inverted ? 1 : 0, 2);
  header.writeUInt8(cascade.salt.length, 3);
  const parts: Buffer[] = [header, cascade.salt];
  cascade.layers.forEach((layer, index) => {
    const layerHeader = Buffer.alloc(10);
    layerHeader.writeUInt8(SHA256L32, 0);
    layerHeader.writeUInt32LE(layer.size, 1);
    layerHeader.writeUInt32LE(layer.hashCount, 5);
    layerHeader.writeUInt8(index + 1, 9);
    parts.push(layerHeader, Buffer.from(layer.bits.buffer, layer.bits.byteOffset, layer.bits.byteLength));
  });
  return Buffer.concat(parts);
}

/** Reads a cascade in format version 2 (as the browser does), refusing truncated or foreign data. */
export function parseCascade(data: Buffer): FilterCascade {
  let offset = 0;
  const need = (bytes: number, what: string) => {
    if (offset + bytes > data.length) throw new CascadeError(`truncated at ${what}`);
  };
  need(2, 'version');
  const version = data.readUInt16LE(0);
  if (version !== CASCADE_VERSION) throw new CascadeError(`unsupported version ${version}`);
  offset = 2;
  need(2, 'header');
  const invertedByte = data.readUInt8(offset);
  if (invertedByte > 1) throw new CascadeError('invalid inverted flag');
  const saltLength = data.readUInt8(offset + 1);
  offset += 2;
  need(saltLength, 'salt');
  const salt = Buffer.from(data.subarray(offset, offset + saltLength));
  offset += saltLength;
  const layers: CascadeLayer[] = [];
  while (offset < data.length) {
    need(10, 'layer header');
    const algorithm = data.readUInt8(offset);
    if (algorithm !== SHA256L32) throw new CascadeError(`unsupported hash algorithm ${algorithm}`);
    const size = data.readUInt32LE(offset + 1);
    const hashCount = data.readUInt32LE(offset + 5);
    const number = data.readUInt8(offset + 9);
    if (number !== layers.length + 1) throw new CascadeError('irregular layer numbering');
    if (size === 0) throw new CascadeError('empty layer');
    offset += 10;
    const bytes = Math.ceil(size / 8);
    need(bytes, 'layer data');
    layers.push({ size, hashCount, bits: new Uint8Array(data.subarray(offset, offset + bytes)) });
    offset += bytes;
  }
  if (layers.length === 0) throw new CascadeError('no layers');
  return { salt, inverted: invertedByte === 1, layers };
}

/** Layers, bits and bytes of a cascade (for logs, records and benchmarks). */
export function cascadeStats(cascade: FilterCascade): { layers: number; bits: number } {
  return { layers: cascade.layers.length, bits: cascade.layers.reduce((sum, layer) => sum + layer.size, 0) };
}
