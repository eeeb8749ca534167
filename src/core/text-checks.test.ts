import { isEmailAddress } from './email.js';
import { hasAnchorHref, hasLinks, hasRatingLink, hasTextUrl, LINK_SCANNER_PATTERNS, RATING_LINK } from './has-links.js';
import { exceedsLength, lengthProblem, truncateText } from './text-limits.js';

/**
 * The limits of the inputs these checks run on (src/accounts/, src/collections/, src/ratings/ and
 * src/catalogue/text-limits.ts): hostile texts of these lengths must still answer right.
 */
const BIOGRAPHY = 3_000;
const COLLECTION_DESCRIPTION = 3_000;
const RATING_BODY = 3_000;
const SUPPORT_EMAIL = 255;

/*
 * The patterns these functions replace, kept as the reference they must agree with. They
 * back-track: quadratic time in the length of some texts (seconds at 100,000 characters).
 */
// prettier-ignore
const OLD_TLDS = `ac ad ae aero af ag ai al am an ao aq ar arpa as asia at au aw ax az ba bb bd be bf bg bh bi biz
  bj bm bn bo br bs bt bv bw by bz ca cat cc cd cf cg ch ci ck cl cm cn co com coop cr cu cv cx cy cz de dj dk dm
  do dz ec edu ee eg er es et eu fi fj fk fm fo fr ga gb gd ge gf gg gh gi gl gm gn gov gp gq gr gs gt gu gw gy hk
  hm hn hr ht hu id ie il im in info int io iq ir is it je jm jo jobs jp ke kg kh ki km kn kp kr kw ky kz la lb lc
  li lk lr ls lt lu lv ly ma mc md me mg mh mil mk ml mm mn mo mobi mp mq mr ms mt mu museum mv mw mx my mz na name
  nc ne net nf ng ni nl no np nr nu nz om org pa pe pf pg ph pk pl pm pn post pr pro ps pt pw py qa re ro rs ru rw
  sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st su sv sx sy sz tc td tel tf tg th tj tk tl tm tn to tp tr
  travel tt tv tw tz ua ug uk us uy uz va vc ve vg vi vn vu wf ws xn xxx ye yt yu za zm zw`
  .split(/\s+/)
  .sort((a, b) => b.length - a.length);
const OLD_PROTOCOLS =
  'ed2k|ftp|https?|irc|mailto|news|gopher|nntp|telnet|webcal|xmpp|callto|feed|urn|aim|rsync|tag|ssh|sftp|rtsp|afs|data';
const OLD_WORD = '[\\p{L}\\p{N}_]';
const OLD_TEXT_URL = new RegExp(
  `(?<![\\p{L}\\p{N}_@.])(?:(?:${OLD_PROTOCOLS}):/{0,3}(?:(?:${OLD_WORD}+:)?${OLD_WORD}+@)?)?` +
    `(?:[\\p{L}\\p{N}_-]+\\.)+(?:${OLD_TLDS.join('|')})(?::[0-9]+)?(?!\\.${OLD_WORD})(?!${OLD_WORD})`,
  'iu',
);
const OLD_ANCHOR = /<a\b[^>]*\bhref\s*=/i;
const OLD_RATING_LINK =
  /:\/\/|(\d{1,3}\.){3}\d{1,3}|[0-9a-z%-]+\.(com|net|org|info|biz|edu|gov|mil|int|io|app|dev|xyz|online|site|shop|store|top|club|[a-z]{2})(?![0-9a-z])/i;
const OLD_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The open-ended repetitions (`*`, `+`, `{n,}`) of a pattern, outside character classes. */
function unboundedQuantifiers(pattern: RegExp): string[] {
  const found: string[] = [];
  const source = pattern.source;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') i++;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '*' || char === '+') found.push(`${char} at ${i}`);
    else if (char === '{' && /^\{\d+,\}/.test(source.slice(i))) found.push(`{n,} at ${i}`);
  }
  return found;
}

