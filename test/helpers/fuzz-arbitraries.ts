import { createHmac } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { multipartBody, percentEncode, type MultipartPart } from './fuzz-http.js';

/** Text put into a JSON document as is: numbers JSON.stringify cannot write (400 digits, 1e400). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON text of `value`, with RawJson pieces verbatim (lone surrogates escaped, as JSON.stringify does). */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const MB = 1024 * 1024;

/** Nested 10,000 deep (or `depth`): arrays, objects, or both alternating. */
export function deepJsonText(depth = 10_000, kind: 'array' | 'object' | 'mixed' = 'array'): string {
  if (kind === 'array') return '['.repeat(depth) + ']'.repeat(depth);
  if (kind === 'object') return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  return '{"a":['.repeat(depth / 2) + '1' + ']}'.repeat(depth / 2);
}

const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff', 'a\ud800b', '\udc00\ud800'];

/** Strings that broke or slow down parsers, databases and regexes somewhere. */
export const HOSTILE_CONSTANTS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(8),
  '%00',
  'a%00b',
  ...LONE_SURROGATES,
  '%E0%A4%A',
  '%',
  '%%',
  '%zz',
  '%C0%AF',
  '%ED%A0%80',
  '%FF%FE',
  '..',
  '../../../../etc/passwd',
  '..%2F..%2F',
  '/',
  '//',
  '\\',
  '"',
  "'",
  "' OR '1'='1",
  "'; drop table users; --",
  '1; select pg_sleep(10)',
  '$1',
  '?',
  ';',
  '%s%s%s%n',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
  '<script>alert(1)</script>',
  '(a+)+$',
  '((((((((((',
  ')',
  '[',
  '*',
  '+',
  '.*',
  '^$',
  '\\d{100000}',
  'a'.repeat(5000) + '!',
  '-'.repeat(3000) + 'x',
  '@'.repeat(3000),
  'a@'.repeat(2000),
  ' '.repeat(2000) + 'x',
  'ab'.repeat(2000) + 'c',
  '\t\n\r\v\f',
  '\r\nX-Injected: 1',
  '\u202e\u202d',
  '\ufeff',
  '\uffff',
  '\ufffd',
  '\u2028\u2029',
  '😀',
  '👨‍👩‍👧‍👦',
  'é',
  'e\u0301',
  'İ',
  'ß',
  'ǅ',
  'ﷺ',
  '中文',
  'null',
  'undefined',
  'true',
  'false',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0',
  '-1',
  '1.5',
  '1e5',
  '1e309',
  '-1e309',
  '0x1F',
  ' 1',
  '1 ',
  '+1',
  '١٢٣',
  '9'.repeat(400),
  '-9223372036854775809',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '4294967296',
  '0.0000000000000000000001',
  'user:1:1',
  'firefox',
  'en-US',
  'en-US,fr;q=0.5',
  '*/*',
];

const HUGE_SIZES = [64 * 1024, 1 * MB, 2 * MB + 7];

export const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/** Hostile text: the constants above, random code points, control characters, combinations. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_CONSTANTS), weight: 8 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 2 },
  {
    arbitrary: fc
      .array(fc.oneof(fc.constantFrom(...HOSTILE_CONSTANTS.filter((s) => s.length < 50)), loneSurrogate), {
        minLength: 2,
        maxLength: 5,
      })
      .map((parts) => parts.join('')),
    weight: 3,
  },
  { arbitrary: fc.integer({ min: 100, max: 20_000 }).map((n) => 'x'.repeat(n)), weight: 1 },
);

/** Hostile text short enough for a URL or a header (the HTTP parser's 16 KB limit is tested on its own). */
export const shortHostile = hostileString.filter((s) => Buffer.byteLength(s) < 3000);

/** Rarely: strings of 64 KB to 2 MB. */
export const hugeString = fc.constantFrom(...HUGE_SIZES).map((n) => 'h'.repeat(n));

export const anyString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: hostileString, weight: 30 },
  { arbitrary: hugeString, weight: 1 },
);

