import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121073601_Catalogue } from './Migration20261121073601_Catalogue.js';
import { Migration20261121080000_CatalogueCache } from './Migration20261121080000_CatalogueCache.js';
import { Migration20261125101956_Lifecycle } from './Migration20261125101956_Lifecycle.js';
import { Migration20261125110034_SlugPattern } from './Migration20261125110034_SlugPattern.js';
import { Migration20261125110314_CacheTags } from './Migration20261125110314_CacheTags.js';
import { Migration20261125140000_CacheTagsText } from './Migration20261125140000_CacheTagsText.js';
import { Migration20261129030000_WideAppVersions } from './Migration20261129030000_WideAppVersions.js';
import { Migration20261129030300_PendingAuthors } from './Migration20261129030300_PendingAuthors.js';
import { Migration20261129030757_FilePermissions } from './Migration20261129030757_FilePermissions.js';
import { Migration20261129032000_TargetLocale } from './Migration20261129032000_TargetLocale.js';
import { Migration20261129064529_ListingContentReview } from './Migration20261129064529_ListingContentReview.js';
import { Migration20261129091700_Tags } from './Migration20261129091700_Tags.js';
import { Migration20261129093100_AppVersions } from './Migration20261129093100_AppVersions.js';

/** The catalogue module's migrations (all modules' run together, in the order of their names). */
export const catalogueMigrations: MigrationObject[] = [
  { name: 'Migration20261121073601_Catalogue', class: Migration20261121073601_Catalogue },
  { name: 'Migration20261121080000_CatalogueCache', class: Migration20261121080000_CatalogueCache },
  { name: 'Migration20261125101956_Lifecycle', class: Migration20261125101956_Lifecycle },
  { name: 'Migration20261125110034_SlugPattern', class: Migration20261125110034_SlugPattern },
  { name: 'Migration20261125110314_CacheTags', class: Migration20261125110314_CacheTags },
  { name: 'Migration20261125140000_CacheTagsText', class: Migration20261125140000_CacheTagsText },
  { name: 'Migration20261129030000_WideAppVersions', class: Migration20261129030000_WideAppVersions },
  { name: 'Migration20261129030300_PendingAuthors', class: Migration20261129030300_PendingAuthors },
  { name: 'Migration20261129030757_FilePermissions', class: Migration20261129030757_FilePermissions },
  { name: 'Migration20261129032000_TargetLocale', class: Migration20261129032000_TargetLocale },
  { name: 'Migration20261129064529_ListingContentReview', class: Migration20261129064529_ListingContentReview },
  { name: 'Migration20261129091700_Tags', class: Migration20261129091700_Tags },
  { name: 'Migration20261129093100_AppVersions', class: Migration20261129093100_AppVersions },
];
