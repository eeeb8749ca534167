import { defineModule } from '../core/module.js';
import { reviewsMigrations } from './migrations/index.js';
import { reviewsSettings } from './settings.js';
import { createReviewsServices } from './services.js';
import { accountsModule } from '../accounts/module.js';
import { catalogueModule } from '../catalogue/module.js';
import type { LifecycleEvents } from '../catalogue/lifecycle/lifecycle.enums.js';
import { AddonReviewerFlags, ReviewNote, ReviewReplyToken } from './review.entity.js';
import { ReviewerSubscription } from './subscription.entity.js';
import { CannedResponse, DraftComment } from './draft-comment.entity.js';
import { PackageContents, PackageFileDiff } from './browse/contents.entity.js';
import { ReviewsResolver } from './reviews.resolver.js';
import { NeedsHumanReview } from './human-review.js';
import { QueueStandingResolver } from './queue-standing.resolver.js';
import { DraftCommentsResolver } from './draft-comments.resolver.js';
import { VersionBrowseResolver } from './browse/browse.resolver.js';

/**
 * Human review: queues, decisions and their mails, reviewer flags and subscriptions, draft
 * comments, browsing and comparing the files of versions.
 */
export const reviewsModule = defineModule({
  name: 'reviews',
  dependsOn: [accountsModule, catalogueModule],
  settings: reviewsSettings,
  entities: [
    ReviewNote,
    ReviewReplyToken,
    AddonReviewerFlags,
    ReviewerSubscription,
    CannedResponse,
    DraftComment,
    PackageContents,
    PackageFileDiff,
    NeedsHumanReview,
  ],
  resolvers: [ReviewsResolver, DraftCommentsResolver, VersionBrowseResolver, QueueStandingResolver],
  migrations: reviewsMigrations,
  services: createReviewsServices,
  subscribers: ({ reviews, reviewerSubscriptions }, _deps, { db }) => [
    {
      name: 'reviewer-subscriptions',
      on: ['version.validated'],
      handle: async (event) => {
        const { versionId } = event.data as LifecycleEvents['version.validated'];
        if (versionId !== null) await reviewerSubscriptions.notifyNewVersion(db.fork(), versionId);
      },
    },
    {
      name: 'review-mail',
      on: ['review.decided'],
      handle: (event) => reviews.mailDecision(db.fork(), (event.data as LifecycleEvents['review.decided']).noteId),
    },
  ],
});

export type { ReviewsServices } from './services.js';
