import { z } from 'zod';
import { type SettingsSlice, type SettingValues } from '../core/settings.js';

/** The blocklist's publication settings; composed with the others by src/config.ts. */
const shape = {
  /**
   * Seconds a publication of the blocklist waits after a version is signed, so that the signings of a
   * busy hour make one stash (block changes publish at once).
   */
  BLOCKLIST_PUBLISH_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /** Stash entries since the last base filters past which a publication builds new ones (the original: 5000). */
  BLOCKLIST_BASE_THRESHOLD: z.coerce.number().int().min(1).max(10_000_000).default(5_000),
};

declare module '../core/settings.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Settings extends SettingValues<typeof shape> {}
}

export const blocklistSettings: SettingsSlice<typeof shape> = { owner: 'blocklist', shape };