/** Numbers as JSON or GraphQL text: edges of int32/int64/double, NaN, exponents, 400 digits. */
export const hostileNumberText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '0',
    '-0',
    '1',
    '-1',
    '2147483647',
    '2147483648',
    '-2147483648',
    '-2147483649',
    '9007199254740993',
    '9223372036854775808',
    '1.5',
    '-0.0',
    '1e3',
    '1E+2',
    '1e-7',
    '1e308',
    '1e400',
    '-1e400',
    '5e-324',
    '9'.repeat(400),
    '-' + '9'.repeat(400),
    '0.' + '0'.repeat(400) + '1',
  ),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
);

/** Numbers a JavaScript client could send (JSON.stringify turns NaN and Infinity into null). */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 2 ** 63, 1.5, 1e308, 5e-324, -1e-7),
  fc.integer(),
  fc.integer({ min: -5, max: 100 }),
  fc.double(),
);

const key = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'id', 'name', '__proto__', 'constructor', '', ' ', 'en-US', 'x'), weight: 2 },
  { arbitrary: hostileString, weight: 1 },
);

/** Any JSON value with hostile leaves, nested a little. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    { arbitrary: anyString, weight: 5 },
    { arbitrary: hostileNumber, weight: 3 },
    { arbitrary: hostileNumberText.map((t) => new RawJson(t)), weight: 1 },
    { arbitrary: fc.boolean(), weight: 1 },
    { arbitrary: fc.constant(null), weight: 1 },
    { arbitrary: fc.array(tie('value'), { maxLength: 4 }), weight: 2 },
    { arbitrary: fc.dictionary(key, tie('value'), { maxKeys: 4 }), weight: 2 },
  ),
})).value;

/** A JSON object over `fields` (names the route reads) plus a few unknown ones. */
export function jsonObjectOver(fields: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const known = fields.length ? fc.subarray([...fields]) : fc.constant([] as string[]);
  return fc.tuple(known, fc.array(fc.tuple(key, hostileJson), { maxLength: 2 })).chain(([names, extra]) =>
    fc.tuple(...names.map(() => hostileJson)).map((values) => {
      const object: Record<string, unknown> = {};
      names.forEach((name, i) => (object[name] = values[i]));
      for (const [k, v] of extra) object[k] = v;
      return object;
    }),
  );
}

export interface BodySpec {
  /** Null: no Content-Type header. */
  contentType: string | null;
  body: Buffer;
  headers?: [string, string][];
  /** What kind of body, for reports. */
  kind: string;
}

const MALFORMED_JSON = [
  '{',
  '{"a":',
  '{"a":1,',
  '[1,2',
  '{"a":"unterminated',
  "{'a':1}",
  '{a:1}',
  '{"a":1}}',
  '{"a":NaN}',
  '{"a":undefined}',
  '\u0000',
  '{"a":"\\ud800"}',
  '{"a":"\\uZZZZ"}',
  '{"a":"\\x41"}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '"a"',
  'null',
  '1e400',
  '[]',
  '{}',
  ' ',
  '\ufeff{}',
  '{"a":1,"a":2}',
];

const WRONG_TYPES = [
  'text/plain',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=foo',
  'application/json; charset=latin1',
  'application/merge-patch+json',
  'application/octet-stream',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary="unterminated',
  'multipart/mixed; boundary=x',
  'application/x-www-form-urlencoded; charset=utf-7',
  'application/json, text/plain',
  ';;;',
  '*/*',
  'application/graphql',
];

const json = (value: unknown) => Buffer.from(toJsonText(value));

/** Truncates text somewhere inside (a body cut by a dying client, then re-framed). */
const truncated = (text: fc.Arbitrary<string>) =>
  text.chain((t) => fc.integer({ min: 0, max: Math.max(0, t.length - 1) }).map((n) => t.slice(0, n)));

