import type { Addon } from './addon.entity.js';

/** The add-on's name as mails show it: in its default locale, else in any, else its slug. */
export function addonName(addon: Addon): string {
  const name = addon.name ?? {};
  return name[addon.defaultLocale] ?? Object.values(name)[0] ?? addon.slug;
}
