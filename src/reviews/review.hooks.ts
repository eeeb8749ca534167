import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A stored validation report of an upload (the signing API's `validation_results`), as reviewers
 * get it: whole, as JSON; browsing reads only the linter's unknown minified files.
 */
export interface UploadValidation {
  metadata?: { unknownMinifiedFiles?: readonly string[] };
}

/**
 * Steps of the modules above reviews (`Hooks`): what reviewers read of the uploads versions came
 * from, provided by the module that stores uploads (signing). Without them a version has none.
 */
export interface ReviewHooks {
  /** The newest upload the version came from: its uuid and its validation (null until validated); null if none. */
  versionUpload(
    em: EntityManager,
    versionId: number,
  ): Promise<{ uuid: string; validation: UploadValidation | null } | null>;
  /** The validation of the newest validated upload the version came from; null if none. */
  versionValidation(em: EntityManager, versionId: number): Promise<UploadValidation | null>;
}
