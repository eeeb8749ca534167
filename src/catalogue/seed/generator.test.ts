import { AddonType, versionInt } from '../catalogue.enums.js';
import { CatalogueGenerator, type SeedReference } from './generator.js';
import { AddonBatch, type IdCursor } from './model.js';
import { Rng, fmix32 } from './prng.js';
import { FingerprintSet, SlugAllocator, slugify } from './unique.js';
import { generateUser } from './users.js';
import { Vocabulary } from './vocabulary.js';
import { PERMISSIONS } from './words.js';

/** The data model alone, without a database: determinism, shapes and distributions. */
const vocabulary = new Vocabulary();
/** A tag list as the database holds one (the `tags` table, in id order). */
// prettier-ignore
const TAGS = ['ad blocker', 'privacy', 'security', 'dark mode', 'video downloader', 'youtube', 'vpn', 'translation',
  'shopping', 'tab manager', 'music', 'weather'];
const reference: SeedReference = {
  categories: new Map([
    ['1:1', { regular: [1, 2, 3, 4], misc: 5 }],
    ['61:1', { regular: [6, 7], misc: 8 }],
    ['1:10', { regular: [9, 10], misc: 11 }],
    ['1:3', { regular: [12], misc: null }],
  ]),
  licences: new Map([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => [n, 100 + n])),
  tags: TAGS,
};

function generate(seed: number, total: number): AddonBatch {
  const ids: IdCursor = {
    users: 1,
    addons: 1,
    versions: 1,
    version_compat: 1,
    files: 1,
    previews: 1,
    addon_users: 1,
    featured_addons: 1,
  };
  const users = { first: 1, count: Math.ceil(total / 3) };
  const generator = new CatalogueGenerator({
    seed,
    total,
    users,
    reference,
    ids,
    slugs: new SlugAllocator(),
    guids: new FingerprintSet(),
    vocabulary,
  });
  const batch = new AddonBatch();
  for (let i = 0; i < total; i++) generator.addAddon(batch, i);
  return batch;
}

const share = (n: number, total: number) => n / total;

describe('catalogue generator', () => {
  const N = 20_000;
  const batch = generate(7, N);
  const { addons } = batch;

  it('is deterministic: same seed, same rows; another seed, other rows', () => {
    expect(JSON.stringify(generate(7, 500))).toBe(JSON.stringify(generate(7, 500)));
    expect(generate(8, 500).addons[0].name).not.toEqual(generate(7, 500).addons[0].name);
    expect(JSON.stringify(generateUser(3, 42, vocabulary))).toBe(JSON.stringify(generateUser(3, 42, vocabulary)));
  });

  it('draws types and statuses in the intended proportions', () => {
    const count = (f: (a: (typeof addons)[number]) => boolean) => share(addons.filter(f).length, N);
    expect(count((a) => a.type === AddonType.EXTENSION)).toBeGreaterThan(0.57);
    expect(count((a) => a.type === AddonType.EXTENSION)).toBeLessThan(0.63);
    expect(count((a) => a.type === AddonType.STATICTHEME)).toBeGreaterThan(0.27);
    expect(count((a) => a.type === AddonType.STATICTHEME)).toBeLessThan(0.33);
    for (const t of [AddonType.DICTIONARY, AddonType.LANGUAGE, AddonType.SEARCH]) {
      expect(count((a) => a.type === t)).toBeGreaterThan(0.02);
    }
    expect(count((a) => a.status === 4)).toBeGreaterThan(0.87);
    expect(count((a) => a.status === 4)).toBeLessThan(0.93);
    for (const s of [0, 3, 5, 11]) expect(count((a) => a.status === s)).toBeGreaterThan(0.005);
    expect(count((a) => a.status === 4 && a.disabled_by_user)).toBeGreaterThan(0.01);
    expect(count((a) => a.promoted_category !== null)).toBeGreaterThan(0.005);
    expect(count((a) => a.promoted_category !== null)).toBeLessThan(0.02);
  });

  it('gives every public add-on a current version and no other add-on one', () => {
    expect(addons.filter((a) => (a.current_version_id !== null) !== (a.status === 4))).toEqual([]);
    const versionsByAddon = new Map<number, number[]>();
    for (const v of batch.versions)
      versionsByAddon.set(v.addon_id, [...(versionsByAddon.get(v.addon_id) ?? []), v.channel]);
    const unlistedOnly = addons.filter((a) => versionsByAddon.get(a.id)!.every((c) => c === 1));
    expect(share(unlistedOnly.length, N)).toBeGreaterThan(0.02);
    expect(share(unlistedOnly.length, N)).toBeLessThan(0.04);
    expect(unlistedOnly.filter((a) => a.status !== 0)).toEqual([]);
    expect([...versionsByAddon.values()].filter((channels) => channels.length > 5)).toEqual([]);
  });

  it('makes popularity long-tailed and ratings consistent with it', () => {
    const adu = addons.map((a) => a.average_daily_users).sort((a, b) => a - b);
    expect(adu[Math.floor(N / 2)]).toBeLessThanOrEqual(3);
    expect(adu[Math.floor(N * 0.99)]).toBeGreaterThan(100);
    expect(adu[Math.floor(N * 0.99)]).toBeLessThan(1500);
    expect(adu[N - 1]).toBeGreaterThan(50_000);
    expect(share(adu.filter((x) => x === 0).length, N)).toBeGreaterThan(0.35);
    const inconsistent = addons.filter(
      (a) =>
        a.text_ratings_count > a.total_ratings ||
        a.average_rating > 5 ||
        (a.total_ratings === 0 ? a.average_rating !== 0 || a.bayesian_rating !== 0 : a.average_rating < 1),
    );
    expect(inconsistent).toEqual([]);
    expect(share(addons.filter((a) => a.hotness === 0).length, N)).toBeGreaterThan(0.6);
    expect(addons.some((a) => a.hotness < 0) && addons.some((a) => a.hotness > 0)).toBe(true);
  });

  it('writes texts of the intended lengths, some in several locales', () => {
    const words = (s: string) => s.split(/\s+/).length;
    const multi = addons.filter((a) => Object.keys(a.name).length > 1).length;
    expect(share(multi, N)).toBeGreaterThan(0.17);
    expect(share(multi, N)).toBeLessThan(0.23);
    const inRange = (text: string | undefined, min: number, max: number) =>
      text !== undefined && words(text) >= min && words(text) <= max;
    const offText = addons.filter(
      (a) =>
        !inRange(a.name[a.default_locale], 1, 4) ||
        !inRange(a.summary[a.default_locale], 8, 20) ||
        (a.description !== null && !inRange(a.description[a.default_locale], 30, 120)),
    );
    expect(offText).toEqual([]);
    // A common word reaches a large share of the catalogue, a tail word very few add-ons.
    const reach = (w: string) => {
      const word = new RegExp(`\\b${w}\\b`, 'i');
      const texts = addons.map((a) => `${a.name[a.default_locale]} ${a.summary[a.default_locale]}`);
      return share(texts.filter((t) => word.test(t)).length, N);
    };
    expect(reach('tab')).toBeGreaterThan(0.4);
    expect(reach(vocabulary.words[50_000])).toBeLessThan(0.002);
  });

  it('keeps slugs and guids unique and fields well-formed', () => {
    expect(new Set(addons.map((a) => a.slug)).size).toBe(N);
    const guids = addons.map((a) => a.guid).filter((g) => g !== null);
    expect(new Set(guids).size).toBe(guids.length);
    const badAddons = addons.filter(
      (a) =>
        a.tags.join() !== [...new Set(a.tags)].sort().join() ||
        a.tags.some((t) => !TAGS.includes(t)) ||
        (a.colors !== null) !== (a.type === AddonType.STATICTHEME) ||
        (a.colors ?? []).some((c) => c.h > 360 || c.s > 100 || c.l > 100),
    );
    expect(badAddons).toEqual([]);
    const badFiles = batch.files.filter(
      (f) => !/^sha256:[0-9a-f]{64}$/.test(f.hash) || f.permissions.some((p) => !PERMISSIONS.includes(p)),
    );
    expect(badFiles).toEqual([]);
    const badCompat = batch.compat.filter(
      (c) => c.min_int !== versionInt(c.min) || c.max_int !== versionInt(c.max) || c.min_int > c.max_int,
    );
    expect(badCompat).toEqual([]);
  });
});

