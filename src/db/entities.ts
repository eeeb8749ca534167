import { Group } from '../accounts/group.entity.js';
import { CacheTag } from './cache-tag.entity.js';
import { User } from '../accounts/user.entity.js';
import { ApiKey } from '../auth/api-key.entity.js';
import { JwtNonce } from '../auth/jwt-nonce.entity.js';
import { Session } from '../auth/session.entity.js';
import { SiteSetting } from '../site/site-setting.entity.js';
import { Addon, AddonUser } from '../catalogue/addon.entity.js';
import { Category } from '../catalogue/category.entity.js';
import { License } from '../catalogue/license.entity.js';
import { FeaturedAddon, Preview } from '../catalogue/preview.entity.js';
import { AddonFile, Version, VersionCompat } from '../catalogue/version.entity.js';
import { AddonReviewerFlags, ReviewNote, ReviewReplyToken } from '../reviews/review.entity.js';
import { ReviewerSubscription } from '../reviews/subscription.entity.js';
import { CannedResponse, DraftComment } from '../reviews/draft-comment.entity.js';
import { DeniedGuid } from '../catalogue/denied-guid.entity.js';
import { FileUpload } from '../signing/upload.entity.js';
import { Collection, CollectionAddon } from '../collections/collection.entity.js';
import { Rating, RatingFlag, RatingThrottle } from '../ratings/rating.entity.js';
import { UserNotification } from '../accounts/notification.entity.js';
import { PackageContents, PackageFileDiff } from '../reviews/browse/contents.entity.js';
import { AddonActivity } from '../catalogue/lifecycle/activity.entity.js';
import { AbuseReport, AbuseThrottle } from '../abuse/abuse-report.entity.js';
import { CurationLogEntry, PrimaryShelf, SecondaryShelf, SecondaryShelfModule } from '../shelves/shelf.entity.js';
import { DiscoveryItem } from '../shelves/discovery.entity.js';

/** Every entity, listed explicitly (no folder discovery: it breaks under Jest's ESM loader). */
export const entities = [
  User,
  Group,
  ApiKey,
  JwtNonce,
  Session,
  SiteSetting,
  Addon,
  AddonUser,
  Category,
  License,
  Version,
  VersionCompat,
  AddonFile,
  Preview,
  FeaturedAddon,
  CacheTag,
  FileUpload,
  DeniedGuid,
  ReviewNote,
  ReviewReplyToken,
  AddonReviewerFlags,
  ReviewerSubscription,
  CannedResponse,
  DraftComment,
  Collection,
  CollectionAddon,
  Rating,
  RatingFlag,
  RatingThrottle,
  UserNotification,
  AddonActivity,
  PackageContents,
  PackageFileDiff,
  AbuseReport,
  AbuseThrottle,
  PrimaryShelf,
  SecondaryShelf,
  SecondaryShelfModule,
  CurationLogEntry,
  DiscoveryItem,
];
