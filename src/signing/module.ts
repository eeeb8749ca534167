import { defineModule } from '../core/module.js';
import { publicDownload, sourceDownload, validationReport, validationReportJson } from './signing.http.js';
import { signingMigrations } from './migrations/index.js';
import { signingSettings } from './settings.js';
import { createSigningServices } from './services.js';
import { authModule } from '../auth/module.js';
import { catalogueModule } from '../catalogue/module.js';
import type { LifecycleEvents } from '../catalogue/lifecycle/lifecycle.enums.js';
import { reviewsModule } from '../reviews/module.js';
import { scannersModule } from '../scanners/module.js';
import { FileUpload } from './upload.entity.js';
import { SigningResolver } from './signing.resolver.js';
import { VersionSourceResolver } from './source.resolver.js';
import { VersionSource } from './version-source.entity.js';
import { RollbackResolver } from './rollback.resolver.js';
import { UploadListResolver } from './upload-list.resolver.js';
import { VersionEditResolver } from './version-edit.resolver.js';

declare module '../jobs/service-jobs.js' {
  interface ServiceJobs {
    /**
     * One pass over an upload's package, read once (`UploadProcessor.validateUpload`): addons-linter
     * and the scanners that read the package side by side, the results recorded on the upload; a
     * valid submitted upload's version, its scan and (automatic signing) its signature follow in the
     * same job. Sent in the upload's transaction.
     */
    'validate-upload': { uploadId: string };
    /**
     * Runs the scanners on a version made from an upload outside `validate-upload` (a v5 submission,
     * a rollback), then signs it when `sign` (automatic signing) and no scanner action stops it
     * (`UploadProcessor.scanAndSign`).
     */
    'scan-version': { versionId: number; sign: boolean };
    /** Signs an approved version's file. */
    'sign-version': { versionId: number };
  }
}

/** Uploads, their validation and scan, versions made from them, signing, rollbacks, downloads and version sources. */
export const signingModule = defineModule({
  name: 'signing',
  dependsOn: [authModule, catalogueModule, scannersModule, reviewsModule],
  settings: signingSettings,
  entities: [FileUpload, VersionSource],
  resolvers: [SigningResolver, RollbackResolver, VersionSourceResolver, VersionEditResolver, UploadListResolver],
  migrations: signingMigrations,
  services: createSigningServices,
  jobs: {
    // Each job is an upload's whole pass (lint and scan, version, signature): the linter's own pool
    // serialises linting, the rest (database, signing) overlaps.
    'validate-upload': {
      queue: { retryLimit: 3, retryDelaySeconds: 10, retryBackoff: true, expireInSeconds: 10 * 60 },
      work: { concurrency: 4 },
      handle: (services) => (job) => services.processor.validateUpload(job.data.uploadId),
    },
    'scan-version': {
      queue: { retryLimit: 3, retryDelaySeconds: 10, retryBackoff: true, expireInSeconds: 5 * 60 },
      handle: (services) => (job) => services.processor.scanAndSign(job.data.versionId, job.data.sign),
    },
    'sign-version': {
      queue: { retryLimit: 5, retryDelaySeconds: 30, retryBackoff: true, expireInSeconds: 5 * 60 },
      work: { concurrency: 2 },
      handle: (services) => (job) => services.processor.signVersion(job.data.versionId),
    },
  },
  subscribers: ({ rollback }, _deps, { db }) => [
    {
      name: 'rollback-mail',
      on: ['version.rolled_back'],
      handle: (event) => {
        const { versionId, fromVersionId } = event.data as LifecycleEvents['version.rolled_back'];
        return rollback.mailAuthors(db.fork(), versionId, fromVersionId);
      },
    },
  ],
  http: (services, { config, db }) => {
    const read = { ...services, config };
    return [
      { method: 'get', path: '/downloads/file/:id{/:name}', handler: publicDownload(read, db) },
      { method: 'get', path: '/downloads/source/:id', handler: sourceDownload(read, db) },
      { method: 'get', path: '/developers/upload/:uuid', handler: validationReport(read, db) },
      { method: 'get', path: '/developers/upload/:uuid/json', handler: validationReportJson(read, db) },
    ];
  },
  close: ({ signingTools }) => signingTools.close(),
});

export type { SigningServices } from './services.js';
