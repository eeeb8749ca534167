/**
 * The e-mail address check of the original forms (`^[^\s@]+@[^\s@]+\.[^\s@]+$`), without a
 * pattern that back-tracks: no white space, exactly one `@` with something before it, and a dot
 * inside the part after it (neither its first nor its last character). Linear in the length.
 */
export function isEmailAddress(value: string): boolean {
  const at = value.indexOf('@');
  if (at <= 0 || value.includes('@', at + 1) || /\s/.test(value)) return false;
  return value.slice(at + 2, -1).includes('.');
}
