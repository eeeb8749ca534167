import { writeColumns, type ColumnMap, type SqlType, type Table, type WriteRowOf } from '../../db/columns.js';
import { boolArray, intArray, numericArray, textArray } from '../../db/sql.js';
import { ADDON_TABLE, AUTHOR_TABLE, PREVIEW_TABLE } from '../addon.columns.js';
import { COMPAT_TABLE, FILE_TABLE, VERSION_TABLE } from '../version.columns.js';
import type { Query } from './database.js';
import type {
  AddonBatch,
  AddonRow,
  AuthorRow,
  CompatRow,
  FeaturedRow,
  FileRow,
  PreviewRow,
  UserRow,
  VersionRow,
} from './model.js';

/**
 * Bulk writes without the ORM: each table's rows go as one `insert … select … from unnest(…)`
 * whose parameters are PostgreSQL array literals, one per column (knex would expand a JS array
 * into a comma list). A batch of add-ons is ONE statement: its inserts are data-modifying CTEs, so
 * the foreign keys between add-ons and versions (`addons.current_version_id` and
 * `versions.addon_id` point at each other) are checked at the end of the statement, when both
 * sides exist. Nothing is disabled: constraints, triggers and indexes all stay on.
 */

/** Column kinds (`SqlType`): scalars are unnested from a typed array; `[]` kinds go as text and are cast per row. */
type Column<R> = readonly [name: keyof R & string, kind: SqlType];

export interface TableSpec<R> {
  table: string;
  columns: readonly Column<R>[];
}

const ARRAY_KINDS = new Set<SqlType>(['smallint[]', 'int[]', 'bigint[]', 'text[]']);

/**
 * `insert into t (cols) select … from rows from (unnest(?::int[]), …) as u(cols)` and its
 * parameters: one per column. Scalars are typed array literals; per-row arrays are a text array of
 * array literals, cast row by row; jsonb columns are one JSON array (JSON.stringify is far cheaper
 * than quoting every document into an array literal), whose JSON nulls become SQL NULLs.
 */
export function insertStatement<R>(spec: TableSpec<R>, rows: readonly R[]): { sql: string; params: string[] } {
  const names = spec.columns.map(([name]) => `"${name}"`);
  const selects = spec.columns.map(([name, kind]) =>
    kind === 'jsonb'
      ? `nullif(u."${name}", 'null'::jsonb)`
      : ARRAY_KINDS.has(kind)
        ? `u."${name}"::${kind}`
        : `u."${name}"`,
  );
  const sources = spec.columns.map(([, kind]) =>
    kind === 'jsonb'
      ? 'jsonb_array_elements(?::jsonb)'
      : ARRAY_KINDS.has(kind)
        ? 'unnest(?::text[])'
        : `unnest(?::${kind}[])`,
  );
  const sql =
    `insert into "${spec.table}" (${names.join(', ')}) select ${selects.join(', ')} ` +
    `from rows from (${sources.join(', ')}) as u(${names.join(', ')})`;
  return { sql, params: spec.columns.map(([name, kind]) => literal(kind, rows, name)) };
}

function literal<R>(kind: SqlType, rows: readonly R[], name: keyof R & string): string {
  const values = rows.map((row) => row[name] as unknown);
  switch (kind) {
    case 'int':
    case 'smallint':
    case 'bigint':
    case 'real':
      return numericArray(values as (number | null)[]);
    case 'boolean':
      return boolArray(values as boolean[]);
    case 'text':
      return textArray(values as (string | null)[]);
    case 'jsonb':
      return JSON.stringify(values);
    case 'timestamptz':
      return textArray((values as (number | null)[]).map((t) => (t === null ? null : new Date(t).toISOString())));
    case 'text[]':
      return textArray((values as string[][]).map((v) => textArray(v)));
    default:
      return textArray((values as number[][]).map((v) => intArray(v)));
  }
}

/** The catalogue's tables write every column of their column maps (`addon.columns.ts`, `version.columns.ts`). */
const mapped = <T extends Table<ColumnMap>>(table: T): TableSpec<WriteRowOf<T>> => ({
  table: table.table,
  columns: writeColumns(table),
});

export const ADDONS: TableSpec<AddonRow> = mapped(ADDON_TABLE);

export const VERSIONS: TableSpec<VersionRow> = mapped(VERSION_TABLE);

export const COMPAT: TableSpec<CompatRow> = mapped(COMPAT_TABLE);

/** Files: the column map's columns and `is_signed` (not in the catalogue's map: the signing domain's). */
export const FILES: TableSpec<FileRow> = {
  table: FILE_TABLE.table,
  columns: [...writeColumns(FILE_TABLE), ['is_signed', 'boolean']],
};

export const PREVIEWS: TableSpec<PreviewRow> = mapped(PREVIEW_TABLE);

export const AUTHORS: TableSpec<AuthorRow> = mapped(AUTHOR_TABLE);

// prettier-ignore
export const FEATURED: TableSpec<FeaturedRow> = {
  table: 'featured_addons',
  columns: [['id', 'int'], ['addon_id', 'int'], ['application', 'smallint'], ['locale', 'text']],
};

// prettier-ignore
export const USERS: TableSpec<UserRow> = {
  table: 'users',
  columns: [
    ['id', 'int'], ['username', 'text'], ['email', 'text'], ['display_name', 'text'], ['biography', 'text'],
    ['homepage', 'text'], ['location', 'text'], ['occupation', 'text'], ['read_dev_agreement', 'timestamptz'],
    ['created', 'timestamptz'], ['modified', 'timestamptz'],
  ],
};

/** One statement for a whole batch of add-ons and their rows. */
export function batchStatement(batch: AddonBatch): { sql: string; params: string[] } {
  const parts = [
    insertStatement(ADDONS, batch.addons),
    insertStatement(VERSIONS, batch.versions),
    insertStatement(COMPAT, batch.compat),
    insertStatement(FILES, batch.files),
    insertStatement(PREVIEWS, batch.previews),
    insertStatement(AUTHORS, batch.authors),
    insertStatement(FEATURED, batch.featured),
  ];
  return {
    sql: `with ${parts.map((p, i) => `w${i} as (${p.sql})`).join(', ')} select 1 as done`,
    params: parts.flatMap((p) => p.params),
  };
}

export async function writeBatch(query: Query, batch: AddonBatch): Promise<void> {
  const { sql, params } = batchStatement(batch);
  await query(sql, params);
}

export async function writeUsers(query: Query, users: readonly UserRow[]): Promise<void> {
  const { sql, params } = insertStatement(USERS, users);
  await query(sql, params);
}