function multipartOf(fields: Record<string, unknown>, file: boolean, truncate: boolean, fileName: string) {
  const parts: MultipartPart[] = Object.entries(fields).map(([name, value]) => ({
    name: name.replace(/["\r\n]/g, '_'),
    data: typeof value === 'string' ? value : toJsonText(value),
  }));
  if (file || parts.length === 0) {
    parts.push({
      name: fileName,
      filename: 'fuzz.xpi',
      contentType: 'application/x-xpinstall',
      data: 'PK\u0003\u0004junk',
    });
  }
  return multipartBody(parts, { truncate });
}

/** Request bodies for a route reading `fields` (and `fileField` when it takes uploads). */
export function bodySpec(fields: readonly string[], fileField = 'upload'): fc.Arbitrary<BodySpec> {
  const object = jsonObjectOver(fields);
  return fc.oneof(
    {
      arbitrary: object.map((o): BodySpec => ({ contentType: 'application/json', body: json(o), kind: 'json object' })),
      weight: 10,
    },
    {
      arbitrary: hostileJson.map((v): BodySpec => ({
        contentType: 'application/json',
        body: json(v),
        kind: 'json value',
      })),
      weight: 3,
    },
    {
      arbitrary: fc
        .oneof(fc.constantFrom(...MALFORMED_JSON), truncated(object.map(toJsonText)))
        .map((t): BodySpec => ({ contentType: 'application/json', body: Buffer.from(t), kind: 'malformed json' })),
      weight: 3,
    },
    {
      arbitrary: fc
        .constantFrom(
          deepJsonText(10_000, 'array'),
          deepJsonText(10_000, 'object'),
          deepJsonText(10_000, 'mixed'),
          `{${fields.map((f) => `${JSON.stringify(f)}:${deepJsonText(10_000, 'array')}`).join(',')}}`,
          `{${fields.map((f) => `${JSON.stringify(f)}:${deepJsonText(10_000, 'object')}`).join(',')}}`,
        )
        .map((t): BodySpec => ({ contentType: 'application/json', body: Buffer.from(t), kind: 'deeply nested json' })),
      weight: 1,
    },
    {
      arbitrary: fc.tuple(object, fc.boolean()).map(([o, raw]): BodySpec => {
        const pairs = Object.entries(o).map(
          ([k, v]) => `${percentEncode(k)}=${raw && typeof v === 'string' ? v : percentEncode(printable(v))}`,
        );
        return {
          contentType: 'application/x-www-form-urlencoded',
          body: Buffer.from(pairs.join('&'), 'latin1'),
          kind: 'urlencoded',
        };
      }),
      weight: 2,
    },
    {
      arbitrary: fc.tuple(object, fc.boolean(), fc.boolean()).map(([o, file, truncate]): BodySpec => {
        const { contentType, body } = multipartOf(o, file, truncate, fileField);
        return { contentType, body, kind: truncate ? 'truncated multipart' : 'multipart' };
      }),
      weight: 3,
    },
    {
      arbitrary: fc
        .tuple(fc.constantFrom(...WRONG_TYPES, null), object)
        .map(([type, o]): BodySpec => ({ contentType: type, body: json(o), kind: `content-type ${type}` })),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(object, fc.constantFrom('gzip', 'deflate', 'br', 'x-unknown', 'gzip, gzip'))
        .map(([o, encoding]): BodySpec => ({
          contentType: 'application/json',
          // Half of a real gzip stream: a decoder error, not a parse error.
          body: encoding === 'gzip' ? gzipSync(json(o)).subarray(0, 12) : json(o),
          headers: [['Content-Encoding', encoding]],
          kind: `content-encoding ${encoding}`,
        })),
      weight: 1,
    },
    {
      arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes): BodySpec => ({
        contentType: 'application/json',
        body: Buffer.from(bytes),
        kind: 'random bytes',
      })),
      weight: 1,
    },
    {
      arbitrary: fc.constantFrom(2 * MB + 10, 3 * MB).map((n): BodySpec => ({
        contentType: 'application/json',
        body: Buffer.from(`{"a":"${'x'.repeat(n)}"}`),
        kind: 'over 2 MB',
      })),
      weight: 1,
    },
  );
}

