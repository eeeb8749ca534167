import { z } from 'zod';
import { bool, ConfigError, list, type SettingsSlice, type SettingValues, urlWithProtocol } from '../core/settings.js';
import { parseSigninProviders, type SigninProvider } from './providers.js';

/**
 * Browser sign-in's settings (providers' own variables: src/signin/providers.ts);
 * composed with the others by src/config.ts.
 */
const shape = {
  /** Where users change their email at the account provider (v4 `idp_edit_email_url`). */
  IDP_EDIT_EMAIL_URL: urlWithProtocol(['http:', 'https:']).optional(),
  /**
   * OpenID Connect providers people sign in with (comma-separated names; each configured by
   * `OIDC_<NAME>_ISSUER`, `_CLIENT_ID`, `_CLIENT_SECRET`, …: src/signin/providers.ts).
   */
  SIGNIN_PROVIDERS: list.default([]),
  /** One-time sign-in links sent by mail (the sign-in of an install without a provider). */
  SIGNIN_EMAIL_LINKS: bool.default(true),
  /** Minutes a sign-in link stays usable. */
  SIGNIN_LINK_MINUTES: z.coerce.number().int().min(1).max(60).default(15),
};

declare module '../core/settings.js' {
  interface Settings extends SettingValues<typeof shape> {
    /** The providers SIGNIN_PROVIDERS names (src/signin/providers.ts). */
    signinProviders: SigninProvider[];
  }
}

export const signinSettings: SettingsSlice<typeof shape, { signinProviders: SigninProvider[] }> = {
  owner: 'signin',
  shape,
  derive: (values, env) => {
    const signin = parseSigninProviders(values.SIGNIN_PROVIDERS, env);
    if (signin.problems.length) throw new ConfigError(signin.problems);
    return { signinProviders: signin.providers };
  },
};
