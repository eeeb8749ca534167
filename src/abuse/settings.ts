import { z } from 'zod';
import { type SettingsSlice, type SettingValues } from '../core/settings.js';

/** Abuse reports' settings; composed with the others by src/config.ts. */
const shape = {
  /** Abuse reports a signed-in user, and a client address, may send per day; one more is a 429 (the original: 20). */
  ABUSE_REPORTS_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(20),
  /**
   * Open abuse reports about an add-on within 30 days that send it to human review (its waiting
   * versions due sooner, its next version not approved automatically); 0 turns this off.
   */
  ABUSE_REPORTS_REVIEW_THRESHOLD: z.coerce.number().int().min(0).max(1_000_000).default(10),
};

declare module '../core/settings.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Settings extends SettingValues<typeof shape> {}
}

export const abuseSettings: SettingsSlice<typeof shape> = { owner: 'abuse', shape };