/** A path segment as sent: a known value, a percent-encoded hostile one, or raw bad encodings. */
export function pathSegment(known: readonly string[]): fc.Arbitrary<string> {
  const raw = fc.constantFrom(
    '%E0%A4%A',
    '%00',
    'a%00',
    '%',
    '%zz',
    '%ED%A0%80',
    '%C0%AF',
    '%FF',
    '%2F',
    '%2e%2e',
    '..',
    '.',
    '%20',
    '+',
    ';',
    ';a=b',
    '%25',
    encodeURIComponent('é'),
    'é', // raw UTF-8 bytes on the wire (sent as latin1 characters below)
    '\u00ff',
    '9'.repeat(400),
    '-1',
    '0',
    '1.5',
    '1e5',
    '0x10',
    '2147483648',
    '%F0%9F%98%80',
  );
  return fc.oneof(
    { arbitrary: known.length ? fc.constantFrom(...known.map(percentEncode)) : fc.constant('1'), weight: 6 },
    { arbitrary: shortHostile.map(percentEncode), weight: 4 },
    { arbitrary: raw.map((s) => Buffer.from(s, 'utf8').toString('latin1')), weight: 3 },
    { arbitrary: fc.integer({ min: 1000, max: 6000 }).map((n) => 'p'.repeat(n)), weight: 1 },
  );
}

/** A query string over `names` (parameters the route reads) plus generic ones. */
export function queryString(names: readonly string[]): fc.Arbitrary<string> {
  const generic = ['page', 'page_size', 'lang', 'q', 'app', 'type', 'sort', 'format', 'wrap_outgoing_links'];
  const name = fc.oneof(
    { arbitrary: fc.constantFrom(...new Set([...names, ...generic])), weight: 6 },
    { arbitrary: shortHostile, weight: 1 },
    { arbitrary: fc.constantFrom('page[]', 'page[a]', '__proto__', '', '%', '%E0%A4%A'), weight: 1 },
  );
  const value = fc.oneof(
    { arbitrary: shortHostile.map(percentEncode), weight: 6 },
    { arbitrary: hostileNumberText, weight: 3 },
    {
      arbitrary: fc
        .constantFrom('%E0%A4%A', '%00', '%', '%zz', '%ED%A0%80', '+', '%2B', '&', '=', '1,2,3', 'a,,b', ',', 'é')
        .map((s) => Buffer.from(s, 'utf8').toString('latin1')),
      weight: 2,
    },
    { arbitrary: fc.integer({ min: 1000, max: 3000 }).map((n) => 'q'.repeat(n)), weight: 1 },
  );
  return fc
    .array(
      fc.tuple(name, value, fc.boolean()).map(([n, v, bare]) =>
        // Names from the pool are sent as they are (keys with brackets stay readable).
        bare ? percentEncode(n) : `${/^[\w[\]%.-]*$/.test(n) ? n : percentEncode(n)}=${v}`,
      ),
      { maxLength: 5 },
    )
    .map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));
}

/** Who a request claims to be. Valid tokens are made at send time (JWTs expire). */
export type CredentialSpec =
  | { kind: 'none' }
  | { kind: 'session'; who: string; scheme: 'Bearer' | 'Session' }
  | { kind: 'jwt'; who: string }
  | { kind: 'forged-jwt'; who: string; variant: ForgedJwt; hostile?: string }
  | { kind: 'raw'; value: string };

export type ForgedJwt =
  | 'alg-none'
  | 'expired'
  | 'future-iat'
  | 'too-long'
  | 'bad-signature'
  | 'hs512'
  | 'orig-iat'
  | 'string-claims'
  | 'object-claims'
  | 'jti-number'
  | 'hostile-iss'
  | 'hostile-jti'
  | 'huge-payload'
  | 'no-exp';

export interface Identities {
  sessions: Record<string, string>;
  apiKeys: Record<string, { key: string; secret: string }>;
}

/** Header values the HTTP parser accepts (no controls but tab); other characters as their UTF-8 bytes. */
export function headerSafe(text: string): string {
  const kept = [...text].filter((c) => c === '\t' || (c >= ' ' && c !== '\u007f')).join('');
  return Buffer.from(kept, 'utf8').toString('latin1');
}

