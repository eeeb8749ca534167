/**
 * A slug from a name: lower case, letters and digits of any script, words joined by `-`, at most
 * `maxLength` characters; `addon` when nothing is left.
 */
export function slugify(name: string, maxLength = 50): string {
  const slug = name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/, '');
  return slug || 'addon';
}
