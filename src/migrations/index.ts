import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121071440_Initial } from './Migration20261121071440_Initial.js';
import { Migration20261121073601_Catalogue } from './Migration20261121073601_Catalogue.js';
import { Migration20261121080000_CatalogueCache } from './Migration20261121080000_CatalogueCache.js';
import { Migration20261121081500_SearchIndexes } from './Migration20261121081500_SearchIndexes.js';
import { Migration20261121103104_Signing } from './Migration20261121103104_Signing.js';
import { Migration20261121111410_Collections } from './Migration20261121111410_Collections.js';
import { Migration20261121111639_Ratings } from './Migration20261121111639_Ratings.js';
import { Migration20261121120404_Accounts } from './Migration20261121120404_Accounts.js';
import { Migration20261125101956_Lifecycle } from './Migration20261125101956_Lifecycle.js';
import { Migration20261125110034_SlugPattern } from './Migration20261125110034_SlugPattern.js';
import { Migration20261125110314_CacheTags } from './Migration20261125110314_CacheTags.js';
import { Migration20261125140000_CacheTagsText } from './Migration20261125140000_CacheTagsText.js';
import { Migration20261125143801_ReviewerSubscriptions } from './Migration20261125143801_ReviewerSubscriptions.js';
import { Migration20261125144235_DraftComments } from './Migration20261125144235_DraftComments.js';
import { Migration20261125164132_PackageContents } from './Migration20261125164132_PackageContents.js';
import { Migration20261125171045_Shelves } from './Migration20261125171045_Shelves.js';
import { Migration20261125172012_Discovery } from './Migration20261125172012_Discovery.js';
import { Migration20261125171326_AbuseReports } from './Migration20261125171326_AbuseReports.js';
import { Migration20261125174627_SubmissionUploads } from './Migration20261125174627_SubmissionUploads.js';
import { Migration20261127112000_RandomSort } from './Migration20261127112000_RandomSort.js';
import { Migration20261127113000_RatingCacheTags } from './Migration20261127113000_RatingCacheTags.js';

/** Applied in order at start. Add each new migration here (npm run migration:create prints the line). */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121071440_Initial', class: Migration20261121071440_Initial },
  { name: 'Migration20261121073601_Catalogue', class: Migration20261121073601_Catalogue },
  { name: 'Migration20261121080000_CatalogueCache', class: Migration20261121080000_CatalogueCache },
  { name: 'Migration20261121081500_SearchIndexes', class: Migration20261121081500_SearchIndexes },
  { name: 'Migration20261121103104_Signing', class: Migration20261121103104_Signing },
  { name: 'Migration20261121111410_Collections', class: Migration20261121111410_Collections },
  { name: 'Migration20261121111639_Ratings', class: Migration20261121111639_Ratings },
  { name: 'Migration20261121120404_Accounts', class: Migration20261121120404_Accounts },
  { name: 'Migration20261125101956_Lifecycle', class: Migration20261125101956_Lifecycle },
  { name: 'Migration20261125110034_SlugPattern', class: Migration20261125110034_SlugPattern },
  { name: 'Migration20261125110314_CacheTags', class: Migration20261125110314_CacheTags },
  { name: 'Migration20261125140000_CacheTagsText', class: Migration20261125140000_CacheTagsText },
  { name: 'Migration20261125143801_ReviewerSubscriptions', class: Migration20261125143801_ReviewerSubscriptions },
  { name: 'Migration20261125144235_DraftComments', class: Migration20261125144235_DraftComments },
  { name: 'Migration20261125164132_PackageContents', class: Migration20261125164132_PackageContents },
  { name: 'Migration20261125171045_Shelves', class: Migration20261125171045_Shelves },
  { name: 'Migration20261125171326_AbuseReports', class: Migration20261125171326_AbuseReports },
  { name: 'Migration20261125172012_Discovery', class: Migration20261125172012_Discovery },
  { name: 'Migration20261125174627_SubmissionUploads', class: Migration20261125174627_SubmissionUploads },
  { name: 'Migration20261127112000_RandomSort', class: Migration20261127112000_RandomSort },
  { name: 'Migration20261127113000_RatingCacheTags', class: Migration20261127113000_RatingCacheTags },
];
