import type { Knex } from '@mikro-orm/knex';
import type { SeedReference } from './generator.js';
import { SEEDED_TABLES, type IdCursor } from './model.js';
import type { FingerprintSet } from './unique.js';

/**
 * The seeder's SQL. Everything goes through knex with real bind parameters: `em.execute` would
 * inline megabytes of literals into the SQL text (MikroORM formats parameters itself). Statements
 * must not contain `;` (the PGlite dialect would run them as a script, without parameters).
 */
export type Query = <T = Record<string, unknown>>(sql: string, params?: readonly Knex.RawBinding[]) => Promise<T[]>;

export function knexQuery(knex: Knex | Knex.Transaction): Query {
  return async <T>(sql: string, params: readonly Knex.RawBinding[] = []) => {
    const result = (await knex.raw(sql, params)) as { rows: T[] };
    return result.rows;
  };
}

/**
 * The tables whose secondary indexes a fresh seed drops and rebuilds: the catalogue tables, and
 * the search postings the add-on insert trigger fills (SearchPostings migration: about 65 rows per
 * add-on, whose (lexeme, score, id) index was the costliest one to keep up row by row).
 */
const DEFERRED_TABLES = [...SEEDED_TABLES.filter((t) => t !== 'users'), 'addon_search_postings'];

export async function countAddons(query: Query): Promise<number> {
  const [row] = await query<{ n: string }>('select count(*) as n from addons');
  return Number(row.n);
}

export async function loadReference(query: Query): Promise<SeedReference> {
  const categories = new Map<string, { regular: number[]; misc: number | null }>();
  const rows = await query<{ id: number; application: number; type: number; misc: boolean }>(
    'select id, application, type, misc from categories order by id',
  );
  for (const row of rows) {
    const key = `${row.application}:${row.type}`;
    const entry = categories.get(key) ?? { regular: [], misc: null };
    if (row.misc) entry.misc = row.id;
    else entry.regular.push(row.id);
    categories.set(key, entry);
  }
  const licences = new Map<number, number>();
  const builtins = await query<{ id: number; builtin: number }>(
    'select id, builtin from licenses where builtin > 0 order by builtin, id',
  );
  for (const l of builtins) if (!licences.has(l.builtin)) licences.set(l.builtin, l.id);
  const tags = (await query<{ tag_text: string }>('select tag_text from tags order by id')).map((t) => t.tag_text);
  return { categories, licences, tags };
}

/** The first free id of every seeded table: after its largest id and after its sequence. */
export async function nextIds(query: Query): Promise<IdCursor> {
  const columns = SEEDED_TABLES.map(
    (t) =>
      `greatest((select coalesce(max(id), 0) from "${t}"), ` +
      `coalesce(pg_sequence_last_value(pg_get_serial_sequence('${t}', 'id')::regclass), 0)) + 1 as "${t}"`,
  );
  const [row] = await query<Record<string, string>>(`select ${columns.join(', ')}`);
  return Object.fromEntries(SEEDED_TABLES.map((t) => [t, Number(row[t])])) as unknown as IdCursor;
}

/** Existing slugs and guids, streamed by id, so that appended add-ons avoid them. */
export async function loadTaken(query: Query, slugs: FingerprintSet, guids: FingerprintSet): Promise<void> {
  for (let after = 0; ;) {
    const rows = await query<{ id: number; slug: string; guid: string | null }>(
      'select id, slug, guid from addons where id > ? order by id limit 20000',
      [after],
    );
    if (!rows.length) return;
    for (const row of rows) {
      slugs.add(row.slug);
      if (row.guid) guids.add(row.guid);
    }
    after = rows[rows.length - 1].id;
  }
}

/** Ids were set explicitly: move each sequence past them (never backwards). */
export async function moveSequences(query: Query): Promise<void> {
  for (const table of SEEDED_TABLES) {
    await query(
      `select setval(s.seq, greatest(m.max_id, coalesce(pg_sequence_last_value(s.seq), 0)))
       from (select pg_get_serial_sequence('${table}', 'id')::regclass as seq) s,
            (select max(id) as max_id from "${table}") m
       where m.max_id is not null`,
    );
  }
}

/**
 * Drops the secondary indexes of the (empty) catalogue tables and of the search postings, and
 * returns the function that recreates them, exactly as they were (`pg_get_indexdef`). Building an index once over loaded
 * rows is several times cheaper than maintaining it row by row (the search GIN indexes above all).
 * Primary keys and indexes behind constraints stay: uniqueness and foreign keys are checked as
 * rows arrive. Run inside the seeding transaction, so a failure rolls the drop back too.
 */
export async function deferIndexes(query: Query): Promise<() => Promise<void>> {
  const indexes = await query<{ name: string; definition: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
     from pg_index i
     where i.indrelid = any(?::regclass[]) and not i.indisprimary
       and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
     order by 1`,
    [`{${DEFERRED_TABLES.join(',')}}`],
  );
  for (const index of indexes) await query(`drop index ${index.name}`);
  return async () => {
    // Transaction-local: more memory for the GIN builds, nothing changed for other sessions.
    await query(`set local maintenance_work_mem = '256MB'`);
    // Knex would read a `?` in an expression (jsonb operators) as a parameter.
    for (const index of indexes) await query(index.definition.replace(/\?/g, '\\?'));
  };
}

/**
 * Planner statistics of what the seed wrote, but `addons` and the postings: the seed vacuums them
 * after the commit (see seed.ts) with `analyze`, which would otherwise sample them (and compute
 * the add-ons' expression statistics) twice.
 */
export async function analyze(query: Query): Promise<void> {
  const tables = SEEDED_TABLES.filter((t) => t !== 'addons');
  await query(`analyze ${tables.join(', ')}`);
}
