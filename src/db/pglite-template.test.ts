import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from './database.js';
import { databaseSchema, migrations } from '../modules.js';
import { templateKey } from './pglite-template.js';

/**
 * A fresh embedded database starts from a snapshot of a migrated one (./pglite-template.ts). What it
 * starts with must be what running every migration from nothing makes: the same tables, columns,
 * indexes, constraints, functions, triggers, extensions and recorded migrations.
 */

const CATALOGUE = `
  select 'column' as kind, table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable
         || ' ' || coalesce(column_default, '') as def
    from information_schema.columns where table_schema = 'public'
  union all
  select 'index', tablename || ' ' || indexdef from pg_indexes where schemaname = 'public'
  union all
  select 'constraint', conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
    from pg_constraint where connamespace = 'public'::regnamespace
  union all
  select 'function', p.proname || '(' || pg_get_function_arguments(p.oid) || ') ' || md5(p.prosrc)
    from pg_proc p where p.pronamespace = 'public'::regnamespace
  union all
  select 'trigger', tgrelid::regclass::text || ' ' || pg_get_triggerdef(oid) from pg_trigger where not tgisinternal
  union all
  select 'extension', extname || ' ' || extversion from pg_extension
  union all
  select 'migration', name from mikro_orm_migrations
  order by 1, 2`;

async function catalogue(db: Database): Promise<string[]> {
  const rows = await db.fork().getConnection().execute<{ kind: string; def: string }[]>(CATALOGUE);
  return rows.map((r) => `${r.kind}: ${r.def}`);
}

const previous = process.env.EMBEDDED_TEMPLATE_DIR;
let cache: string;
let dataDirs: string;
beforeAll(() => {
  cache = mkdtempSync(join(tmpdir(), 'addons-template-'));
  dataDirs = mkdtempSync(join(tmpdir(), 'addons-template-data-'));
});
afterAll(() => {
  if (previous === undefined) delete process.env.EMBEDDED_TEMPLATE_DIR;
  else process.env.EMBEDDED_TEMPLATE_DIR = previous;
  rmSync(cache, { recursive: true, force: true });
  rmSync(dataDirs, { recursive: true, force: true });
});

async function databases(db: Database): Promise<string[]> {
  const rows = await db
    .fork()
    .getConnection()
    .execute<{ datname: string }[]>('select datname from pg_database order by datname');
  return rows.map((r) => r.datname);
}

async function opened<T>(dataDir: string | null, read: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase({ kind: 'embedded', dataDir }, databaseSchema);
  try {
    return await read(db);
  } finally {
    await db.close();
  }
}

it('starts a fresh database, in memory or in a data directory, with what the migrations make', async () => {
  process.env.EMBEDDED_TEMPLATE_DIR = 'off';
  const migrated = await opened(null, catalogue);
  expect(migrated.filter((line) => line.startsWith('migration: '))).toHaveLength(migrations.length);

  // The first fresh start runs the migrations and leaves the snapshot; the next ones start from it.
  process.env.EMBEDDED_TEMPLATE_DIR = cache;
  expect(await opened(null, catalogue)).toEqual(migrated);
  const key = templateKey(migrations, ['pg_trgm']);
  expect(readdirSync(cache).sort()).toEqual([`pglite-${key}.memory.tar`, `pglite-${key}.tar`]);
  expect(await opened(null, catalogue)).toEqual(migrated);
  // In memory, from the trimmed snapshot: only the database that holds the tables.
  expect(await opened(null, databases)).toEqual(['template1']);

  const dataDir = join(dataDirs, 'fresh');
  expect(await opened(dataDir, catalogue)).toEqual(migrated);
  expect(existsSync(join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
  // Written to: it is a database of its own, which opens again with its data.
  await opened(dataDir, (db) => db.fork().getConnection().execute('create table kept (id int)'));
  const reopened = await opened(dataDir, catalogue);
  // On disk, from the whole snapshot: a database directory like any other.
  expect(await opened(dataDir, databases)).toEqual(['postgres', 'template0', 'template1']);
  expect(reopened).toContain('column: kept.id integer YES ');
}, 180_000);

it('names the snapshot after the migrations, so a changed migration makes another', () => {
  const key = templateKey(migrations, ['pg_trgm']);
  expect(templateKey(migrations.slice(0, -1), ['pg_trgm'])).not.toBe(key);
  const [first, ...rest] = migrations;
  const changed = {
    name: first!.name,
    class: class extends (first!.class as new () => object) {},
  } as (typeof migrations)[number];
  expect(templateKey([changed, ...rest], ['pg_trgm'])).not.toBe(key);
  expect(templateKey(migrations, [])).not.toBe(key);
});
