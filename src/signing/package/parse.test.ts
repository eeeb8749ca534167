import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AddonType } from '../../catalogue/catalogue.enums.js';
import { buildZip, writeFixture, zipFiles } from './__tests__/zip-builder.js';
import { isPackageRefusal } from './package.errors.js';
import { type ParseOptions, parsePackage } from './parse.js';

const MiB = 1024 * 1024;
let dir: string;
let counter = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'parse-test-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function packageOf(files: Record<string, string | Buffer>): Promise<string> {
  return writeFixture(dir, `package-${counter++}.xpi`, await zipFiles(files));
}

function withManifest(manifest: Record<string, unknown>, files: Record<string, string | Buffer> = {}) {
  return packageOf({ 'manifest.json': JSON.stringify(manifest), ...files });
}

const BASE = { manifest_version: 2, name: 'Add-on', version: '1.0' };

async function parse(manifest: Record<string, unknown>, options?: ParseOptions) {
  return parsePackage(await withManifest({ ...BASE, ...manifest }), options);
}

async function refusal(manifest: Record<string, unknown>, options?: ParseOptions): Promise<string> {
  return refusalOf(withManifest({ ...BASE, ...manifest }), options);
}

async function refusalOf(path: Promise<string>, options?: ParseOptions): Promise<string> {
  const error: unknown = await parsePackage(await path, options).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(isPackageRefusal(error)).toBe(true);
  return (error as Error).message;
}

describe('parsePackage', () => {
  it('describes an extension', async () => {
    const manifest = {
      manifest_version: 3,
      name: '__MSG_extName__',
      description: 'Does __MSG_what__.',
      version: '2.1.0',
      default_locale: 'en_US',
      browser_specific_settings: {
        gecko: {
          id: 'addon@example.com',
          strict_min_version: '109.0',
          strict_max_version: '130.*',
          data_collection_permissions: { required: ['locationInfo'], optional: ['technicalAndInteraction', 3] },
        },
        gecko_android: { strict_min_version: '120.0' },
      },
      permissions: ['storage', 'tabs', 7],
      optional_permissions: ['bookmarks'],
      host_permissions: ['https://example.com/*'],
      background: { scripts: ['background.js'] },
    };
    const messages = { extName: { message: 'My add-on' }, what: { message: 'things' } };
    const path = await withManifest(manifest, {
      '_locales/en_US/messages.json': JSON.stringify(messages),
      'background.js': 'console.log(1);',
    });
    const manifestSize = JSON.stringify(manifest).length;
    const messagesSize = JSON.stringify(messages).length;

    expect(await parsePackage(path)).toEqual({
      type: AddonType.EXTENSION,
      guid: 'addon@example.com',
      version: '2.1.0',
      name: 'My add-on',
      description: 'Does things.',
      defaultLocale: 'en_US',
      manifestVersion: 3,
      apps: {
        firefox: { strictMinVersion: '109.0', strictMaxVersion: '130.*' },
        android: { strictMinVersion: '120.0', strictMaxVersion: '130.*' },
      },
      permissions: ['storage', 'tabs'],
      optionalPermissions: ['bookmarks'],
      hostPermissions: ['https://example.com/*'],
      dataCollectionPermissions: ['locationInfo'],
      optionalDataCollectionPermissions: ['technicalAndInteraction'],
      targetLocale: null,
      isExperiment: false,
      isSigned: false,
      isWebExtension: true,
      files: [
        { name: 'manifest.json', size: manifestSize },
        { name: '_locales/en_US/messages.json', size: messagesSize },
        { name: 'background.js', size: 15 },
      ],
      totalSize: manifestSize + messagesSize + 15,
    });
  });

  it('reads a manifest with a BOM and comments, and keeps unresolved names', async () => {
    const manifest =
      '\ufeff{\n  // name\n  "name": "__MSG_name__", /* "version": "9" */ "version": "1.0",\n  "default_locale": "fr"\n}';
    const pkg = await parsePackage(await packageOf({ 'manifest.json': manifest }));
    expect(pkg).toMatchObject({ name: '__MSG_name__', version: '1.0', defaultLocale: 'fr', guid: null });
  });

  it('tells what it finds about signatures and experiments', async () => {
    const signed = await packageOf({ 'manifest.json': JSON.stringify(BASE), 'META-INF/mozilla.rsa': 'sig' });
    const cose = await packageOf({ 'manifest.json': JSON.stringify(BASE), 'META-INF/cose.sig': 'sig' });
    expect((await parsePackage(signed)).isSigned).toBe(true);
    expect((await parsePackage(cose)).isSigned).toBe(true);
    expect((await parse({ experiment_apis: { x: {} } })).isExperiment).toBe(true);
  });

  it.each<[string, Record<string, unknown>, AddonType]>([
    ['language packs', { langpack_id: 'de', languages: {} }, AddonType.LANGUAGE],
    ['dictionaries', { dictionaries: { de: 'de.dic' } }, AddonType.DICTIONARY],
    ['static themes', { theme: { colors: { frame: '#000' } } }, AddonType.STATICTHEME],
    ['search engines', { chrome_settings_overrides: { search_provider: { name: 'S' } } }, AddonType.SEARCH],
    ['extensions', { content_scripts: [{ matches: ['<all_urls>'], js: ['c.js'] }] }, AddonType.EXTENSION],
  ])('detects %s', async (_, manifest, type) => {
    expect((await parse(manifest)).type).toBe(type);
  });

  it('takes the guid from browser_specific_settings when present, else from applications', async () => {
    const applications = { gecko: { id: 'old@example.com' } };
    expect((await parse({ applications })).guid).toBe('old@example.com');
    expect((await parse({ applications, browser_specific_settings: { gecko: { id: 'new@example.com' } } })).guid).toBe(
      'new@example.com',
    );
    expect((await parse({ applications, browser_specific_settings: {} })).guid).toBeNull();
  });
});

