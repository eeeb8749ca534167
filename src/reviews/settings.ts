import { z } from 'zod';
import { bool, list, type SettingsSlice, type SettingValues } from '../core/settings.js';

/**
 * Reviews' settings: reviewer browse, replies by mail, self-reviews;
 * composed with the others by src/config.ts.
 */
const shape = {
  /**
   * Reviewer browse and compare: a text file over BROWSE_CONTENT_MAX_KB is browsed without its
   * content; a diff with a side over BROWSE_DIFF_MAX_KB or BROWSE_DIFF_MAX_LINES lines (or a whole
   * replacement showing more lines) is answered as too large (binary, no hunks); at most
   * BROWSE_CONCURRENT_READS members are read whole at once per process (others wait).
   */
  BROWSE_CONTENT_MAX_KB: z.coerce.number().int().min(1).max(102_400).default(16_384),
  BROWSE_DIFF_MAX_KB: z.coerce.number().int().min(1).max(102_400).default(8_192),
  BROWSE_DIFF_MAX_LINES: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  BROWSE_CONCURRENT_READS: z.coerce.number().int().min(1).max(64).default(2),
  /** Inbound review replies (`POST /api/{v}/activity/mail/`): disabled (403) without a secret. */
  INBOUND_EMAIL_SECRET_KEY: z.string().min(1).optional(),
  /** Answered to the mail provider's `Type: "Validation"` probe. */
  INBOUND_EMAIL_VALIDATION_KEY: z.string().min(1).optional(),
  /** Client addresses allowed to post inbound mail (comma-separated; empty: any). */
  INBOUND_EMAIL_ALLOWED_IPS: list.default([]),
  /** Reviewers may decide on versions of add-ons they are an author of (the original's ALLOW_SELF_REVIEWS). */
  ALLOW_SELF_REVIEWS: bool.default(false),
  /** Domain of `reviewreply+<uuid>@<domain>` addresses; default: SITE_URL's host name. */
  INBOUND_EMAIL_DOMAIN: z.string().min(1).optional(),
};

declare module '../core/settings.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Settings extends SettingValues<typeof shape> {}
}

export const reviewsSettings: SettingsSlice<typeof shape> = { owner: 'reviews', shape };
