import type { Platform } from '../core/module.js';
import type { AuthServices } from '../auth/services.js';
import type { CatalogueServices } from '../catalogue/services.js';
import type { ScannersServices } from '../scanners/services.js';
import type { ReviewsServices } from '../reviews/services.js';
import { join } from 'node:path';
import { DownloadsService } from './downloads.service.js';
import { UploadProcessor } from './upload-processor.js';
import { LazySigningTools } from './lazy-signing-tools.js';
import { UploadsService } from './uploads.service.js';
import { VersionSourceService } from './source.service.js';
import { RollbackService } from './rollback.service.js';
import { uploadValidations } from './upload-validations.js';

/** The signing module's services, from the platform and the modules it depends on. */
export function createSigningServices(
  platform: Platform,
  {
    auth,
    catalogue,
    reviews,
    scanners,
  }: {
    readonly auth: AuthServices;
    readonly catalogue: CatalogueServices;
    readonly scanners: ScannersServices;
    readonly reviews: ReviewsServices;
  },
) {
  const { config, db, files, jobs, keyring, logger, mailer, siteUrl } = platform;
  const { lifecycle } = catalogue;
  const signingTools = new LazySigningTools(config, keyring.box('signing-ca'), logger);
  reviews.reviewHooks.provide(uploadValidations);
  const uploads = new UploadsService(
    files,
    jobs,
    reviews.reviewFlags,
    lifecycle,
    {
      vendorName: config.VENDOR_NAME,
      browserName: config.BROWSER_NAME,
      vendorEmailDomains: config.VENDOR_EMAIL_DOMAINS.map((d) => d.toLowerCase()),
    },
    { dir: join(config.dataDir, 'tmp'), maxBytes: config.MAX_UPLOAD_MB * 1024 * 1024 },
  );
  return {
    uploads,
    signingTools,
    processor: new UploadProcessor(
      db,
      files,
      signingTools,
      jobs,
      reviews.reviewFlags,
      lifecycle,
      logger,
      scanners.scanners,
    ),
    rollback: new RollbackService(catalogue.catalogue, files, jobs, lifecycle, mailer, {
      siteUrl,
      serviceName: config.VENDOR_NAME,
    }),
    downloads: new DownloadsService(files),
    /** Who asks for a version's source (its downloads are not GraphQL operations). */
    authenticator: auth.authenticator,
    versionSources: new VersionSourceService(files, catalogue.catalogue, lifecycle, uploads, {
      tmpDir: join(config.dataDir, 'tmp'),
      maxBytes: config.MAX_SOURCE_UPLOAD_MB * 1024 * 1024,
    }),
  };
}

export type SigningServices = ReturnType<typeof createSigningServices>;
