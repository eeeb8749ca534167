import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows, type DbBigint } from '../db/rows.js';
import type { JobQueue } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';

/**
 * Blocklist publication requests, kept in the database (the `blocklist_requests` row) rather than
 * in job payloads, so that none is lost to a deduplicated job:
 *
 * - a block change or `publishBlocklist` adds one to `requested` in its own transaction (a rebuild
 *   also records that number in `rebuild_requested`) and queues a `publish-blocklist` job that runs
 *   at once. Every such job has the one key `PUBLICATION_KEY`, so the queue's `stately` policy runs
 *   one at a time (across processes) and keeps one waiting, which publishes whatever is requested
 *   by the time it starts;
 * - signings instead queue `publish-blocklist-later` (its own queue, so a waiting delayed job
 *   never stands in the way of a block change's), which only queues a `publish-blocklist` job;
 * - the publisher reads the row before the blocklist, and settles it in the transaction that
 *   publishes: base filters clear the rebuild it read, and a request that came meanwhile (the row
 *   lock waits for a requesting transaction still open) makes it publish again.
 */
export const PUBLICATION_KEY = 'mlbf';

/** What a publication run read before reading the blocklist. */
export interface PendingRequests {
  readonly requested: number;
  /** A rebuild is requested: new base filters. */
  readonly rebuild: boolean;
}

/** Records a request in `tx` (inside `em.transactional()`) and queues a publication that runs at once. */
export async function requestPublication(
  tx: EntityManager,
  jobs: JobQueue<ServiceJobs>,
  rebuild: boolean,
): Promise<void> {
  await tx.execute(
    `insert into blocklist_requests (id, requested, rebuild_requested) values (1, 1, case when ? then 1 end)
      on conflict (id) do update set requested = blocklist_requests.requested + 1,
        rebuild_requested = case when ? then blocklist_requests.requested + 1 else blocklist_requests.rebuild_requested end`,
    [rebuild, rebuild],
  );
  await jobs.send('publish-blocklist', {}, { singletonKey: PUBLICATION_KEY, transaction: tx });
}

export async function pendingRequests(em: EntityManager): Promise<PendingRequests> {
  const [row] = await selectRows<{ requested: DbBigint; rebuild_requested: DbBigint | null }>(
    em,
    'select requested, rebuild_requested from blocklist_requests where id = 1',
  );
  return { requested: Number(row?.requested ?? 0), rebuild: row?.rebuild_requested != null };
}

/**
 * In the transaction of a run that read `seen`: clears the rebuild request it read when it
 * published base filters (`based`), and says whether requests came since (then it runs again).
 */
export async function settleRequests(tx: EntityManager, seen: PendingRequests, based: boolean): Promise<boolean> {
  const [row] = await selectRows<{ requested: DbBigint }>(
    tx,
    `update blocklist_requests
        set rebuild_requested = case when ? and rebuild_requested <= ? then null else rebuild_requested end
      where id = 1 returning requested`,
    [based, seen.requested],
  );
  return Number(row?.requested ?? 0) > seen.requested;
}
