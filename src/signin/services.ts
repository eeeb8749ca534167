import type { Platform } from '../core/module.js';
import type { AuthServices } from '../auth/services.js';
import type { AccountsServices } from '../accounts/services.js';
import { MySessions } from './my-sessions.js';
import { OidcClients } from './oidc-clients.js';
import { SigninService } from './signin.service.js';
import { SigninLinksService } from './signin-links.service.js';

/** The signin module's services, from the platform and the modules it depends on. */
export function createSigninServices(
  platform: Platform,
  { auth, accounts }: { readonly auth: AuthServices; readonly accounts: AccountsServices },
) {
  const { config, db, jobs, keyring, logger, mailer, siteUrl } = platform;
  const signin = new SigninService(
    {
      providers: config.signinProviders,
      trustedOrigins: config.SIGNIN_RETURN_ORIGINS,
      editEmailUrl: config.IDP_EDIT_EMAIL_URL ?? null,
    },
    new OidcClients(logger),
    auth.sessions,
    accounts.accounts,
    logger,
  );
  accounts.accountHooks.provide({ accountUrl: () => signin.accountUrl() });
  const signinLinks = new SigninLinksService(
    signin,
    auth.sessions,
    keyring.signer('signin-links'),
    mailer,
    async (tx, linkId) => {
      await jobs.send('signin-link-mail', { linkId }, { transaction: tx });
    },
    () => db.fork(),
    logger,
    {
      enabled: config.SIGNIN_EMAIL_LINKS,
      minutes: config.SIGNIN_LINK_MINUTES,
      siteUrl,
      serviceName: config.VENDOR_NAME,
    },
  );
  return { signin, signinLinks, mySessions: new MySessions(auth.sessions) };
}

export type SigninServices = ReturnType<typeof createSigninServices>;
