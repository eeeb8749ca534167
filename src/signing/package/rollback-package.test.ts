import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFixture, zipFiles } from './__tests__/zip-builder.js';
import { ArchiveError } from '../../archive/archive.errors.js';
import { PackageError } from './package.errors.js';
import { rewritePackageVersion } from './rollback-package.js';
import { readZip } from '../../archive/zip.js';

let dir: string;
let counter = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rollback-package-test-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function fixture(files: Record<string, string | Buffer>): Promise<string> {
  return writeFixture(dir, `package-${counter++}.xpi`, await zipFiles(files));
}

async function members(bytes: Buffer): Promise<Map<string, string>> {
  const path = writeFixture(dir, `out-${counter++}.xpi`, bytes);
  return new Map((await readZip(path)).map((m) => [m.name, m.data.toString()]));
}

describe('rewritePackageVersion', () => {
  it('sets the manifest version, keeps every other member and drops signature files', async () => {
    const path = await fixture({
      'manifest.json':
        '{\n  // a comment\n  "manifest_version": 2, "name": "A", "version": "1.0", "icons": {"48": "i.png"}\n}',
      'lib/a.js': 'export const a = 1;\n',
      'META-INF/mozilla.rsa': 'signature',
      'META-INF/mozilla.sf': 'sf',
      'META-INF/manifest.mf': 'mf',
      'META-INF/cose.sig': 'cose',
      'META-INF/cose.manifest': 'cose manifest',
      'META-INF/other.txt': 'kept',
    });
    const out = await members(await rewritePackageVersion(path, '1.2'));
    expect([...out.keys()]).toEqual(['manifest.json', 'lib/a.js', 'META-INF/other.txt']);
    expect(JSON.parse(out.get('manifest.json')!)).toEqual({
      manifest_version: 2,
      name: 'A',
      version: '1.2',
      icons: { '48': 'i.png' },
    });
    expect(out.get('lib/a.js')).toBe('export const a = 1;\n');
  });

  it('refuses a package without a manifest or with a broken one, and one past the limits', async () => {
    const noManifest = await fixture({ 'a.js': '1' });
    await expect(rewritePackageVersion(noManifest, '1.2')).rejects.toThrow(PackageError);
    const broken = await fixture({ 'manifest.json': '{"version": ' });
    await expect(rewritePackageVersion(broken, '1.2')).rejects.toThrow('Could not parse the manifest file.');
    const array = await fixture({ 'manifest.json': '[1]' });
    await expect(rewritePackageVersion(array, '1.2')).rejects.toThrow('Could not parse the manifest file.');
    const big = await fixture({ 'manifest.json': '{}', 'big.bin': Buffer.alloc(4096) });
    await expect(rewritePackageVersion(big, '1.2', { maxEntrySize: 1024 })).rejects.toThrow(ArchiveError);
  });
});