describe('vocabulary', () => {
  it('puts the common words first and pronounceable, stemmer-stable pseudo-words after', () => {
    expect(vocabulary.words.slice(0, 4)).toEqual(['tab', 'dark', 'block', 'theme']);
    expect(new Set(vocabulary.words).size).toBe(vocabulary.words.length);
    expect(vocabulary.words.length).toBe(60_000);
    const odd = vocabulary.words
      .slice(1000)
      .filter((w) => !/^[a-z]{2,}[aou][kpxzbdgmtvnr]$/.test(w) || /ator$/.test(w));
    expect(odd).toEqual([]);
  });

  it('draws ranks Zipf-style', () => {
    const rng = new Rng(1);
    const draws = Array.from({ length: 50_000 }, () => vocabulary.word(rng));
    const tab = draws.filter((w) => w === 'tab').length / draws.length;
    expect(tab).toBeGreaterThan(0.05);
    expect(tab).toBeLessThan(0.08);
    expect(new Set(draws).size).toBeGreaterThan(10_000);
  });
});

describe('uniqueness helpers', () => {
  it('FingerprintSet remembers what it holds through growth', () => {
    const set = new FingerprintSet(4);
    for (let i = 0; i < 50_000; i++) expect(set.add(`slug-${i}`)).toBe(true);
    expect(set.size).toBe(50_000);
    expect(set.add('slug-123')).toBe(false);
    expect(set.has('slug-49999')).toBe(true);
    expect(set.has('slug-50000')).toBe(false);
  });

  it('SlugAllocator suffixes taken slugs with the id', () => {
    const slugs = new SlugAllocator();
    expect(slugs.allocate('dark-tab', 1)).toBe('dark-tab');
    expect(slugs.allocate('dark-tab', 2)).toBe('dark-tab-2');
    slugs.taken.add('night-5');
    expect(slugs.allocate('night', 4)).toBe('night');
    expect(slugs.allocate('night', 5)).toBe('night-5-2');
  });

  it('slugify keeps letters and digits of any script', () => {
    expect(slugify('Dark  Tab: Pro!')).toBe('dark-tab-pro');
    expect(slugify('Тёмная Вкладка')).toBe('тёмная-вкладка');
    expect(slugify('!!!')).toBe('addon');
  });

  it('fmix32 is a bijection on small ranges (ids give distinct guid prefixes)', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 100_000; i++) seen.add(fmix32(i ^ 12345));
    expect(seen.size).toBe(100_000);
  });
});
