import { fieldMessages } from '../core/messages.js';

/** The gradient's start colour of every primary shelf (the original's `GRADIENT_START_COLOR`). */
export const SHELF_GRADIENT_START = 'color-ink-80';

/** The end colours a primary shelf may use (the original's `GRADIENT_COLORS`), by name. */
export const SHELF_GRADIENTS = [
  'color-blue-70',
  'color-green-70',
  'color-pink-70',
  'color-purple-70',
  'color-violet-70',
] as const;

/** A secondary shelf has exactly this many modules. */
export const SECONDARY_MODULES = 3;

export const MESSAGES = {
  required: fieldMessages.required,
  notNull: fieldMessages.null,
  blank: fieldMessages.blank,
  url: fieldMessages.url,
  choice: fieldMessages.choice,
  modules: `Exactly ${SECONDARY_MODULES} modules are required.`,
  cta: 'Both the call to action URL and text must be defined, or neither, for enabled shelves.',
  gradient: 'Gradient color is required for enabled shelves',
  externalHomepage: 'External primary shelves need a homepage defined in addon details.',
  addon: fieldMessages.pkOrSlugDoesNotExist,
} as const;

/** An absolute http(s) URL with a host. */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
