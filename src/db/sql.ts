/**
 * Knex expands an array bound to `?` into a comma list, so arrays go to PostgreSQL as one text
 * literal: `= any(?::int[])` with `intArray(ids)`.
 */
export function intArray(values: readonly number[]): string {
  for (const v of values) if (!Number.isSafeInteger(v)) throw new TypeError(`Not an integer: ${v}`);
  return `{${values.join(',')}}`;
}
