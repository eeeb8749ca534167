import type { EntityManager } from '@mikro-orm/postgresql';
import type { DocumentNode, ExecutionResult, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { Extensions } from 'type-graphql';
import { rootFieldNames } from '../access/credentials.js';
import { createRequestContext, type RequestContext } from '../core/context.js';
import { CONFLICT_RETRIES, retryingConflicts, type ConflictRetries } from '../db/conflict-retries.js';
import { isTransactionConflict } from '../db/error-chain.js';

/**
 * Every mutation runs in one transaction opened by the executor (`compileOperation` in jit.ts, the
 * one path both APIs execute through): the request context's `em` is the transaction's for the
 * whole operation, its result fields included, committed once at the end and rolled back when the
 * operation answers with any error. Services write and flush without choosing boundaries. Queries
 * run outside transactions.
 */

/** Why a mutation chooses its own transactions instead of the executor's one. */
export type OwnTransactionsReason =
  /** It records something that must stay even when it then fails (a throttle's count, say). */
  | 'commits before failing'
  /** It does slow work outside the database (streamed uploads, file storage) that no transaction should wait for. */
  | 'slow external work';

const EXTENSION = 'ownTransactions';

/**
 * Declared beside `@Requires` on a mutation that runs outside the executor's transaction: its
 * service opens its own, around its writes only. `detail` says what, for the reader.
 */
export const OwnTransactions = (reason: OwnTransactionsReason, detail: string) =>
  Extensions({ [EXTENSION]: `${reason}: ${detail}` });

/** What a root field declares with `@OwnTransactions`, if anything ("reason: detail"). */
export function fieldOwnTransactions(field: { extensions?: Record<string, unknown> | null }): string | undefined {
  return field.extensions?.[EXTENSION] as string | undefined;
}

/**
 * Whether the executor runs the operation in one transaction: a mutation, unless one of its root
 * fields declares `@OwnTransactions` (then the whole operation runs without, and every field's
 * service flushes on its own).
 */
export function runsInTransaction(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode | undefined,
): boolean {
  const mutation = schema.getMutationType();
  if (!operation || operation.operation !== 'mutation' || !mutation) return false;
  const fields = mutation.getFields();
  return rootFieldNames(document, operation).every((name) => !fields[name] || !fieldOwnTransactions(fields[name]));
}

/** Carries an answer with errors out of `em.transactional`, which rolls back on a throw. */
class RolledBack extends Error {
  constructor(readonly result: ExecutionResult) {
    super('The operation answered with errors');
  }
}

/**
 * Runs `execute` with a context whose `em` (and loaders) belong to one new transaction: committed
 * when the answer has no errors, rolled back otherwise (graphql-jit answers resolver errors, it
 * does not throw them). Jobs sent with `{ transaction: ctx.em }` are queued only if it commits.
 *
 * A transaction that lost a race with a concurrent one (PostgreSQL failed it to break a deadlock,
 * a serialization failure, or a row it refers to was deleted meanwhile: `isTransactionConflict`;
 * thrown, by the commit say, or behind a resolver's error) is rolled back and the whole operation
 * run again, a bounded number of times: each attempt with a new transaction, an entity manager
 * that starts empty (no entity the failed attempt loaded or changed) and new loaders. The
 * variables are plain values, read again (uploads never run here: they declare @OwnTransactions).
 * A conflict that lasts is answered as it came; the error mappers make it a 409 (rest-compat/errors.ts,
 * and CONFLICT in src/graphql/server.ts `formatError`). Mutations with `@OwnTransactions` open
 * theirs with `ownTransaction` (src/db/conflict-retries.ts), which retries the same way.
 */
export function inOperationTransaction(
  ctx: RequestContext,
  execute: (ctx: RequestContext) => Promise<ExecutionResult> | ExecutionResult,
  retries: ConflictRetries = CONFLICT_RETRIES,
): Promise<ExecutionResult> {
  return retryingConflicts(
    (n) => attemptOnce(ctx, execute, n > 1),
    (result) => !!result.errors?.some(isTransactionConflict),
    retries,
  );
}

/** One attempt: a retry's transaction starts with an empty identity map (`clear`). */
async function attemptOnce(
  ctx: RequestContext,
  execute: (ctx: RequestContext) => Promise<ExecutionResult> | ExecutionResult,
  retry: boolean,
): Promise<ExecutionResult> {
  try {
    return await ctx.em.transactional(
      async (tx) => {
        const result = await execute(withEntityManager(ctx, tx as EntityManager));
        if (result.errors?.length) throw new RolledBack(result);
        return result;
      },
      { clear: retry },
    );
  } catch (error) {
    if (error instanceof RolledBack) return error.result;
    throw error;
  }
}

/** The same request with another entity manager (and loaders of its own, reading through it). */
function withEntityManager(ctx: RequestContext, em: EntityManager): RequestContext {
  const { loaders: _loaders, ...rest } = ctx;
  return createRequestContext({ ...rest, em });
}
