import { bool, type SettingsSlice, type SettingValues } from '../core/settings.js';

/** The site's settings; composed with the others by src/config.ts. */
const shape = {
  /**
   * `GET /api/v5/services/client_info/` (GraphQL `clientInfo`): echoes the caller's address and
   * forwarding headers, for checking what the service sees behind proxies. Off (403) unless enabled.
   */
  CLIENT_INFO_ENABLED: bool.default(false),
};

declare module '../core/settings.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Settings extends SettingValues<typeof shape> {}
}

export const siteSettings: SettingsSlice<typeof shape> = { owner: 'site', shape };
