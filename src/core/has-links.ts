/**
 * The original's "No links are allowed." test (bleach's linkify): an `<a href>` tag, or text that
 * reads as a URL, i.e. a host name ending in a known top-level domain, optionally with a scheme,
 * a port and a path. `localhost`, IP addresses, e-mail addresses and names such as `node.js` are
 * not links.
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
  .split(/\s+/)
  .sort((a, b) => b.length - a.length);

const PROTOCOLS =
  'ed2k|ftp|https?|irc|mailto|news|gopher|nntp|telnet|webcal|xmpp|callto|feed|urn|aim|rsync|tag|ssh|sftp|rtsp|afs|data';
const WORD = '[\\p{L}\\p{N}_]';

const TEXT_URL = new RegExp(
  `(?<![\\p{L}\\p{N}_@.])(?:(?:${PROTOCOLS}):/{0,3}(?:(?:${WORD}+:)?${WORD}+@)?)?` +
    `(?:[\\p{L}\\p{N}_-]+\\.)+(?:${TLDS.join('|')})(?::[0-9]+)?(?!\\.${WORD})(?!${WORD})`,
  'iu',
);
const ANCHOR = /<a\b[^>]*\bhref\s*=/i;

export function hasLinks(text: string): boolean {
  return ANCHOR.test(text) || TEXT_URL.test(text);
}
