import type { PGlite, Results } from '@electric-sql/pglite';
import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { Database, DatabaseKind } from '../db/database.js';

export type Row = Record<string, unknown>;

export interface SqlResult {
  rows: Row[];
}

/**
 * One database session. `run` takes either one statement with `$n` parameters or, without
 * parameters, a script of several statements (pg-boss installs and maintains its schema with
 * `BEGIN; …; COMMIT;` scripts). For a script, the result is that of its last row-returning statement.
 */
export interface SqlSession {
  run(text: string, values?: readonly unknown[]): Promise<SqlResult>;
}

/** Where sessions come from: a pool, or the single embedded database. */
export interface SessionSource {
  /** Runs `fn` on a session that no other statement of this process uses meanwhile. */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

interface ResultLike {
  rows?: Row[];
  fields?: readonly unknown[];
}

/** Of a script's results, the last one that returned rows (pg-boss reads one result per call). */
function lastResult(results: ResultLike | ResultLike[]): SqlResult {
  const list = Array.isArray(results) ? results : [results];
  const withRows = list.filter((r) => (r.fields?.length ?? 0) > 0);
  return { rows: (withRows.at(-1) ?? list.at(-1))?.rows ?? [] };
}

function pgSession(client: pg.ClientBase): SqlSession {
  return {
    async run(text, values) {
      // Without values node-pg uses the simple protocol, which runs scripts and returns one result per statement.
      const result: unknown = values?.length ? await client.query(text, [...values]) : await client.query(text);
      return lastResult(result as ResultLike | ResultLike[]);
    },
  };
}

function pgliteSession(db: PGlite): SqlSession {
  return {
    async run(text, values) {
      if (values?.length) return lastResult(await db.query<Row>(text, [...values]));
      const wasInTransaction = db.isInTransaction();
      try {
        return lastResult((await db.exec(text)) as Results<Row>[]);
      } catch (error) {
        // A script that failed between its BEGIN and COMMIT leaves the one session in an aborted
        // transaction, which would swallow every later statement of the whole process.
        if (!wasInTransaction && db.isInTransaction()) await db.exec('ROLLBACK');
        throw error;
      }
    },
  };
}

/** A small pool of its own on PostgreSQL: queue polling never waits behind (or starves) request queries. */
export function pgPoolSource(connectionString: string, max: number, onError: (error: Error) => void): SessionSource {
  const pool = new pg.Pool({ connectionString, max, application_name: 'addons-jobs' });
  pool.on('error', onError);
  return {
    async withSession(fn) {
      const client = await pool.connect();
      // pg-pool listens for errors of idle clients only. A checked-out one the server drops
      // between two statements (a restart: 57P01) would emit an unhandled 'error' and end the
      // process; the next statement fails instead, and the session is discarded.
      let lost: Error | null = null;
      const onClientError = (error: Error) => {
        lost = error;
        onError(error);
      };
      client.on('error', onClientError);
      try {
        const result = await fn(pgSession(client));
        client.removeListener('error', onClientError);
        client.release(lost ?? undefined);
        return result;
      } catch (error) {
        // The session may be mid-transaction or aborted: discard it rather than pool it.
        client.removeListener('error', onClientError);
        client.release(true);
        throw error;
      }
    },
    close: () => pool.end(),
  };
}

/**
 * The embedded database through MikroORM's connection pool, which for PGlite holds exactly one
 * connection. PGlite is one session: if queue statements went to it directly they could land inside
 * a transaction the application has open (knex sends BEGIN as a plain statement, so PGlite's own
 * transaction mutex does not see it), joining or even committing it. Borrowing the pool's only
 * connection serialises them with the application's transactions instead.
 */
export function knexPoolSource(database: Database): SessionSource {
  const client = knexOf(database).client;
  return {
    async withSession(fn) {
      const connection: unknown = await client.acquireConnection();
      try {
        return await fn(pgliteSession(connection as PGlite));
      } finally {
        await client.releaseConnection(connection);
      }
    },
    close: async () => {},
  };
}

/** The session of the transaction `em` is in (the connection knex reserved for it). */
export async function transactionSession(em: EntityManager, kind: DatabaseKind): Promise<SqlSession> {
  const trx = em.isInTransaction() ? em.getTransactionContext<Knex.Transaction>() : undefined;
  if (!trx) throw new Error('The `transaction` option needs an entity manager inside em.transactional()');
  // A transaction's client hands out the transaction's own connection and never releases it to the pool.
  const connection: unknown = await trx.client.acquireConnection();
  return kind === 'embedded' ? pgliteSession(connection as PGlite) : pgSession(connection as pg.ClientBase);
}

/** Runs `fn` in a transaction on one session of `source`. */
export async function inTransaction<T>(source: SessionSource, fn: (session: SqlSession) => Promise<T>): Promise<T> {
  return source.withSession(async (session) => {
    await session.run('BEGIN');
    try {
      const result = await fn(session);
      await session.run('COMMIT');
      return result;
    } catch (error) {
      await session.run('ROLLBACK').catch(() => {});
      throw error;
    }
  });
}

function knexOf(database: Database): Knex {
  return database.orm.em.getConnection().getKnex();
}
