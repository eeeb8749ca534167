/**
 * Index keys of look-alike names (docs/operations.md, "Scanners"): each add-on's names are stored once as keys
 * (`addons.lookalike_keys`, a GIN index over public add-ons), so that a new add-on finds the public
 * add-ons whose names may look like its own through the index, never by reading the catalogue.
 *
 * A name's skeleton is `normaliseName`. Two skeletons look alike (`looksAlike`) when equal, or, both
 * at least MIN_FUZZY_LENGTH long, one edit apart (MAX_DISTANCE = 1). One edit changes at most one
 * half of a string: if `a` (length L, split at h = floor(L / 2)) is one edit from `b`, then `b` starts
 * with `a`'s first half or ends with its second half, and `b`'s length is L - 1, L or L + 1. So a
 * stored name `b` (length M) has the keys
 *   `=b`                                   (equal),
 *   `<L:` + b's first floor(L / 2) units   for L in M - 1, M, M + 1 (L and M long enough),
 *   `>L:` + b's last  L - floor(L / 2)     the same,
 * and a new name `a` probes `=a`, `<L:a[0, h)` and `>L:a[h, L)`: every look-alike shares a key
 * (no false negatives); a shared key is only a candidate, checked with `looksAlike`.
 * Lengths are counted in UTF-16 units, as `editDistance` counts them.
 */
import type { Translations } from '../core/i18n/translations.js';
import { MAX_DISTANCE, MIN_FUZZY_LENGTH, normaliseName } from './lookalike.js';

/**
 * At most this many distinct own names (skeletons) of a new add-on are compared: its default
 * locale's first, then the others by locale code. Bounds the probe (3 keys per name).
 */
export const MAX_OWN_NAMES = 10;
/** Keys are cut to this many units on both sides (a longer key is a prefix: more candidates, no misses). */
export const MAX_KEY_LENGTH = 200;

// The halves argument holds for one edit only.
if (MAX_DISTANCE !== 1) throw new Error('lookalike-keys.ts assumes MAX_DISTANCE = 1');

const cut = (key: string) => key.slice(0, MAX_KEY_LENGTH);

/** The distinct non-empty skeletons of a translated name, `first` locale's first, then by locale code. */
export function nameSkeletons(
  names: Translations | null | undefined,
  trademarks: readonly string[],
  first?: string,
): string[] {
  const entries = Object.entries(names ?? {})
    .filter(([, text]) => typeof text === 'string')
    .sort(([a], [b]) => (a === first ? -1 : b === first ? 1 : a < b ? -1 : a > b ? 1 : 0));
  const skeletons = new Set(entries.map(([, text]) => normaliseName(text, trademarks)));
  skeletons.delete('');
  return [...skeletons];
}

/** The keys stored for an add-on's names (every locale), sorted, distinct. */
export function storedKeys(skeletons: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const b of skeletons) {
    keys.add(cut(`=${b}`));
    const m = b.length;
    if (m < MIN_FUZZY_LENGTH) continue;
    for (const l of [m - 1, m, m + 1]) {
      if (l < MIN_FUZZY_LENGTH) continue;
      const h = Math.floor(l / 2);
      keys.add(cut(`<${l}:${b.slice(0, h)}`));
      keys.add(cut(`>${l}:${b.slice(m - (l - h))}`));
    }
  }
  return [...keys].sort();
}

/** The keys a new add-on's name probes. */
export function probeKeys(a: string): string[] {
  const keys = [cut(`=${a}`)];
  const l = a.length;
  if (l >= MIN_FUZZY_LENGTH) {
    const h = Math.floor(l / 2);
    keys.push(cut(`<${l}:${a.slice(0, h)}`), cut(`>${l}:${a.slice(h)}`));
  }
  return keys;
}
