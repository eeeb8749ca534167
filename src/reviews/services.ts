import type { Platform } from '../core/module.js';
import type { AccountsServices } from '../accounts/services.js';
import type { CatalogueServices } from '../catalogue/services.js';
import { DEFAULT_ZIP_LIMITS } from '../archive/zip.js';
import { Hooks } from '../core/hooks.js';
import type { ReviewHooks } from './review.hooks.js';
import { ReviewFlagsService } from './review-flags.service.js';
import { ReviewsService } from './reviews.service.js';
import { ReviewMaterialAccess } from './review-material-access.js';
import { PackageContentsStore } from './browse/package-contents.js';
import { VersionBrowseService } from './browse/version-browse.service.js';
import { ReviewMailService } from './review-mail.service.js';
import { ReviewerSubscriptionsService } from './subscriptions.service.js';
import { DraftCommentsService } from './draft-comments.service.js';

/** The reviews module's services, from the platform and the modules it depends on. */
export function createReviewsServices(
  { config, jobs, files, mailer, siteUrl, siteHost }: Platform,
  { accounts, catalogue }: { readonly accounts: AccountsServices; readonly catalogue: CatalogueServices },
) {
  const reviewHooks = new Hooks<ReviewHooks>('reviews');
  const reviewFlags = new ReviewFlagsService(catalogue.catalogue);
  const reviewMaterialAccess = new ReviewMaterialAccess(catalogue.catalogue);
  const draftComments = new DraftCommentsService(reviewMaterialAccess);
  const reviews = new ReviewsService(
    catalogue.catalogue,
    jobs,
    reviewFlags,
    catalogue.lifecycle,
    mailer,
    {
      serviceName: config.VENDOR_NAME,
      replyDomain: config.INBOUND_EMAIL_DOMAIN ?? siteHost,
      siteUrl,
      allowSelfReviews: config.ALLOW_SELF_REVIEWS,
    },
    draftComments,
    reviewMaterialAccess,
  );
  return {
    reviewFlags,
    reviews,
    draftComments,
    reviewMail: new ReviewMailService(reviews, {
      secretKey: config.INBOUND_EMAIL_SECRET_KEY ?? null,
      validationKey: config.INBOUND_EMAIL_VALIDATION_KEY ?? '',
      allowedIps: config.INBOUND_EMAIL_ALLOWED_IPS,
    }),
    reviewerSubscriptions: new ReviewerSubscriptionsService(catalogue.catalogue, mailer, {
      siteUrl,
      serviceName: config.VENDOR_NAME,
    }),
    versionBrowse: new VersionBrowseService(
      reviewMaterialAccess,
      new PackageContentsStore(files, {
        // Any member an upload may hold can be read back (downloads); diffs and contents are bounded below.
        limits: { maxReadSize: DEFAULT_ZIP_LIMITS.maxEntrySize },
        diff: { maxBytes: config.BROWSE_DIFF_MAX_KB * 1024, maxLines: config.BROWSE_DIFF_MAX_LINES },
        concurrentReads: config.BROWSE_CONCURRENT_READS,
      }),
      { contentMax: config.BROWSE_CONTENT_MAX_KB * 1024 },
      reviewHooks,
    ),
    reviewHooks,
    /** A note's author, as the caller may see them. */
    accounts: accounts.accounts,
  };
}

export type ReviewsServices = ReturnType<typeof createReviewsServices>;
