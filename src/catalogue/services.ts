import type { Platform } from '../core/module.js';
import type { AccountsServices } from '../accounts/services.js';
import { CatalogueService } from './catalogue.service.js';
import { CategoriesService } from './categories.service.js';
import { ListingService } from './listing.service.js';
import { PreviewsService } from './previews.js';
import { AuthorInvitationMails } from './author-invitations.mail.js';
import { LanguageToolsService } from './language-tools.service.js';
import { TagsService } from './tags.service.js';
import { AppVersionsService } from './app-versions/app-versions.service.js';
import { ActivityService } from './lifecycle/activity.service.js';
import { AddonLifecycle } from './lifecycle/lifecycle.service.js';
import { LifecyclePolicy } from './lifecycle/lifecycle.policy.js';
import { DeleteConfirmations } from './lifecycle/delete-confirmation.js';
import { ListingContentReview } from './lifecycle/listing-review.service.js';

/** The catalogue module's services, from the platform and the modules it depends on. */
export function createCatalogueServices(platform: Platform, { accounts }: { readonly accounts: AccountsServices }) {
  const { config, keyring, db, jobs, events, storage, images, mailer, siteUrl } = platform;
  const catalogue = new CatalogueService();
  const categories = new CategoriesService();
  const lifecyclePolicy = new LifecyclePolicy(catalogue);
  const lifecycle = new AddonLifecycle(
    lifecyclePolicy,
    events,
    new DeleteConfirmations(keyring.signer('addon-delete-confirm')),
  );
  accounts.accountHooks.provide({
    deleteAddons: (em, userId, actorId) => lifecycle.deleteWithAccount(em, userId, actorId),
  });
  const listing = new ListingService(
    catalogue,
    categories,
    storage,
    (em, addonId) => jobs.send('index-addon', { addonId }, { singletonKey: String(addonId), transaction: em }),
    images,
    (em, pendingId) => jobs.send('author-invitation-mail', { pendingId }, { transaction: em }),
    lifecycle,
  );
  return {
    catalogue,
    categories,
    lifecycle,
    listing,
    previews: new PreviewsService(catalogue, listing),
    listingReview: new ListingContentReview(lifecyclePolicy, lifecycle),
    activity: new ActivityService(catalogue),
    authorInvitations: new AuthorInvitationMails(() => db.fork(), mailer, {
      siteUrl,
      serviceName: config.VENDOR_NAME,
    }),
    languageTools: new LanguageToolsService(),
    tags: new TagsService(),
    appVersions: new AppVersionsService(),
    /** An author's, a curator's public profile, as the caller may see it. */
    accounts: accounts.accounts,
  };
}

export type CatalogueServices = ReturnType<typeof createCatalogueServices>;
