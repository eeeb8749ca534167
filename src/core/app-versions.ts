/**
 * Application version ordering as the browser's toolkit compares them: dot-separated parts, each
 * `<number><string><number><rest>`; a missing part is `0`, `*` is infinite, `1+` means `2pre`, and a
 * part without a string sorts after one with a string (so `42.0a1` < `42.0`).
 */
interface VersionPart {
  a: number;
  b: string;
  c: number;
  d: string;
}

const PART = /^(-?\d*)(\+?)([^-+\d]*)(-?\d*)(.*)$/s;

function toNumber(digits: string): number {
  const value = Number.parseInt(digits, 10);
  return Number.isFinite(value) ? value : 0;
}

function parsePart(text: string): VersionPart {
  if (text === '*') return { a: Number.POSITIVE_INFINITY, b: '', c: 0, d: '' };
  const [, a = '', plus = '', b = '', c = '', d = ''] = PART.exec(text) ?? [];
  if (plus) return { a: toNumber(a) + 1, b: 'pre', c: 0, d: '' };
  return { a: toNumber(a), b, c: toNumber(c), d };
}

/** Empty strings sort last: a part without a pre-release tag is greater. */
function compareStrings(left: string, right: string): number {
  if (left === right) return 0;
  if (!left) return 1;
  if (!right) return -1;
  return left < right ? -1 : 1;
}

function compareParts(left: VersionPart, right: VersionPart): number {
  if (left.a !== right.a) return left.a < right.a ? -1 : 1;
  return compareStrings(left.b, right.b) || Math.sign(left.c - right.c) || compareStrings(left.d, right.d);
}

export function compareAppVersions(left: string, right: string): number {
  const leftParts = left.split('.');
  const rightParts = right.split('.');
  for (let i = 0; i < Math.max(leftParts.length, rightParts.length); i++) {
    const order = compareParts(parsePart(leftParts[i] ?? '0'), parsePart(rightParts[i] ?? '0'));
    if (order) return order;
  }
  return 0;
}

/** `>=42.0` and the like are read as the bare version, as the original does. */
export function simpleAppVersion(version: string): string {
  return version.replace(/[<=>]/g, '');
}
