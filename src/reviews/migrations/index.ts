import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261125143801_ReviewerSubscriptions } from './Migration20261125143801_ReviewerSubscriptions.js';
import { Migration20261125144235_DraftComments } from './Migration20261125144235_DraftComments.js';
import { Migration20261125164132_PackageContents } from './Migration20261125164132_PackageContents.js';
import { Migration20261127150000_DiffLineEndings } from './Migration20261127150000_DiffLineEndings.js';
import { Migration20261127182143_NeedsHumanReview } from './Migration20261127182143_NeedsHumanReview.js';

/** The reviews module's migrations (all modules' run together, in the order of their names). */
export const reviewsMigrations: MigrationObject[] = [
  { name: 'Migration20261125143801_ReviewerSubscriptions', class: Migration20261125143801_ReviewerSubscriptions },
  { name: 'Migration20261125144235_DraftComments', class: Migration20261125144235_DraftComments },
  { name: 'Migration20261125164132_PackageContents', class: Migration20261125164132_PackageContents },
  { name: 'Migration20261127150000_DiffLineEndings', class: Migration20261127150000_DiffLineEndings },
  { name: 'Migration20261127182143_NeedsHumanReview', class: Migration20261127182143_NeedsHumanReview },
];
