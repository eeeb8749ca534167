/**
 * The calls Firefox's add-ons manager makes to the catalogue's API (issue 38 item 3), sent exactly as
 * Firefox ESR 153 sends them (its default prefs, placeholders filled as its URL formatter fills them)
 * and read field by field as its parsers read them (`AddonRepository` `_parseAddon`,
 * `getAvailableLangpacks`, `getMappedAddons`; about:addons' `DiscoAddonWrapper`; the abuse report
 * `AbuseReporter.sendAbuseReport`):
 *
 * | pref                                       | URL after substitution                                                       |
 * | ------------------------------------------ | ---------------------------------------------------------------------------- |
 * | `extensions.getAddons.get.url`             | `/api/v4/addons/search/?guid=<encodeURIComponent(ids.join(','))>&lang=en-US` |
 * | `extensions.getAddons.langpacks.url`       | `/api/v4/addons/language-tools/?app=firefox&type=language&appversion=153.8.0` |
 * | `extensions.getAddons.discovery.api_url`   | `/api/v4/discovery/?lang=en-US&edition=default[&telemetry-client-id=<sha256>]` |
 * | `extensions.getAddons.browserMappings.url` | `/api/v5/addons/browser-mappings/?browser=chrome`                            |
 * | `extensions.addonAbuseReport.url`          | `POST /api/v5/abuse/report/addon/` (JSON body)                              |
 */
import { createHash } from 'node:crypto';
import { AddonType, App } from '../src/catalogue/catalogue.enums.js';
import type { Addon } from '../src/catalogue/addon.entity.js';
import { AddonBrowserMapping, Browser } from '../src/discovery/browser-mappings/browser-mapping.entity.js';
import { DiscoveryItem } from '../src/discovery/discovery.entity.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';

type Json = Record<string, any>;

let t: TestApp;
let ext: Addon;
let theme: Addon;
let langpack: Addon;
let dictionary: Addon;
let many: Addon[] = [];
let slashy: Addon;
const APP_VERSION = '153.8.0';

/** Firefox's `_formatURLPref`: each substituted value through `encodeURIComponent`. */
const metadataUrl = (ids: string[], locale = 'en-US') =>
  `/api/v4/addons/search/?guid=${encodeURIComponent(ids.join(','))}&lang=${locale}`;
/** The `rta:` form Firefox sends for an id it got from a Return To AMO attribution. */
const rta = (guid: string) => `rta:${Buffer.from(guid).toString('base64').replace(/=+$/, '')}`;

/** Firefox's `_fetchPaged`: follows `next` until there is none, collecting `results`. */
async function fetchPaged(url: string): Promise<Json[]> {
  const results: Json[] = [];
  for (let next: string | null = url; next;) {
    const res = await t.http.get(next.replace(/^https?:\/\/[^/]+/, ''));
    expect([next, res.status]).toEqual([next, 200]);
    expect(Array.isArray(res.body.results)).toBe(true);
    results.push(...res.body.results);
    expect(res.body.next === null || typeof res.body.next === 'string').toBe(true);
    next = res.body.next;
  }
  return results;
}

const isUrl = (value: unknown) => typeof value === 'string' && /^https?:\/\//.test(value);
const stringOrNull = (value: unknown) => value === null || typeof value === 'string';

/**
 * Every field `AddonRepository._parseAddon` reads, with the type it relies on: what it would store
 * in `addons.json` (`sourceURI` from the first file whose `platform` is `all` or `linux`).
 */
