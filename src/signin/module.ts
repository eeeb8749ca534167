import { defineModule } from '../core/module.js';
import { signinPages } from './signin.pages.js';
import { signinMigrations } from './migrations/index.js';
import { signinSettings } from './settings.js';
import { createSigninServices } from './services.js';
import { accountsModule } from '../accounts/module.js';
import { authModule } from '../auth/module.js';
import { SigninAttempt, SigninLink, UserIdentity } from './signin.entities.js';
import { SigninLinksResolver } from './signin-links.resolver.js';
import { SigninResolver } from './signin.resolver.js';

declare module '../jobs/service-jobs.js' {
  interface ServiceJobs {
    /** Mails a one-time sign-in link (`SigninLinksService.mailLink`): the id alone, the link is computed again. */
    'signin-link-mail': { linkId: string };
  }
}

/** Signing in: OpenID Connect providers, one-time links by mail, and the sessions a user holds. */
export const signinModule = defineModule({
  name: 'signin',
  dependsOn: [authModule, accountsModule],
  settings: signinSettings,
  entities: [SigninAttempt, UserIdentity, SigninLink],
  resolvers: [SigninResolver, SigninLinksResolver],
  migrations: signinMigrations,
  services: createSigninServices,
  // The sign-in choice and the mailed links' pages (plain HTML).
  http: ({ signin, signinLinks }, { db, config }) => [
    {
      method: 'use',
      path: '/signin',
      handler: signinPages({
        signin,
        links: signinLinks,
        fork: () => db.fork(),
        siteUrl: config.SITE_URL,
        cookieDomain: config.SESSION_COOKIE_DOMAIN,
      }),
    },
  ],
  jobs: {
    // A link lives minutes: past its expiry a retry sends nothing.
    'signin-link-mail': {
      queue: { retryLimit: 5, retryDelaySeconds: 10, retryBackoff: true, expireInSeconds: 2 * 60 },
      handle: (services) => (job) => services.signinLinks.mailLink(job.data.linkId),
    },
  },
});

export type { SigninServices } from './services.js';