const RAW_CREDENTIALS = [
  'JWT x.y.z',
  'JWT',
  'JWT ',
  'JWT a b',
  'JWT ..',
  'JWT e30.e30.',
  'JWT e30.e30.e30',
  'JWT ' + '.'.repeat(500),
  'JWT ' + 'A'.repeat(8000),
  'JWT eyJhbGciOiJub25lIn0.eyJpc3MiOiJ4In0.',
  'Bearer junk',
  'Bearer',
  'Bearer  ',
  'Bearer a b',
  'Session',
  'Session with some spaces',
  'Session  x',
  'bearer ' + 'B'.repeat(6000),
  "Bearer '--",
  'Bearer %00',
  'Bearer \u00ff\u00fe',
  'Basic dXNlcjpwYXNz',
  'Token abc',
  'Digest username="x"',
  '',
  ' ',
  ',',
  'JWT\tx.y.z',
];

export function credentialSpec(users: readonly string[]): fc.Arbitrary<CredentialSpec> {
  const who = fc.constantFrom(...users);
  return fc.oneof(
    { arbitrary: fc.constant<CredentialSpec>({ kind: 'none' }), weight: 4 },
    {
      arbitrary: fc
        .tuple(who, fc.constantFrom<('Bearer' | 'Session')[]>('Bearer', 'Session'))
        .map(([w, scheme]): CredentialSpec => ({ kind: 'session', who: w, scheme })),
      weight: 4,
    },
    { arbitrary: who.map((w): CredentialSpec => ({ kind: 'jwt', who: w })), weight: 4 },
    {
      arbitrary: fc
        .tuple(
          who,
          fc.constantFrom<ForgedJwt[]>(
            'alg-none',
            'expired',
            'future-iat',
            'too-long',
            'bad-signature',
            'hs512',
            'orig-iat',
            'string-claims',
            'object-claims',
            'jti-number',
            'hostile-iss',
            'hostile-jti',
            'huge-payload',
            'no-exp',
          ),
          shortHostile,
        )
        .map(([w, variant, hostile]): CredentialSpec => ({ kind: 'forged-jwt', who: w, variant, hostile })),
      weight: 3,
    },
    {
      arbitrary: fc
        .oneof(
          fc.constantFrom(...RAW_CREDENTIALS),
          fc
            .tuple(fc.constantFrom('JWT', 'Bearer', 'Session', 'jwt', 'BEARER'), shortHostile)
            .map(([s, v]) => `${s} ${v}`),
        )
        .map((v): CredentialSpec => ({ kind: 'raw', value: headerSafe(v) })),
      weight: 3,
    },
  );
}

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function signed(header: unknown, payload: unknown, secret: string, hash = 'sha256'): string {
  const head = `${b64(header)}.${b64(payload)}`;
  return `${head}.${createHmac(hash, secret).update(head).digest('base64url')}`;
}

/** The Authorization header value for `spec`, or null for none. */
export function authorization(spec: CredentialSpec, ids: Identities): string | null {
  const now = Math.floor(Date.now() / 1000);
  switch (spec.kind) {
    case 'none':
      return null;
    case 'raw':
      return spec.value;
    case 'session': {
      const token = ids.sessions[spec.who];
      return token ? `${spec.scheme} ${token}` : null;
    }
    case 'jwt': {
      const k = ids.apiKeys[spec.who];
      return k
        ? `JWT ${signed({ alg: 'HS256', typ: 'JWT' }, { iss: k.key, iat: now, exp: now + 60 }, k.secret)}`
        : null;
    }
    case 'forged-jwt': {
      const k = ids.apiKeys[spec.who] ?? { key: 'user:0:0', secret: 'nope' };
      const h = { alg: 'HS256', typ: 'JWT' };
      const claims = { iss: k.key, iat: now, exp: now + 60 };
      const hostile = spec.hostile ?? '';
      const token = (() => {
        switch (spec.variant) {
          case 'alg-none':
            return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
          case 'expired':
            return signed(h, { ...claims, iat: now - 3600, exp: now - 3000 }, k.secret);
          case 'future-iat':
            return signed(h, { ...claims, iat: now + 3600, exp: now + 3660 }, k.secret);
          case 'too-long':
            return signed(h, { ...claims, exp: now + 86_400 * 365 * 100 }, k.secret);
          case 'bad-signature':
            return signed(h, claims, 'not-the-secret');
          case 'hs512':
            return signed({ alg: 'HS512', typ: 'JWT' }, claims, k.secret, 'sha512');
          case 'orig-iat':
            return signed(h, { ...claims, orig_iat: now }, k.secret);
          case 'string-claims':
            return signed(h, { iss: k.key, iat: String(now), exp: `${now + 60}` }, k.secret);
          case 'object-claims':
            return signed(h, { iss: k.key, iat: { a: 1 }, exp: [now] }, k.secret);
          case 'jti-number':
            return signed(h, { ...claims, jti: 12 }, k.secret);
          case 'hostile-iss':
            return signed(h, { ...claims, iss: hostile }, k.secret);
          case 'hostile-jti':
            return signed(h, { ...claims, jti: hostile }, k.secret);
          case 'huge-payload':
            return signed(h, { ...claims, pad: 'p'.repeat(4000) }, k.secret);
          case 'no-exp':
            return signed(h, { iss: k.key, iat: now }, k.secret);
        }
      })();
      return `JWT ${token}`;
    }
  }
}

