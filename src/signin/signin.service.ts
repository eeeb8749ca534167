import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import * as client from 'openid-client';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { SessionsService } from '../auth/sessions.service.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { lengthProblem } from '../core/text-limits.js';
import { ownTransaction } from '../db/conflict-retries.js';
import type { OidcClients } from './oidc-clients.js';
import { provesSecondFactor, type SigninProvider } from './providers.js';
import { safeReturnTo, withError } from './return-to.js';
import { accountFor, SigninRefused, type SignedIdentity } from './signin-accounts.js';
import { SigninAttempt } from './signin.entities.js';
import { SIGNIN_TEXT_LIMITS } from './text-limits.js';

/** How long a started sign-in waits for the provider's answer. */
export const ATTEMPT_SECONDS = 600;
/** The callback's path (the provider's redirect URI is this under the site's URL). */
export const CALLBACK_PATH = '/api/v5/accounts/authenticate-callback/';
/** The sign-in choice page (`signin.pages.ts`). */
export const CHOICE_PATH = '/signin/';

export interface SigninOptions {
  providers: readonly SigninProvider[];
  trustedOrigins: readonly string[];
  /** IDP_EDIT_EMAIL_URL: where people change their email, whatever the provider. */
  editEmailUrl?: string | null;
}

export interface StartedSignin {
  /** The provider's authorization URL: where the browser goes now. */
  location: string;
  /** The secret the browser (its cookie) or the client keeps, and gives back with the callback. */
  binding: string;
}

/** A finished sign-in: the session's token and where the browser goes (with `?error=` when refused). */
export interface FinishedSignin {
  token: string | null;
  returnTo: string;
  error: string | null;
  newAccount: boolean;
  /** Seconds the session lasts at most (the cookie's age). */
  expiresIn: number;
}

/**
 * Browser sign-in through OpenID Connect providers (openid-client: authorization code with PKCE,
 * `state`, `nonce`; the ID token's signature, issuer, audience, expiry and nonce checked by the
 * library). `start` records the attempt and names the provider's URL; `finish` takes the attempt
 * (once), exchanges the code, finds or creates the account (`signin-accounts.ts`) and starts a
 * session, recording whether the sign-in proved a second factor.
 */
export class SigninService {
  constructor(
    private readonly options: SigninOptions,
    private readonly clients: OidcClients,
    private readonly sessions: SessionsService,
    private readonly accounts: AccountsService,
    private readonly logger: Logger,
  ) {}

  /** The configured providers, in their configured order. */
  providers(): readonly SigninProvider[] {
    return this.options.providers;
  }

  /**
   * Where people change their email (the profile's `idp_edit_email_url`): IDP_EDIT_EMAIL_URL, else
   * the account page of the one provider configured.
   */
  accountUrl(): string | null {
    const { editEmailUrl, providers } = this.options;
    return editEmailUrl ?? (providers.length === 1 ? providers[0]!.accountUrl : null);
  }

  provider(id: string | null | undefined): SigninProvider {
    const providers = this.options.providers;
    if (!id) {
      if (providers.length === 1) return providers[0]!;
      throw errors.field(
        'provider',
        providers.length ? 'Choose a sign-in provider.' : 'No sign-in provider is configured.',
      );
    }
    const found = lengthProblem(id, SIGNIN_TEXT_LIMITS.signinProvider) ? undefined : providers.find((p) => p.id === id);
    if (!found) throw errors.field('provider', `Unknown sign-in provider "${id.slice(0, 32)}".`);
    return found;
  }

  /** A path or URL the browser may return to (anything else: `/`). */
  returnTo(ctx: RequestContext, to: string | null | undefined): string {
    return safeReturnTo(to, new URL(ctx.request.baseUrl).origin, this.options.trustedOrigins);
  }

  async start(
    ctx: RequestContext,
    input: { provider?: string | null; preferredProvider?: string | null; to?: string | null; secondFactor?: boolean },
  ): Promise<StartedSignin> {
    const preferred = this.options.providers.find((p) => p.id === input.preferredProvider);
    if (!input.provider && preferred) input = { ...input, provider: preferred.id };
    if (!input.provider && this.options.providers.length !== 1) {
      // No provider named and no single one to take: the sign-in choice (providers, a link by mail).
      const choice = new URL(`${ctx.request.baseUrl}${CHOICE_PATH}`);
      choice.searchParams.set('to', this.returnTo(ctx, input.to));
      return { location: choice.href, binding: '' };
    }
    const provider = this.provider(input.provider);
    const config = await this.clients.get(provider);
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    const binding = randomBytes(32).toString('base64url');
    const secondFactor = input.secondFactor === true;
    await ctx.em.nativeDelete(SigninAttempt, { expiresAt: { $lt: new Date() } });
    ctx.em.create(SigninAttempt, {
      state,
      provider: provider.id,
      bindingHash: digest(binding),
      nonce,
      codeVerifier,
      returnTo: this.returnTo(ctx, input.to),
      secondFactor,
      expiresAt: new Date(Date.now() + ATTEMPT_SECONDS * 1000),
    });
    await ctx.em.flush();
    const parameters: Record<string, string> = {
      redirect_uri: ctx.request.baseUrl + CALLBACK_PATH,
      scope: provider.scopes,
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    };
    if (secondFactor) {
      // A new login at the provider, with the second factor asked for where it can be named.
      parameters.prompt = 'login';
      parameters.max_age = '0';
      if (provider.secondFactorRequest) parameters.acr_values = provider.secondFactorRequest;
    }
    return { location: client.buildAuthorizationUrl(config, parameters).href, binding };
  }

