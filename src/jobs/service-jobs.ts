import type { QueueDefinitions } from './queue.port.js';

/**
 * The service's background jobs and their payloads. A job may be delivered more than once (after a
 * failure, an expiry or a crash), so every handler must be idempotent.
 */
export interface ServiceJobs {
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
  /** Refreshes one add-on's search document; send with `singletonKey: String(addonId)`. */
  'index-addon': { addonId: number };
  /**
   * Publishes the blocklist (`BlocklistPublisher`): a stash of what changed, or new base filters.
   * Send with `requestPublication` (`src/blocklist/publication-requests.ts`): what to publish is
   * read from the database, not the payload (`force`: jobs queued before the requests table).
   */
  'publish-blocklist': { force?: boolean };
  /** After signings (`BlocklistService.publishAfterSigning`, delayed): queues a `publish-blocklist`. */
  'publish-blocklist-later': Record<string, never>;
  /** One domain event for one subscriber (`src/events/domain-events.ts`); sent in the change's transaction. */
  'domain-event': {
    subscriber: string;
    event: { id: string; type: string; data: object; occurredAt: string; actorId: number | null };
  };
  /**
   * A run of one webhook endpoint (`WebhookRunner`): sends its due deliveries, one at a time. Send
   * with `WebhookRunner.wake` (`singletonKey` the endpoint's id: one queued run per endpoint).
   */
  'webhook-deliver': { endpointId: number };
  /** Mails a one-time sign-in link (`SigninLinksService.mailLink`): the id alone, the link is computed again. */
  'signin-link-mail': { linkId: string };
  /** Mails an add-on author invitation still pending (`AuthorInvitationMails.mail`). */
  'author-invitation-mail': { pendingId: number };
  /** Mails a new rating to the add-on's authors, or a first reply to the rating's author (`RatingMails.mail`). */
  'rating-mail': { ratingId: number };
  /** Mails a developer's support ticket to the support address (`SupportService.mail`), once. */
  'support-ticket-mail': { ticketId: number };
}

export const serviceQueues: QueueDefinitions<ServiceJobs> = {
  'validate-upload': { retryLimit: 3, retryDelaySeconds: 10, retryBackoff: true, expireInSeconds: 10 * 60 },
  'scan-version': { retryLimit: 3, retryDelaySeconds: 10, retryBackoff: true, expireInSeconds: 5 * 60 },
  'sign-version': { retryLimit: 5, retryDelaySeconds: 30, retryBackoff: true, expireInSeconds: 5 * 60 },
  // One waiting job per add-on: edits made before it runs are all picked up by that run.
  'index-addon': { policy: 'short', retryLimit: 5, retryDelaySeconds: 5, expireInSeconds: 5 * 60 },
  // One publication runs at a time, and one waits: changes made meanwhile are all picked up by it.
  'publish-blocklist': {
    policy: 'stately',
    retryLimit: 5,
    retryDelaySeconds: 30,
    retryBackoff: true,
    expireInSeconds: 15 * 60,
  },
  // One delayed job waits: the signings until it runs make one publication.
  'publish-blocklist-later': { policy: 'stately', retryLimit: 5, retryDelaySeconds: 30, expireInSeconds: 60 },
  'domain-event': { retryLimit: 10, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 5 * 60 },
  'webhook-deliver': {
    policy: 'short',
    retryLimit: 5,
    retryDelaySeconds: 30,
    retryBackoff: true,
    expireInSeconds: 3 * 60,
  },
  // A link lives minutes: past its expiry a retry sends nothing.
  'signin-link-mail': { retryLimit: 5, retryDelaySeconds: 10, retryBackoff: true, expireInSeconds: 2 * 60 },
  'author-invitation-mail': { retryLimit: 5, retryDelaySeconds: 30, retryBackoff: true },
  'rating-mail': { retryLimit: 5, retryDelaySeconds: 30, retryBackoff: true },
  'support-ticket-mail': { retryLimit: 5, retryDelaySeconds: 30, retryBackoff: true },
};
