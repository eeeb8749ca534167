/** What an audit log entry records (stored as these strings). */
export const ActivityAction = {
  ADDON_CREATED: 'addon_created',
  VERSION_SUBMITTED: 'version_submitted',
  VERSION_VALIDATED: 'version_validated',
  VERSION_SIGNED: 'version_signed',
  VERSION_APPROVED: 'version_approved',
  VERSION_REJECTED: 'version_rejected',
  VERSION_DELETED: 'version_deleted',
  /** A new version re-publishing an earlier approved one's package (the original's VERSION_ROLLBACK). */
  VERSION_ROLLBACK: 'version_rollback',
  REVIEW_APPROVED: 'review_approved',
  REVIEW_REJECTED: 'review_rejected',
  REVIEW_INFORMATION_REQUESTED: 'review_information_requested',
  REVIEW_COMMENTED: 'review_commented',
  DISABLED_BY_DEVELOPER: 'disabled_by_developer',
  ENABLED_BY_DEVELOPER: 'enabled_by_developer',
  DISABLED_BY_ADMIN: 'disabled_by_admin',
  ENABLED_BY_ADMIN: 'enabled_by_admin',
  DELETED: 'deleted',
  RESUBMISSION_DENIED: 'resubmission_denied',
  RESUBMISSION_ALLOWED: 'resubmission_allowed',
  PROMOTED: 'promoted',
  PROMOTION_CLEARED: 'promotion_cleared',
  /** The add-on's guid was blocked, its block changed, or the block removed (blocklist). */
  BLOCKED: 'blocked',
  BLOCK_EDITED: 'block_edited',
  UNBLOCKED: 'unblocked',
  /** A source code archive was attached to a version, or replaced (the original's SOURCE_CODE_UPLOADED). */
  SOURCE_CODE_UPLOADED: 'source_code_uploaded',
  /** An owner trusted a CI provider's OIDC tokens, or removed that trust (src/trusted-publishing/). */
  TRUSTED_PUBLISHER_ADDED: 'trusted_publisher_added',
  TRUSTED_PUBLISHER_REMOVED: 'trusted_publisher_removed',
  /** A CI provider's OIDC token was exchanged for a short-lived API key scoped to the add-on. */
  TRUSTED_PUBLISHING_KEY_ISSUED: 'trusted_publishing_key_issued',
  /** A content reviewer rejected the add-on's listing (status rejected) or approved it (the original's REJECT/APPROVE_LISTING_CONTENT). */
  LISTING_CONTENT_REJECTED: 'listing_content_rejected',
  LISTING_CONTENT_APPROVED: 'listing_content_approved',
  /** A developer asked for a new review of a rejected listing (the original's REJECTED_LISTING_REVIEW_REQUEST). */
  LISTING_REVIEW_REQUESTED: 'listing_review_requested',
  /** A developer disabled one version (its files) or enabled it again (v5 `is_disabled`). */
  VERSION_DISABLED_BY_DEVELOPER: 'version_disabled_by_developer',
  VERSION_ENABLED_BY_DEVELOPER: 'version_enabled_by_developer',
  /** A version's licence was set or its custom licence changed (the original's CHANGE_LICENSE). */
  VERSION_LICENSE_CHANGED: 'version_license_changed',
  /** A version's compatibility was set by its developer (the original's MAX_APPVERSION_UPDATED, per range). */
  VERSION_COMPATIBILITY_CHANGED: 'version_compatibility_changed',
} as const;
export type ActivityAction = (typeof ActivityAction)[keyof typeof ActivityAction];

export const ACTIVITY_ACTIONS: readonly ActivityAction[] = Object.values(ActivityAction);

/** Who switched an add-on off or on: its developer (`is_disabled_by_developer`) or the vendor's admins. */
export type DisabledBy = 'developer' | 'vendor';

/** The reviewer decisions the audit log records. */
export type ReviewDecisionKind = 'approve' | 'reject' | 'requestInformation' | 'comment';

/**
 * The lifecycle's domain events and their payloads. Published after commit through the job queue
 * (durable, at least once); subscribers are in the composition root (`src/services.ts`).
 */
export interface LifecycleEvents {
  /** An upload was accepted for validation. */
  'version.submitted': { addonId: number; uploadId: string; version: string; channel: number };
  /** Validation finished; a valid upload became `versionId`. */
  'version.validated': { addonId: number; uploadId: string; valid: boolean; versionId: number | null };
  'version.signed': { addonId: number; versionId: number };
  /** Approved (automatically or after a reviewer's approval, once signed). */
  'version.approved': { addonId: number; versionId: number; channel: number };
  'version.rejected': { addonId: number; versionId: number; channel: number };
  'version.deleted': { addonId: number; versionId: number };
  /** `versionId` was created from `fromVersionId`'s package by a rollback (signed and approved by the pipeline). */
  'version.rolled_back': { addonId: number; versionId: number; fromVersionId: number };
  /** A reviewer's decision, with the review note the authors are mailed. */
  'review.decided': { addonId: number; versionId: number; noteId: number; decision: ReviewDecisionKind };
  'addon.disabled': { addonId: number; by: DisabledBy };
  'addon.enabled': { addonId: number; by: DisabledBy };
  'addon.deleted': { addonId: number };
  /** The add-on's guid was blocked (`created`), its block changed (`edited`) or removed (`deleted`). */
  'addon.blocked': { addonId: number; change: 'created' | 'edited' | 'deleted'; soft: boolean | null };
  /** Promoted in `category` for `apps`, or no longer promoted (`category` null). */
  'addon.promoted': { addonId: number; category: number | null; apps: number[] };
  /** A content reviewer rejected the listing (`rejected`: true; the add-on leaves the public catalogue) or approved it. */
  'addon.listing_reviewed': { addonId: number; rejected: boolean };
}

export type LifecycleEventType = keyof LifecycleEvents;

/** Events that change what the public catalogue shows of the add-on (its search document). */
export const CATALOGUE_EVENTS: readonly LifecycleEventType[] = [
  'version.approved',
  'version.rejected',
  'version.deleted',
  'addon.disabled',
  'addon.enabled',
  'addon.deleted',
  'addon.promoted',
  'addon.listing_reviewed',
];

declare module '../../events/domain-events.js' {
  /** The lifecycle's events are the service's domain events. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventMap extends LifecycleEvents {}
}