function parseAsFirefox(entry: Json) {
  expect(typeof entry.guid).toBe('string');
  expect(typeof entry.name).toBe('string');
  expect(typeof entry.current_version).toBe('object');
  expect(typeof entry.current_version.version).toBe('string');
  expect(Array.isArray(entry.current_version.files)).toBe(true);
  const file = (entry.current_version.files as Json[]).find((f) => f.platform === 'all' || f.platform === 'linux');
  expect(file).toBeDefined();
  expect(isUrl(file!.url)).toBe(true);
  for (const key of ['homepage', 'support_url', 'contributions_url', 'summary', 'description']) {
    expect([key, stringOrNull(entry[key])]).toEqual([key, true]);
  }
  expect(isUrl(entry.url)).toBe(true);
  expect(typeof entry.weekly_downloads).toBe('number');
  expect(typeof entry.type).toBe('string');
  expect(Array.isArray(entry.authors)).toBe(true);
  for (const author of entry.authors as Json[]) {
    expect(typeof author.name).toBe('string');
    expect(isUrl(author.url)).toBe(true);
  }
  expect(Array.isArray(entry.previews)).toBe(true);
  for (const shot of entry.previews as Json[]) {
    expect(isUrl(shot.image_url)).toBe(true);
    expect(isUrl(shot.thumbnail_url)).toBe(true);
    expect(shot.image_size).toEqual([expect.any(Number), expect.any(Number)]);
    expect(shot.thumbnail_size).toEqual([expect.any(Number), expect.any(Number)]);
    expect(stringOrNull(shot.caption)).toBe(true);
  }
  expect(typeof entry.ratings).toBe('object');
  expect(typeof entry.ratings.average).toBe('number');
  expect(typeof entry.ratings.text_count).toBe('number');
  expect(isUrl(entry.ratings_url)).toBe(true);
  expect(Number.isNaN(new Date(entry.last_updated).getTime())).toBe(false);
  expect(typeof entry.icons).toBe('object');
  for (const size of ['32', '64', '128']) expect(isUrl(entry.icons[size])).toBe(true);
  return {
    id: entry.guid as string,
    name: entry.name as string,
    version: entry.current_version.version as string,
    sourceURI: file!.url as string,
    homepageURL: entry.homepage as string | null,
    supportURL: entry.support_url as string | null,
    contributionURL: entry.contributions_url as string | null,
    description: entry.summary as string | null,
    type: ({ persona: 'theme', statictheme: 'theme', language: 'locale' } as Json)[entry.type] ?? entry.type,
    creator: entry.authors[0]?.name as string | undefined,
    averageRating: Math.min(5, entry.ratings.average),
    reviewCount: entry.ratings.text_count as number,
    screenshots: (entry.previews as Json[]).length,
  };
}

/**
 * What about:addons' `DiscoAddonWrapper` takes from a discovery item: `_parseAddon` of its `addon`
 * (of which it keeps id, type, name, screenshots, sourceURI, creator, averageRating; the discovery
 * add-on carries no `current_version.version`, as in the original) and a few fields of its own.
 */
function discoAsFirefox(item: Json) {
  const { addon } = item;
  expect(typeof addon.guid).toBe('string');
  expect(typeof addon.type).toBe('string');
  expect(typeof addon.name).toBe('string');
  expect(Array.isArray(addon.previews)).toBe(true);
  expect(Array.isArray(addon.current_version.files)).toBe(true);
  const file = (addon.current_version.files as Json[]).find((f) => f.platform === 'all' || f.platform === 'linux');
  expect(isUrl(file?.url)).toBe(true);
  expect(Array.isArray(addon.authors)).toBe(true);
  for (const author of addon.authors as Json[])
    expect([typeof author.name, isUrl(author.url)]).toEqual(['string', true]);
  expect(typeof addon.ratings.average).toBe('number');
  expect(typeof addon.average_daily_users).toBe('number');
  expect(isUrl(addon.icon_url)).toBe(true);
  expect(isUrl(addon.url)).toBe(true);
  expect(stringOrNull(item.description_text)).toBe(true);
  expect(typeof item.is_recommendation).toBe('boolean');
  return {
    id: addon.guid as string,
    type: ({ persona: 'theme', statictheme: 'theme', language: 'locale' } as Json)[addon.type] ?? addon.type,
    name: addon.name as string,
    screenshots: (addon.previews as Json[]).length,
    sourceURI: file!.url as string,
    creator: addon.authors[0]?.name as string | undefined,
    averageRating: Math.min(5, addon.ratings.average),
    dailyUsers: addon.average_daily_users as number,
    editorialDescription: item.description_text as string | null,
    iconURL: addon.icon_url as string,
    amoListingUrl: addon.url as string,
    taarRecommended: item.is_recommendation as boolean,
  };
}

