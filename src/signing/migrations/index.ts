import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121103104_Signing } from './Migration20261121103104_Signing.js';
import { Migration20261125174627_SubmissionUploads } from './Migration20261125174627_SubmissionUploads.js';
import { Migration20261127223500_VersionSources } from './Migration20261127223500_VersionSources.js';
import { Migration20261129095500_VersionEdit } from './Migration20261129095500_VersionEdit.js';

/** The signing module's migrations (all modules' run together, in the order of their names). */
export const signingMigrations: MigrationObject[] = [
  { name: 'Migration20261121103104_Signing', class: Migration20261121103104_Signing },
  { name: 'Migration20261125174627_SubmissionUploads', class: Migration20261125174627_SubmissionUploads },
  { name: 'Migration20261127223500_VersionSources', class: Migration20261127223500_VersionSources },
  { name: 'Migration20261129095500_VersionEdit', class: Migration20261129095500_VersionEdit },
];
