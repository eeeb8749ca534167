/**
 * Link tests on user text, in linear time. Each one reads the text once, left to right, and only
 * asks patterns about one character or a bounded word (at most 6 characters), so no input can
 * make them back-track: a text at its length limit costs microseconds, whatever it holds.
 * They answer exactly as the original patterns (kept in `src/core/text-checks.test.ts`, which
 * compares them on generated texts).
 */

// prettier-ignore
const TLDS = `ac ad ae aero af ag ai al am an ao aq ar arpa as asia at au aw ax az ba bb bd be bf bg bh bi biz
  bj bm bn bo br bs bt bv bw by bz ca cat cc cd cf cg ch ci ck cl cm cn co com coop cr cu cv cx cy cz de dj dk dm
  do dz ec edu ee eg er es et eu fi fj fk fm fo fr ga gb gd ge gf gg gh gi gl gm gn gov gp gq gr gs gt gu gw gy hk
  hm hn hr ht hu id ie il im in info int io iq ir is it je jm jo jobs jp ke kg kh ki km kn kp kr kw ky kz la lb lc
  li lk lr ls lt lu lv ly ma mc md me mg mh mil mk ml mm mn mo mobi mp mq mr ms mt mu museum mv mw mx my mz na name
  nc ne net nf ng ni nl no np nr nu nz om org pa pe pf pg ph pk pl pm pn post pr pro ps pt pw py qa re ro rs ru rw
  sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st su sv sx sy sz tc td tel tf tg th tj tk tl tm tn to tp tr
  travel tt tv tw tz ua ug uk us uy uz va vc ve vg vi vn vu wf ws xn xxx ye yt yu za zm zw`
  .trim()
  .split(/\s+/);

// prettier-ignore
const PROTOCOLS = ['ed2k', 'ftp', 'http', 'https', 'irc', 'mailto', 'news', 'gopher', 'nntp', 'telnet', 'webcal',
  'xmpp', 'callto', 'feed', 'urn', 'aim', 'rsync', 'tag', 'ssh', 'sftp', 'rtsp', 'afs', 'data'];

/** Longest top-level domain and scheme: longer words are not looked up. */
const TLD_MAX = Math.max(...TLDS.map((t) => t.length));
const PROTOCOL_MAX = Math.max(...PROTOCOLS.map((p) => p.length));

/**
 * The patterns the scanners consult. Each is anchored and free of repetition: one character, or a
 * choice among fixed words. The case-insensitive Unicode flags are those of the original pattern,
 * so case folding (e.g. `ſ` for `s`) stays the same.
 */
export const LINK_SCANNER_PATTERNS = {
  word: /^[\p{L}\p{N}_]$/iu,
  host: /^[\p{L}\p{N}_-]$/iu,
  /** What may not stand right before a URL (bleach's look-behind). */
  beforeUrl: /^[\p{L}\p{N}_@.]$/iu,
  tld: new RegExp(`^(?:${TLDS.join('|')})$`, 'iu'),
  protocol: new RegExp(`^(?:${PROTOCOLS.join('|')})$`, 'iu'),
  space: /^\s$/,
} as const;

const HREF = /^href$/i;

const WORD = 1;
const HOST = 2;
const BEFORE_URL = 4;

const ASCII_CLASSES = new Uint8Array(128);
for (let code = 0; code < 128; code++) ASCII_CLASSES[code] = classifyByPattern(String.fromCharCode(code));

function classifyByPattern(char: string): number {
  const { word, host, beforeUrl } = LINK_SCANNER_PATTERNS;
  return (word.test(char) ? WORD : 0) | (host.test(char) ? HOST : 0) | (beforeUrl.test(char) ? BEFORE_URL : 0);
}

function classify(char: string): number {
  const code = char.codePointAt(0)!;
  return code < 128 ? ASCII_CLASSES[code] : classifyByPattern(char);
}

/**
 * The original's "No links are allowed." test (bleach's linkify): an `<a href>` tag, or text that
 * reads as a URL, i.e. a host name ending in a known top-level domain, optionally with a scheme,
 * a port and a path. `localhost`, IP addresses, e-mail addresses and names such as `node.js` are
 * not links.
 */
export function hasLinks(text: string): boolean {
  return hasAnchorHref(text) || hasTextUrl(text);
}

/**
 * `<a …href=`: an `<a` tag (followed by a non-word character) whose `href` attribute starts before
 * the tag's `>`. Letters compare ASCII-case-insensitively, as the original (non-Unicode) pattern.
 */
export function hasAnchorHref(text: string): boolean {
  let open = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '>') {
      open = false;
    } else if (char === '<') {
      if ((text[i + 1] === 'a' || text[i + 1] === 'A') && !isAsciiWord(text[i + 2])) open = true;
    } else if (open && (char === 'h' || char === 'H') && !isAsciiWord(text[i - 1])) {
      if (!HREF.test(text.slice(i, i + 4))) continue;
      let next = i + 4;
      while (next < text.length && LINK_SCANNER_PATTERNS.space.test(text[next])) next++;
      if (text[next] === '=') return true;
    }
  }
  return false;
}

