/**
 * Typo tolerance for the PostgreSQL adapter, in the spirit of the original's Elasticsearch fuzzy
 * query (`prefix_length` 2, one edit for short words): every word of at least `MIN_WORD_LENGTH`
 * characters is widened to the words one edit away (deletion, insertion, substitution, adjacent
 * transposition) that keep its first two characters. The variants go through the full-text GIN
 * index, whose entry tree is the catalogue's lexicon: a variant that is no real word costs one
 * B-tree descent and matches nothing.
 *
 * Trigram similarity on `search_name` was measured and not used: the two shared trigrams of
 * 'dakr' and 'dark' (0.4 word similarity) are shared by every name with a word starting "da"
 * (52k candidates, ~1 s at 500k add-ons), while transpositions of short words, the common typo,
 * fall below any selective threshold.
 */
const PREFIX_LENGTH = 2;
const MIN_WORD_LENGTH = 4;
const MAX_WORDS = 6;
const ALPHABET = [...'abcdefghijklmnopqrstuvwxyz'];

/**
 * Per word of `q` (at most `MAX_WORDS`), the word and its variants; null when no word is long
 * enough to have variants. The adapter keeps the variants that are indexed words (`fuzzyQuery`).
 */
export function typoGroups(q: string): string[][] | null {
  const words = (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS);
  if (!words.some((w) => [...w].length >= MIN_WORD_LENGTH)) return null;
  return words.map(typoVariants);
}

/** The word and, if long enough, every word one edit away that keeps its prefix. */
export function typoVariants(word: string): string[] {
  const chars = [...word];
  if (chars.length < MIN_WORD_LENGTH) return [word];
  const alphabet = [...new Set([...ALPHABET, ...chars.filter((c) => /\p{L}/u.test(c))])];
  const out = new Set<string>([word]);
  const at = (i: number, replacement: string[], skip: number) =>
    [...chars.slice(0, i), ...replacement, ...chars.slice(i + skip)].join('');
  for (let i = PREFIX_LENGTH; i <= chars.length; i++) {
    for (const c of alphabet) out.add(at(i, [c], 0));
    if (i === chars.length) break;
    out.add(at(i, [], 1));
    for (const c of alphabet) if (c !== chars[i]) out.add(at(i, [c], 1));
    if (i + 1 < chars.length && chars[i] !== chars[i + 1]) out.add(at(i, [chars[i + 1], chars[i]], 2));
  }
  return [...out];
}
