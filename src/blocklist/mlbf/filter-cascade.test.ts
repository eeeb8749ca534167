import { createHash } from 'node:crypto';
import {
  buildCascade,
  CascadeError,
  cascadeHas,
  cascadeStats,
  parseCascade,
  serializeCascade,
  type FilterCascade,
} from './filter-cascade.js';
import {
  blocklistKey,
  buildBaseFilters,
  planPublication,
  publishedState,
  type BlockedSets,
  type Stash,
} from './publication.js';

/**
 * A reader written from the format alone, as a browser reads it (version, inverted, salt, then
 * layers of algorithm, bits, hash count, number, data), independent of `parseCascade`/`cascadeHas`.
 */
function browserLookup(data: Buffer, key: string): boolean {
  let at = 0;
  const version = data.readUInt16LE(at);
  at += 2;
  expect(version).toBe(2);
  const inverted = data[at++] === 1;
  const saltLength = data[at++]!;
  const salt = data.subarray(at, at + saltLength);
  at += saltLength;
  let answer = false;
  let expectedLayer = 1;
  while (at < data.length) {
    const algorithm = data[at]!;
    const bits = data.readUInt32LE(at + 1);
    const hashes = data.readUInt32LE(at + 5);
    const layer = data[at + 9]!;
    expect(algorithm).toBe(2);
    expect(layer).toBe(expectedLayer++);
    const body = data.subarray(at + 10, at + 10 + Math.ceil(bits / 8));
    at += 10 + body.length;
    let inLayer = true;
    for (let i = 0; i < hashes && inLayer; i++) {
      const counter = Buffer.alloc(4);
      counter.writeUInt32LE(i);
      const digest = createHash('sha256')
        .update(Buffer.concat([salt, counter, Buffer.from([layer]), Buffer.from(key, 'utf8')]))
        .digest();
      const bit = digest.readUInt32LE(0) % bits;
      inLayer = (body[Math.floor(bit / 8)]! >> (bit % 8)) % 2 === 1;
    }
    if (!inLayer) break;
    answer = !answer;
  }
  return inverted ? !answer : answer;
}

function keys(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => blocklistKey(`${prefix}${i}@example.com`, `1.${i % 7}.${i}`));
}

describe('filter cascade (format version 2, SHA-256 low 32 bits)', () => {
  const blocked = keys('bad', 300);
  const others = keys('good', 20_000);
  const cascade = buildCascade(blocked, others, { salt: Buffer.from('sixteen-byte-slt') });
  const bytes = serializeCascade(cascade);

  it('holds every included key and no excluded one, read back as a browser reads the bytes', () => {
    expect(cascade.layers.length).toBeGreaterThan(1);
    const parsed = parseCascade(bytes);
    expect(blocked.filter((key) => !browserLookup(bytes, key) || !cascadeHas(parsed, key))).toEqual([]);
    expect(others.filter((key) => browserLookup(bytes, key) || cascadeHas(parsed, key))).toEqual([]);
  });

  it('writes the header the format defines and sizes layers as CRLite does', () => {
    expect([...bytes.subarray(0, 4)]).toEqual([2, 0, 0, 16]);
    expect(bytes.subarray(4, 20).toString()).toBe('sixteen-byte-slt');
    expect(bytes[20]).toBe(2); // the first layer's hash algorithm
    const first = cascade.layers[0]!;
    // p = 300 / (√2 · 20000): k = round(log2(1/p)) = round(6.56 + 0.5)
    expect(first.hashCount).toBe(7);
    expect(first.size).toBe(Math.round((300 * -(Math.log2(300 / 20_000) - 0.5)) / Math.LN2));
    expect(cascade.layers.slice(1).every((layer) => layer.hashCount === 1)).toBe(true);
    const stats = cascadeStats(cascade);
    expect(bytes.length).toBe(4 + 16 + cascade.layers.reduce((n, l) => n + 10 + Math.ceil(l.size / 8), 0));
    expect(stats.bits).toBe(cascade.layers.reduce((n, l) => n + l.size, 0));
  });

  it('answers false for every key when nothing is included, and handles nothing excluded', () => {
    const empty = buildCascade([], others.slice(0, 100));
    expect(others.slice(0, 100).filter((key) => browserLookup(serializeCascade(empty), key))).toEqual([]);
    const all = buildCascade(blocked.slice(0, 5), []);
    for (const key of blocked.slice(0, 5)) expect(cascadeHas(all, key)).toBe(true);
  });

  it('refuses a key on both sides, and data a browser would refuse', () => {
    expect(() => buildCascade(['a:1'], ['a:1', 'b:1'])).toThrow(CascadeError);
    expect(() => parseCascade(bytes.subarray(0, bytes.length - 1))).toThrow(/truncated/);
    expect(() => parseCascade(Buffer.from([3, 0, 0, 0]))).toThrow(/version/);
    const foreign = Buffer.from(bytes);
    foreign[20] = 1; // MurmurHash3 layers are not what this service writes
    expect(() => parseCascade(foreign)).toThrow(/hash algorithm/);
    const renumbered = Buffer.from(bytes);
    renumbered[29] = 2;
    expect(() => parseCascade(renumbered)).toThrow(/numbering/);
    expect(() => parseCascade(Buffer.from([2, 0, 0, 0]))).toThrow(/no layers/);
  });

  it('flips every answer when inverted', () => {
    const inverted: FilterCascade = { ...cascade, inverted: true };
    const data = serializeCascade(inverted);
    expect(browserLookup(data, blocked[0]!)).toBe(false);
    expect(browserLookup(data, others[0]!)).toBe(true);
  });
});

