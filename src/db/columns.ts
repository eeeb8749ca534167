import type { Platform } from '@mikro-orm/core';
import { toDate, type DbBigint, type DbTimestamp } from './rows.js';

/**
 * Column maps: a table's columns written once, each with its SQL name, its SQL type and how its
 * value reads. From one map come the plain-row reads' select list (`selectList`), row type
 * (`RowOf`), record type (`RecordOf`) and row-to-record mapping (`recordMapper`), and the bulk
 * writer's columns and row type (`writeColumns`, `WriteRowOf`). The MikroORM entity stays the
 * table's definition for migrations; a map lists only the columns read as records or bulk-written.
 */

/** SQL types as the bulk writer sends them: scalars unnested from a typed array, `[]` types cast per row. */
export type SqlType =
  | 'int'
  | 'smallint'
  | 'bigint'
  | 'real'
  | 'boolean'
  | 'text'
  | 'jsonb'
  | 'timestamptz'
  | 'smallint[]'
  | 'int[]'
  | 'bigint[]'
  | 'text[]';

/**
 * A column's type: the value in a selected row (`Raw`, as the drivers give it), in a record
 * (`Value`), and in a row the bulk writer sends (`Write`; timestamps as epoch milliseconds).
 */
export interface PgType<Raw, Value, Write> {
  readonly sql: SqlType;
  /** Null when the record holds the row's value as it is. */
  readonly decode: ((raw: Raw, platform: Platform) => Value) | null;
  /** Types only, never set. */
  readonly types?: { raw: Raw; value: Value; write: Write };
}

const plain = <T, Write = T>(sql: SqlType): PgType<T, T, Write> => ({ sql, decode: null });

/** The column types; `nullable(t)` for a column that may be NULL. */
export const pg = {
  int: plain<number>('int'),
  smallint: plain<number>('smallint'),
  real: plain<number>('real'),
  boolean: plain<boolean>('boolean'),
  text: plain<string>('text'),
  /** A numeric enum stored as `smallint`; written as a number. */
  smallintEnum: <E extends number>() => plain<E, number>('smallint'),
  jsonb: <T>() => plain<T>('jsonb'),
  smallintArray: plain<number[]>('smallint[]'),
  intArray: plain<number[]>('int[]'),
  bigintArray: plain<number[]>('bigint[]'),
  textArray: plain<string[]>('text[]'),
  /** PGlite gives a number, node-postgres text; records hold a number. */
  bigint: { sql: 'bigint', decode: (raw) => Number(raw) } as PgType<DbBigint, number, number>,
  /** Parsed as MikroORM hydrates it (`toDate`); written as epoch milliseconds. */
  timestamptz: { sql: 'timestamptz', decode: (raw, platform) => toDate(platform, raw) } as PgType<
    DbTimestamp,
    Date,
    number
  >,
  /** A foreign key, read as the `{id}` reference an entity relation also has. */
  ref: { sql: 'int', decode: (id) => ({ id }) } as PgType<number, { id: number }, number>,
};

export function nullable<Raw, Value, Write>(
  type: PgType<Raw, Value, Write>,
): PgType<Raw | null, Value | null, Write | null> {
  const decode = type.decode;
  return {
    sql: type.sql,
    decode: decode && ((raw, platform) => (raw === null ? null : decode(raw, platform))),
  };
}

export interface Column<Name extends string, Raw, Value, Write, Read extends boolean> {
  readonly name: Name;
  readonly type: PgType<Raw, Value, Write>;
  /** False for a column only the bulk writer fills (not selected, not in the record). */
  readonly read: Read;
}

type AnyColumn = Column<string, any, any, any, boolean>;
export type ColumnMap = Readonly<Record<string, AnyColumn>>;

/** A column read into the record field of its key, and bulk-written. */
export function column<const Name extends string, Raw, Value, Write>(
  name: Name,
  type: PgType<Raw, Value, Write>,
): Column<Name, Raw, Value, Write, true> {
  return { name, type, read: true };
}

/** A column only bulk-written (search-only, lazy or bookkeeping columns that records leave out). */
export function writeOnly<const Name extends string, Raw, Value, Write>(
  name: Name,
  type: PgType<Raw, Value, Write>,
): Column<Name, Raw, Value, Write, false> {
  return { name, type, read: false };
}

export interface Table<M extends ColumnMap> {
  readonly table: string;
  readonly columns: M;
}

export function table<M extends ColumnMap>(name: string, columns: M): Table<M> {
  return { table: name, columns };
}

type Types<C> =
  C extends Column<string, infer Raw, infer Value, infer Write, boolean>
    ? { raw: Raw; value: Value; write: Write }
    : never;
type ReadKeys<M extends ColumnMap> = { [K in keyof M]: M[K]['read'] extends true ? K : never }[keyof M];
type AnyTable = Table<ColumnMap>;

/** The record a table's read columns give, keyed by the map's keys. */
export type RecordOf<T extends AnyTable> = {
  readonly [K in ReadKeys<T['columns']>]: Types<T['columns'][K]>['value'];
};

/** A selected row: the read columns by SQL name, as the drivers give them. */
export type RowOf<T extends AnyTable> = {
  [K in ReadKeys<T['columns']> as T['columns'][K]['name']]: Types<T['columns'][K]>['raw'];
};

/** A row as the bulk writer sends it: every column of the map by SQL name. */
export type WriteRowOf<T extends AnyTable> = {
  [K in keyof T['columns'] as T['columns'][K]['name']]: Types<T['columns'][K]>['write'];
};

const readColumns = (columns: ColumnMap): [string, AnyColumn][] => Object.entries(columns).filter(([, c]) => c.read);

/** `a.id, a.guid, …`: the read columns in map order, qualified by `alias`. */
export function selectList(table: AnyTable, alias: string): string {
  return readColumns(table.columns)
    .map(([, c]) => `${alias}.${c.name}`)
    .join(', ');
}

/**
 * Row to record, field by field in map order (a decoder where the map has one). Each record starts
 * as a copy of a template holding every field, so filling it only sets existing properties: V8
 * keeps such an object's fast properties, where adding some thirty properties by computed key
 * would turn it into a slower dictionary (the JSON parser builds the template with fast ones).
 */
export function recordMapper<T extends AnyTable>(table: T): (row: RowOf<T>, platform: Platform) => RecordOf<T> {
  const fields = readColumns(table.columns).map(([key, c]) => [key, c.name, c.type.decode] as const);
  const template = JSON.parse(JSON.stringify(Object.fromEntries(fields.map(([key]) => [key, null])))) as object;
  return (row, platform) => {
    const source = row as Record<string, unknown>;
    const record: Record<string, unknown> = { ...template };
    for (const [key, name, decode] of fields) record[key] = decode ? decode(source[name], platform) : source[name];
    return record as RecordOf<T>;
  };
}

/** The bulk writer's columns: every column of the map, in map order, with its SQL type. */
export function writeColumns<T extends AnyTable>(
  table: T,
): readonly (readonly [name: keyof WriteRowOf<T> & string, type: SqlType])[] {
  return Object.values(table.columns).map((c) => [c.name as keyof WriteRowOf<T> & string, c.type.sql] as const);
}