/** Seeded generator (mulberry32): the same texts on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function texts(pieces: string[], count: number, maxPieces: number, seed: number): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    let text = '';
    const n = 1 + Math.floor(next() * maxPieces);
    for (let i = 0; i < n; i++) text += pieces[Math.floor(next() * pieces.length)];
    return text;
  });
}

// Pieces that build the tricky cases: schemes, user information, dots, dashes, top-level
// domains (also through Unicode case folding: ſ is s, K is k), `@`, word characters of other
// scripts, an astral letter and a lone surrogate.
const URL_PIECES = ['a', 'x', 'co', 'com', 'uk', 'js', 'COM', 'ſu', 'K', 'é', '𝐀', '\ud800', '1', '127', '_', '-'];
const URL_PUNCTUATION = ['.', '.', '..', '@', ':', '/', '//', ' ', '%', 'http', 'https', 'ftp', 'ed2k', 'ſſh', 'user'];
const ANCHOR_PIECES = ['<a', '<A', '<', 'a', ' ', 'href', 'HREF', 'hre', 'f', '=', '>', 'x', '_', '\t', '\u00a0', 'é'];
const EMAIL_PIECES = ['a', 'b', 'é', '-', 'x.y', '.', '@', '@', '@@', ' ', '\t', '\u00a0'];

// Hostile texts: each made the old patterns back-track over the whole text from many positions.
const hostile = (n: number): Record<string, string> => ({
  'a.': 'a.'.repeat(n / 2),
  '-…x': '-'.repeat(n - 1) + 'x',
  'a-…!': 'a-'.repeat(n / 2 - 1) + '!!',
  'word characters and dots': ('abcdefghi'.repeat(3) + '.').repeat(Math.floor(n / 28)),
  '<a …': '<a '.repeat(Math.floor(n / 3)),
  'x@…': 'x@'.repeat(n / 2),
  'digits and dots': '1.'.repeat(n / 2),
  'a@ + dots + space': 'a@' + '.'.repeat(n - 3) + ' ',
  'http: …': 'http:'.repeat(n / 5),
  'é-…': 'é-'.repeat(n / 2),
});

describe('text limits', () => {
  it('counts characters (code points), reading a bounded prefix of a huge text', () => {
    expect(exceedsLength('x'.repeat(50), 50)).toBe(false);
    expect(exceedsLength('x'.repeat(51), 50)).toBe(true);
    expect(exceedsLength('😀'.repeat(50), 50)).toBe(false);
    expect(exceedsLength('😀'.repeat(51), 50)).toBe(true);
    expect(exceedsLength('\ud800'.repeat(51), 50)).toBe(true);
    expect(exceedsLength('x'.repeat(20_000_000), 50)).toBe(true);
    expect(lengthProblem('x'.repeat(3_001), 3_000)).toBe('Ensure this field has no more than 3000 characters.');
    expect(lengthProblem('x'.repeat(3_000), 3_000)).toBeNull();
    expect(lengthProblem(null, 3_000)).toBeNull();
    expect(truncateText('ab😀c', 3)).toBe('ab😀');
    expect(truncateText('abc', 3)).toBe('abc');
  });
});

describe('linear-time text checks', () => {
  it('use patterns without open-ended repetition', () => {
    expect(unboundedQuantifiers(RATING_LINK)).toEqual([]);
    for (const pattern of Object.values(LINK_SCANNER_PATTERNS)) {
      expect([pattern.source, unboundedQuantifiers(pattern)]).toEqual([pattern.source, []]);
      expect(pattern.source.startsWith('^') && pattern.source.endsWith('$')).toBe(true);
    }
    // The checker itself finds what the old patterns had.
    expect(unboundedQuantifiers(OLD_RATING_LINK)).toHaveLength(1);
    expect(unboundedQuantifiers(OLD_ANCHOR).length).toBeGreaterThan(0);
    expect(unboundedQuantifiers(OLD_TEXT_URL).length).toBeGreaterThan(0);
    expect(unboundedQuantifiers(OLD_EMAIL).length).toBeGreaterThan(0);
  });

  it('hands patterns only single characters and words of at most 6 characters (work counted)', () => {
    const original = RegExp.prototype.test;
    let inputs: string[] = [];
    RegExp.prototype.test = function (this: RegExp, input: string) {
      inputs.push(String(input));
      return original.call(this, input);
    };
    try {
      for (const [name, text] of Object.entries(hostile(BIOGRAPHY))) {
        inputs = [];
        hasLinks(text);
        expect([name, inputs.filter((input) => Array.from(input).length > 6)]).toEqual([name, []]);
        // At most 3 class lookups per non-ASCII character and one word lookup per dot or colon.
        expect(inputs.length).toBeLessThanOrEqual(3 * Array.from(text).length + 1);
      }
    } finally {
      RegExp.prototype.test = original;
    }
  });

  it.each([
    ['URL', URL_PIECES.concat(URL_PUNCTUATION), 1],
    ['URL, short alphabet', ['a', 'x', 'co', 'uk', '-', '.', '@', ':', '/', 'http', 'ſ', 'K', '_', ' '], 2],
    ['anchor', ANCHOR_PIECES, 3],
  ])('hasLinks answers as the old patterns on generated texts (%s)', (_name, pieces, seed) => {
    let found = 0;
    const different: string[] = [];
    for (const text of texts(pieces, 20_000, 16, seed)) {
      const url = OLD_TEXT_URL.test(text);
      const anchor = OLD_ANCHOR.test(text);
      if (hasTextUrl(text) !== url || hasAnchorHref(text) !== anchor) different.push(text);
      if (url || anchor) found++;
    }
    expect(different).toEqual([]);
    expect(found).toBeGreaterThan(100);
  });

  it('hasRatingLink and isEmailAddress answer as the old patterns on generated texts', () => {
    const ratingPieces = ['a', 'x', 'com', 'co', 'online', '.', '-', '%', ':', '/', '1', '12', '123', '1234', ' ', 'é'];
    const ratingTexts = texts(ratingPieces, 20_000, 12, 4);
    expect(ratingTexts.filter((text) => hasRatingLink(text) !== OLD_RATING_LINK.test(text))).toEqual([]);
    expect(ratingTexts.filter((text) => OLD_RATING_LINK.test(text)).length).toBeGreaterThan(100);
    const emailTexts = texts(EMAIL_PIECES, 20_000, 8, 5);
    expect(emailTexts.filter((text) => isEmailAddress(text) !== OLD_EMAIL.test(text))).toEqual([]);
    expect(emailTexts.filter((text) => OLD_EMAIL.test(text)).length).toBeGreaterThan(100);
  });

  it.each([
    ['biography (hasLinks)', BIOGRAPHY],
    ['collection description (hasLinks)', COLLECTION_DESCRIPTION],
  ])('hasLinks is right on hostile texts at the %s limit', (_name, limit) => {
    for (const [name, text] of Object.entries(hostile(limit))) {
      expect([name, hasLinks(text)]).toEqual([name, OLD_ANCHOR.test(text) || OLD_TEXT_URL.test(text)]);
    }
  });

  it('hasRatingLink is right on hostile texts at the rating body limit', () => {
    for (const [name, text] of Object.entries(hostile(RATING_BODY))) {
      expect([name, hasRatingLink(text)]).toEqual([name, OLD_RATING_LINK.test(text)]);
    }
  });

  it('isEmailAddress is right on hostile texts at the support e-mail limit', () => {
    for (const [name, text] of Object.entries(hostile(SUPPORT_EMAIL))) {
      expect([name, isEmailAddress(text)]).toEqual([name, OLD_EMAIL.test(text)]);
    }
  });

  // Linear time is shown by the pattern-call counts above; this only guards against a blow-up (a
  // back-tracking pattern on 1 MB takes hours), with room for a loaded shared machine.
  it('finishes far beyond the limits (sanity bound: each hostile text of 1 MB in under 20 s)', () => {
    for (const [name, text] of Object.entries(hostile(1_000_000))) {
      const started = performance.now();
      hasLinks(text);
      hasRatingLink(text);
      isEmailAddress(text);
      expect([name, performance.now() - started < 20_000]).toEqual([name, true]);
    }
  });
});
