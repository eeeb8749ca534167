import { createHash } from 'node:crypto';
import type { AbstractSqlConnection, MikroORM } from '@mikro-orm/postgresql';

/**
 * Prepared reads on a PostgreSQL server. MikroORM sends every statement as text with its
 * parameters inlined (the simple protocol), so the server parses each one again; a read that runs
 * thousands of times a second (a loader's statement) is better sent as a named prepared statement:
 * parsed once per connection, its parameters bound, no client-side formatting.
 *
 * Only outside transactions (a transaction holds its own connection) and only for parameters the
 * server types from their context (text, numbers, booleans, null); anything else, and a statement
 * the server cannot prepare (an untyped parameter it cannot infer), takes MikroORM's path. A
 * parameter is typed by where it stands (`= any(?::int[])`, `user_id = ?`): one alone in a select
 * list would come back as text, so lookups cast theirs.
 */

interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

interface KnexClient {
  acquireConnection(): Promise<PgClient>;
  releaseConnection(connection: PgClient): Promise<void>;
}

/** MikroORM's timing and logging of a statement (the `onQuery` logger tests count statements with). */
interface LoggingConnection {
  executeQuery<T>(query: string, run: () => Promise<T>, context: { query: string; params: unknown[] }): Promise<T>;
}

interface Prepared {
  name: string;
  text: string;
}

/** Connections whose driver is node-postgres (registered by the database port). */
const servers = new WeakSet<AbstractSqlConnection>();
/** Statements by SQL text; null: not preparable (take MikroORM's path). Bounded: loaders' SQL is fixed. */
const statements = new Map<string, Prepared | null>();
const MAX_STATEMENTS = 500;

/** Server errors that mean "this text cannot be prepared as is", not "the read failed". */
const UNPREPARABLE = new Set(['42P18', '42883', '42804', '42725']);

export function enablePreparedReads(orm: MikroORM): void {
  servers.add(orm.em.getConnection() as AbstractSqlConnection);
}

/** The rows of a read, prepared when it can be; undefined when the caller must run it itself. */
export async function preparedRows<T>(
  connection: AbstractSqlConnection,
  sql: string,
  params: readonly unknown[],
): Promise<T[] | undefined> {
  if (!servers.has(connection) || !params.every(bindable)) return undefined;
  let prepared = statements.get(sql);
  if (prepared === undefined) {
    prepared = numbered(sql);
    if (statements.size >= MAX_STATEMENTS) return undefined;
    statements.set(sql, prepared);
  }
  if (prepared === null) return undefined;
  const statement = prepared;
  const client = connection.getKnex().client as unknown as KnexClient;
  try {
    return await (connection as unknown as LoggingConnection).executeQuery(
      sql,
      async () => {
        const pg = await client.acquireConnection();
        try {
          const result = await pg.query({ name: statement.name, text: statement.text, values: [...params] });
          return result.rows as T[];
        } finally {
          await client.releaseConnection(pg);
        }
      },
      { query: sql, params: [...params] },
    );
  } catch (error) {
    if (!UNPREPARABLE.has((error as { code?: string }).code ?? '')) {
      throw connection
        .getPlatform()
        .getExceptionConverter()
        .convertException(error as Error);
    }
    statements.set(sql, null);
    return undefined;
  }
}

function bindable(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/**
 * `?` placeholders as `$1…$n`, outside string literals, quoted identifiers and comments; null
 * when the text holds something else knex would expand (`??` identifiers, `\?` escapes).
 */
function numbered(sql: string): Prepared | null {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const end = closing(sql, i, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end < 0 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '?') {
      if (sql[i + 1] === '?' || sql[i - 1] === '\\') return null;
      out += `$${++n}`;
      i++;
    } else if (c === '$' || (c === '/' && sql[i + 1] === '*')) {
      return null; // dollar quotes and block comments: not in loaders' SQL, not worth lexing here
    } else {
      out += c;
      i++;
    }
  }
  const name = `r_${createHash('sha1').update(out).digest('hex').slice(0, 24)}`;
  return { name, text: out };
}

function closing(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote && sql[i + 1] === quote) i += 2;
    else if (sql[i] === quote) return i + 1;
    else i++;
  }
  return i;
}