  /**
   * The provider's answer (`callbackUrl`: the whole URL it sent the browser to) with the binding the
   * browser kept: a session, or a refusal as an error code for the front-end.
   */
  async finish(ctx: RequestContext, callbackUrl: string, binding: string | null): Promise<FinishedSignin> {
    const url =
      lengthProblem(callbackUrl, SIGNIN_TEXT_LIMITS.signinCallbackUrl) || !URL.canParse(callbackUrl)
        ? null
        : new URL(callbackUrl);
    const state = url?.searchParams.get('state') ?? '';
    // Taken once: a second use of the same answer (a replayed code) finds nothing.
    const attempt = state.length <= 64 && state ? await this.takeAttempt(ctx.em, state) : null;
    const fallback = attempt?.returnTo ?? '/';
    try {
      if (!attempt || !url || !binding || !sameDigest(attempt.bindingHash, binding)) {
        throw new SigninRefused('ERROR_STATE_MISMATCH', 'This sign-in was not started by this browser, or it expired.');
      }
      const provider = this.provider(attempt.provider);
      if (url.searchParams.has('error')) {
        throw new SigninRefused(
          'ERROR_PROVIDER',
          `The provider answered ${url.searchParams.get('error')?.slice(0, 100)}.`,
        );
      }
      if (!url.searchParams.get('code')) throw new SigninRefused('ERROR_NO_CODE', 'The provider sent no code.');
      const identity = await this.exchange(ctx, provider, attempt, url);
      const { token, created } = await this.signIn(ctx, identity.who, identity.secondFactor);
      return {
        token,
        returnTo: attempt.returnTo,
        error: null,
        newAccount: created,
        expiresIn: this.sessions.maxAgeSeconds,
      };
    } catch (error) {
      if (!(error instanceof SigninRefused)) throw error;
      this.logger.info({ code: error.code, reason: error.message }, 'sign-in refused');
      return {
        token: null,
        returnTo: withError(fallback, error.code),
        error: error.code,
        newAccount: false,
        expiresIn: 0,
      };
    }
  }

  /**
   * The account of an identity (found, linked or created) and a new session of it, in one short
   * transaction; refused identities (`SigninRefused`) write nothing.
   */
  async signIn(
    ctx: RequestContext,
    who: SignedIdentity,
    secondFactor: boolean,
  ): Promise<{ token: string; created: boolean }> {
    return ownTransaction(ctx.em, async (tx) => {
      const { user, created } = await accountFor(tx, who, (em, email) => this.accounts.createUser(em, { email }));
      const { token } = await this.sessions.create(tx, user, new Date(), {
        origin: who.provider,
        secondFactor,
        userAgent: ctx.request.userAgent ?? null,
        ip: ctx.request.ip,
      });
      return { token, created };
    });
  }

  private async takeAttempt(em: EntityManager, state: string): Promise<SigninAttempt | null> {
    const rows = await em
      .getConnection()
      .execute<Record<string, unknown>[]>(
        'delete from signin_attempts where state = ? and expires_at > now() returning *',
        [state],
      );
    return rows[0] ? em.map(SigninAttempt, rows[0]) : null;
  }

  /** The code for tokens; the ID token checked by openid-client (signature, issuer, audience, nonce, expiry). */
  private async exchange(
    ctx: RequestContext,
    provider: SigninProvider,
    attempt: SigninAttempt,
    url: URL,
  ): Promise<{ who: SignedIdentity; secondFactor: boolean }> {
    const config = await this.clients.get(provider);
    let claims: client.IDToken;
    let accessToken: string;
    try {
      const tokens = await client.authorizationCodeGrant(
        config,
        url,
        {
          pkceCodeVerifier: attempt.codeVerifier,
          expectedState: attempt.state,
          expectedNonce: attempt.nonce,
          idTokenExpected: true,
        },
        { redirect_uri: ctx.request.baseUrl + CALLBACK_PATH },
      );
      claims = tokens.claims()!;
      accessToken = tokens.access_token;
    } catch (error) {
      this.logger.warn({ err: error, provider: provider.id }, 'OpenID Connect code exchange refused');
      throw new SigninRefused('ERROR_AUTHENTICATION_FAILED', 'The provider’s answer could not be verified.');
    }
    let email = typeof claims.email === 'string' ? claims.email : null;
    let verified = claims.email_verified === true;
    if (email === null) {
      try {
        const info = await client.fetchUserInfo(config, accessToken, claims.sub);
        email = typeof info.email === 'string' ? info.email : null;
        verified = info.email_verified === true;
      } catch (error) {
        this.logger.warn({ err: error, provider: provider.id }, 'OpenID Connect userinfo failed');
      }
    }
    return {
      who: { provider: provider.id, subject: claims.sub, email, emailVerified: verified },
      secondFactor: provesSecondFactor(provider, claims),
    };
  }
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function sameDigest(expected: string, binding: string): boolean {
  if (lengthProblem(binding, SIGNIN_TEXT_LIMITS.signinBinding)) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(digest(binding)));
}
