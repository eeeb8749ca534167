import { join } from 'node:path';
import type { Config } from './config.js';
import { ImageRenderer } from './core/images.js';
import { OutgoingLinks } from './core/links.js';
import type { Logger } from './core/logger.js';
import type { Platform } from './core/module.js';
import { ResponseCache } from './core/response-cache.js';
import type { Keyring } from './core/secrets.js';
import { UploadSlots } from './core/upload-slots.js';
import type { Database } from './db/database.js';
import { DomainEvents, type DomainEventMap } from './events/domain-events.js';
import { createJobQueue } from './jobs/pg-boss.queue.js';
import type { QueueDefinitions } from './jobs/queue.port.js';
import type { ServiceJobs } from './jobs/service-jobs.js';
import { DirectoryMailer } from './mail/directory.mailer.js';
import type { Mailer } from './mail/mailer.port.js';
import { SmtpMailer } from './mail/smtp.mailer.js';
import { LocalStorage } from './storage/local.storage.js';
import { S3Storage } from './storage/s3.storage.js';
import type { Storage } from './storage/storage.port.js';

/** What every module is built on (`Platform`), from the configuration and the opened database. */
export function createPlatform(
  config: Config,
  logger: Logger,
  keyring: Keyring,
  db: Database,
  queues: QueueDefinitions<ServiceJobs>,
): Platform {
  const jobs = createJobQueue<ServiceJobs>(db, { queues, logger });
  const siteUrl = (config.SITE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  const siteHost = new URL(siteUrl).hostname;
  const from = config.MAIL_FROM ?? `no-reply@${siteHost}`;
  const mailer: Mailer = config.SMTP_URL
    ? new SmtpMailer(config.SMTP_URL, from, logger)
    : new DirectoryMailer(join(config.dataDir, 'mail', 'outbox'), from, logger);
  return {
    config,
    logger,
    keyring,
    db,
    jobs,
    events: new DomainEvents<DomainEventMap>(jobs),
    storage: createStorage(config, 'media'),
    files: createStorage(config, 'files'),
    mailer,
    images: new ImageRenderer({
      maxWaiting: config.IMAGE_RENDER_QUEUE,
      iconMaxPixels: config.ICON_MAX_MEGAPIXELS * 1_000_000,
      previewMaxPixels: config.PREVIEW_MAX_MEGAPIXELS * 1_000_000,
    }),
    responseCache: new ResponseCache(config.RESPONSE_CACHE_MB * 1024 * 1024),
    links: new OutgoingLinks(config.OUTGOING_URL, keyring.signer('outgoing-links')),
    uploadSlots: new UploadSlots(config.MAX_CONCURRENT_UPLOADS_PER_USER),
    siteUrl,
    siteHost,
  };
}

/** `DATA_DIR/<area>` by default; the `<area>/` prefix of the S3 bucket when STORAGE=s3. */
export function createStorage(config: Config, area: 'media' | 'files'): Storage {
  if (config.STORAGE === 's3') {
    return new S3Storage({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET!,
      prefix: area,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE ?? Boolean(config.S3_ENDPOINT),
      publicUrl: area === 'media' ? config.S3_PUBLIC_URL : undefined,
    });
  }
  return new LocalStorage(join(config.dataDir, area));
}