beforeAll(async () => {
  t = await startTestApp();
  const em = t.em();
  const author = await t.createUser({ name: 'Ann Author' });
  ext = await createAddon(em, {
    guid: '{6f5c2a0e-1b4d-4c8e-9a7f-3e2d1c0b9a88}',
    slug: 'metadata-extension',
    name: { 'en-US': 'Metadata Extension', fr: 'Extension de métadonnées' },
    summary: { 'en-US': 'What it does', fr: 'Ce qu’elle fait' },
    description: { 'en-US': 'A <b>longer</b>\ndescription' },
    homepage: { 'en-US': 'https://metadata.example/home' },
    supportUrl: { 'en-US': 'https://metadata.example/help' },
    contributionsUrl: 'https://www.paypal.me/metadata',
    weeklyDownloads: 77,
    averageRating: 4.5,
    textRatingsCount: 3,
    totalRatings: 4,
    lastUpdated: new Date(Date.UTC(2026, 0, 2)),
    authors: [{ id: author.id }],
    previews: 2,
  });
  theme = await createAddon(em, { guid: 'metadata-theme@firefox.test', type: AddonType.STATICTHEME });
  langpack = await createAddon(em, {
    guid: 'langpack-fr@firefox.mozilla.org',
    slug: 'francais-language-pack',
    type: AddonType.LANGUAGE,
    targetLocale: 'fr',
    versions: [
      { version: '128.0', compat: { [App.BROWSER]: ['128.0', '128.*'] } },
      { version: '153.0', compat: { [App.BROWSER]: ['153.0', '153.*'] } },
    ],
  });
  dictionary = await createAddon(em, {
    guid: 'de-DE@dictionaries.addons.mozilla.org',
    type: AddonType.DICTIONARY,
    targetLocale: 'de',
  });
  slashy = await createAddon(em, { guid: 'ab?@firefox.test' });
  many = [];
  for (let i = 0; i < 30; i++) {
    many.push(await createAddon(em, { guid: `{${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000}` }));
  }
  em.create(DiscoveryItem, { addon: ext, position: 1, customDescription: { 'en-US': 'Editors like it' } } as never);
  em.create(DiscoveryItem, { addon: theme, position: 2 } as never);
  em.create(AddonBrowserMapping, { addon: ext, browser: Browser.CHROME, extensionId: 'a'.repeat(32) });
  await em.flush();
}, 120_000);
afterAll(() => t?.close());

describe('metadata of installed add-ons (extensions.getAddons.get.url)', () => {
  it('answers every field AddonRepository reads, in the request language', async () => {
    // Installed: ours, and ids the service does not know (built-in themes, self-distributed add-ons).
    const ids = [ext.guid!, 'default-theme@mozilla.org', theme.guid!, 'unknown@example.com'];
    const results = await fetchPaged(metadataUrl(ids));
    expect(results.map((r) => r.guid).sort()).toEqual([ext.guid, theme.guid].sort());
    const parsed = parseAsFirefox(results.find((r) => r.guid === ext.guid)!);
    expect(parsed).toEqual({
      id: ext.guid,
      name: 'Metadata Extension',
      version: '1.0.0',
      sourceURI: expect.stringContaining('/downloads/file/'),
      homepageURL: 'https://metadata.example/home',
      supportURL: 'https://metadata.example/help',
      contributionURL: expect.stringContaining('https://www.paypal.me/metadata'),
      description: 'What it does',
      type: 'extension',
      creator: 'Ann Author',
      averageRating: 4.5,
      reviewCount: 3,
      screenshots: 2,
    });
    expect(parseAsFirefox(results.find((r) => r.guid === theme.guid)!).type).toBe('theme');
    const fr = await fetchPaged(metadataUrl([ext.guid!], 'fr'));
    expect(parseAsFirefox(fr[0]!)).toMatchObject({ name: 'Extension de métadonnées', description: 'Ce qu’elle fait' });
  });

  it('pages through a profile with many add-ons by `next`, with the guids kept', async () => {
    const ids = [...many.map((a) => a.guid!), ext.guid!];
    const first = await t.http.get(metadataUrl(ids));
    expect(first.body.count).toBe(ids.length);
    expect(first.body.next).toEqual(expect.stringContaining('page=2'));
    const results = await fetchPaged(metadataUrl(ids));
    expect(results.map((r) => r.guid).sort()).toEqual([...ids].sort());
    for (const entry of results) parseAsFirefox(entry);
  });

  it('takes the `rta:` form Firefox sends for one id (standard base64, as Firefox decodes it with atob)', async () => {
    const results = await fetchPaged(metadataUrl([rta(ext.guid!)]));
    // Firefox keeps the entries whose guid is atob(<the rta value>).
    expect(results.map((r) => r.guid)).toEqual([Buffer.from(rta(ext.guid!).slice(4), 'base64').toString()]);
    parseAsFirefox(results[0]!);
    // A guid whose standard base64 holds `/` (Firefox URL-encodes it as %2F).
    expect(rta(slashy.guid!)).toContain('/');
    expect((await fetchPaged(metadataUrl([rta(slashy.guid!)]))).map((r) => r.guid)).toEqual([slashy.guid]);
  });

  it('gives a dictionary its download (LangPackMatcher installs it from sourceURI)', async () => {
    const [entry] = await fetchPaged(metadataUrl([dictionary.guid!]));
    expect(parseAsFirefox(entry!)).toMatchObject({ type: 'dictionary', sourceURI: expect.any(String) });
  });
});

