import type { AnyRouteDefinition } from '../route.js';
import { accountRoutes } from './accounts.js';
import { catalogueRoutes } from './catalogue.js';
import { searchRoutes } from './search.js';
import { signingRoutes } from './signing.js';
import { reviewRoutes } from './reviews.js';
import { reviewerRoutes } from './reviewers.js';
import { reviewerBrowseRoutes } from './reviewer-browse.js';
import { siteRoutes } from './site.js';
import { collectionRoutes } from './collections.js';
import { ratingsRoutes } from './ratings.js';
import { abuseRoutes } from './abuse.js';
import { shelfRoutes } from './shelves.js';
import { discoveryRoutes } from './discovery.js';
import { submissionRoutes } from './submission.js';
import { blocklistRoutes } from './blocklist.js';
import { trustedPublishingRoutes } from './trusted-publishing.js';
import { signinRoutes } from './signin.js';
import { languageToolsRoutes } from './language-tools.js';
import { authorRoutes } from './authors.js';
import { addonEditRoutes } from './addon-edit.js';
import { openApiRoutes } from './openapi.js';
import { listingContentReviewRoutes } from './listing-content-review.js';
import { addonExtrasRoutes } from './addon-extras.js';
import { devhubVersionRoutes } from './devhub-versions.js';
import { developerRoutes } from './developers.js';
import { applicationRoutes } from './applications.js';
import { scannerRoutes } from './scanners.js';
import { servicesRoutes } from './services.js';

/** The whole route table (v3, v4, v5), and the v5 submission API's entries. Each domain contributes its entries. */
export const routes: readonly AnyRouteDefinition[] = [
  ...siteRoutes,
  ...accountRoutes,
  ...catalogueRoutes,
  ...searchRoutes,
  ...signingRoutes,
  ...reviewRoutes,
  ...reviewerRoutes,
  ...reviewerBrowseRoutes,
  ...collectionRoutes,
  ...ratingsRoutes,
  ...abuseRoutes,
  ...shelfRoutes,
  ...discoveryRoutes,
  ...submissionRoutes,
  ...blocklistRoutes,
  ...trustedPublishingRoutes,
  ...signinRoutes,
  ...languageToolsRoutes,
  ...authorRoutes,
  ...addonEditRoutes,
  ...openApiRoutes,
  ...listingContentReviewRoutes,
  ...devhubVersionRoutes,
  ...developerRoutes,
  ...addonExtrasRoutes,
  ...applicationRoutes,
  ...scannerRoutes,
  ...servicesRoutes,
];
