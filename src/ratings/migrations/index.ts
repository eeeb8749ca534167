import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121111639_Ratings } from './Migration20261121111639_Ratings.js';
import { Migration20261127113000_RatingCacheTags } from './Migration20261127113000_RatingCacheTags.js';

/** The ratings module's migrations (all modules' run together, in the order of their names). */
export const ratingsMigrations: MigrationObject[] = [
  { name: 'Migration20261121111639_Ratings', class: Migration20261121111639_Ratings },
  { name: 'Migration20261127113000_RatingCacheTags', class: Migration20261127113000_RatingCacheTags },
];
