import type { Platform } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from './prepared.js';

/**
 * Plain-row reads: SQL whose rows are mapped by hand into read-only records, for read paths where
 * entity hydration (identity map, change tracking) costs more than the query.
 */

/** `timestamptz` as the drivers return it: PGlite gives a Date, node-postgres (as MikroORM sets it up) text. */
export type DbTimestamp = Date | string;

/** `bigint`: PGlite gives a number, node-postgres text. */
export type DbBigint = number | string;

/** Runs a read in the entity manager's transaction, if any (a raw connection call would not see its writes). */
export function selectRows<T>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  return em.execute(sql, [...params]) as Promise<unknown> as Promise<T[]>;
}

/**
 * A loader's read by keys (`where x.id = any(?::int[])`, fixed SQL run for every request): on a
 * PostgreSQL server a named prepared statement with a generic plan, so the server neither parses
 * nor plans it again (see src/db/prepared.ts); inside a transaction and on PGlite, `selectRows`.
 * Only for key lookups, whose one plan suits every key: a filtered or paged query keeps the
 * per-execution plans of `selectRows`.
 */
export async function lookupRows<T>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  if (!em.getTransactionContext()) {
    const rows = await preparedRows<T>(em.getConnection(), sql, params);
    if (rows) return rows;
  }
  return selectRows<T>(em, sql, params);
}

/** Parsed the way MikroORM hydrates timestamps, so a record and an entity hold the same instant. */
export function toDate(platform: Platform, value: DbTimestamp): Date {
  return value instanceof Date ? value : platform.parseDate(value);
}

export function toDateOrNull(platform: Platform, value: DbTimestamp | null): Date | null {
  return value === null ? null : toDate(platform, value);
}
