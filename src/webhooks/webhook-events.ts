import { channelName, type Channel } from '../catalogue/catalogue.enums.js';
import type { LifecycleEvents } from '../catalogue/lifecycle/lifecycle.enums.js';
import type { DomainEvent } from '../events/domain-events.js';

/**
 * The events an endpoint may ask for (public names, docs/api.md "Webhooks"), in the order one version
 * goes through them: events of the same instant (signed and approved commit together) are sent in
 * this order (their `rank`).
 */
export const WEBHOOK_EVENT_TYPES = [
  'version.submitted',
  'version.rolled_back',
  'version.validated',
  'version.signed',
  'version.approved',
  'version.rejected',
  'version.information_requested',
  'addon.disabled',
  'addon.blocked',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent by `sendTestWebhookEvent` only, to any endpoint whatever events it asked for. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The lifecycle events the webhooks subscriber listens to. */
export const WEBHOOK_SOURCE_EVENTS: readonly (keyof LifecycleEvents)[] = [
  'version.submitted',
  'version.rolled_back',
  'version.validated',
  'version.signed',
  'version.approved',
  'version.rejected',
  'review.decided',
  'addon.disabled',
  'addon.blocked',
];

/** What a lifecycle event says, as a webhook: its public type, add-on, version and extra fields. */
export interface WebhookFacts {
  type: WebhookEventType;
  rank: number;
  addonId: number;
  versionId: number | null;
  /** Known from the event itself (a submitted upload has no version row yet). */
  version: { version: string; channel: string } | null;
  extra: Record<string, unknown>;
}

/** The webhook one lifecycle event makes, or null (not one of `WEBHOOK_EVENT_TYPES`). */
export function webhookFacts(event: DomainEvent<LifecycleEvents>): WebhookFacts | null {
  const facts = (type: WebhookEventType, addonId: number, versionId: number | null, extra = {}, version = null) => ({
    type,
    rank: WEBHOOK_EVENT_TYPES.indexOf(type),
    addonId,
    versionId,
    version,
    extra,
  });
  switch (event.type) {
    case 'version.submitted': {
      const d = event.data as LifecycleEvents['version.submitted'];
      return {
        ...facts('version.submitted', d.addonId, null, { uploadId: d.uploadId }),
        version: { version: d.version, channel: channelName(d.channel as Channel) },
      };
    }
    case 'version.rolled_back': {
      const d = event.data as LifecycleEvents['version.rolled_back'];
      return facts('version.rolled_back', d.addonId, d.versionId, { fromVersionId: d.fromVersionId });
    }
    case 'version.validated': {
      const d = event.data as LifecycleEvents['version.validated'];
      return facts('version.validated', d.addonId, d.versionId, { uploadId: d.uploadId, valid: d.valid });
    }
    case 'version.signed':
    case 'version.approved':
    case 'version.rejected': {
      const d = event.data as LifecycleEvents['version.signed'];
      return facts(event.type, d.addonId, d.versionId);
    }
    case 'review.decided': {
      const d = event.data as LifecycleEvents['review.decided'];
      return d.decision === 'requestInformation'
        ? facts('version.information_requested', d.addonId, d.versionId)
        : null;
    }
    case 'addon.disabled': {
      const d = event.data as LifecycleEvents['addon.disabled'];
      return facts('addon.disabled', d.addonId, null, { by: d.by });
    }
    case 'addon.blocked': {
      const d = event.data as LifecycleEvents['addon.blocked'];
      return facts('addon.blocked', d.addonId, null, { change: d.change, soft: d.soft });
    }
    default:
      return null;
  }
}
