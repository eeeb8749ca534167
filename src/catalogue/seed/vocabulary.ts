import { Rng, Stream, hash32 } from './prng.js';
import { COMMON_WORDS, FILLER_WORDS } from './words.js';

/** Vocabulary size: the common English words plus pronounceable pseudo-words. */
export const VOCABULARY_SIZE = 60_000;
/** The vocabulary does not depend on `--seed`: term frequencies stay comparable across catalogues. */
const VOCABULARY_SEED = 20_261_121;

// prettier-ignore
const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'z',
  'br', 'cr', 'dr', 'fl', 'gr', 'kl', 'pr', 'st', 'tr', 'sh', 'ch', 'th'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou'];
/**
 * Last syllables end in a/o/u + one of these consonants: no English suffix (-s, -e, -y, -ed, -ing,
 * -er, -al, -ic…) that the stemmer would strip, so a pseudo-word is its own lexeme.
 */
const FINAL_VOWELS = ['a', 'o', 'u'];
const CODAS = ['k', 'p', 'x', 'z', 'b', 'd', 'g', 'm', 't', 'v', 'n', 'r'];

function pseudoWord(rng: Rng): string {
  const syllables = rng.weighted([
    [1, 10],
    [2, 45],
    [3, 35],
    [4, 10],
  ] as const);
  let word = '';
  for (let i = 1; i < syllables; i++) word += rng.pick(ONSETS) + rng.pick(VOWELS);
  return word + rng.pick(ONSETS) + rng.pick(FINAL_VOWELS) + rng.pick(CODAS);
}

/**
 * Words by Zipf rank: common English words first, then pseudo-words. Drawing `floor(V^u)` (u
 * uniform) gives a log-uniform, Zipf-like rank distribution: rank 1 is ~6% of draws, ranks past
 * ~16k are rare.
 */
export class Vocabulary {
  readonly words: readonly string[];
  private readonly logSize: number;

  constructor(size = VOCABULARY_SIZE) {
    const seen = new Set<string>(FILLER_WORDS);
    const words: string[] = [];
    const add = (w: string) => {
      if (seen.has(w)) return;
      seen.add(w);
      words.push(w);
    };
    COMMON_WORDS.forEach(add);
    const rng = new Rng(hash32(VOCABULARY_SEED, Stream.VOCABULARY));
    while (words.length < size) {
      const w = pseudoWord(rng);
      // Short ones can be stop words (not, but, had); -ator is stemmed.
      if (w.length >= 4 && !w.endsWith('ator')) add(w);
    }
    this.words = words;
    this.logSize = Math.log(words.length + 1);
  }

  /** A word by Zipf rank; `skip` (0..1) moves the lower bound of the exponent to thin out the head. */
  word(rng: Rng, skip = 0): string {
    const u = skip + (1 - skip) * rng.next();
    return this.words[Math.floor(Math.exp(u * this.logSize)) - 1];
  }

  /** A title: `count` capitalised words. */
  title(rng: Rng, count: number): string {
    const out: string[] = [];
    for (let i = 0; i < count; i++) out.push(capitalise(this.word(rng)));
    return out.join(' ');
  }

  /** One sentence of `count` words, capitalised, ending with a full stop. */
  sentence(rng: Rng, count: number, options: { filler?: number; skip?: number } = {}): string {
    const filler = options.filler ?? 0;
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      out.push(rng.chance(filler) ? rng.pick(FILLER_WORDS) : this.word(rng, options.skip));
    }
    return capitalise(out.join(' ')) + '.';
  }

  /** A summary: one or two sentences, `words` content words in all. */
  summary(rng: Rng, words: number): string {
    if (words < 12 || rng.chance(0.5)) return this.sentence(rng, words);
    const first = rng.int(5, words - 5);
    return `${this.sentence(rng, first)} ${this.sentence(rng, words - first)}`;
  }

  /**
   * A description of about `words` words in sentences and paragraphs, a third of them filler. Its
   * content words skip the head of the distribution: names and summaries set the common terms' reach.
   */
  description(rng: Rng, words: number): string {
    const paragraphs: string[] = [];
    let sentences: string[] = [];
    let left = words;
    while (left > 0) {
      const n = Math.min(left, rng.int(6, 16));
      sentences.push(this.sentence(rng, n, { filler: 0.35, skip: 0.25 }));
      left -= n;
      if (sentences.length >= 3 && rng.chance(0.4)) {
        paragraphs.push(sentences.join(' '));
        sentences = [];
      }
    }
    if (sentences.length) paragraphs.push(sentences.join(' '));
    return paragraphs.join('\n\n');
  }
}

export function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

// prettier-ignore
const CYRILLIC: Record<string, string> = {
  a: 'а', b: 'б', c: 'ц', d: 'д', e: 'е', f: 'ф', g: 'г', h: 'х', i: 'и', j: 'й', k: 'к', l: 'л', m: 'м',
  n: 'н', o: 'о', p: 'п', q: 'к', r: 'р', s: 'с', t: 'т', u: 'у', v: 'в', w: 'в', x: 'кс', y: 'ы', z: 'з',
  A: 'А', B: 'Б', C: 'Ц', D: 'Д', E: 'Е', F: 'Ф', G: 'Г', H: 'Х', I: 'И', J: 'Й', K: 'К', L: 'Л', M: 'М',
  N: 'Н', O: 'О', P: 'П', Q: 'К', R: 'Р', S: 'С', T: 'Т', U: 'У', V: 'В', W: 'В', X: 'Кс', Y: 'Ы', Z: 'З',
};

/** Latin letters to Cyrillic, so that Russian translations are not Latin text. */
export function toCyrillic(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => CYRILLIC[c]);
}
