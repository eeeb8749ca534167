/**
 * Look-alike names: a new add-on's name normalised and compared with public add-ons' names
 * (docs/operations.md, "Scanners"). Normalisation: NFKD with combining marks dropped (accents), lower case,
 * confusable characters mapped (CONFUSABLES), the trademark words removed (the vendor's and the
 * browser's names, as configured), and every separator (anything but a letter or digit) removed.
 */

/** Characters that look like others, mapped to what they imitate. Applied after lower-casing. */
export const CONFUSABLES: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'l',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
  '|': 'l',
  i: 'l',
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'l',
  ј: 'j',
  ѕ: 's',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  ι: 'l',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
};

/** Letter pairs that read as one letter; applied after the single characters. */
export const CONFUSABLE_PAIRS: readonly (readonly [string, string])[] = [
  ['rn', 'm'],
  ['vv', 'w'],
  ['cl', 'd'],
];

/** Names shorter than this (normalised) are compared for equality only. */
export const MIN_FUZZY_LENGTH = 6;
/** Normalised names this close (edit distance) or closer are look-alikes, when long enough. */
export const MAX_DISTANCE = 1;

export function normaliseName(name: string, trademarks: readonly string[]): string {
  let text = name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  for (const word of trademarks) {
    const plain = word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
    if (plain) text = text.split(plain).join(' ');
  }
  text = [...text].map((c) => CONFUSABLES[c] ?? c).join('');
  text = text.replace(/[^\p{L}\p{N}]+/gu, '');
  for (const [pair, single] of CONFUSABLE_PAIRS) text = text.split(pair).join(single);
  return text;
}

/** Levenshtein distance, stopping early past `max` (returns max + 1 then). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      rowMin = Math.min(rowMin, current[j]!);
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** Whether two normalised names look alike: equal, or close enough for names long enough. */
export function looksAlike(a: string, b: string): boolean {
  if (!a || !b) return false;
  if (a === b) return true;
  if (Math.min(a.length, b.length) < MIN_FUZZY_LENGTH) return false;
  return editDistance(a, b, MAX_DISTANCE) <= MAX_DISTANCE;
}
