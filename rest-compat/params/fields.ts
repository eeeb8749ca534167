/**
 * Values of JSON bodies as the original's serializer fields read them (DRF), shared by the
 * domains' body parsers.
 */
export type Body = Readonly<Record<string, unknown>>;

const TRUE_VALUES = new Set<unknown>(['t', 'y', 'yes', 'true', 'on', '1', 1, true]);
const FALSE_VALUES = new Set<unknown>(['f', 'n', 'no', 'false', 'off', '0', 0, false]);

/** A JSON body as an object (anything else: no fields). */
export function jsonObject(body: unknown): Body {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
}

/** A BooleanField's value: true, false, null, or undefined for what it refuses ("Must be a valid boolean."). */
export function drfBoolean(value: unknown): boolean | null | undefined {
  if (value === null) return null;
  const key = typeof value === 'string' ? value.toLowerCase() : value;
  if (TRUE_VALUES.has(key)) return true;
  if (FALSE_VALUES.has(key)) return false;
  return undefined;
}
