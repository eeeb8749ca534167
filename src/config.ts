import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { parseSigninProviders, type SigninProvider } from './signin/providers.js';

/**
 * Every setting the service reads from its environment, validated once at boot.
 * An invalid value stops the process with a message naming the variable.
 */
const urlWithProtocol = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
  );

const list = z.string().transform((v) =>
  v
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => ['true', '1', 'yes'].includes(v));

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

const schema = z.object({
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
  /** Where users change their email at the account provider (v4 `idp_edit_email_url`). */
  IDP_EDIT_EMAIL_URL: urlWithProtocol(['http:', 'https:']).optional(),
  /**
   * OpenID Connect providers people sign in with (comma-separated names; each configured by
   * `OIDC_<NAME>_ISSUER`, `_CLIENT_ID`, `_CLIENT_SECRET`, …: src/signin/providers.ts).
   */
  SIGNIN_PROVIDERS: list.default([]),
  /** Front-end origins sign-in may return to (`to=` URLs) and whose cookie-authenticated writes are accepted. */
  SIGNIN_RETURN_ORIGINS: list
    .refine((items) => items.every((o) => /^https?:\/\/[^/]+$/.test(o)), {
      message: 'must be comma-separated origins (scheme://host[:port], no path)',
    })
    .default([]),
  /** One-time sign-in links sent by mail (the sign-in of an install without a provider). */
  SIGNIN_EMAIL_LINKS: bool.default(true),
  /** Minutes a sign-in link stays usable. */
  SIGNIN_LINK_MINUTES: z.coerce.number().int().min(1).max(60).default(15),
  /**
   * Sessions must have proved a second factor (the provider's `amr`/`acr`) to upload, create API
   * keys, trusted publishers and webhooks; API keys and trusted publishing are not affected.
   */
  SIGNIN_REQUIRE_SECOND_FACTOR: bool.default(false),
  /** A session ends this long after it began (seconds; the original's 30 days). */
  SESSION_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .max(365 * 86_400)
    .default(30 * 86_400),
  /** …or after this long unused (seconds). */
  SESSION_IDLE_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .max(365 * 86_400)
    .default(14 * 86_400),
  /** `Domain` of the session cookies, for front-ends on sibling hosts (default: this host only). */
  SESSION_COOKIE_DOMAIN: z
    .string()
    .regex(/^\.?[a-z0-9.-]{1,253}$/i, 'must be a domain name')
    .optional(),
  /** `POST /accounts/super-create/` (test accounts for `Accounts:SuperCreate` holders): off unless enabled. */
  SUPER_CREATE_ENABLED: bool.default(false),
  /** Username of the vendor's own account, whose collections curators (Admin:Curation) manage. */
  VENDOR_COLLECTIONS_USER: z.string().min(1).default('vendor'),
  /** Slug of that account's featured-themes collection (Collections:Contribute may manage its add-ons). */
  VENDOR_FEATURED_THEMES_COLLECTION: z.string().min(1).default('featured-themes'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `GET /metrics` (Prometheus): `on` answers loopback callers, and others bearing METRICS_TOKEN; `off`: 404. */
  METRICS: z.enum(['on', 'off']).default('on'),
  /** Bearer token for scrapes from other hosts (`Authorization: Bearer <token>`); unset: loopback only. */
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').max(1000).optional(),
  GRAPHQL_INTROSPECTION: bool.default(true),
  /**
   * `GET /api/v5/services/client_info/` (GraphQL `clientInfo`): echoes the caller's address and
   * forwarding headers, for checking what the service sees behind proxies. Off (403) unless enabled.
   */
  CLIENT_INFO_ENABLED: bool.default(false),
  /** Proxies whose `X-Forwarded-*` headers are believed: false, a hop count, or addresses/CIDRs (see `trustProxy`). */
  TRUST_PROXY: trustProxy.default(false),
  SEARCH_ENGINE: z.enum(['postgres', 'meilisearch']).default('postgres'),
  /** Only this many search results are reachable by paging (the original's max_result_window). */
  SEARCH_MAX_RESULT_WINDOW: z.coerce.number().int().min(50).max(1_000_000).default(25_000),
  MEILI_URL: urlWithProtocol(['http:', 'https:']).optional(),
  MEILI_MASTER_KEY: z.string().min(1).optional(),
  MEILI_INDEX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, _ or -')
    .default('addons'),
  /** The vendor's name, in messages about trademarks and vendor-only packages. */
  VENDOR_NAME: z.string().min(1).default('Vendor'),
  /** Mail domains of the vendor's staff (comma-separated): they may use reserved guids and submit experiments. */
  VENDOR_EMAIL_DOMAINS: list.default([]),
  /** Run background jobs (validation, signing, indexing) in this process. */
  JOB_WORKERS: bool.default(true),
  /**
   * Web processes sharing the port (node:cluster), one per core is the usual choice. Needs
   * DATABASE_URL: the embedded database belongs to one process. Jobs run in the first one only.
   */
  WEB_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  /** Largest accepted upload, in MiB (the package's decompressed limits are checked separately). */
  MAX_UPLOAD_MB: z.coerce.number().int().min(1).max(1024).default(200),
  /** Largest version source code archive accepted, in MiB (the original's 200 MB); within MAX_UPLOAD_MB for REST multipart. */
  MAX_SOURCE_UPLOAD_MB: z.coerce.number().int().min(1).max(1024).default(200),
  /** Uploads one account may stream at once (REST and GraphQL multipart); one more is a 429. */
  MAX_CONCURRENT_UPLOADS_PER_USER: z.coerce.number().int().min(1).max(100).default(4),
  /** Image uploads that may wait for one of the process's 2 decoders; one more is a 429 with Retry-After. */
  IMAGE_RENDER_QUEUE: z.coerce.number().int().min(0).max(1000).default(8),
  /** Largest add-on icon or account picture accepted, in megapixels (stored as squares of 200 px at most). */
  ICON_MAX_MEGAPIXELS: z.coerce.number().int().min(1).max(100).default(16),
  /** Largest add-on preview accepted, in megapixels. */
  PREVIEW_MAX_MEGAPIXELS: z.coerce.number().int().min(1).max(100).default(50),
  /**
   * Reviewer browse and compare: a text file over BROWSE_CONTENT_MAX_KB is browsed without its
   * content; a diff with a side over BROWSE_DIFF_MAX_KB or BROWSE_DIFF_MAX_LINES lines (or a whole
   * replacement showing more lines) is answered as too large (binary, no hunks); at most
   * BROWSE_CONCURRENT_READS members are read whole at once per process (others wait).
   */
  BROWSE_CONTENT_MAX_KB: z.coerce.number().int().min(1).max(102_400).default(16_384),
  BROWSE_DIFF_MAX_KB: z.coerce.number().int().min(1).max(102_400).default(8_192),
  BROWSE_DIFF_MAX_LINES: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  BROWSE_CONCURRENT_READS: z.coerce.number().int().min(1).max(64).default(2),
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
  /** addons-linter worker processes, and the per-file limit in seconds. */
  VALIDATOR_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  VALIDATOR_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(110),
  /** A linter worker idle this long is stopped (~120 MB back); the next upload starts one (~1-2 s). 0: never. */
  VALIDATOR_IDLE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(120),
  /** A configured signing CA (PEM files); without them one is created in DATA_DIR/signing on first use. */
  SIGNING_CA_CERT_FILE: z.string().min(1).optional(),
  SIGNING_CA_KEY_FILE: z.string().min(1).optional(),
  /** Bits of a generated CA key, and signing keys kept ready. */
  SIGNING_CA_KEY_BITS: z.coerce
    .number()
    .int()
    .refine((n) => [2048, 3072, 4096].includes(n), 'must be 2048, 3072 or 4096')
    .default(4096),
  SIGNING_KEY_POOL: z.coerce.number().int().min(0).max(64).default(4),
  /** Inbound review replies (`POST /api/{v}/activity/mail/`): disabled (403) without a secret. */
  /**
   * Outgoing mail server (`smtp://user:pass@host:587`, `smtps://…:465`); unset: messages are written
   * to DATA_DIR/mail/outbox as .eml files.
   */
  SMTP_URL: urlWithProtocol(['smtp:', 'smtps:']).optional(),
  /** The From address of outgoing mail; default `no-reply@<SITE_URL's host>`. */
  MAIL_FROM: z.string().email().optional(),
  INBOUND_EMAIL_SECRET_KEY: z.string().min(1).optional(),
  /** Answered to the mail provider's `Type: "Validation"` probe. */
  INBOUND_EMAIL_VALIDATION_KEY: z.string().min(1).optional(),
  /** Client addresses allowed to post inbound mail (comma-separated; empty: any). */
  INBOUND_EMAIL_ALLOWED_IPS: list.default([]),
  /** Where developers' support tickets (`POST /api/v5/developers/support`) are mailed; default `support@<SITE_URL's host>`. */
  SUPPORT_EMAIL: z.string().email().optional(),
  /** Support tickets a user, and a client address, may send per day; one more is a 429. */
  SUPPORT_TICKETS_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(10),
  /**
   * When the developer agreement last changed (ISO 8601, e.g. `2025-08-04T00:00:00Z`): developers who
   * accepted it before must accept it again. Unset, or in the future: the original's fallback date,
   * 2019-12-02 12:00 UTC (a future date applies once it is reached).
   */
  DEVELOPER_AGREEMENT_CHANGED: z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date-time')
    .transform((v) => new Date(v))
    .optional(),
  /** Abuse reports a signed-in user, and a client address, may send per day; one more is a 429 (the original: 20). */
  ABUSE_REPORTS_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(20),
  /**
   * Open abuse reports about an add-on within 30 days that send it to human review (its waiting
   * versions due sooner, its next version not approved automatically); 0 turns this off.
   */
  ABUSE_REPORTS_REVIEW_THRESHOLD: z.coerce.number().int().min(0).max(1_000_000).default(10),
  /**
   * Seconds a publication of the blocklist waits after a version is signed, so that the signings of a
   * busy hour make one stash (block changes publish at once).
   */
  BLOCKLIST_PUBLISH_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /** Stash entries since the last base filters past which a publication builds new ones (the original: 5000). */
  BLOCKLIST_BASE_THRESHOLD: z.coerce.number().int().min(1).max(10_000_000).default(5_000),
  /** Reviewers may decide on versions of add-ons they are an author of (the original's ALLOW_SELF_REVIEWS). */
  ALLOW_SELF_REVIEWS: bool.default(false),
  /** Outgoing webhooks (src/webhooks/): the longest one attempt waits for an answer, in milliseconds. */
  WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /**
   * Seconds before each retry of a failed webhook delivery (comma-separated, fractions allowed); after
   * the last one the delivery is abandoned. Default: Standard Webhooks' schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).
   */
  WEBHOOKS_RETRY_SCHEDULE: list
    .transform((items) => items.map(Number))
    .refine((items) => items.length <= 20 && items.every((n) => Number.isFinite(n) && n >= 0 && n <= 7 * 86_400), {
      message: 'must be up to 20 comma-separated numbers of seconds (0 to 604800)',
    })
    .default([5, 300, 1800, 7200, 18_000, 36_000, 36_000]),
  /**
   * Milliseconds a webhook delivery waits before its first attempt, so that the events of one change
   * (signed and approved commit together) are all recorded and sent to an endpoint in their order.
   */
  WEBHOOKS_SEND_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /** Webhook attempts one process makes at once (each endpoint's are sent one at a time). */
  WEBHOOKS_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  /**
   * Deliveries an endpoint may have waiting (pending or failed); past it, an event's delivery is
   * recorded as dropped (in its log) and a test event or redelivery is refused.
   */
  WEBHOOKS_MAX_PENDING: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
  /** Consecutive failed attempts after which an endpoint is suspended until its owner resumes it. */
  WEBHOOKS_SUSPEND_AFTER_FAILURES: z.coerce.number().int().min(1).max(100_000).default(50),
  /** Test events (`sendTestWebhookEvent`), and redeliveries, a user may ask for per endpoint and hour. */
  WEBHOOKS_TEST_EVENTS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
  WEBHOOKS_REDELIVERIES_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(60),
  /** Webhook URLs may name hosts resolving to private, loopback or link-local addresses (development only). */
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: bool.default(false),
  /** Host names (exact, lower-case) webhook URLs may name whatever they resolve to (e.g. an internal relay). */
  WEBHOOKS_ALLOWED_HOSTS: list.default([]),
  /** Webhook URLs must be https (default: in production only). */
  WEBHOOKS_REQUIRE_HTTPS: bool.optional(),
  /**
   * Trusted publishing (src/trusted-publishing/): the OIDC issuers add-on owners may trust (exact
   * issuer URLs, comma-separated); only these are ever fetched. Default: GitHub Actions and GitLab.com.
   */
  TRUSTED_PUBLISHING_ISSUERS: list.default(['https://token.actions.githubusercontent.com', 'https://gitlab.com']),
  /** Listed issuers may be plain http (a local test issuer; development only). */
  TRUSTED_PUBLISHING_ALLOW_INSECURE_ISSUERS: bool.default(false),
  /** The `aud` a new trusted publisher expects by default; default: SITE_URL. */
  TRUSTED_PUBLISHING_AUDIENCE: z.string().min(1).max(255).optional(),
  /** Lifetime of a key issued for an OIDC token, in seconds (default 15 minutes). */
  TRUSTED_PUBLISHING_KEY_SECONDS: z.coerce.number().int().min(1).max(3600).default(900),
  /** Domain of `reviewreply+<uuid>@<domain>` addresses; default: SITE_URL's host name. */
  INBOUND_EMAIL_DOMAIN: z.string().min(1).optional(),
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
});

export type Config = z.infer<typeof schema> & {
  /** Absolute path of DATA_DIR. */
  dataDir: string;
  /** The providers SIGNIN_PROVIDERS names (src/signin/providers.ts). */
  signinProviders: SigninProvider[];
};

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the configuration from `env`; empty strings count as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const parsed = schema
    .refine((c) => c.SEARCH_ENGINE !== 'meilisearch' || c.MEILI_URL, {
      path: ['MEILI_URL'],
      message: 'is required when SEARCH_ENGINE=meilisearch',
    })
    .refine((c) => c.STORAGE !== 's3' || c.S3_BUCKET, {
      path: ['S3_BUCKET'],
      message: 'is required when STORAGE=s3',
    })
    .refine((c) => c.WEB_PROCESSES === 1 || c.DATABASE_URL, {
      path: ['WEB_PROCESSES'],
      message: 'above 1 needs DATABASE_URL (the embedded database belongs to one process)',
    })
    .refine((c) => !c.SIGNING_CA_CERT_FILE === !c.SIGNING_CA_KEY_FILE, {
      path: ['SIGNING_CA_KEY_FILE'],
      message: 'SIGNING_CA_CERT_FILE and SIGNING_CA_KEY_FILE go together',
    })
    .safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const key = issue.path.join('.');
        const shown = key in input ? ` (got ${JSON.stringify(input[key])})` : '';
        return `${key}: ${issue.message}${shown}`;
      }),
    );
  }
  const signin = parseSigninProviders(parsed.data.SIGNIN_PROVIDERS, env);
  if (signin.problems.length) throw new ConfigError(signin.problems);
  return { ...parsed.data, dataDir: resolve(parsed.data.DATA_DIR), signinProviders: signin.providers };
}
