import { z } from 'zod';
import { type SettingsSlice, type SettingValues } from '../core/settings.js';

/** Developers' support tickets' settings; composed with the others by src/config.ts. */
const shape = {
  /** Where developers' support tickets (`POST /api/v5/developers/support`) are mailed; default `support@<SITE_URL's host>`. */
  SUPPORT_EMAIL: z.string().email().optional(),
  /** Support tickets a user, and a client address, may send per day; one more is a 429. */
  SUPPORT_TICKETS_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(10),
};

declare module '../core/settings.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Settings extends SettingValues<typeof shape> {}
}

export const developersSettings: SettingsSlice<typeof shape> = { owner: 'developers', shape };
