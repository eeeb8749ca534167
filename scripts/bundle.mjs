// The service's entry (dist/src/main.js, as swc made it) bundled by esbuild into one ES module that
// replaces it: our modules and the JavaScript packages they import, in one file (and a few beside
// it, main.chunk-*.js, for what is only imported when needed). A start then reads, resolves and
// links one module instead of ~540 of ours and ~1,700 CommonJS files of node_modules (about a
// third of a start's CPU time). The rest of dist/ stays as swc made it: the validation worker
// runs from it.
//
// What the bundle keeps from the files it was made of:
// - `import.meta.url` in a module is that module's own address (relative to the bundle, so the
//   checkout can move): the validation worker's entry, docs/openapi.json, the embedded snapshot's
//   folder are found where they were.
// - `__dirname` / `__filename` in a package are the package file's own (packages read their
//   package.json, templates and data beside them).
// - a package.json a package requires by a relative path that finds nothing when bundling (tried
//   in a try block, such as MikroORM's `require('../../package.json')`) is looked for at run time,
//   relative to the file that requires it;
// - class names are kept (MikroORM's entities and type-graphql's types are named by them).
// Left out, loaded from node_modules at run time: packages with native code or WASM, and the
// database drivers knex and MikroORM only load for other databases (none installed).
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import process from 'node:process';

const EXTERNAL = [
  // Native code, WASM or worker entries of their own.
  'sharp',
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  'addons-linter',
  // Optional requires of knex, MikroORM and type-graphql, for what this service does not use.
  'better-sqlite3',
  'class-validator',
  'libsql',
  'mariadb',
  'mariadb/*',
  'mysql',
  'mysql2',
  'oracledb',
  'pg-native',
  'pg-query-stream',
  'sqlite3',
  'tedious',
  '@mikro-orm/better-sqlite',
  '@mikro-orm/cli',
  '@mikro-orm/entity-generator',
  '@mikro-orm/libsql',
  '@mikro-orm/mariadb',
  '@mikro-orm/mongodb',
  '@mikro-orm/mssql',
  '@mikro-orm/mysql',
  '@mikro-orm/seeder',
  '@mikro-orm/sqlite',
  'ts-morph',
  'ts-node',
  'typescript',
];

// Defined once at the top of the bundle: `require` for the packages' run-time requires (Node's
// modules, the external packages), and the path of a file relative to the bundle.
const BANNER = [
  "import { createRequire as __bundleRequire } from 'node:module';",
  "import { fileURLToPath as __bundleFilePath } from 'node:url';",
  'const require = __bundleRequire(import.meta.url);',
  'const __bundledPath = (path) => __bundleFilePath(new URL(path, import.meta.url)).replace(/\\/$/, "");',
].join(' ');

const IMPORT_META_URL = /\bimport\.meta\.url\b/g;
const DIRNAME = /(?<![.\w$])__dirname(?![\w$])/g;
const FILENAME = /(?<![.\w$])__filename(?![\w$])/g;

/** Rewrites what names a file's own location to that file's location seen from the bundle. */
function ownLocations(outfile) {
  const fromBundle = (path) => `./${relative(dirname(outfile), path).split(sep).join('/')}`;
  return {
    name: 'own-locations',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\/.*package\.json$/, namespace: 'file' }, async (args) => {
        if (args.pluginData?.resolving || !args.importer.includes(`${sep}node_modules${sep}`)) return;
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { resolving: true },
        });
        if (!found.errors.length) return found;
        return { path: fromBundle(join(args.resolveDir, args.path)), external: true };
      });
      build.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
        const code = await readFile(args.path, 'utf8');
        if (!code.includes('import.meta.url') && !code.includes('__dirname') && !code.includes('__filename')) return;
        const file = JSON.stringify(fromBundle(args.path));
        const folder = JSON.stringify(`${fromBundle(dirname(args.path))}/`);
        const contents = code
          .replace(IMPORT_META_URL, `new URL(${file}, import.meta.url).href`)
          .replace(DIRNAME, `__bundledPath(${folder})`)
          .replace(FILENAME, `__bundledPath(${file})`);
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * Replaces `entry` by its bundle. Returns the number of files bundled, or null (entry left as it
 * is) when esbuild is not installed (a production install without the dev dependencies).
 */
export async function bundleEntry(root, entry) {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    process.stderr.write('esbuild is not installed: dist/src/main.js is not bundled\n');
    return null;
  }
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    outdir: dirname(entry),
    // What is loaded by `await import()` (an optional package: the S3 SDK, nodemailer, the embedded
    // database's driver) is a file of its own beside the bundle, read only when imported.
    splitting: true,
    chunkNames: 'main.chunk-[hash]',
    allowOverwrite: true,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    keepNames: true,
    external: EXTERNAL,
    banner: { js: BANNER },
    plugins: [ownLocations(entry)],
    metafile: true,
    logLevel: process.env.BUNDLE_LOG ?? 'error',
  });
  for (const output of result.outputFiles) await writeFile(output.path, output.contents);
  return { inputs: Object.keys(result.metafile.inputs).length, files: result.outputFiles.length };
}
