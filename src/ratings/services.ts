import type { Platform } from '../core/module.js';
import type { AccountsServices } from '../accounts/services.js';
import type { CatalogueServices } from '../catalogue/services.js';
import { RatingsService } from './ratings.service.js';
import { RatingMails } from './rating-mails.js';

/** The ratings module's services, from the platform and the modules it depends on. */
export function createRatingsServices(
  { config, db, jobs, mailer, siteUrl }: Platform,
  { accounts, catalogue }: { readonly accounts: AccountsServices; readonly catalogue: CatalogueServices },
) {
  const ratings = new RatingsService(catalogue.catalogue, jobs);
  accounts.accountHooks.provide({
    lockRatings: (em, userId) => ratings.lockUserRatings(em, userId),
    recountRatings: (em, addonIds) => ratings.recountAddons(em, addonIds),
  });
  return {
    ratings,
    /** Mails of new ratings and replies (the `rating-mail` job), under their notifications. */
    ratingMails: new RatingMails(
      () => db.fork(),
      mailer,
      accounts.unsubscribeCodes,
      (em, userId, name) => accounts.notifications.wants(em, userId, name),
      { siteUrl, serviceName: config.VENDOR_NAME },
    ),
    /** The rated add-on and version, and the rating's author, as the caller may see them. */
    catalogue: catalogue.catalogue,
    accounts: accounts.accounts,
  };
}

export type RatingsServices = ReturnType<typeof createRatingsServices>;