describe('language packs (extensions.getAddons.langpacks.url)', () => {
  it('lists the packs for Firefox’s version with the files getAvailableLangpacks reads', async () => {
    const res = await t.http.get(`/api/v4/addons/language-tools/?app=firefox&type=language&appversion=${APP_VERSION}`);
    expect(res.status).toBe(200);
    const entries = (res.body.results as Json[]).flatMap((entry) =>
      ((entry.current_compatible_version?.files ?? []) as Json[])
        .filter((file) => file.platform === 'all' || file.platform === 'linux')
        .map((file) => ({
          id: entry.guid,
          hash: file.hash,
          target_locale: entry.target_locale,
          url: file.url,
          version: entry.current_compatible_version.version,
        })),
    );
    expect(entries).toEqual([
      {
        id: langpack.guid,
        hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        target_locale: 'fr',
        url: expect.stringMatching(/^https?:\/\/.*\/downloads\/file\//),
        version: '153.0',
      },
    ]);
  });
});

describe('the discovery pane (extensions.getAddons.discovery.api_url)', () => {
  const clientId = createHash('sha256').update('c0ffee00-0000-4000-8000-000000000000').digest('hex');
  for (const query of ['lang=en-US&edition=default', `lang=en-US&edition=default&telemetry-client-id=${clientId}`]) {
    it(`answers what DiscoAddonWrapper reads (${query.includes('telemetry') ? 'with' : 'without'} a client id)`, async () => {
      const res = await t.http.get(`/api/v4/discovery/?${query}`);
      expect(res.status).toBe(200);
      const results = res.body.results as Json[];
      expect(results.map((r) => r.addon.guid)).toEqual(expect.arrayContaining([ext.guid, theme.guid]));
      const wrapped = results.map(discoAsFirefox);
      expect(wrapped.find((w) => w.id === ext.guid)).toEqual({
        id: ext.guid,
        type: 'extension',
        name: 'Metadata Extension',
        screenshots: 2,
        sourceURI: expect.stringContaining('/downloads/file/'),
        creator: 'Ann Author',
        averageRating: 4.5,
        dailyUsers: expect.any(Number),
        editorialDescription: 'Editors like it',
        iconURL: expect.stringMatching(/^https?:/),
        amoListingUrl: expect.stringContaining('/metadata-extension/'),
        taarRecommended: false,
      });
      expect(wrapped.find((w) => w.id === theme.guid)).toMatchObject({ type: 'theme' });
    });
  }
});

describe('importing extensions from Chrome (extensions.getAddons.browserMappings.url)', () => {
  it('maps the extension to the add-on, then gives its metadata by guid', async () => {
    const mapped = await fetchPaged('/api/v5/addons/browser-mappings/?browser=chrome');
    expect(mapped).toEqual([{ extension_id: 'a'.repeat(32), addon_guid: ext.guid }]);
    const [entry] = await fetchPaged(metadataUrl(mapped.map((m) => m.addon_guid as string)));
    expect(parseAsFirefox(entry!).id).toBe(ext.guid);
  });
});

describe('abuse reports (extensions.addonAbuseReport.url)', () => {
  it('accepts the body AbuseReporter posts for an installed add-on', async () => {
    const res = await t.http
      .post('/api/v5/abuse/report/addon/')
      .set('Content-Type', 'application/json')
      .send({
        addon: ext.guid,
        reason: 'illegal',
        message: 'It shows things it should not',
        illegal_category: 'other',
        illegal_subcategory: 'other',
        location: 'addon',
        addon_version: '1.0.0',
        addon_name: 'Metadata Extension',
        addon_summary: 'What it does',
        addon_install_origin: `https://example.test/downloads/file/1/x.xpi`,
        install_date: new Date(Date.UTC(2026, 0, 3)).toISOString(),
        addon_install_source: 'amo',
        addon_install_source_url: 'https://example.test/en-US/firefox/addon/metadata-extension/',
        addon_install_method: 'amwebapi',
        addon_signature: 'signed',
        client_id: clientId(),
        app: 'firefox',
        appversion: APP_VERSION,
        lang: 'en-US',
        operating_system: 'linux',
        operating_system_version: '6.1',
      });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ reason: 'illegal', addon: { guid: ext.guid } });
  });
});

function clientId() {
  return createHash('sha256').update('client').digest('hex');
}