describe('parsePackage refusals', () => {
  it('needs a manifest', async () => {
    expect(await refusalOf(packageOf({ 'README.md': 'hi' }))).toBe('No install.rdf or manifest.json found');
    expect(await refusalOf(packageOf({ 'install.rdf': '<RDF/>' }), { browserName: 'Iceweasel' })).toBe(
      'Legacy extensions are no longer supported in Iceweasel.',
    );
    expect(await refusalOf(packageOf({ 'sub/manifest.json': '{}' }))).toBe('No install.rdf or manifest.json found');
  });

  it('refuses a manifest that is not a JSON object', async () => {
    expect(await refusalOf(packageOf({ 'manifest.json': '{"name": "x",}' }))).toBe(
      'Could not parse the manifest file.',
    );
    expect(await refusalOf(packageOf({ 'manifest.json': '["x"]' }))).toBe('Could not parse the manifest file.');
  });

  it('refuses an invalid add-on id', async () => {
    expect(await refusal({ browser_specific_settings: { gecko: { id: 'not an id' } } })).toBe(
      'Invalid Add-on ID in URL or package',
    );
  });

  it('applies the version rules', async () => {
    expect(await refusal({ version: '1'.repeat(33) })).toBe('Version numbers should have fewer than 32 characters.');
    expect((await parse({ version: '1'.repeat(32) })).version).toBe('1'.repeat(32));
    expect((await parse({ version: '1.0-beta+2_x*' })).version).toBe('1.0-beta+2_x*');
    const characters = 'Version numbers should only contain letters, numbers, and these punctuation characters: +*.-_.';
    expect(await refusal({ version: '1.0 beta' })).toBe(characters);
    expect(await refusal({ version: '1.0/2' })).toBe(characters);
    expect(await refusal({ version: '1.0é' })).toBe(characters);
    expect(await refusal({ version: undefined })).toBe('No version number found in the manifest file.');
    expect(await refusal({ version: 1 })).toBe('No version number found in the manifest file.');
  });

  it('applies the strict_min_version rules', async () => {
    const gecko = (settings: Record<string, unknown>) => ({ browser_specific_settings: { gecko: settings } });
    const id = 'addon@example.com';
    const lowest = 'Lowest supported "strict_min_version" is 42.0.';
    expect(await refusal(gecko({ id, strict_min_version: '40.0' }))).toBe(lowest);
    expect(await refusal(gecko({ id, strict_min_version: '42.0a1' }))).toBe(lowest);
    expect(await refusal(gecko({ strict_min_version: '47.0' }))).toBe('GUID is required for Firefox 47 and below.');
    expect(await refusal(gecko({ strict_min_version: '40.0' }), { browserName: 'Waterfox' })).toBe(
      'GUID is required for Waterfox 47 and below.',
    );
    expect(
      await refusal({ browser_specific_settings: { gecko: { id }, gecko_android: { strict_min_version: '41.0' } } }),
    ).toBe(lowest);
    expect((await parse(gecko({ id, strict_min_version: '42.0' }))).guid).toBe(id);
    expect((await parse(gecko({ strict_min_version: '48.0' }))).guid).toBeNull();
    expect((await parse(gecko({ strict_min_version: '>=58.0' }))).apps.firefox.strictMinVersion).toBe('>=58.0');
  });

  describe('static theme size', () => {
    const theme = JSON.stringify({ ...BASE, theme: { colors: {} } });
    // Megabyte-sized files of zeros: under the compression-ratio floor, so only the theme rule applies.
    const images = (total: number) => {
      const files: Record<string, Buffer> = {};
      for (let i = 0; total > 0; i++, total -= MiB) files[`images/${i}.png`] = Buffer.alloc(Math.min(MiB, total));
      return files;
    };

    it('allows 7 MiB and refuses more', async () => {
      const allowed = images(7 * MiB - theme.length);
      expect((await parsePackage(await packageOf({ 'manifest.json': theme, ...allowed }))).totalSize).toBe(7 * MiB);
      const tooLarge = images(7 * MiB - theme.length + 1);
      expect(await refusalOf(packageOf({ 'manifest.json': theme, ...tooLarge }))).toBe(
        'Maximum size for WebExtension themes is 7.0 MB.',
      );
    });

    it('follows a configured limit and spares other types', async () => {
      const files = images(2 * MiB);
      expect(
        await refusalOf(packageOf({ 'manifest.json': theme, ...files }), { limits: { maxStaticThemeSize: MiB } }),
      ).toBe('Maximum size for WebExtension themes is 1.0 MB.');
      const extension = await packageOf({ 'manifest.json': JSON.stringify(BASE), ...images(8 * MiB) });
      expect((await parsePackage(extension)).type).toBe(AddonType.EXTENSION);
    });
  });

  it('refuses hostile archives before reading the manifest', async () => {
    const manifest = JSON.stringify(BASE);
    const escape = writeFixture(
      dir,
      'escape.xpi',
      buildZip([
        { name: 'manifest.json', data: manifest },
        { name: '../../.bashrc', data: 'x' },
      ]),
    );
    expect(await refusalOf(Promise.resolve(escape))).toBe('Invalid file name in archive: ../../.bashrc');
    const link = writeFixture(
      dir,
      'link.xpi',
      buildZip([{ name: 'manifest.json', data: '/etc/passwd', mode: 0o120777 }]),
    );
    expect(await refusalOf(Promise.resolve(link))).toBe('Symbolic links are not allowed in archive: manifest.json');
    expect(await refusalOf(Promise.resolve(writeFixture(dir, 'junk.xpi', Buffer.from('junk'))))).toBe(
      'Invalid archive.',
    );
  });

  it('refuses a manifest too large to read', async () => {
    const path = await packageOf({ 'manifest.json': `{"name": "${'x'.repeat(5000)}"}` });
    expect(await refusalOf(Promise.resolve(path), { limits: { maxReadSize: 4096 } })).toBe(
      'File exceeding size limit in archive: manifest.json',
    );
  });
});
