import { setTimeout as delay } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isTransactionConflict } from './error-chain.js';

/**
 * How a transaction that lost a race (`isTransactionConflict`) is run again: at most `attempts`
 * times in all, waiting a random time below `backoffMs` × 2^(attempt - 1) between attempts (so
 * that the two transactions of a deadlock do not meet again at once).
 */
export interface ConflictRetries {
  attempts: number;
  backoffMs: number;
}

export const CONFLICT_RETRIES: ConflictRetries = { attempts: 3, backoffMs: 20 };

/**
 * Runs `attempt` (given its number, from 1) until it neither throws a conflict nor answers one
 * (`lost`), at most `retries.attempts` times; the last attempt's outcome is the answer.
 */
export async function retryingConflicts<T>(
  attempt: (n: number) => Promise<T>,
  lost: (value: T) => boolean,
  retries: ConflictRetries = CONFLICT_RETRIES,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      const value = await attempt(n);
      if (n >= retries.attempts || !lost(value)) return value;
    } catch (error) {
      if (n >= retries.attempts || !isTransactionConflict(error)) throw error;
    }
    await delay(Math.random() * retries.backoffMs * 2 ** (n - 1));
  }
}

/**
 * The short transaction of a mutation that runs outside the executor's (`@OwnTransactions`): run
 * again, from an empty identity map, when it loses a race, as the executor runs its mutations.
 * Inside a transaction already (a savepoint), once: the outer transaction is the one to retry.
 */
export function ownTransaction<T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  if (em.isInTransaction()) return em.transactional(work);
  return retryingConflicts(
    (n) => em.transactional(work, { clear: n > 1 }),
    () => false,
  );
}
