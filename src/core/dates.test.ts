import { formatTimestamp } from './dates.js';

describe('formatTimestamp', () => {
  it('writes UTC seconds without a fraction, as the original', () => {
    expect(formatTimestamp(new Date('2026-11-25T23:59:59.999Z'))).toBe('2026-11-25T23:59:59Z');
    expect(formatTimestamp('2020-02-29T12:00:00+02:00')).toBe('2020-02-29T10:00:00Z');
    expect(formatTimestamp(new Date(0))).toBe('1970-01-01T00:00:00Z');
  });

  it('keeps extended years, and answers null for nothing or an invalid date', () => {
    expect(formatTimestamp(new Date(Date.UTC(10000, 0, 1)))).toBe('+010000-01-01T00:00:00Z');
    expect(formatTimestamp(null)).toBeNull();
    expect(formatTimestamp(undefined)).toBeNull();
    expect(formatTimestamp('not a date')).toBeNull();
  });
});
