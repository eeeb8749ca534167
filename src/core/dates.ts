/** The original's timestamp format: `YYYY-MM-DDTHH:MM:SSZ`, UTC, no fraction. */
export function formatTimestamp(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
