import type { DomainManifest } from '../core/domain.js';
import { AddonReviewerFlags, ReviewNote, ReviewReplyToken } from './review.entity.js';
import { ReviewerSubscription } from './subscription.entity.js';
import { CannedResponse, DraftComment } from './draft-comment.entity.js';
import { PackageContents, PackageFileDiff } from './browse/contents.entity.js';
import { ReviewsResolver } from './reviews.resolver.js';
import { NeedsHumanReview } from './human-review.js';
import { QueueStandingResolver } from './queue-standing.resolver.js';
import { DraftCommentsResolver } from './draft-comments.resolver.js';
import { VersionBrowseResolver } from './browse/browse.resolver.js';

export const reviewsManifest: DomainManifest = {
  name: 'reviews',
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
};
