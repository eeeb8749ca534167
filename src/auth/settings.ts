import { z } from 'zod';
import { bool, list, type SettingsSlice, type SettingValues } from '../core/settings.js';

/**
 * Sessions' settings, read by the authenticator and the session cookies (the return origins by
 * sign-in too); composed with the others by src/config.ts.
 */
const shape = {
  /** Front-end origins sign-in may return to (`to=` URLs) and whose cookie-authenticated writes are accepted. */
  SIGNIN_RETURN_ORIGINS: list
    .refine((items) => items.every((o) => /^https?:\/\/[^/]+$/.test(o)), {
      message: 'must be comma-separated origins (scheme://host[:port], no path)',
    })
    .default([]),
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
};

declare module '../core/settings.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Settings extends SettingValues<typeof shape> {}
}

export const authSettings: SettingsSlice<typeof shape> = { owner: 'auth', shape };
