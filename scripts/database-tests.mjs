// The test files that can reach a database: those whose imports (followed through every local
// module) reach the database port (src/db/database.ts), or that start other processes or read
// DATABASE_URL themselves. .ci/run runs only these a second time on PostgreSQL: the others (pure
// units: parsers, rules, the layering scan) cannot tell the two databases apart.
// Usage: node scripts/database-tests.mjs  (prints one repository-relative path per line)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { ROOT, importsOf } from './imports.mjs';

const PORT = 'src/db/database.ts';
/** Text that means the file may reach a database some other way (a child process, the environment). */
const OTHER_WAYS = /DATABASE_URL|child_process|\bspawn\(|\bexecFile\(|\bfork\(/;

/** `x.js` as written in an import → the `.ts` file it names (or null outside the repository's sources). */
function sourceOf(target) {
  const ts = target.replace(/\.js$/, '.ts');
  if (existsSync(join(ROOT, ts))) return ts;
  if (existsSync(join(ROOT, target, 'index.ts'))) return `${target}/index.ts`;
  return null;
}

const reaches = new Map();
/** Whether `file` reaches a database (memoised; a module being visited counts as not reaching, yet). */
function reachesDatabase(file) {
  if (reaches.has(file)) return reaches.get(file);
  reaches.set(file, false);
  const found =
    file === PORT ||
    OTHER_WAYS.test(readFileSync(join(ROOT, file), 'utf8')) ||
    importsOf(file).some((target) => {
      const source = sourceOf(target);
      return source !== null && reachesDatabase(source);
    });
  reaches.set(file, found);
  return found;
}

const tests = ['src', 'rest-compat', 'test']
  .flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => `${dir}/${name.split('\\').join('/')}`),
  )
  .sort();
process.stdout.write(tests.filter((test) => reachesDatabase(test)).join('\n') + '\n');
