import type { Config } from './config.js';
import { join } from 'node:path';
import type { Database } from './db/database.js';
import { ListingService } from './catalogue/listing.service.js';
import { MeilisearchEngine } from './search/meilisearch.engine.js';
import { PostgresSearchEngine } from './search/postgres.engine.js';
import type { SearchEngine } from './search/search.port.js';
import { SearchService } from './search/search.service.js';
import { LocalStorage } from './storage/local.storage.js';
import { S3Storage } from './storage/s3.storage.js';
import type { Storage } from './storage/storage.port.js';
import type { Logger } from './core/logger.js';
import { OutgoingLinks } from './core/links.js';
import { UploadSlots } from './core/upload-slots.js';
import { ImageRenderer } from './core/images.js';
import type { Keyring } from './core/secrets.js';
import { AccountsService } from './accounts/accounts.service.js';
import { ApiKeysService } from './auth/api-keys.service.js';
import { Authenticator } from './auth/authenticator.js';
import { SessionsService } from './auth/sessions.service.js';
import { LanguageToolsService } from './catalogue/language-tools.service.js';
import { MySessions } from './signin/my-sessions.js';
import { OidcClients } from './signin/oidc-clients.js';
import { SigninService } from './signin/signin.service.js';
import { SigninLinksService } from './signin/signin-links.service.js';
import { AuthorInvitationMails } from './catalogue/author-invitations.mail.js';
import { SupportService } from './developers/support.service.js';
import { SiteService } from './site/site.service.js';
import { CatalogueService } from './catalogue/catalogue.service.js';
import { CategoriesService } from './catalogue/categories.service.js';
import { createJobQueue } from './jobs/pg-boss.queue.js';
import type { JobQueue } from './jobs/queue.port.js';
import { serviceQueues, type ServiceJobs } from './jobs/service-jobs.js';
import { DirectoryMailer } from './mail/directory.mailer.js';
import type { Mailer } from './mail/mailer.port.js';
import { SmtpMailer } from './mail/smtp.mailer.js';
import { ReviewFlagsService } from './reviews/review-flags.service.js';
import { ReviewsService } from './reviews/reviews.service.js';
import { ReviewMaterialAccess } from './reviews/review-material-access.js';
import { PackageContentsStore } from './reviews/browse/package-contents.js';
import { VersionBrowseService } from './reviews/browse/version-browse.service.js';
import { DEFAULT_ZIP_LIMITS } from './signing/package/zip.js';
import { ReviewMailService } from './reviews/review-mail.service.js';
import { ReviewerSubscriptionsService } from './reviews/subscriptions.service.js';
import { DraftCommentsService } from './reviews/draft-comments.service.js';
import { DownloadsService } from './signing/downloads.service.js';
import { UploadProcessor } from './signing/upload-processor.js';
import { ScannersService } from './scanners/scanners.service.js';
import { LazySigningTools } from './signing/lazy-signing-tools.js';
import { UploadsService } from './signing/uploads.service.js';
import { VersionSourceService } from './signing/source.service.js';
import { RollbackService } from './signing/rollback.service.js';
import { collectionsOptions } from './collections/collections.config.js';
import { CollectionsService } from './collections/collections.service.js';
import { CollectionItemsService } from './collections/collection-items.service.js';
import { CollectionAccess } from './collections/collections.access.js';
import { RatingsService } from './ratings/ratings.service.js';
import { NotificationsService } from './accounts/notifications.service.js';
import { UnsubscribeCodes } from './accounts/unsubscribe-codes.js';
import { RatingMails } from './ratings/rating-mails.js';
import { AppVersionsService } from './catalogue/app-versions/app-versions.service.js';
import { LabelledScannerResults } from './scanners/labelled-results.js';
import { DebugHelpers } from './site/debug-helpers.js';
import { ActivityService } from './catalogue/lifecycle/activity.service.js';
import { CATALOGUE_EVENTS, type LifecycleEvents } from './catalogue/lifecycle/lifecycle.enums.js';
import { AddonLifecycle } from './catalogue/lifecycle/lifecycle.service.js';
import { LifecyclePolicy } from './catalogue/lifecycle/lifecycle.policy.js';
import { DeleteConfirmations } from './catalogue/lifecycle/delete-confirmation.js';
import { ListingContentReview } from './catalogue/lifecycle/listing-review.service.js';
import { DomainEvents } from './events/domain-events.js';
import { ResponseCache } from './core/response-cache.js';
import { UpdatesService } from './updates/updates.service.js';
import { AbuseService } from './abuse/abuse.service.js';
import { BlocklistService } from './blocklist/blocklist.service.js';
import { BlocklistPublisher } from './blocklist/blocklist.publisher.js';
import { CurationLog } from './curation/curation-log.js';
import { ShelvesService } from './shelves/shelves.service.js';
import { HomeShelvesService } from './shelves/home-shelves.service.js';
import { DiscoveryService } from './discovery/discovery.service.js';
import { AddonRecommendationsService } from './discovery/addon-recommendations.js';
import { BrowserMappingsService } from './discovery/browser-mappings/browser-mappings.service.js';
import { ReplacementsService } from './discovery/replacements/replacements.service.js';
import { TagsService } from './catalogue/tags.service.js';
import { TokenExchangeService } from './trusted-publishing/token-exchange.service.js';
import { TrustedPublishersService } from './trusted-publishing/trusted-publishers.service.js';
import { WebhookDeliveriesService } from './webhooks/webhook-deliveries.service.js';
import { WebhookEndpointsService } from './webhooks/webhook-endpoints.service.js';
import { WEBHOOK_SOURCE_EVENTS } from './webhooks/webhook-events.js';

