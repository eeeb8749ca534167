import { AddonType, App } from '../src/catalogue/catalogue.enums.js';
import { targetLocale } from '../src/signing/package/manifest.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';

/** `addons/language-tools/` (issues 37 and 38): the catalogue's page and the browser's settings read it. */
let t: TestApp;
let frPack: number;
let deDict: number;
beforeAll(async () => {
  t = await startTestApp();
  const em = t.em();
  frPack = (
    await createAddon(em, {
      slug: 'francais-language-pack',
      type: AddonType.LANGUAGE,
      targetLocale: 'fr',
      name: { 'en-US': 'Français (fr) Language Pack' },
      versions: [
        { version: '115.0', compat: { [App.BROWSER]: ['115.0', '115.*'] } },
        { version: '128.0', compat: { [App.BROWSER]: ['128.0', '128.*'] } },
      ],
    })
  ).id;
  deDict = (
    await createAddon(em, {
      slug: 'deutsch-dictionary',
      type: AddonType.DICTIONARY,
      targetLocale: 'de',
      name: { 'en-US': 'Deutsch Wörterbuch' },
    })
  ).id;
  await createAddon(em, { slug: 'not-a-language-tool', name: { 'en-US': 'An extension' } });
  await createAddon(em, {
    slug: 'hidden-pack',
    type: AddonType.LANGUAGE,
    targetLocale: 'it',
    disabledByUser: true,
  });
}, 120_000);
afterAll(() => t.close());

const get = (query: string, v = 'v5') => t.http.get(`/api/${v}/addons/language-tools/${query}`);

describe('language tools', () => {
  it('lists every public language pack and dictionary for the application, with its target locale', async () => {
    const res = await get('?app=firefox&lang=en-US');
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      {
        id: frPack,
        default_locale: 'en-US',
        guid: expect.any(String),
        name: { 'en-US': 'Français (fr) Language Pack' },
        slug: 'francais-language-pack',
        target_locale: 'fr',
        type: 'language',
        url: expect.stringContaining('/francais-language-pack/'),
      },
      expect.objectContaining({ id: deDict, target_locale: 'de', type: 'dictionary' }),
    ]);
    expect(res.body).not.toHaveProperty('count');
    // v4 names the application `browser`.
    expect((await get('?app=browser', 'v4')).body.results).toHaveLength(2);
  });

  it('with type and appversion: the language packs with a compatible version, and that version', async () => {
    const res = await get('?app=firefox&type=language&appversion=128.0');
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(1);
    expect(res.body.results[0].current_compatible_version).toMatchObject({
      version: '128.0',
      file: expect.any(Object),
    });
    const older = await get('?app=firefox&type=language&appversion=115.0');
    expect(older.body.results[0].current_compatible_version.version).toBe('115.0');
    expect((await get('?app=firefox&type=language&appversion=100.0')).body.results).toEqual([]);
    expect((await get('?app=firefox&type=dictionary')).body.results.map((r: { id: number }) => r.id)).toEqual([deDict]);
  });

  it('refuses what the original refuses, with its 400s', async () => {
    expect((await get('')).status).toBe(400);
    expect((await get('?app=netscape')).body).toEqual({ detail: 'Invalid "app" parameter.' });
    expect((await get('?app=firefox&type=extension')).status).toBe(400);
    expect((await get('?app=firefox&appversion=128.0')).status).toBe(400);
    expect((await get('?app=firefox&type=language&appversion=abc')).status).toBe(400);
  });

  it('reads the target locale from the manifest', () => {
    expect(targetLocale({ langpack_id: 'pt-BR', languages: {} })).toBe('pt-BR');
    expect(targetLocale({ dictionaries: { 'en-GB': 'en-GB.dic' } })).toBe('en-GB');
    expect(targetLocale({ langpack_id: '../../etc' })).toBeNull();
    expect(targetLocale({ name: 'x' })).toBeNull();
  });
});
