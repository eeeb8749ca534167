import { AddonType } from '../../catalogue/catalogue.enums.js';
import {
  appCompatibility,
  detectAddonType,
  isExperiment,
  localeMessagesPaths,
  localize,
  manifestGuid,
  parseLocaleMessages,
  parseManifest,
  stripJsonComments,
} from './manifest.js';

describe('stripJsonComments', () => {
  it('removes line and block comments', () => {
    const text = '{\n  // a comment\n  "a": 1, /* block\n spanning */ "b": [1,/**/2] // trailing\n}';
    expect(JSON.parse(stripJsonComments(text))).toEqual({ a: 1, b: [1, 2] });
  });

  it('keeps comment markers inside strings, escaped quotes included', () => {
    const text = '{"url": "https://example.com/*x*/", "q": "say \\"//hi\\"", "s": "\\\\"} // end';
    expect(JSON.parse(stripJsonComments(text))).toEqual({
      url: 'https://example.com/*x*/',
      q: 'say "//hi"',
      s: '\\',
    });
  });

  it('keeps tokens apart where a comment separated them', () => {
    expect(stripJsonComments('[1/**/2]')).toBe('[1 2]');
  });

  it('ends line comments at CR or LF and tolerates an unterminated block', () => {
    expect(stripJsonComments('1 // x\r\n')).toBe('1  \r\n');
    expect(stripJsonComments('1 /* open')).toBe('1  ');
  });
});

describe('parseManifest', () => {
  it('reads UTF-8 with a BOM and comments', () => {
    const data = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('// hi\n{"name": "é"}')]);
    expect(parseManifest(data)).toEqual({ name: 'é' });
  });

  it.each([
    ['invalid JSON', Buffer.from('{"name": ')],
    ['a JSON array', Buffer.from('[1]')],
    ['a JSON string', Buffer.from('"x"')],
    ['null', Buffer.from('null')],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0x7d])],
    ['an empty file', Buffer.alloc(0)],
  ])('refuses %s', (_, data) => {
    expect(() => parseManifest(data)).toThrow('Could not parse the manifest file.');
  });
});

describe('manifestGuid', () => {
  it('prefers browser_specific_settings whenever the key exists', () => {
    const applications = { gecko: { id: 'old@example.com' } };
    expect(manifestGuid({ applications, browser_specific_settings: { gecko: { id: 'new@example.com' } } })).toBe(
      'new@example.com',
    );
    expect(manifestGuid({ applications, browser_specific_settings: {} })).toBeNull();
    expect(manifestGuid({ applications, browser_specific_settings: { gecko_android: {} } })).toBeNull();
    expect(manifestGuid({ applications })).toBe('old@example.com');
    expect(manifestGuid({})).toBeNull();
    expect(manifestGuid({ applications: 'x' })).toBeNull();
  });

  it('refuses an id that is not a string', () => {
    expect(() => manifestGuid({ browser_specific_settings: { gecko: { id: 42 } } })).toThrow(
      'Invalid Add-on ID in URL or package',
    );
  });
});

describe('appCompatibility', () => {
  it('reads gecko for the desktop browser and gecko_android, falling back to gecko, for Android', () => {
    const manifest = {
      browser_specific_settings: {
        gecko: { strict_min_version: '58.0', strict_max_version: '120.*' },
        gecko_android: { strict_min_version: '113.0' },
      },
    };
    expect(appCompatibility(manifest)).toEqual({
      firefox: { strictMinVersion: '58.0', strictMaxVersion: '120.*' },
      android: { strictMinVersion: '113.0', strictMaxVersion: '120.*' },
    });
    expect(appCompatibility({ applications: { gecko: { strict_min_version: 58 } } })).toEqual({
      firefox: { strictMinVersion: null, strictMaxVersion: null },
      android: { strictMinVersion: null, strictMaxVersion: null },
    });
  });
});

describe('detectAddonType', () => {
  const search = {
    chrome_settings_overrides: { search_provider: { name: 'S', search_url: 'https://s/?q={searchTerms}' } },
  };

  it.each<[string, Record<string, unknown>, AddonType]>([
    ['a language pack', { langpack_id: 'de', theme: {} }, AddonType.LANGUAGE],
    ['a dictionary', { dictionaries: { de: 'de.dic' }, theme: {} }, AddonType.DICTIONARY],
    ['a static theme', { theme: { colors: {} }, icons: {} }, AddonType.STATICTHEME],
    ['a theme with a background script', { theme: {}, background: { scripts: ['b.js'] } }, AddonType.EXTENSION],
    ['a theme with content scripts', { theme: {}, content_scripts: [] }, AddonType.EXTENSION],
    ['a search engine', { name: 'S', version: '1', icons: {}, ...search }, AddonType.SEARCH],
    ['a search engine with a background page', { ...search, background: { page: 'b.html' } }, AddonType.EXTENSION],
    ['a search engine with permissions', { ...search, permissions: ['tabs'] }, AddonType.EXTENSION],
    [
      'a search engine that also sets the homepage',
      { chrome_settings_overrides: { ...search.chrome_settings_overrides, homepage: 'https://x' } },
      AddonType.EXTENSION,
    ],
    ['an override without a provider', { chrome_settings_overrides: { homepage: 'https://x' } }, AddonType.EXTENSION],
    ['an extension', { name: 'E', background: { scripts: ['b.js'] } }, AddonType.EXTENSION],
    ['an empty manifest', {}, AddonType.EXTENSION],
  ])('detects %s', (_, manifest, type) => {
    expect(detectAddonType(manifest)).toBe(type);
  });
});

describe('isExperiment', () => {
  it('is true when experiment_apis or theme_experiment declares something', () => {
    expect(isExperiment({ experiment_apis: { foo: {} } })).toBe(true);
    expect(isExperiment({ theme_experiment: { colors: {} } })).toBe(true);
    expect(isExperiment({ experiment_apis: {} })).toBe(false);
    expect(isExperiment({})).toBe(false);
  });
});

describe('locale messages', () => {
  it('looks for both spellings of a locale folder', () => {
    expect(localeMessagesPaths('en_US')).toEqual(['_locales/en_US/messages.json', '_locales/en-US/messages.json']);
    expect(localeMessagesPaths('de')).toEqual(['_locales/de/messages.json']);
  });

  it('resolves references case-insensitively and leaves unknown ones alone', () => {
    const messages = parseLocaleMessages(
      Buffer.from('{"extName": {"message": "My $1 add-on"}, "other": {"message": 3}, "x": "y"} // c'),
    );
    expect(localize('__MSG_extname__', messages)).toBe('My $1 add-on');
    expect(localize('A __MSG_EXTNAME__ and __MSG_missing__', messages)).toBe('A My $1 add-on and __MSG_missing__');
    expect(localize('__MSG_other__', messages)).toBe('__MSG_other__');
    expect(localize(null, messages)).toBeNull();
  });

  it('treats an unreadable messages file as empty', () => {
    expect(parseLocaleMessages(Buffer.from('{oops')).size).toBe(0);
    expect(parseLocaleMessages(Buffer.from('[1]')).size).toBe(0);
  });
});
