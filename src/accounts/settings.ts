import { z } from 'zod';
import { bool, type SettingsSlice, type SettingValues } from '../core/settings.js';

/** Accounts' settings; composed with the others by src/config.ts. */
const shape = {
  /** `POST /accounts/super-create/` (test accounts for `Accounts:SuperCreate` holders): off unless enabled. */
  SUPER_CREATE_ENABLED: bool.default(false),
  /**
   * When the developer agreement last changed (ISO 8601, e.g. `2025-08-04T00:00:00Z`): developers who
   * accepted it before must accept it again. Unset, or in the future: the original's fallback date,
   * 2019-12-02 12:00 UTC (a future date applies once it is reached).
   */
  DEVELOPER_AGREEMENT_CHANGED: z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date-time')
    .transform((v) => new Date(v))
    .optional(),
};

declare module '../core/settings.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Settings extends SettingValues<typeof shape> {}
}

export const accountsSettings: SettingsSlice<typeof shape> = { owner: 'accounts', shape };