/** The service singletons. Each holds the rules of one domain; all take a RequestContext or an EntityManager. */
export interface Services {
  readonly config: Config;
  readonly logger: Logger;
  readonly links: OutgoingLinks;
  readonly site: SiteService;
  readonly accounts: AccountsService;
  readonly apiKeys: ApiKeysService;
  readonly sessions: SessionsService;
  readonly languageTools: LanguageToolsService;
  readonly signin: SigninService;
  /** One-time sign-in links by mail (SIGNIN_EMAIL_LINKS). */
  readonly signinLinks: SigninLinksService;
  readonly mySessions: MySessions;
  readonly authenticator: Authenticator;
  readonly catalogue: CatalogueService;
  readonly categories: CategoriesService;
  readonly search: SearchService;
  readonly listing: ListingService;
  /** Invitation mails to pending authors (the `author-invitation-mail` job). */
  readonly authorInvitations: AuthorInvitationMails;
  /** Developers' support tickets (kept, and mailed by the `support-ticket-mail` job). */
  readonly support: SupportService;
  /** Public media (icons, previews), served at /user-media/. */
  readonly storage: Storage;
  /** Add-on packages (uploads, signed files): never served directly. */
  readonly files: Storage;
  readonly jobs: JobQueue<ServiceJobs>;
  readonly reviewFlags: ReviewFlagsService;
  readonly uploads: UploadsService;
  readonly processor: UploadProcessor;
  /** Rolling back a release: an earlier approved version re-published under a new version string. */
  readonly rollback: RollbackService;
  /** The scanners run on every version made from an upload (YARA rules, secrets, look-alike names). */
  readonly scanners: ScannersService;
  readonly signingTools: LazySigningTools;
  readonly downloads: DownloadsService;
  /** Version source code archives: attached by authors, downloaded by authors and reviewers. */
  readonly versionSources: VersionSourceService;
  readonly reviews: ReviewsService;
  readonly reviewMail: ReviewMailService;
  readonly reviewerSubscriptions: ReviewerSubscriptionsService;
  readonly draftComments: DraftCommentsService;
  /** Reviewers browsing and comparing the files of versions. */
  readonly versionBrowse: VersionBrowseService;
  readonly mailer: Mailer;
  readonly collections: CollectionsService;
  /** The add-ons of collections. */
  readonly collectionItems: CollectionItemsService;
  readonly ratings: RatingsService;
  readonly notifications: NotificationsService;
  /** Mails of new ratings and replies (the `rating-mail` job), under their notifications. */
  readonly ratingMails: RatingMails;
  /** Debugging helpers (the original's `services/` endpoints). */
  readonly debug: DebugHelpers;
  /** The scanners' results labelled by what humans decided (the scanner results export). */
  readonly labelledScannerResults: LabelledScannerResults;
  /** The browser versions add-ons may name (registered by release automation). */
  readonly appVersions: AppVersionsService;
  readonly uploadSlots: UploadSlots;
  /** Image decoding (icons, previews, account pictures): one bounded queue, pixel limits per purpose. */
  readonly images: ImageRenderer;
  /** The only writer of add-on status, visibility, deletion, promotion and version review state. */
  readonly lifecycle: AddonLifecycle;
  readonly listingReview: ListingContentReview;
  /** The audit log's reads. */
  readonly activity: ActivityService;
  /** Durable domain events (job queue); subscribers are wired below. */
  readonly events: DomainEvents<LifecycleEvents>;
  /** Cached catalogue answers of REST and GraphQL (one memory budget, RESPONSE_CACHE_MB). */
  readonly responseCache: ResponseCache;
  /** The update service browsers ask about installed add-ons (`/update/`), its answers in `responseCache`. */
  readonly updates: UpdatesService;
  /** Abuse reports about add-ons and users, and their moderation. */
  readonly abuse: AbuseService;
  /** Blocks of add-on ids (Blocklist:Create, Blocklist:Submit, Reviews:Admin). */
  readonly blocklist: BlocklistService;
  /** The blocklist's publication for browsers (filter cascades and stashes). */
  readonly blocklistPublisher: BlocklistPublisher;
  /** Hero shelves and their curation (Admin:Curation). */
  readonly shelves: ShelvesService;
  /** Home page shelves (searches and collections) and their curation (Admin:Curation). */
  readonly homeShelves: HomeShelvesService;
  /** The curation log (shelves, discovery items). */
  readonly curationLog: CurationLog;
  /** The discovery pane, its editorial content and recommendations. */
  readonly discovery: DiscoveryService;
  /** Other add-ons to suggest on an add-on's page (the service's recommender, or the curated list). */
  readonly addonRecommendations: AddonRecommendationsService;
  /** Replacement add-ons: what replaces an add-on id no longer supported. */
  readonly replacements: ReplacementsService;
  /** Browser mappings: another browser's extensions and the add-ons that replace them. */
  readonly browserMappings: BrowserMappingsService;
  /** The tag list. */
  readonly tags: TagsService;
  /** Trusted publishing: the publishers owners trust (CI providers' OIDC issuers and claims)... */
  readonly trustedPublishers: TrustedPublishersService;
  /** ...and the exchange of their OIDC tokens for short-lived scoped API keys. */
  readonly tokenExchange: TokenExchangeService;
  /** Developers' webhook endpoints. */
  readonly webhookEndpoints: WebhookEndpointsService;
  /** The signed deliveries of webhook endpoints' events: recorded, attempted, retried; their logs. */
  readonly webhookDeliveries: WebhookDeliveriesService;
}

