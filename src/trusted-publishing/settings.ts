import { z } from 'zod';
import { bool, list, type SettingsSlice, type SettingValues } from '../core/settings.js';

/** Trusted publishing's settings; composed with the others by src/config.ts. */
const shape = {
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
};

declare module '../core/settings.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Settings extends SettingValues<typeof shape> {}
}

export const trustedPublishingSettings: SettingsSlice<typeof shape> = { owner: 'trusted-publishing', shape };
