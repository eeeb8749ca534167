import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { bool, type SettingValues, type SettingsSlice, urlWithProtocol } from './settings.js';

/** Express's names for address ranges, accepted in a proxy list. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** An IP address, an address with a CIDR prefix (`10.0.0.0/8`, `fd00::/8`) or one of express's range names. */
function isProxyAddress(value: string): boolean {
  if (PROXY_RANGE_NAMES.includes(value)) return true;
  const [address, prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which peers may set `X-Forwarded-*` (express's `trust proxy`): no one (`false`, unset, `0`), the
 * nearest N hops (a number: the client is the address the outermost trusted proxy saw), or only
 * peers with these addresses. `true` (trust whatever any client sends) is refused.
 */
const trustProxy = z.string().transform((raw, ctx): false | number | string[] => {
  const value = raw.trim();
  if (['false', 'no'].includes(value.toLowerCase())) return false;
  if (/^\d+$/.test(value) && Number(value) <= 100) return Number(value) > 0 ? Number(value) : false;
  if (['true', 'yes'].includes(value.toLowerCase())) {
    ctx.addIssue({
      code: 'custom',
      message:
        'true would believe an X-Forwarded-For header sent by any client (forged client addresses); ' +
        'give the number of proxies in front of the service (e.g. 1) or their addresses ' +
        '(comma-separated IPs or CIDRs, e.g. 10.0.0.1,10.1.0.0/16), or false for none',
    });
    return z.NEVER;
  }
  const items = value.split(',').map((item) => item.trim());
  const bad = items.filter((item) => !isProxyAddress(item));
  if (bad.length) {
    ctx.addIssue({
      code: 'custom',
      message:
        'must be false, a number of proxies in front of the service (0-100) or their addresses ' +
        `(comma-separated IPs or CIDRs); not an address: ${bad.map((item) => JSON.stringify(item)).join(', ')}`,
    });
    return z.NEVER;
  }
  return items;
});

/** What no domain owns: process, network, database, storage, mail, images, limits of the APIs. */
const shape = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  DATABASE_URL: urlWithProtocol(['postgres:', 'postgresql:']).optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  DATA_DIR: z.string().min(1).default('./data'),
  SITE_URL: urlWithProtocol(['http:', 'https:'])
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  OUTGOING_URL: urlWithProtocol(['http:', 'https:'])
    .transform((v) => v.replace(/\/+$/, ''))
    .default('https://outgoing.example.org/v1'),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  BROWSER_NAME: z.string().min(1).default('Browser'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `GET /metrics` (Prometheus): `on` answers loopback callers, and others bearing METRICS_TOKEN; `off`: 404. */
  METRICS: z.enum(['on', 'off']).default('on'),
  /** Bearer token for scrapes from other hosts (`Authorization: Bearer <token>`); unset: loopback only. */
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').max(1000).optional(),
  GRAPHQL_INTROSPECTION: bool.default(true),
  /** Proxies whose `X-Forwarded-*` headers are believed: false, a hop count, or addresses/CIDRs (see `trustProxy`). */
  TRUST_PROXY: trustProxy.default(false),
  /** The vendor's name, in messages about trademarks and vendor-only packages. */
  VENDOR_NAME: z.string().min(1).default('Vendor'),
  /** Run background jobs (validation, signing, indexing) in this process. */
  JOB_WORKERS: bool.default(true),
  /**
   * Web processes sharing the port (node:cluster), one per core is the usual choice. Needs
   * DATABASE_URL: the embedded database belongs to one process. Jobs run in the first one only.
   */
  WEB_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  /** Largest accepted upload, in MiB (the package's decompressed limits are checked separately). */
  MAX_UPLOAD_MB: z.coerce.number().int().min(1).max(1024).default(200),
  /** Uploads one account may stream at once (REST and GraphQL multipart); one more is a 429. */
  MAX_CONCURRENT_UPLOADS_PER_USER: z.coerce.number().int().min(1).max(100).default(4),
  /** Image uploads that may wait for one of the process's 2 decoders; one more is a 429 with Retry-After. */
  IMAGE_RENDER_QUEUE: z.coerce.number().int().min(0).max(1000).default(8),
  /** Largest add-on icon or account picture accepted, in megapixels (stored as squares of 200 px at most). */
  ICON_MAX_MEGAPIXELS: z.coerce.number().int().min(1).max(100).default(16),
  /** Largest add-on preview accepted, in megapixels. */
  PREVIEW_MAX_MEGAPIXELS: z.coerce.number().int().min(1).max(100).default(50),
  /** Memory for cached REST answers, in MiB (least recently used answers are dropped past it). */
  RESPONSE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
  /**
   * `on`: pages of add-ons (search, autocomplete's siblings) are assembled from cached parts, one
   * per add-on and shape, kept in the answer cache (rest-compat/parts.ts); `off`: rendered whole
   * each time they are computed (the same bytes: tests compare the two).
   */
  ANSWER_PARTS: z.enum(['on', 'off']).default('on'),
  /**
   * How far V8 lets a process's heap grow past what survived its last full collection, in percent
   * (V8's `--heap-growing-percent`). 0 leaves V8's own rule, which lets a busy process grow to ~4x
   * its live heap (300-600 MB for a web process that keeps ~70 MB). Not a cap: a request that needs
   * more memory still gets it.
   */
  HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(1000).default(50),
  /**
   * A web process that has had no request for this many seconds after some did runs one full
   * garbage collection when its heap grew by more than 16 MB since the last one, giving memory back
   * (src/ops/idle-gc.ts); 0: never (V8's own memory reducer only).
   */
  IDLE_GC_SECONDS: z.coerce.number().int().min(0).max(3600).default(2),
  /** `Cache-Control: max-age` of shared catalogue answers, in seconds (0: clients and CDNs revalidate each time). */
  HTTP_CACHE_MAX_AGE: z.coerce.number().int().min(0).max(86_400).default(60),
  /** GraphQL documents past these limits are refused before execution (graphql-armor). */
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).max(100).default(12),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).max(1000).default(15),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).max(1_000_000).default(5000),
  /** At most 4000: past that a deeply nested document can overflow the parser's stack before the limit stops it. */
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(10).max(4000).default(2000),
  GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().min(0).max(1000).default(50),
  /**
   * Outgoing mail server (`smtp://user:pass@host:587`, `smtps://…:465`); unset: messages are written
   * to DATA_DIR/mail/outbox as .eml files.
   */
  SMTP_URL: urlWithProtocol(['smtp:', 'smtps:']).optional(),
  /** The From address of outgoing mail; default `no-reply@<SITE_URL's host>`. */
  MAIL_FROM: z.string().email().optional(),
  /** Where files and media live: `local` (DATA_DIR) or `s3` (an S3-compatible object store, shared by every process). */
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: urlWithProtocol(['http:', 'https:']).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style addressing (`endpoint/bucket/key`), as MinIO needs; default true when S3_ENDPOINT is set. */
  S3_FORCE_PATH_STYLE: bool.optional(),
  /** Public base URL of the bucket's `media/` objects (a CDN); without it the service serves them at /user-media/. */
  S3_PUBLIC_URL: urlWithProtocol(['http:', 'https:']).optional(),
};

declare module './settings.js' {
  interface Settings extends SettingValues<typeof shape> {
    /** Absolute path of DATA_DIR. */
    dataDir: string;
  }
}

export const platformSettings: SettingsSlice<typeof shape, { dataDir: string }> = {
  owner: 'platform',
  shape,
  checks: [
    {
      key: 'S3_BUCKET',
      message: 'is required when STORAGE=s3',
      holds: (c) => c.STORAGE !== 's3' || Boolean(c.S3_BUCKET),
    },
    {
      key: 'WEB_PROCESSES',
      message: 'above 1 needs DATABASE_URL (the embedded database belongs to one process)',
      holds: (c) => c.WEB_PROCESSES === 1 || Boolean(c.DATABASE_URL),
    },
  ],
  derive: (values) => ({ dataDir: resolve(values.DATA_DIR) }),
};
