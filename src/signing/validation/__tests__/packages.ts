import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';

export type PackageFiles = Record<string, string>;

const DATA_COLLECTION = { required: ['none'] };

/** MV2, an ID, data collection declared: the linter has nothing to say about it. */
export const VALID_EXTENSION: PackageFiles = {
  'manifest.json': JSON.stringify({
    manifest_version: 2,
    name: 'Valid extension',
    version: '1.0.0',
    browser_specific_settings: { gecko: { id: 'valid@example.com', data_collection_permissions: DATA_COLLECTION } },
    background: { scripts: ['background.js'] },
  }),
  'background.js': 'browser.runtime.onInstalled.addListener(() => console.log("installed"));\n',
};

/** An invalid version string and an `eval` on line 3, column 10 of the background script. */
export const BAD_EXTENSION: PackageFiles = {
  'manifest.json': JSON.stringify({
    manifest_version: 2,
    name: 'Bad extension',
    version: '1.0.0.0.0-beta',
    browser_specific_settings: { gecko: { id: 'bad@example.com', data_collection_permissions: DATA_COLLECTION } },
    background: { scripts: ['background.js'] },
  }),
  'background.js': 'const seed = 1;\nfunction run(code) {\n  return eval(code) + seed;\n}\nrun("1");\n',
};

/** `applications.gecko.update_url` is an error only for add-ons AMO hosts (listed). */
export const SELF_UPDATING_EXTENSION: PackageFiles = {
  'manifest.json': JSON.stringify({
    manifest_version: 2,
    name: 'Self-updating extension',
    version: '2.0',
    applications: {
      gecko: {
        id: 'updates@example.com',
        update_url: 'https://example.com/updates.json',
        data_collection_permissions: DATA_COLLECTION,
      },
    },
  }),
};

/** About 300 KB of plain functions: the linter needs a couple of seconds for it, long enough to be interrupted. */
export const SLOW_EXTENSION: PackageFiles = {
  'manifest.json': JSON.stringify({
    manifest_version: 2,
    name: 'Slow extension',
    version: '1.0',
    browser_specific_settings: { gecko: { id: 'slow@example.com', data_collection_permissions: DATA_COLLECTION } },
    background: { scripts: ['background.js'] },
  }),
  'background.js': Array.from(
    { length: 2000 },
    (_, i) =>
      `function f${i}(a, b) {\n  const x = a + b * ${i};\n  return x > ${i} ? x - 1 : [a, b, x].join(',');\n}\n`,
  ).join(''),
};

export const NO_MANIFEST: PackageFiles = { 'README.txt': 'Not an add-on.\n' };

export async function writeZip(path: string, files: PackageFiles): Promise<string> {
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
  return path;
}

export interface TempDir {
  path: (name: string) => string;
  remove: () => Promise<void>;
}

export async function tempDir(): Promise<TempDir> {
  const dir = await mkdtemp(join(tmpdir(), 'validation-test-'));
  return { path: (name) => join(dir, name), remove: () => rm(dir, { recursive: true, force: true }) };
}

export async function writeText(path: string, content: string): Promise<string> {
  await writeFile(path, content);
  return path;
}