describe('publications: base filters and stashes', () => {
  const signed = keys('addon', 3_000);
  const sets = (hard: string[], soft: string[] = []): BlockedSets => ({ hard: new Set(hard), soft: new Set(soft) });

  const expectedState = (current: BlockedSets, key: string) =>
    current.hard.has(key) ? 'hard' : current.soft.has(key) ? 'soft' : 'none';

  function browserState(base: ReturnType<typeof buildBaseFilters>, stashes: Stash[], key: string) {
    return publishedState(key, base, stashes);
  }

  it('a first publication is a base; base filters tell hard, soft and unblocked keys apart', () => {
    const current = sets(signed.slice(0, 30), signed.slice(30, 40));
    expect(planPublication(current, signed, null)).toEqual({ kind: 'base', reason: 'first' });
    const base = buildBaseFilters(current, signed);
    expect(signed.filter((key) => browserState(base, [], key) !== expectedState(current, key))).toEqual([]);
  });

  it('stashes applied in order to the base give every later state, for every signed key', () => {
    const universe = [...signed];
    let published = sets(signed.slice(0, 30), signed.slice(30, 40));
    const base = buildBaseFilters(published, universe);
    let previousSigned = new Set(universe);
    const stashes: Stash[] = [];
    let stashed = 0;
    const steps: BlockedSets[] = [
      sets([...signed.slice(0, 20), ...signed.slice(100, 110)], signed.slice(30, 45)), // unblock, block, soft-block
      sets([...signed.slice(0, 20), ...signed.slice(30, 35)], signed.slice(100, 110)), // soft → hard, hard → soft
      sets([], []), // everything unblocked
    ];
    const added = keys('late', 2_000);
    for (const [index, current] of steps.entries()) {
      // Versions signed after the base: never seen by the filters.
      if (index === 1) universe.push(...added);
      const plan = planPublication(current, universe, {
        blocked: published,
        signed: previousSigned,
        base,
        stashedSinceBase: stashed,
      });
      expect(plan.kind).toBe('stash');
      if (plan.kind !== 'stash') return;
      stashes.push(plan.stash);
      stashed += plan.stash.blocked.length + plan.stash.softblocked.length + plan.stash.unblocked.length;
      expect(universe.filter((key) => browserState(base, stashes, key) !== expectedState(current, key))).toEqual([]);
      published = current;
      previousSigned = new Set(universe);
    }
  });

  it('publishes nothing when nothing changed, and a new base past the threshold or when forced', () => {
    const current = sets(signed.slice(0, 10));
    const previous = {
      blocked: current,
      signed: new Set(signed),
      base: buildBaseFilters(current, signed),
      stashedSinceBase: 0,
    };
    expect(planPublication(current, signed, previous)).toEqual({ kind: 'none' });
    expect(planPublication(current, signed, previous, { force: true })).toEqual({ kind: 'base', reason: 'forced' });
    const more = sets(signed.slice(0, 50));
    expect(planPublication(more, signed, previous, { threshold: 39 })).toEqual({ kind: 'base', reason: 'threshold' });
    expect(planPublication(more, signed, previous, { threshold: 40 }).kind).toBe('stash');
  });
});
