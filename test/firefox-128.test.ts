import { App } from '../src/catalogue/catalogue.enums.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';

/**
 * Today's browsers (issue 37): the catalogue front-end sends the visitor's version as
 * `appversion=128.0`, which the original reads like any other (its version_int has no limit on the
 * major version). Detail, search and autocomplete answer it, with a Firefox 128 user agent.
 */
const FIREFOX_128 = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  const em = t.em();
  await createAddon(em, {
    slug: 'modern-tool',
    name: { 'en-US': 'Modern Toolbox' },
    averageDailyUsers: 50,
    versions: [{ version: '2.0', compat: { [App.BROWSER]: ['115.0', '*'] } }],
  });
  await createAddon(em, {
    slug: 'future-tool',
    name: { 'en-US': 'Future Toolbox' },
    averageDailyUsers: 40,
    versions: [{ version: '3.0', compat: { [App.BROWSER]: ['140.0', '*'] } }],
  });
  await createAddon(em, {
    slug: 'collecting-tool',
    name: { 'en-US': 'Collecting Tool' },
    averageDailyUsers: 0,
    versions: [
      {
        version: '1.0',
        permissions: ['storage'],
        hostPermissions: ['https://example.com/*'],
        dataCollectionPermissions: ['locationInfo'],
        optionalDataCollectionPermissions: ['technicalAndInteraction'],
      },
    ],
  });
  await createAddon(em, {
    slug: 'legacy-tool',
    name: { 'en-US': 'Legacy Toolbox' },
    averageDailyUsers: 30,
    versions: [{ version: '1.0', compat: { [App.BROWSER]: ['60.0', '99.*'] } }],
  });
}, 120_000);
afterAll(() => t.close());

const get = (path: string) => t.http.get(path).set('User-Agent', FIREFOX_128);

describe('appversion of a three-digit major version (Firefox 128)', () => {
  it('detail answers it (v4 and v5)', async () => {
    for (const v of ['v4', 'v5']) {
      const app = v === 'v5' ? 'firefox' : 'browser';
      const res = await get(`/api/${v}/addons/addon/modern-tool/?app=${app}&appversion=128.0&lang=en-US`);
      expect(res.status).toBe(200);
      expect(res.body.current_version.version).toBe('2.0');
    }
  });

  it('search keeps what is compatible with 128.0 and drops what is not', async () => {
    for (const v of ['v4', 'v5']) {
      const app = v === 'v5' ? 'firefox' : 'browser';
      const res = await get(`/api/${v}/addons/search/?app=${app}&appversion=128.0&q=toolbox&lang=en-US`);
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: { slug: string }) => r.slug).sort()).toEqual(['modern-tool']);
    }
    // 140.0: the future add-on too; 99.0: the legacy one, and `*` still reaches past any major.
    const later = await get('/api/v5/addons/search/?app=firefox&appversion=140.0&q=toolbox');
    expect(later.body.results.map((r: { slug: string }) => r.slug).sort()).toEqual(['future-tool', 'modern-tool']);
    const older = await get('/api/v5/addons/search/?app=firefox&appversion=99.0&q=toolbox');
    expect(older.body.results.map((r: { slug: string }) => r.slug)).toEqual(['legacy-tool']);
  });

  it('autocomplete answers it', async () => {
    const res = await get('/api/v5/addons/autocomplete/?app=firefox&appversion=128.0&q=toolbox&lang=en-US');
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { name: unknown }) => r.name)).toEqual([{ 'en-US': 'Modern Toolbox' }]);
  });

  it('still refuses what is not a version', async () => {
    for (const bad of ['abc', '128.0.0.0.0', '1234567.0', '-1']) {
      const res = await get(`/api/v5/addons/search/?app=firefox&appversion=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
    }
  });
});

describe("v5 files and add-ons: what today's front-end reads (issue 37)", () => {
  it('files carry host and data collection permissions in v5; v4 keeps host permissions among permissions', async () => {
    const v5 = (await get('/api/v5/addons/addon/collecting-tool/')).body;
    expect(v5.current_version.file).toMatchObject({
      permissions: ['storage'],
      optional_permissions: [],
      host_permissions: ['https://example.com/*'],
      data_collection_permissions: ['locationInfo'],
      optional_data_collection_permissions: ['technicalAndInteraction'],
    });
    const v4 = (await get('/api/v4/addons/addon/collecting-tool/')).body;
    expect(v4.current_version.files[0].permissions).toEqual(['storage', 'https://example.com/*']);
    expect(v4.current_version.files[0]).not.toHaveProperty('host_permissions');
  });

  it('add-ons say whether search engines should index them (v5), null in search results', async () => {
    expect((await get('/api/v5/addons/addon/collecting-tool/')).body.is_noindexed).toBe(true);
    expect((await get('/api/v5/addons/addon/modern-tool/')).body.is_noindexed).toBe(false);
    expect((await get('/api/v4/addons/addon/modern-tool/')).body).not.toHaveProperty('is_noindexed');
    const found = (await get('/api/v5/addons/search/?q=collecting')).body.results;
    expect(found[0].is_noindexed).toBeNull();
  });
});

describe('a version by its number (v5)', () => {
  it('answers `versions/2.0/` and `versions/v2.0/`; an unknown number is a 404; v4 takes ids only', async () => {
    const byId = (await get('/api/v5/addons/addon/modern-tool/')).body.current_version;
    for (const path of ['2.0', 'v2.0', String(byId.id)]) {
      const res = await get(`/api/v5/addons/addon/modern-tool/versions/${path}/`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: byId.id, version: '2.0' });
    }
    expect((await get('/api/v5/addons/addon/modern-tool/versions/9.9/')).status).toBe(404);
    expect((await get(`/api/v5/addons/addon/modern-tool/versions/${'9'.repeat(300)}.0/`)).status).toBe(404);
    expect((await get('/api/v4/addons/addon/modern-tool/versions/2.0/')).status).toBe(404);
  });
});