function isAsciiWord(char: string | undefined): boolean {
  if (char === undefined) return false;
  const code = char.charCodeAt(0);
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/**
 * A URL in the text: labels of letters, digits, `_` and `-` joined by dots, ending in a known
 * top-level domain that is not followed by a word character (nor by a dot and one); the host
 * must not follow a word character, `@` or `.`, unless a scheme with user information
 * (`ftp://user:pass@host.tld`) comes first. A port changes nothing: `:` ends the domain anyway.
 *
 * One pass over the code points; at each dot, the host start (kept while scanning the run of
 * host characters and dots) and the word after the dot decide.
 */
export function hasTextUrl(text: string): boolean {
  const chars = Array.from(text);
  const n = chars.length;
  const classes = new Uint8Array(n);
  for (let i = 0; i < n; i++) classes[i] = classify(chars[i]);
  const is = (i: number, flag: number) => i >= 0 && i < n && (classes[i] & flag) !== 0;

  // Start of the run of word characters that contains i.
  const wordStart = new Int32Array(n);
  for (let i = 0; i < n; i++) wordStart[i] = is(i, WORD) && is(i - 1, WORD) ? wordStart[i - 1] : i;
  // End (exclusive) of the run of word characters that starts at or contains i.
  const wordEnd = new Int32Array(n + 1);
  wordEnd[n] = n;
  for (let i = n - 1; i >= 0; i--) wordEnd[i] = is(i, WORD) ? wordEnd[i + 1] : i;
  const word = (from: number, to: number) => chars.slice(from, to).join('');

  /** `proto:` + up to three slashes right before `at`; the scheme starts a word not after `@` or `.`. */
  const schemeBefore = (at: number) => {
    for (let slashes = 0; slashes <= 3; slashes++) {
      if (slashes > 0 && chars[at - slashes] !== '/') return false;
      const colon = at - slashes - 1;
      if (chars[colon] !== ':' || !is(colon - 1, WORD)) continue;
      const start = wordStart[colon - 1];
      if (colon - start > PROTOCOL_MAX || is(start - 1, BEFORE_URL)) continue;
      if (LINK_SCANNER_PATTERNS.protocol.test(word(start, colon))) return true;
    }
    return false;
  };
  /** `scheme:[//]user[:password]@` ending with the `@` at `at`. */
  const userInfoBefore = (at: number) => {
    if (!is(at - 1, WORD)) return false;
    const user = wordStart[at - 1];
    if (schemeBefore(user)) return true;
    return chars[user - 1] === ':' && is(user - 2, WORD) && schemeBefore(wordStart[user - 2]);
  };
  /** The word after the dot at `dot` is a top-level domain that ends the host. */
  const tldAfter = (dot: number) => {
    if (!is(dot + 1, WORD)) return false;
    const end = wordEnd[dot + 1];
    if (end - dot - 1 > TLD_MAX || !LINK_SCANNER_PATTERNS.tld.test(word(dot + 1, end))) return false;
    return !(chars[end] === '.' && is(end + 1, WORD));
  };

  let runStart = 0; // start of the current run of host characters and dots
  let afterDoubleDot = -1; // a host starts at or after this (no empty label)
  let afterDash = -1; // latest host start inside the run (after a character that may precede a URL)
  for (let i = 0; i < n; i++) {
    const dot = chars[i] === '.';
    if (!dot && !is(i, HOST)) {
      runStart = i + 1;
      afterDoubleDot = -1;
      afterDash = -1;
      continue;
    }
    if (i > runStart && !dot && is(i, HOST) && !is(i - 1, BEFORE_URL)) afterDash = i;
    if (!dot) continue;
    if (i > runStart && chars[i - 1] === '.') afterDoubleDot = i + 1;
    if (i === runStart || !is(i - 1, HOST) || !tldAfter(i)) continue;
    const fromRunStart = afterDoubleDot <= runStart && is(runStart, HOST);
    if (fromRunStart && (runStart === 0 || !is(runStart - 1, BEFORE_URL))) return true;
    if (afterDash > runStart && afterDash >= afterDoubleDot) return true;
    if (fromRunStart && chars[runStart - 1] === '@' && userInfoBefore(runStart - 1)) return true;
  }
  return false;
}

/**
 * The original's link test for rating texts (a scheme, an IPv4 address or a host name): such
 * texts are saved but wait for a moderator. Written without open-ended repetition: one character
 * before the dot decides as well as a whole run of them would (`[0-9a-z%-]+` was only ever
 * tested for presence), and so do the first and last digits of an address. Every position is
 * tried in bounded time, so the test is linear in the length of the text.
 */
export const RATING_LINK =
  /:\/\/|\d\.\d{1,3}\.\d{1,3}\.\d|[0-9a-z%-]\.(?:com|net|org|info|biz|edu|gov|mil|int|io|app|dev|xyz|online|site|shop|store|top|club|[a-z]{2})(?![0-9a-z])/i;

export function hasRatingLink(text: string): boolean {
  return RATING_LINK.test(text);
}
