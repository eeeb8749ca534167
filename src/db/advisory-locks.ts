import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Transaction-scoped advisory locks: named (the name's hash is the first key), held until the
 * transaction ends. Every lock a transaction takes is taken in ONE order, so that two
 * transactions never wait on each other's locks in opposite orders (a deadlock, which PostgreSQL
 * breaks by failing one of them: the executor then retries a mutation, src/graphql/transactions.ts):
 *
 * 1. `user-ratings` (user id): the set of add-ons a user has rated. Taken by a rating's creation
 *    and by the deletion of the user's account, before anything else in their transaction.
 * 2. `addon-ratings` (add-on id): an add-on's ratings and their aggregates (ratings.aggregates.ts).
 *    Several at once: in ascending add-on id.
 * 3. Rows (ratings, add-ons, users…), then the cache-tag rows their triggers bump (sorted within a
 *    statement, see the CacheTags migration).
 *
 * A transaction that needs a lock of level n never takes it after touching anything of a level
 * past n: it takes all of them first (account deletion locks every add-on its ratings belong to
 * before it deletes a row). ARCHITECTURE.md "Lock order" says the same.
 */
export type AdvisoryLockName = 'user-ratings' | 'addon-ratings';

/** Takes the named lock of each id, ascending ids (duplicates once), until the transaction ends. */
export async function advisoryLock(tx: EntityManager, name: AdvisoryLockName, ids: number | readonly number[]) {
  const sorted = [...new Set(typeof ids === 'number' ? [ids] : ids)].sort((a, b) => a - b);
  for (const id of sorted) await tx.execute(`select pg_advisory_xact_lock(hashtext(?), ?)`, [name, id]);
}
