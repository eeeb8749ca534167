import { abuseSettings } from './abuse/settings.js';
import { accountsSettings } from './accounts/settings.js';
import { authSettings } from './auth/settings.js';
import { blocklistSettings } from './blocklist/settings.js';
import { collectionsSettings } from './collections/settings.js';
import { platformSettings } from './core/platform-settings.js';
import { loadSettings, type Settings, type SettingsSlice } from './core/settings.js';
import { developersSettings } from './developers/settings.js';
import { reviewsSettings } from './reviews/settings.js';
import { searchSettings } from './search/settings.js';
import { signinSettings } from './signin/settings.js';
import { signingSettings } from './signing/settings.js';
import { siteSettings } from './site/settings.js';
import { trustedPublishingSettings } from './trusted-publishing/settings.js';
import { webhooksSettings } from './webhooks/settings.js';

export { ConfigError } from './core/settings.js';

/**
 * Every setting the service reads from its environment, validated once at boot: the platform's
 * (`src/core/platform-settings.ts`) and each domain's slice (`src/<domain>/settings.ts`), in the
 * modules' order (`src/modules.ts`). An invalid value stops the process with a message naming the
 * variable; a variable two slices declare stops it too.
 */
export const settingsSlices: readonly SettingsSlice[] = [
  platformSettings,
  siteSettings,
  authSettings,
  accountsSettings,
  searchSettings,
  blocklistSettings,
  reviewsSettings,
  signingSettings,
  collectionsSettings,
  abuseSettings,
  webhooksSettings,
  trustedPublishingSettings,
  signinSettings,
  developersSettings,
];

/** The settings of every slice, with `dataDir` (absolute DATA_DIR) and `signinProviders` derived. */
export type Config = Settings;

/** Reads the configuration from `env`; empty strings count as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loadSettings(settingsSlices, env);
}
