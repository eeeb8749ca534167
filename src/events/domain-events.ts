import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';

/**
 * The events of the service, by type: empty here, declared by the domains that publish them
 * (TypeScript declaration merging from their folders, e.g. the catalogue's lifecycle events).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DomainEventMap {}

/** One published event, as subscribers receive it. */
export interface DomainEvent<M, K extends keyof M = keyof M> {
  /** Unique per publication: a subscriber that must act once can remember it. */
  readonly id: string;
  readonly type: K;
  readonly data: M[K];
  /** ISO time of the change. */
  readonly occurredAt: string;
  /** The user who caused it; null for the service itself. */
  readonly actorId: number | null;
}

export interface EventSubscriber<M> {
  /** Stable name: queued deliveries name their subscriber. */
  readonly name: string;
  readonly on: readonly (keyof M & string)[];
  /** Delivered at least once, after the publishing transaction commits; throw to be retried. */
  handle(event: DomainEvent<M>): Promise<void>;
}

/**
 * Durable domain events. `publish` writes one `domain-event` job per interested subscriber in the
 * caller's transaction, so an event exists exactly when the change it describes commits, survives
 * a crash, and is delivered after commit; each subscriber is retried on its own. Subscribers are
 * wired in the composition (search index, reviewer subscriptions, blocklist, webhooks, mails).
 */
export class DomainEvents<M extends object> {
  private readonly subscribers = new Map<string, EventSubscriber<M>>();

  constructor(private readonly jobs: JobQueue<ServiceJobs>) {}

  subscribe(subscriber: EventSubscriber<M>): void {
    if (this.subscribers.has(subscriber.name)) throw new Error(`subscriber ${subscriber.name} twice`);
    this.subscribers.set(subscriber.name, subscriber);
  }

  /** Queues the event for its subscribers in `tx` (an entity manager inside `em.transactional()`). */
  async publish<K extends keyof M & string>(
    tx: EntityManager,
    type: K,
    data: M[K],
    actorId: number | null,
  ): Promise<void> {
    const event = { id: randomUUID(), type, data, occurredAt: new Date().toISOString(), actorId };
    for (const subscriber of this.subscribers.values()) {
      if (!subscriber.on.includes(type)) continue;
      await this.jobs.send(
        'domain-event',
        { subscriber: subscriber.name, event: event as unknown as ServiceJobs['domain-event']['event'] },
        { transaction: tx },
      );
    }
  }

  /** The `domain-event` job handler. An unknown subscriber (removed since) drops its deliveries. */
  async deliver(job: ServiceJobs['domain-event']): Promise<void> {
    const subscriber = this.subscribers.get(job.subscriber);
    if (!subscriber) return;
    await subscriber.handle(job.event as unknown as DomainEvent<M>);
  }
}