export function createServices(config: Config, logger: Logger, keyring: Keyring, db: Database): Services {
  const apiKeys = new ApiKeysService(keyring.box('api-key-secrets'));
  const sessions = new SessionsService(keyring.signer('session-tokens'), {
    maxAgeSeconds: config.SESSION_MAX_AGE_SECONDS,
    idleSeconds: config.SESSION_IDLE_SECONDS,
  });
  const catalogue = new CatalogueService();
  const jobs = createJobQueue<ServiceJobs>(db, { queues: serviceQueues, logger });
  const events = new DomainEvents<LifecycleEvents>(jobs);
  const lifecyclePolicy = new LifecyclePolicy(catalogue);
  const lifecycle = new AddonLifecycle(
    lifecyclePolicy,
    events,
    new DeleteConfirmations(keyring.signer('addon-delete-confirm')),
  );
  const categories = new CategoriesService();
  const curationLog = new CurationLog();
  const storage = createStorage(config, 'media');
  const ratings = new RatingsService(catalogue, jobs);
  const images = new ImageRenderer({
    maxWaiting: config.IMAGE_RENDER_QUEUE,
    iconMaxPixels: config.ICON_MAX_MEGAPIXELS * 1_000_000,
    previewMaxPixels: config.PREVIEW_MAX_MEGAPIXELS * 1_000_000,
  });
  const accounts = new AccountsService(apiKeys, storage, sessions, {
    images,
    superCreateEnabled: config.SUPER_CREATE_ENABLED,
    developerAgreementChanged: config.DEVELOPER_AGREEMENT_CHANGED ?? null,
    lockRatings: (em, userId) => ratings.lockUserRatings(em, userId),
    recountRatings: (em, addonIds) => ratings.recountAddons(em, addonIds),
    deleteAddons: (em, addonIds, actorId) => lifecycle.deleteWithAccount(em, addonIds, actorId),
  });
  const unsubscribeCodes = new UnsubscribeCodes(keyring.signer('unsubscribe-links'));
  const notifications = new NotificationsService(accounts, unsubscribeCodes);
  const search = new SearchService(
    createSearchEngine(config, db),
    categories,
    catalogue,
    config.SEARCH_MAX_RESULT_WINDOW,
  );
  const files = createStorage(config, 'files');
  const reviewFlags = new ReviewFlagsService(catalogue);
  const blocklist = new BlocklistService(lifecycle, jobs);
  const signingTools = new LazySigningTools(config, keyring.box('signing-ca'), logger);
  const scanners = new ScannersService(db, files, jobs, lifecycle, logger, {
    trademarks: [config.VENDOR_NAME, config.BROWSER_NAME],
  });
  const siteUrl = (config.SITE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  const siteHost = new URL(siteUrl).hostname;
  const from = config.MAIL_FROM ?? `no-reply@${siteHost}`;
  const mailer: Mailer = config.SMTP_URL
    ? new SmtpMailer(config.SMTP_URL, from, logger)
    : new DirectoryMailer(join(config.dataDir, 'mail', 'outbox'), from, logger);
  const uploads = new UploadsService(
    files,
    jobs,
    reviewFlags,
    lifecycle,
    {
      vendorName: config.VENDOR_NAME,
      browserName: config.BROWSER_NAME,
      vendorEmailDomains: config.VENDOR_EMAIL_DOMAINS.map((d) => d.toLowerCase()),
    },
    { dir: join(config.dataDir, 'tmp'), maxBytes: config.MAX_UPLOAD_MB * 1024 * 1024 },
  );
  const reviewMaterialAccess = new ReviewMaterialAccess(catalogue);
  const collectionAccess = new CollectionAccess(collectionsOptions(config));
  const draftComments = new DraftCommentsService(reviewMaterialAccess);
  const reviews = new ReviewsService(
    catalogue,
    jobs,
    reviewFlags,
    lifecycle,
    mailer,
    {
      serviceName: config.VENDOR_NAME,
      replyDomain: config.INBOUND_EMAIL_DOMAIN ?? siteHost,
      siteUrl,
      allowSelfReviews: config.ALLOW_SELF_REVIEWS,
    },
    draftComments,
    reviewMaterialAccess,
  );

  // Subscribers of the lifecycle's events (delivered from the job queue, after commit). Cached
  // answers need none: cache-tag triggers outdate them in the writing transaction.
  events.subscribe({
    name: 'search-index',
    on: CATALOGUE_EVENTS,
    handle: (event) => search.indexAddons([(event.data as { addonId: number }).addonId]),
  });
  const reviewerSubscriptions = new ReviewerSubscriptionsService(catalogue, mailer, {
    siteUrl,
    serviceName: config.VENDOR_NAME,
  });
  events.subscribe({
    name: 'reviewer-subscriptions',
    on: ['version.validated'],
    handle: async (event) => {
      const { versionId } = event.data as LifecycleEvents['version.validated'];
      if (versionId !== null) await reviewerSubscriptions.notifyNewVersion(db.fork(), versionId);
    },
  });
  events.subscribe({
    name: 'blocklist',
    on: ['version.signed'],
    handle: () => blocklist.publishAfterSigning(config.BLOCKLIST_PUBLISH_DELAY_SECONDS),
  });
  const webhookUrls = {
    allowPrivateNetworks: config.WEBHOOKS_ALLOW_PRIVATE_NETWORKS,
    allowedHosts: config.WEBHOOKS_ALLOWED_HOSTS.map((host) => host.toLowerCase()),
    requireHttps: config.WEBHOOKS_REQUIRE_HTTPS ?? config.NODE_ENV === 'production',
  };
  const webhookEndpoints = new WebhookEndpointsService(keyring.box('webhook-secrets'), webhookUrls);
  const webhookDeliveries = new WebhookDeliveriesService(webhookEndpoints, jobs, () => db.fork(), {
    ...webhookUrls,
    timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
    retrySchedule: config.WEBHOOKS_RETRY_SCHEDULE,
    sendDelayMs: config.WEBHOOKS_SEND_DELAY_MS,
    maxPending: config.WEBHOOKS_MAX_PENDING,
    suspendAfterFailures: config.WEBHOOKS_SUSPEND_AFTER_FAILURES,
    testEventsPerHour: config.WEBHOOKS_TEST_EVENTS_PER_HOUR,
    redeliveriesPerHour: config.WEBHOOKS_REDELIVERIES_PER_HOUR,
  });
  events.subscribe({
    name: 'webhooks',
    on: WEBHOOK_SOURCE_EVENTS,
    handle: (event) => webhookDeliveries.record(event),
  });
  events.subscribe({
    name: 'review-mail',
    on: ['review.decided'],
    handle: (event) => reviews.mailDecision(db.fork(), (event.data as LifecycleEvents['review.decided']).noteId),
  });
  const rollback = new RollbackService(catalogue, files, jobs, lifecycle, mailer, {
    siteUrl,
    serviceName: config.VENDOR_NAME,
  });
  events.subscribe({
    name: 'rollback-mail',
    on: ['version.rolled_back'],
    handle: (event) => {
      const { versionId, fromVersionId } = event.data as LifecycleEvents['version.rolled_back'];
      return rollback.mailAuthors(db.fork(), versionId, fromVersionId);
    },
  });
  const trustedPublishing = {
    issuers: config.TRUSTED_PUBLISHING_ISSUERS,
    allowInsecureIssuers: config.TRUSTED_PUBLISHING_ALLOW_INSECURE_ISSUERS,
    defaultAudience: config.TRUSTED_PUBLISHING_AUDIENCE ?? siteUrl,
    keySeconds: config.TRUSTED_PUBLISHING_KEY_SECONDS,
  };

  const signin = new SigninService(
    {
      providers: config.signinProviders,
      trustedOrigins: config.SIGNIN_RETURN_ORIGINS,
      editEmailUrl: config.IDP_EDIT_EMAIL_URL ?? null,
    },
    new OidcClients(logger),
    sessions,
    accounts,
    logger,
  );
  const signinLinks = new SigninLinksService(
    signin,
    sessions,
    keyring.signer('signin-links'),
    mailer,
    async (tx, linkId) => {
      await jobs.send('signin-link-mail', { linkId }, { transaction: tx });
    },
    () => db.fork(),
    logger,
    {
      enabled: config.SIGNIN_EMAIL_LINKS,
      minutes: config.SIGNIN_LINK_MINUTES,
      siteUrl,
      serviceName: config.VENDOR_NAME,
    },
  );

  const responseCache = new ResponseCache(config.RESPONSE_CACHE_MB * 1024 * 1024);
  return {
    config,
    logger,
    links: new OutgoingLinks(config.OUTGOING_URL, keyring.signer('outgoing-links')),
    site: new SiteService(),
    accounts,
    apiKeys,
    sessions,
    languageTools: new LanguageToolsService(),
    signin,
    signinLinks,
    mySessions: new MySessions(sessions),
    authenticator: new Authenticator(apiKeys, sessions, config.SIGNIN_REQUIRE_SECOND_FACTOR),
    catalogue,
    categories,
    search,
    listing: new ListingService(
      catalogue,
      categories,
      storage,
      (em, addonId) => jobs.send('index-addon', { addonId }, { singletonKey: String(addonId), transaction: em }),
      images,
      (em, pendingId) => jobs.send('author-invitation-mail', { pendingId }, { transaction: em }),
      lifecycle,
    ),
    authorInvitations: new AuthorInvitationMails(() => db.fork(), mailer, { siteUrl, serviceName: config.VENDOR_NAME }),
    support: new SupportService(
      () => db.fork(),
      mailer,
      (em, ticketId) => jobs.send('support-ticket-mail', { ticketId }, { transaction: em }),
      {
        ticketsPerDay: config.SUPPORT_TICKETS_PER_DAY,
        supportEmail: config.SUPPORT_EMAIL ?? `support@${siteHost}`,
        siteUrl,
        serviceName: config.VENDOR_NAME,
      },
    ),
    images,
    storage,
    files,
    jobs,
    reviewFlags,
    uploads,
    rollback,
    processor: new UploadProcessor(db, files, signingTools, jobs, reviewFlags, lifecycle, logger, scanners),
    scanners,
    signingTools,
    downloads: new DownloadsService(files),
    versionSources: new VersionSourceService(files, catalogue, lifecycle, uploads, {
      tmpDir: join(config.dataDir, 'tmp'),
      maxBytes: config.MAX_SOURCE_UPLOAD_MB * 1024 * 1024,
    }),
    reviews,
    reviewMail: new ReviewMailService(reviews, {
      secretKey: config.INBOUND_EMAIL_SECRET_KEY ?? null,
      validationKey: config.INBOUND_EMAIL_VALIDATION_KEY ?? '',
      allowedIps: config.INBOUND_EMAIL_ALLOWED_IPS,
    }),
    reviewerSubscriptions,
    draftComments,
    versionBrowse: new VersionBrowseService(
      reviewMaterialAccess,
      new PackageContentsStore(files, {
        // Any member an upload may hold can be read back (downloads); diffs and contents are bounded below.
        limits: { maxReadSize: DEFAULT_ZIP_LIMITS.maxEntrySize },
        diff: { maxBytes: config.BROWSE_DIFF_MAX_KB * 1024, maxLines: config.BROWSE_DIFF_MAX_LINES },
        concurrentReads: config.BROWSE_CONCURRENT_READS,
      }),
      { contentMax: config.BROWSE_CONTENT_MAX_KB * 1024 },
    ),
    mailer,
    collections: new CollectionsService(collectionAccess),
    collectionItems: new CollectionItemsService(catalogue, collectionAccess),
    ratings,
    notifications,
    ratingMails: new RatingMails(
      () => db.fork(),
      mailer,
      unsubscribeCodes,
      (em, userId, name) => notifications.wants(em, userId, name),
      { siteUrl, serviceName: config.VENDOR_NAME },
    ),
    appVersions: new AppVersionsService(),
    labelledScannerResults: new LabelledScannerResults(),
    debug: new DebugHelpers({ clientInfoEnabled: config.CLIENT_INFO_ENABLED }),
    uploadSlots: new UploadSlots(config.MAX_CONCURRENT_UPLOADS_PER_USER),
    lifecycle,
    listingReview: new ListingContentReview(lifecyclePolicy, lifecycle),
    activity: new ActivityService(catalogue),
    events,
    responseCache,
    updates: new UpdatesService(responseCache),
    blocklist,
    blocklistPublisher: new BlocklistPublisher(db, files, logger, { threshold: config.BLOCKLIST_BASE_THRESHOLD }),
    abuse: new AbuseService(catalogue, accounts, lifecycle, {
      reportsPerDay: config.ABUSE_REPORTS_PER_DAY,
      reviewThreshold: config.ABUSE_REPORTS_REVIEW_THRESHOLD,
    }),
    shelves: new ShelvesService(catalogue, curationLog),
    homeShelves: new HomeShelvesService(
      search,
      new CollectionItemsService(catalogue, collectionAccess),
      curationLog,
      collectionsOptions(config).vendorUsername,
    ),
    curationLog,
    discovery: new DiscoveryService(catalogue, curationLog),
    addonRecommendations: new AddonRecommendationsService(),
    replacements: new ReplacementsService(curationLog),
    browserMappings: new BrowserMappingsService(catalogue, curationLog),
    tags: new TagsService(),
    trustedPublishers: new TrustedPublishersService(catalogue, lifecycle, trustedPublishing),
    tokenExchange: new TokenExchangeService(apiKeys, lifecycle, catalogue, trustedPublishing),
    webhookEndpoints,
    webhookDeliveries,
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

/** PostgreSQL full-text by default; Meilisearch when SEARCH_ENGINE=meilisearch. */
export function createSearchEngine(config: Config, db: Database): SearchEngine {
  if (config.SEARCH_ENGINE === 'meilisearch') {
    return new MeilisearchEngine(db, {
      url: config.MEILI_URL!,
      apiKey: config.MEILI_MASTER_KEY,
      indexName: config.MEILI_INDEX,
    });
  }
  return new PostgresSearchEngine(db);
}
