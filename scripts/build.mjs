// Compiles src/ and rest-compat/ to dist/ with swc (the same transform the tests and `npm run dev`
// run: legacy decorators with metadata, ES2022, ES modules). Type checking is `npm run typecheck`.
// Then dist/src/main.js, the service's entry, is replaced by one file holding it, the modules it
// imports and the packages they import (./bundle.mjs): a start reads one file instead of ~2,200.
//
//   node scripts/build.mjs            build
//   node scripts/build.mjs --if-stale build only when a source is newer than the last build
//
// `npm start` runs the second form, so a start after an unchanged checkout compiles nothing.
// BUILD_BUNDLE=off leaves dist/src/main.js as swc made it (as does a checkout without esbuild).
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { transformFile } from '@swc/core';
import { bundleEntry } from './bundle.mjs';
import { SWC_OPTIONS } from './swc-options.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['src', 'rest-compat'];
const OUT = join(root, 'dist');
const STAMP = join(OUT, '.build-stamp');
// Inputs that change the output besides the sources.
const CONFIG_FILES = ['package.json', 'package-lock.json', 'scripts/build.mjs', 'scripts/bundle.mjs'];

const isSource = (name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts');

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '__tests__') yield* walk(path);
    } else if (isSource(entry.name)) {
      yield path;
    }
  }
}

async function sources() {
  const files = [];
  for (const dir of SOURCES) for await (const file of walk(join(root, dir))) files.push(file);
  return files;
}

/** The newest modification time among the sources, their folders (deletions) and the config files. */
async function newestInput(files) {
  const paths = [...files, ...new Set(files.map((f) => dirname(f))), ...CONFIG_FILES.map((f) => join(root, f))];
  let newest = 0;
  for (const path of paths) newest = Math.max(newest, (await stat(path).catch(() => ({ mtimeMs: 0 }))).mtimeMs);
  return newest;
}

const OPTIONS = {
  ...SWC_OPTIONS,
  sourceMaps: true,
  swcrc: false,
  configFile: false,
};

async function build(files) {
  await rm(OUT, { recursive: true, force: true });
  await Promise.all(
    files.map(async (file) => {
      const target = join(OUT, relative(root, file)).replace(/\.ts$/, '.js');
      const { code, map } = await transformFile(file, { ...OPTIONS, filename: file, sourceFileName: file });
      await mkdir(dirname(target), { recursive: true });
      const mapName = `${target.split('/').pop()}.map`;
      await writeFile(target, `${code}\n//# sourceMappingURL=${mapName}\n`);
      if (map) await writeFile(`${target}.map`, map);
    }),
  );
  const bundled = process.env.BUILD_BUNDLE === 'off' ? null : await bundleEntry(root, join(OUT, 'src', 'main.js'));
  await writeFile(STAMP, `${new Date().toISOString()}\n`);
  return bundled;
}

const started = Date.now();
const files = await sources();
if (process.argv.includes('--if-stale')) {
  const built = (await stat(STAMP).catch(() => null))?.mtimeMs ?? 0;
  if (built > (await newestInput(files))) process.exit(0);
}
const bundled = await build(files);
const note = bundled ? `, dist/src/main.js bundled (${bundled.inputs} files into ${bundled.files})` : '';
process.stderr.write(`built ${files.length} files into dist/${note} in ${Date.now() - started} ms\n`);
