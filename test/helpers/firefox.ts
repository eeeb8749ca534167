/**
 * Firefox itself as a client: Debian's firefox-esr, headless, launched and driven over WebDriver
 * BiDi by puppeteer-core, with a fresh profile whose prefs point the add-on update check at the
 * service under test. Add-ons copied into `<profile>/extensions/<id>.xpi` before launch are
 * installed as profile add-ons (and, unlike temporary add-ons, checked for updates); the timer
 * prefs make the first background check run within seconds of the start.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

export const FIREFOX = '/usr/bin/firefox-esr';

/** The query Firefox's own default update URL carries (its `%…%` placeholders, filled by Firefox). */
export const UPDATE_QUERY =
  'reqVersion=%REQ_VERSION%&id=%ITEM_ID%&version=%ITEM_VERSION%&maxAppVersion=%ITEM_MAXAPPVERSION%' +
  '&status=%ITEM_STATUS%&appID=%APP_ID%&appVersion=%APP_VERSION%&appOS=%APP_OS%&appABI=%APP_ABI%' +
  '&locale=%APP_LOCALE%&currentAppVersion=%CURRENT_APP_VERSION%&updateType=%UPDATE_TYPE%' +
  '&compatMode=%COMPATIBILITY_MODE%';

export interface InstalledAddon {
  id: string;
  version: string;
  active: boolean;
}

export interface RunningFirefox {
  browser: Browser;
  profile: string;
  /** The profile add-ons as Firefox recorded them (`extensions.json`), or null before it wrote one. */
  installed(id: string): InstalledAddon | null;
  close(): Promise<void>;
}

export async function launchFirefox(options: {
  /** Firefox's `extensions.update.url` (and the background check's). */
  updateUrl: string;
  /** Add-ons installed in the profile before the start: id → package bytes or a file path. */
  addons: Record<string, Buffer | string>;
  prefs?: Record<string, string | number | boolean>;
  /** Firefox's `-remote-allow-system-access`: BiDi may then open privileged pages (about:addons). */
  systemAccess?: boolean;
}): Promise<RunningFirefox> {
  if (!existsSync(FIREFOX)) {
    throw new Error(`Firefox is missing at ${FIREFOX}: install Debian's package (apt-get install firefox-esr).`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'firefox-profile-'));
  mkdirSync(join(profile, 'extensions'));
  for (const [id, xpi] of Object.entries(options.addons)) {
    const target = join(profile, 'extensions', `${id}.xpi`);
    if (typeof xpi === 'string') copyFileSync(xpi, target);
    else writeFileSync(target, xpi);
  }
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    userDataDir: profile,
    args: options.systemAccess ? ['-remote-allow-system-access'] : [],
    extraPrefsFirefox: {
      'extensions.update.url': options.updateUrl,
      'extensions.update.background.url': options.updateUrl,
      'extensions.update.enabled': true,
      'extensions.update.autoUpdateDefault': true,
      // The background check: every 5 s, the first one 2 s after the start.
      'extensions.update.interval': 5,
      'app.update.timerMinimumDelay': 1,
      'app.update.timerFirstInterval': 2000,
      'app.update.lastUpdateTime.addon-background-update-timer': 1,
      // A plain-http update URL on loopback, and packages signed by the test's own root.
      'extensions.checkUpdateSecurity': false,
      'xpinstall.signatures.required': false,
      // Profile add-ons are enabled without asking.
      'extensions.autoDisableScopes': 0,
      'extensions.enabledScopes': 15,
      ...options.prefs,
    },
  });
  return {
    browser,
    profile,
    installed(id) {
      const path = join(profile, 'extensions.json');
      if (!existsSync(path)) return null;
      const state = JSON.parse(readFileSync(path, 'utf8')) as { addons: InstalledAddon[] };
      const addon = state.addons.find((a) => a.id === id);
      return addon ? { id: addon.id, version: addon.version, active: addon.active } : null;
    },
    async close() {
      await browser.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
