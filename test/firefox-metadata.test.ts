/**
 * Firefox itself fetches the catalogue's metadata of an installed add-on (issue 38 item 3):
 * Debian's firefox-esr, headless, driven over WebDriver BiDi (puppeteer-core), with a profile
 * whose `extensions.getAddons.get.url` is this service's `addons/search/?guid=%IDS%&lang=%LOCALE%`
 * (Firefox's default, on v4) and the metadata cache on. The add-ons manager's background update
 * check (`addon-background-update-timer`, made to fire 2 s after the start by the helper's prefs)
 * first repopulates the cache (`AddonRepository.backgroundUpdateCheck` → `getAddonsByIDs` of every
 * installed add-on), then checks for updates. The service sees the request with the add-on's guid;
 * Firefox stores what it read in the profile's `addons.json` (the AddonRepository cache) and shows
 * it on the add-on (name and homepage from the catalogue, not from the package).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Addon } from '../src/catalogue/addon.entity.js';
import { DiscoveryItem } from '../src/discovery/discovery.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { launchFirefox, UPDATE_QUERY, type RunningFirefox } from './helpers/firefox.js';
import { freePort } from './helpers/process.js';
import { extension, waitFor } from './helpers/signing.js';

type Json = Record<string, any>;

let t: TestApp;
let server: Server;
let base: string;
let addon: Addon;
let firefox: RunningFirefox | null = null;
/** Every request the service received from Firefox: method and URL. */
const seen: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ env: { SITE_URL: base } });
  server = createServer((req, res) => {
    if (/firefox/i.test(req.headers['user-agent'] ?? '')) seen.push(`${req.method} ${req.url}`);
    t.app.express(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const author = await t.createUser({ name: 'Meta Author' });
  const em = t.em();
  addon = await createAddon(em, {
    guid: 'metadata@firefox.test',
    slug: 'firefox-metadata',
    name: { 'en-US': 'Catalogue Name Of Metadata' },
    summary: { 'en-US': 'The catalogue summary' },
    homepage: { 'en-US': 'https://metadata.example/home' },
    supportUrl: { 'en-US': 'https://metadata.example/support' },
    weeklyDownloads: 12,
    authors: [{ id: author.id }],
    previews: 1,
    versions: [{ version: '1.0' }],
  });
  em.create(DiscoveryItem, { addon, position: 1 } as never);
  await em.flush();
}, 120_000);

afterAll(async () => {
  await firefox?.close();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

/** The profile's AddonRepository cache, or null before Firefox wrote it. */
function cached(profile: string, id: string): Json | null {
  const path = join(profile, 'addons.json');
  if (!existsSync(path)) return null;
  try {
    const db = JSON.parse(readFileSync(path, 'utf8')) as { addons: Json[] };
    return db.addons.find((a) => a.id === id) ?? null;
  } catch {
    return null; // written at this very moment
  }
}

it('Firefox fetches an installed add-on’s metadata from the service and caches it', async () => {
  firefox = await launchFirefox({
    updateUrl: `${base}/update/VersionCheck.php?${UPDATE_QUERY}`,
    addons: {
      [addon.guid!]: await extension({ id: addon.guid, version: '1.0', name: 'Package Name Of Metadata' }),
    },
    systemAccess: true,
    prefs: {
      'extensions.getAddons.get.url': `${base}/api/v4/addons/search/?guid=%IDS%&lang=%LOCALE%`,
      'extensions.getAddons.cache.enabled': true,
      'extensions.getAddons.cache.lastUpdate': 0,
      // about:addons' recommendations (the discovery pane), from the service.
      'extensions.getAddons.discovery.api_url': `${base}/api/v4/discovery/?lang=%LOCALE%&edition=%DISTRIBUTION%`,
      'extensions.getAddons.showPane': true,
      'extensions.htmlaboutaddons.recommendations.enabled': true,
      'browser.discovery.enabled': true,
    },
  });
  // Driven over BiDi: the browser is up.
  const page = await firefox.browser.newPage();
  await page.goto(`${base}/api/v4/addons/addon/${addon.slug}/`);
  expect(JSON.parse((await page.evaluate('document.body.innerText')) as string)).toMatchObject({ guid: addon.guid });

  const entry = await waitFor(
    `Firefox to cache the metadata of ${addon.guid}`,
    async () => cached(firefox!.profile, addon.guid!),
    90_000,
  );
  // The request Firefox made: its metadata URL with the installed add-on's guid among the ids.
  const asked = seen
    .filter((line) => line.startsWith('GET /api/v4/addons/search/?'))
    .map((line) => new URL(line.slice(4), base).searchParams);
  expect(asked.some((query) => (query.get('guid') ?? '').split(',').includes(addon.guid!))).toBe(true);
  expect(asked.every((query) => query.get('lang') === 'en-US')).toBe(true);

  // What Firefox stored, read from the service's answer.
  expect(entry).toMatchObject({
    id: addon.guid,
    name: 'Catalogue Name Of Metadata',
    homepageURL: 'https://metadata.example/home',
    supportURL: 'https://metadata.example/support',
    description: 'The catalogue summary',
    version: '1.0',
    type: 'extension',
    weeklyDownloads: 12,
    creator: { name: 'Meta Author', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//) },
    sourceURI: expect.stringContaining(`${base}/downloads/file/`),
    amoListingURL: expect.stringContaining('/firefox-metadata/'),
    icons: { '32': expect.any(String), '64': expect.any(String), '128': expect.any(String) },
  });
  expect(entry.screenshots).toHaveLength(1);
  expect(entry.screenshots[0]).toMatchObject({ url: expect.stringContaining(base), width: 1280, height: 800 });
}, 300_000);

it('about:addons asks the service for its recommendations (the discovery pane)', async () => {
  const page = await firefox!.browser.newPage();
  // A privileged page: the navigation starts but BiDi sees no load event of a content document.
  const opening = page.goto('about:addons', { timeout: 10_000 }).catch((error: Error) => error);
  await waitFor(
    'about:addons to ask for recommendations',
    async () => seen.some((line) => line.startsWith('GET /api/v4/discovery/?')),
    60_000,
  );
  const query = new URL(seen.find((line) => line.startsWith('GET /api/v4/discovery/?'))!.slice(4), base).searchParams;
  await opening;
  // Firefox's default query, its placeholders filled (no distribution id: `default`; no
  // `telemetry-client-id` while telemetry is off, as in this profile).
  expect([...query.keys()].sort()).toEqual(['edition', 'lang']);
  expect(query.get('lang')).toBe('en-US');
  expect(query.get('edition')).toBe('default');
  // What the pane then reads from that very answer: test/firefox-addons-manager.test.ts.
  const answer = await fetch(`${base}/api/v4/discovery/?${query}`);
  expect(answer.status).toBe(200);
  const { results } = (await answer.json()) as { results: Json[] };
  expect(results.map((item) => item.addon.guid)).toEqual([addon.guid]);
}, 120_000);
