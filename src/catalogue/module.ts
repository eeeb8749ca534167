import { defineModule } from '../core/module.js';
import { catalogueMigrations } from './migrations/index.js';
import { createCatalogueServices } from './services.js';
import { accountsModule } from '../accounts/module.js';
import { Addon, AddonUser } from './addon.entity.js';
import { PendingAuthor } from './pending-author.entity.js';
import { Category } from './category.entity.js';
import { DeniedGuid } from './denied-guid.entity.js';
import { License } from './license.entity.js';
import { FeaturedAddon, Preview } from './preview.entity.js';
import { AddonFile, Version, VersionCompat } from './version.entity.js';
import { AddonActivity } from './lifecycle/activity.entity.js';
import { AddonListingReview } from './lifecycle/listing-review.entity.js';
import { ListingReviewResolver } from './lifecycle/listing-review.resolver.js';
import { Tag } from './tag.entity.js';
import { AppVersion } from './app-versions/app-version.entity.js';
import { AppVersionsResolver } from './app-versions/app-versions.resolver.js';
import { CatalogueResolver } from './catalogue.resolver.js';
import { LanguageToolsResolver } from './language-tools.resolver.js';
import { TagsResolver } from './tags.resolver.js';
import { AddonAuthorResolver, AddonSummaryResolver } from './catalogue.summary.js';
import { FileResolver, LicenseResolver, PreviewResolver, VersionResolver } from './version.resolver.js';
import { ListingResolver } from './listing.resolver.js';
import { LifecycleResolver } from './lifecycle/lifecycle.resolver.js';
import { ScopedKeyAddonsResolver } from './scoped-key-addons.resolver.js';
// Implements accounts' statistics loader (accountStatsByUserId) over the catalogue's tables.
import './account-stats.js';

declare module '../jobs/service-jobs.js' {
  interface ServiceJobs {
    /** Mails an add-on author invitation still pending (`AuthorInvitationMails.mail`). */
    'author-invitation-mail': { pendingId: number };
  }
}

/**
 * Add-ons, versions, files, authors and categories, and the add-on lifecycle: the only writer of
 * status, visibility, deletion, promotion and version review state (it publishes the domain events).
 */
export const catalogueModule = defineModule({
  name: 'catalogue',
  dependsOn: [accountsModule],
  entities: [
    Addon,
    AddonUser,
    PendingAuthor,
    Category,
    License,
    Version,
    VersionCompat,
    AddonFile,
    Preview,
    FeaturedAddon,
    DeniedGuid,
    AddonActivity,
    AddonListingReview,
    Tag,
    AppVersion,
  ],
  resolvers: [
    CatalogueResolver,
    AddonSummaryResolver,
    AddonAuthorResolver,
    VersionResolver,
    LicenseResolver,
    FileResolver,
    PreviewResolver,
    ListingResolver,
    LifecycleResolver,
    ListingReviewResolver,
    LanguageToolsResolver,
    TagsResolver,
    AppVersionsResolver,
    ScopedKeyAddonsResolver,
  ],
  migrations: catalogueMigrations,
  services: createCatalogueServices,
  jobs: {
    'author-invitation-mail': {
      queue: { retryLimit: 5, retryDelaySeconds: 30, retryBackoff: true },
      handle: (services) => (job) => services.authorInvitations.mail(job.data.pendingId),
    },
  },
});

export type { CatalogueServices } from './services.js';
