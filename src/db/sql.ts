import type { EntityManager } from '@mikro-orm/postgresql';
/**
 * Knex expands an array bound to `?` into a comma list, so arrays go to PostgreSQL as one text
 * literal: `= any(?::int[])` with `intArray(ids)`.
 */
export function intArray(values: readonly number[]): string {
  for (const v of values) if (!Number.isSafeInteger(v)) throw new TypeError(`Not an integer: ${v}`);
  return `{${values.join(',')}}`;
}

/** `numbers` as a PostgreSQL array literal for `?::real[]`, `?::int[]`…; null elements become NULL. */
export function numericArray(values: readonly (number | null)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null) parts[i] = 'NULL';
    else if (Number.isFinite(v)) parts[i] = String(v);
    else throw new TypeError(`Not a finite number: ${v}`);
  }
  return `{${parts.join(',')}}`;
}

/** Booleans as an array literal for `?::boolean[]`. */
export function boolArray(values: readonly (boolean | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : v ? 't' : 'f')).join(',')}}`;
}

/**
 * Texts as an array literal for `?::text[]` (also `?::jsonb[]`, `?::timestamptz[]`…: every element
 * is read as text first). Each element is double-quoted with `\` and `"` escaped, so commas, braces,
 * spaces, `NULL` and the empty string survive; null becomes NULL. NUL characters are refused
 * (PostgreSQL text cannot hold them).
 */
export function textArray(values: readonly (string | null)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null) {
      parts[i] = 'NULL';
      continue;
    }
    if (v.includes('\0')) throw new TypeError('Text contains a NUL character');
    parts[i] = v.includes('"') || v.includes('\\') ? `"${v.replace(/[\\"]/g, '\\$&')}"` : `"${v}"`;
  }
  return `{${parts.join(',')}}`;
}

/**
 * Raw SQL through an entity manager, inside its transaction when it has one. Needed in every
 * transaction: on embedded PGlite there is a single connection, which the transaction holds.
 */
export function executeSql<T>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<T> {
  return em.getConnection().execute<T & object>(sql, [...params], 'all', em.getTransactionContext());
}
