import type { MigrationObject } from '@mikro-orm/core';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import {
  MikroORM,
  PostgreSqlDriver,
  type AbstractSqlConnection,
  type EntityClass,
  type EntityManager,
  type Options,
} from '@mikro-orm/postgresql';
import { isMultiStatement } from './statements.js';
import { enablePreparedReads } from './prepared.js';
import type { Logger } from '../core/logger.js';
import { databaseEntities } from './entities.js';
import { acquireDirectoryLock, type DirectoryLock } from './lock.js';
import { trackEntityDecorations } from './release-entities.js';
import { embeddedTemplate, templateKey, type EmbeddedTemplate } from './pglite-template.js';

type DoneFn = (error: Error | undefined, connection: unknown) => void;

export type DatabaseKind = 'postgres' | 'embedded';

/**
 * The database port. `postgres` is a real server (DATABASE_URL); `embedded` is PGlite
 * in-process, persisted under a data directory (or in memory for tests).
 */
export interface Database {
  readonly kind: DatabaseKind;
  /** Where the data lives, for humans: a redacted URL or a directory. */
  readonly location: string;
  readonly orm: MikroORM;
  /** A fresh, request-scoped entity manager. */
  fork(): EntityManager;
  ping(): Promise<void>;
  /**
   * With `snapshotAfterStart`: saves the snapshot of a fresh embedded database migrated from nothing
   * (./pglite-template.ts) now that the app has installed what it installs at start (its job queue's
   * schema and queues), so the next fresh start begins with them. A no-op otherwise.
   */
  saveSnapshot(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  { kind: 'postgres'; url: string; poolMax?: number } | { kind: 'embedded'; dataDir: string | null };

export interface OpenDatabaseOptions {
  /** The domains' entities (`entities` of `src/modules.ts`); the port adds its own (`./entities.ts`). */
  entities: readonly EntityClass<any>[];
  /** The domains' migrations, in the order they apply (`migrations` of `src/modules.ts`). */
  migrations: readonly MigrationObject[];
  logger?: Logger;
  /** Tables the migrations create that no entity maps: the schema generator leaves them alone. */
  unmappedTables?: readonly string[];
  /** Apply pending migrations (default true). */
  migrate?: boolean;
  /** Embedded: the snapshot of a fresh database is saved by `saveSnapshot()`, not once migrated. */
  snapshotAfterStart?: boolean;
  /** Called with every SQL statement (tests count them to catch N+1 queries). */
  onQuery?: (sql: string) => void;
}

interface KnexQuery {
  sql: string;
  bindings?: readonly unknown[];
  method?: string;
  response?: unknown;
}

/**
 * PGlite's knex dialect runs any raw statement whose text holds a `;` as a script (no parameters,
 * no RETURNING rows), and MikroORM inlines parameters into the text: an insert of user text with a
 * `;` then lost its returned id. Scripts are told apart by an actual statement separator instead.
 */
function splitScriptsOnlyWhenMultiStatement(orm: MikroORM) {
  // On the prototype: knex builds each transaction's client from the class, not from this instance.
  const dialect = Object.getPrototypeOf((orm.em.getConnection() as AbstractSqlConnection).getKnex().client) as {
    _query(connection: PGlite, query: KnexQuery): Promise<KnexQuery>;
  };
  dialect._query = async (connection, query) => {
    if (!query.sql) throw new Error('The query is empty');
    const script = query.method === 'raw' && !query.bindings?.length && isMultiStatement(query.sql);
    query.response = script
      ? await connection.exec(query.sql)
      : await connection.query(query.sql, [...(query.bindings ?? [])]);
    return query;
  };
}

/** Whether a migration of the list is not recorded as applied (or none is: a new database). */
async function missesMigrations(orm: MikroORM, migrations: readonly MigrationObject[]): Promise<boolean> {
  const connection = orm.em.getConnection();
  const table = orm.config.get('migrations').tableName!;
  const [{ present }] = await connection.execute<{ present: boolean }[]>(
    'select to_regclass(?) is not null as present',
    [table],
  );
  if (!present) return true;
  const rows = await connection.execute<{ name: string }[]>(
    `select name from ${orm.em.getPlatform().quoteIdentifier(table)}`,
  );
  // Recorded as the migrator records them (a file's name without its extension).
  const applied = new Set(rows.map((row) => row.name.replace(/\.[jt]s$/, '')));
  return migrations.some((migration) => !applied.has(migration.name));
}

export async function openDatabase(target: DatabaseTarget, options: OpenDatabaseOptions): Promise<Database> {
  const { logger } = options;
  const base: Options = {
    entities: [...options.entities, ...databaseEntities],
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: options.onQuery ? ['query'] : false,
    colors: false,
    ...(options.onQuery ? { logger: options.onQuery } : {}),
    discovery: { warnWhenNoEntities: true },
    schemaGenerator: { skipTables: [...(options.unmappedTables ?? [])] },
    migrations: {
      migrationsList: [...options.migrations],
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
      emit: 'ts',
    },
  };

  let orm: MikroORM;
  let location: string;
  let cleanup = async () => {};
  /** Set when a fresh embedded database was migrated from nothing: its snapshot is saved for the next. */
  let saveTemplate: (() => Promise<void>) | null = null;
  if (target.kind === 'postgres') {
    const url = new URL(target.url);
    location = `${url.protocol}//${url.host}${url.pathname}`;
    orm = await MikroORM.init({
      ...base,
      driver: PostgreSqlDriver,
      clientUrl: target.url,
      pool: {
        min: 0,
        max: target.poolMax ?? 10,
        // Only prepared statements take the setting, and only loaders' key lookups are prepared
        // (src/db/prepared.ts): one plan fits every key, so the server does not plan each execution.
        afterCreate: (connection: { query(sql: string, done: (error?: Error) => void): void }, done: DoneFn) =>
          connection.query('set plan_cache_mode = force_generic_plan', (error) => done(error, connection)),
      },
    });
    enablePreparedReads(orm);
  } else {
    // Loaded only in embedded mode: a PostgreSQL deployment never pays for the WASM database.
    const [{ PGlite }, { pg_trgm }, { PGliteDriver }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('mikro-orm-pglite'),
    ]);
    let lock: DirectoryLock | undefined;
    let pglite: PGlite;
    location = target.dataDir ? join(target.dataDir, 'pgdata') : 'memory';
    if (target.dataDir) {
      mkdirSync(target.dataDir, { recursive: true });
      lock = acquireDirectoryLock(target.dataDir);
    }
    // A new database starts from the snapshot of a migrated one (./pglite-template.ts).
    const fresh = !target.dataDir || !existsSync(join(location, 'PG_VERSION'));
    const template: EmbeddedTemplate | null =
      fresh && options.migrate !== false ? embeddedTemplate(templateKey(options.migrations, ['pg_trgm'])) : null;
    const fromSnapshot = (snapshot: Blob) => new PGlite({ extensions: { pg_trgm }, loadDataDir: snapshot });
    if (target.dataDir) {
      const extracted = template?.extractTo(location) ?? false;
      pglite = new PGlite(location, { extensions: { pg_trgm } });
      if (template && !extracted) saveTemplate = () => template.save(pglite, fromSnapshot);
    } else {
      const snapshot = template?.load() ?? null;
      pglite = snapshot ? fromSnapshot(snapshot) : new PGlite({ extensions: { pg_trgm } });
      if (template && !snapshot) saveTemplate = () => template.save(pglite, fromSnapshot);
    }
    try {
      await pglite.waitReady;
      // PGliteDriver is a PostgreSqlDriver that talks to the in-process PGlite.
      orm = await MikroORM.init({
        ...base,
        driver: PGliteDriver as unknown as typeof PostgreSqlDriver,
        dbName: 'postgres',
        // PGlite serves one database whatever the name (its tables are in template1): MikroORM's
        // check would create a database `postgres` (a copy of all of it) in the trimmed snapshot.
        ensureDatabase: false,
        driverOptions: { connection: { pglite: () => pglite } },
      });
      splitScriptsOnlyWhenMultiStatement(orm);
    } catch (error) {
      await pglite.close().catch(() => {});
      lock?.release();
      throw error;
    }
    cleanup = async () => {
      await pglite.close();
      // A closed ORM's entity manager can outlive it (MikroORM's decorations of the entity classes,
      // a promise created in one of its transactions): dropping the instance's WASM module here
      // frees its memory (200 MB and more) whatever still refers to the instance.
      Reflect.set(pglite, 'mod', undefined);
      lock?.release();
    };
  }

  const releaseEntities = trackEntityDecorations(orm);
  /** With `snapshotAfterStart`: the snapshot `saveSnapshot()` saves. */
  let pendingSnapshot: (() => Promise<void>) | null = null;
  // The migrator (umzug and its command-line tools) is only loaded when a migration is missing.
  if (options.migrate !== false && (await missesMigrations(orm, options.migrations))) {
    const { Migrator } = await import('@mikro-orm/migrations');
    Migrator.register(orm);
    const migrator = orm.getMigrator();
    const pending = await migrator.getPendingMigrations();
    if (pending.length) {
      logger?.info({ migrations: pending.map((m) => m.name) }, 'applying database migrations');
      await migrator.up();
      if (saveTemplate && pending.length === options.migrations.length) {
        if (options.snapshotAfterStart) pendingSnapshot = saveTemplate;
        else await saveTemplate();
      }
    }
  }

  return {
    kind: target.kind,
    location,
    orm,
    fork: () => orm.em.fork() as EntityManager,
    async ping() {
      await orm.em.getConnection().execute('select 1');
    },
    async saveSnapshot() {
      const save = pendingSnapshot;
      pendingSnapshot = null;
      await save?.();
    },
    async close() {
      await orm.close(true);
      releaseEntities();
      await cleanup();
    },
  };
}
