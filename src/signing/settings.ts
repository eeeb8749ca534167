import { z } from 'zod';
import { list, type SettingsSlice, type SettingValues } from '../core/settings.js';

/**
 * Signing's settings: uploads, the linter workers, the signing CA;
 * composed with the others by src/config.ts.
 */
const shape = {
  /** Mail domains of the vendor's staff (comma-separated): they may use reserved guids and submit experiments. */
  VENDOR_EMAIL_DOMAINS: list.default([]),
  /** Largest version source code archive accepted, in MiB (the original's 200 MB); within MAX_UPLOAD_MB for REST multipart. */
  MAX_SOURCE_UPLOAD_MB: z.coerce.number().int().min(1).max(1024).default(200),
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
};

declare module '../core/settings.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Settings extends SettingValues<typeof shape> {}
}

export const signingSettings: SettingsSlice<typeof shape> = {
  owner: 'signing',
  shape,
  checks: [
    {
      key: 'SIGNING_CA_KEY_FILE',
      message: 'SIGNING_CA_CERT_FILE and SIGNING_CA_KEY_FILE go together',
      holds: (c) => !c.SIGNING_CA_CERT_FILE === !c.SIGNING_CA_KEY_FILE,
    },
  ],
};
