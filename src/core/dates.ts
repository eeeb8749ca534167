/** The original's timestamp format: `YYYY-MM-DDTHH:MM:SSZ`, UTC, no fraction. */
export function formatTimestamp(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const iso = date.toISOString();
  // `YYYY-MM-DDTHH:MM:SS.mmmZ` (24 characters) for years 0-9999; extended years keep the pattern.
  return iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, 'Z');
}

/** Django REST framework's message for a date-time it cannot read. */
export const DATETIME_FORMAT_MESSAGE =
  'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';

/** ISO 8601 as DRF's DateTimeField reads it; without an offset, UTC (the service's time zone). */
const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A date-time input as DRF's DateTimeField accepts it, or undefined (answer DATETIME_FORMAT_MESSAGE).
 * Past 32 characters nothing matches (checked before the pattern).
 */
export function parseDateTimeInput(value: unknown): Date | undefined {
  if (typeof value !== 'string' || value.length > 32) return undefined;
  const m = ISO_DATETIME.exec(value);
  if (!m) return undefined;
  const [, year, month, day, hour, minute, second = '00', fraction = '', offset = 'Z'] = m;
  if (Number(year) < 1 || Number(month) < 1 || Number(month) > 12 || Number(day) < 1) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const zone = offset === 'Z' ? 'Z' : offset.includes(':') ? offset : `${offset.slice(0, 3)}:${offset.slice(3)}`;
  const date = new Date(
    `${year}-${month}-${day}T${hour}:${minute}:${second}.${fraction.padEnd(3, '0').slice(0, 3)}${zone}`,
  );
  // Rolled-over days (31 April) are refused, as Python's datetime refuses them.
  if (
    Number.isNaN(date.getTime()) ||
    new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))).getUTCDate() !== Number(day)
  ) {
    return undefined;
  }
  return date;
}
