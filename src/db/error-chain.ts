import { NotFoundError } from '@mikro-orm/core';

/**
 * Whether `test` holds for an error or one it wraps: GraphQL's `originalError`, `cause`, MikroORM's
 * `previous` (its driver exceptions copy the driver error's fields, `code` among them), a few
 * levels deep.
 */
export function someInErrorChain(error: unknown, test: (error: object) => boolean): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    if (test(current)) return true;
    const next = current as { originalError?: unknown; cause?: unknown; previous?: unknown };
    current = next.originalError ?? next.cause ?? next.previous;
  }
  return false;
}

/**
 * PostgreSQL's SQLSTATEs for a transaction that lost a race: deadlock detected (40P01),
 * serialization failure (40001), and a foreign key violation (23503): services check that what a
 * write refers to exists before writing, so a violation means a concurrent transaction deleted it
 * in between (a collection deleted while an add-on is added to it).
 */
const CONFLICT_STATES = new Set(['40P01', '40001', '23503']);

/**
 * Whether the error is one of CONFLICT_STATES, or MikroORM's `findOneOrFail` not finding a row:
 * services call it for rows they have just read, so the row was deleted by a concurrent
 * transaction in between (a collection deleted while it is renamed).
 */
const isConflict = (error: object) =>
  CONFLICT_STATES.has((error as { code?: unknown }).code as string) || error instanceof NotFoundError;

/**
 * Whether an error means the transaction lost a race with a concurrent one (see CONFLICT_STATES):
 * run again from its start, it may well succeed, or find the row gone and say so. The executor
 * retries mutations on it (src/graphql/transactions.ts); answered 409, never 500, when it lasts
 * (or where nothing retries: mutations with their own transactions).
 */
export function isTransactionConflict(error: unknown): boolean {
  return someInErrorChain(error, isConflict);
}

/** What the client is told of a conflict that lasted: nothing was written, try again. */
export const WRITE_CONFLICT_MESSAGE = 'The request conflicted with a concurrent change and was not applied; try again.';