export function describeCredential(spec: CredentialSpec): string {
  switch (spec.kind) {
    case 'none':
      return 'no credentials';
    case 'session':
      return `${spec.scheme} <session of ${spec.who}>`;
    case 'jwt':
      return `JWT <valid, ${spec.who}>`;
    case 'forged-jwt':
      return `JWT <${spec.variant}${spec.hostile !== undefined && spec.variant.startsWith('hostile') ? `: ${JSON.stringify(spec.hostile).slice(0, 60)}` : ''}>`;
    case 'raw':
      return `Authorization: ${JSON.stringify(spec.value.slice(0, 80))}${spec.value.length > 80 ? `…(${spec.value.length})` : ''}`;
  }
}

/** Host header values `new URL()` refuses or that look odd; also sent by a fixed test to every endpoint. */
export const HOSTILE_HOSTS = [
  'a b',
  '[::1',
  'evil.example',
  'x:99999',
  '%',
  '',
  'localhost:0',
  '@',
  'a'.repeat(3000),
  'é',
];

/** Extra headers: hostile languages, hosts, forwarding, origins. */
export const extraHeaders: fc.Arbitrary<[string, string][]> = fc
  .array(
    fc.oneof(
      { arbitrary: shortHostile.map((v): [string, string] => ['Accept-Language', headerSafe(v)]), weight: 3 },
      {
        arbitrary: fc
          .constantFrom(
            'en-US',
            'fr',
            '*',
            'xx-YY;q=2',
            'en;q=NaN',
            ',,,',
            'a'.repeat(5000),
            'en-US;q=0.' + '9'.repeat(300),
          )
          .map((v): [string, string] => ['Accept-Language', v]),
        weight: 3,
      },
      { arbitrary: fc.constantFrom(...HOSTILE_HOSTS).map((v): [string, string] => ['Host', headerSafe(v)]), weight: 1 },
      { arbitrary: shortHostile.map((v): [string, string] => ['X-Forwarded-For', headerSafe(v)]), weight: 2 },
      {
        arbitrary: fc.constantFrom('null', 'http://evil.example', '*').map((v): [string, string] => ['Origin', v]),
        weight: 2,
      },
      {
        arbitrary: fc
          .constantFrom('application/xml', '*/*', 'text/html', '')
          .map((v): [string, string] => ['Accept', v]),
        weight: 2,
      },
    ),
    { maxLength: 2 },
  )
  .map((headers) => {
    // One Host header at most; a request with two is refused by the HTTP parser (tested on its own).
    const seen = new Set<string>();
    return headers.filter(([name]) => !seen.has(name) && Boolean(seen.add(name)));
  });

/** String(v), also for values without a prototype (String() throws on those). */
function printable(value: unknown): string {
  try {
    return String(value);
  } catch {
    return JSON.stringify(value) ?? '';
  }
}
