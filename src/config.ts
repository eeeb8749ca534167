import { platformSettings } from './core/platform-settings.js';
import { loadSettings, type Settings, type SettingsSlice } from './core/settings.js';
import { modules } from './modules.js';

export { ConfigError } from './core/settings.js';

/**
 * Every setting the service reads from its environment, validated once at boot: the platform's
 * (`src/core/platform-settings.ts`) and each domain's slice (`src/<domain>/settings.ts`), in the
 * modules' order (`src/modules.ts`). An invalid value stops the process with a message naming the
 * variable; a variable two slices declare stops it too.
 */
export const settingsSlices: readonly SettingsSlice[] = [
  platformSettings,
  ...modules.flatMap((module) => (module.settings ? [module.settings] : [])),
];

/** The settings of every slice, with `dataDir` (absolute DATA_DIR) and `signinProviders` derived. */
export type Config = Settings;

/** Reads the configuration from `env`; empty strings count as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loadSettings(settingsSlices, env);
}
