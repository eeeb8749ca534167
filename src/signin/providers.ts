import { z } from 'zod';

/**
 * An OpenID Connect provider people sign in with, configured by environment variables:
 * `SIGNIN_PROVIDERS=keycloak,gitlab` names them, and each reads `OIDC_<NAME>_…` (the name upper-cased,
 * `-` as `_`): `ISSUER`, `CLIENT_ID`, `CLIENT_SECRET` (absent: a public client, PKCE alone),
 * `DISPLAY_NAME` (shown on the sign-in choice), `SCOPES`, `ACCOUNT_URL` (where people change their
 * email: the profile's `idp_edit_email_url`), and for the second factor `SECOND_FACTOR_AMR`,
 * `SECOND_FACTOR_ACR` (the `amr`/`acr` values that prove one) and `SECOND_FACTOR_REQUEST` (the
 * `acr_values` asked when one is required).
 */
export interface SigninProvider {
  readonly id: string;
  readonly displayName: string;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string | null;
  readonly scopes: string;
  readonly accountUrl: string | null;
  readonly secondFactorAmr: readonly string[];
  readonly secondFactorAcr: readonly string[];
  readonly secondFactorRequest: string | null;
}

/** RFC 8176 methods that are, or include, a factor beyond a password. */
export const DEFAULT_SECOND_FACTOR_AMR = ['mfa', 'otp', 'hwk', 'sms'];

const ID = /^[a-z][a-z0-9-]{0,31}$/;
const words = z
  .string()
  .transform((v) => v.split(/[\s,]+/).filter(Boolean))
  .refine((items) => items.length <= 20 && items.every((w) => w.length <= 100), 'at most 20 values of 100 characters');
const httpUrl = z
  .string()
  .url()
  .refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL');

const providerSchema = z.object({
  ISSUER: httpUrl.refine((v) => {
    const url = new URL(v);
    return url.protocol === 'https:' || isLoopback(url.hostname);
  }, 'must be https (http only on a loopback address)'),
  CLIENT_ID: z.string().min(1).max(255),
  CLIENT_SECRET: z.string().min(1).max(1000).optional(),
  DISPLAY_NAME: z.string().min(1).max(100).optional(),
  SCOPES: z.string().max(1000).default('openid email profile'),
  ACCOUNT_URL: httpUrl.optional(),
  SECOND_FACTOR_AMR: words.default(DEFAULT_SECOND_FACTOR_AMR),
  SECOND_FACTOR_ACR: words.default([]),
  SECOND_FACTOR_REQUEST: z.string().min(1).max(255).optional(),
});

export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127\./.test(hostname);
}

/** The providers `SIGNIN_PROVIDERS` names, read from `env`; problems as `KEY: message` lines. */
export function parseSigninProviders(
  names: readonly string[],
  env: NodeJS.ProcessEnv,
): { providers: SigninProvider[]; problems: string[] } {
  const providers: SigninProvider[] = [];
  const problems: string[] = [];
  for (const id of names) {
    if (!ID.test(id)) {
      problems.push(`SIGNIN_PROVIDERS: "${id}" is not a name of lower-case letters, digits and hyphens`);
      continue;
    }
    const prefix = `OIDC_${id.toUpperCase().replaceAll('-', '_')}_`;
    const input: Record<string, string> = {};
    for (const key of Object.keys(providerSchema.shape)) {
      const value = env[prefix + key];
      if (value !== undefined && value !== '') input[key] = value;
    }
    const parsed = providerSchema.safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${prefix}${issue.path.join('.')}: ${issue.message}`);
      continue;
    }
    const p = parsed.data;
    if (!p.SCOPES.split(/\s+/).includes('openid')) problems.push(`${prefix}SCOPES: must include openid`);
    providers.push({
      id,
      displayName: p.DISPLAY_NAME ?? id,
      issuer: p.ISSUER,
      clientId: p.CLIENT_ID,
      clientSecret: p.CLIENT_SECRET ?? null,
      scopes: p.SCOPES,
      accountUrl: p.ACCOUNT_URL ?? null,
      secondFactorAmr: p.SECOND_FACTOR_AMR,
      secondFactorAcr: p.SECOND_FACTOR_ACR,
      secondFactorRequest: p.SECOND_FACTOR_REQUEST ?? null,
    });
  }
  return { providers, problems };
}

/** Whether an ID token's claims prove a second factor, as the provider's settings say. */
export function provesSecondFactor(provider: SigninProvider, idToken: object): boolean {
  const claims = idToken as { amr?: unknown; acr?: unknown };
  const amr = Array.isArray(claims.amr) ? claims.amr.filter((v): v is string => typeof v === 'string') : [];
  if (amr.some((method) => provider.secondFactorAmr.includes(method))) return true;
  return typeof claims.acr === 'string' && provider.secondFactorAcr.includes(claims.acr);
}
