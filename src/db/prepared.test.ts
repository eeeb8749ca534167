import type { EntityManager } from '@mikro-orm/postgresql';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.js';
import { openDatabase, type Database } from './database.js';
import { databaseSchema } from '../modules.js';
import { lookupRows, selectRows } from './rows.js';

/**
 * Loaders' lookups: prepared statements on a PostgreSQL server, MikroORM's path elsewhere. Either
 * way a lookup answers exactly what `selectRows` answers, and sees its transaction's writes.
 */

let testDb: TestDatabase;
let db: Database;
const statements: string[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = await openDatabase(testDb.target, { ...databaseSchema, onQuery: (sql) => statements.push(sql) });
}, 60_000);
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

const both = async <T>(em: EntityManager, sql: string, params: unknown[]) => {
  const [looked, selected] = [await lookupRows<T>(em, sql, params), await selectRows<T>(em, sql, params)];
  expect(looked).toEqual(selected);
  return looked;
};

it('answers what selectRows answers, for every parameter type and column type', async () => {
  const em = db.fork();
  const rows = await both<Record<string, unknown>>(
    em,
    `select ?::int[] as ids, ?::text as t, ?::int as n, ?::boolean as b, ?::text as nothing,
            'it''s' as literal, "col", now()::date as d,
            '2026-01-02T03:04:05.678Z'::timestamptz as ts, 12345678901::bigint as big,
            '{"a": [1, "b"]}'::jsonb as j
       from (select 1 as "col") q`,
    ['{1,2,3}', 'some "text" with \\ and ?', 7, true, null],
  );
  expect(rows[0]).toMatchObject({ ids: [1, 2, 3], t: 'some "text" with \\ and ?', b: true, nothing: null });
  expect(rows[0].literal).toBe("it's");
  expect(rows[0].j).toEqual({ a: [1, 'b'] });
});

// Prepared statements only: MikroORM's formatting (PGlite) replaces every `?`.
(process.env.DATABASE_URL ? it : it.skip)('leaves question marks in literals and quoted names alone', async () => {
  const [row] = await lookupRows<Record<string, unknown>>(
    db.fork(),
    `select 'it''s ?' as literal, "col?", ?::int as n from (select 1 as "col?") q`,
    [5],
  );
  expect(row).toEqual({ literal: "it's ?", 'col?': 1, n: 5 });
});

it('takes MikroORM’s path for what cannot be prepared, and still answers', async () => {
  const em = db.fork();
  // An untyped parameter the server cannot infer (42P18 when prepared); a literal value inlined is fine.
  expect(await both(em, 'select ? is null as missing', [null])).toEqual([{ missing: true }]);
  // Parameters that are not scalars (a Date) are left to MikroORM's formatting.
  const [row] = await both<{ later: boolean }>(em, 'select ?::timestamptz > now() as later', [
    new Date(Date.now() + 60_000),
  ]);
  expect(row.later).toBe(true);
});

it('reads inside the entity manager’s transaction', async () => {
  await db.fork().transactional(async (em) => {
    await em.execute(`create temporary table lookups_seen (id int) on commit drop`);
    await em.execute(`insert into lookups_seen values (42)`);
    expect(await lookupRows(em, 'select id from lookups_seen where id = any(?::int[])', ['{42}'])).toEqual([
      { id: 42 },
    ]);
  });
});

it('is counted like any statement (tests count statements to catch N+1 queries)', async () => {
  const before = statements.length;
  await lookupRows(db.fork(), 'select 1 as one where 1 = any(?::int[])', ['{1}']);
  expect(statements.length - before).toBe(1);
});
