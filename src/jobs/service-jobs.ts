import type { QueueDefinition } from './queue.port.js';

/**
 * The service's background jobs and their payloads: the platform's own below, the domains' declared
 * from their folders (TypeScript declaration merging in each `src/<domain>/module.ts`, beside the
 * job's queue policy and handler). A job may be delivered more than once (after a failure, an
 * expiry or a crash), so every handler must be idempotent.
 */
export interface ServiceJobs {
  /** One domain event for one subscriber (`src/events/domain-events.ts`); sent in the change's transaction. */
  'domain-event': {
    subscriber: string;
    event: { id: string; type: string; data: object; occurredAt: string; actorId: number | null };
  };
}

/** The platform's queues; the modules' are folded in by the composition (`src/modules.ts`). */
export const platformQueues: { readonly 'domain-event': QueueDefinition } = {
  'domain-event': { retryLimit: 10, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 5 * 60 },
};
