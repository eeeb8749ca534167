import { z } from 'zod';
import { type SettingsSlice, type SettingValues } from '../core/settings.js';

/** Collections' settings; composed with the others by src/config.ts. */
const shape = {
  /** Username of the vendor's own account, whose collections curators (Admin:Curation) manage. */
  VENDOR_COLLECTIONS_USER: z.string().min(1).default('vendor'),
  /** Slug of that account's featured-themes collection (Collections:Contribute may manage its add-ons). */
  VENDOR_FEATURED_THEMES_COLLECTION: z.string().min(1).default('featured-themes'),
};

declare module '../core/settings.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Settings extends SettingValues<typeof shape> {}
}

export const collectionsSettings: SettingsSlice<typeof shape> = { owner: 'collections', shape };
