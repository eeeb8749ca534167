// The test files that can reach a database: those whose imports (followed through every local
// module) reach the database port (src/db/database.ts), or that start other processes or read
// DATABASE_URL themselves.
//
// .ci/run runs every test file on the machine's PostgreSQL (the README's command with DATABASE_URL),
// and the embedded suite again on the embedded default (PGlite): `--embedded` prints it. It is what
// can tell the two databases apart:
//  - the data layer's files under src/ and rest-compat/ (EMBEDDED_UNITS: the database port, the job
//    queue on PGlite's one connection, search without the rum index, seeding, migrations, the REST
//    engine), not the signing crypto and linter units, which reach a database only through imports;
//  - the API files in EMBEDDED_API below: each domain's answers as clients read them, where PGlite's
//    value types (dates, bigints), its statement splitting and its single connection show.
// Left to PostgreSQL alone: the other API files, and those that drive real clients or processes
// (Firefox, Chromium, web-ext, sign-addon, the CLI, an OpenID provider, mail and S3 servers, a
// cluster), the fuzz suite and the webhooks' receivers, whose subject is not the database.
// EMBEDDED_ONLY files open the embedded database whatever DATABASE_URL says: `--embedded-only` prints
// them, for the PostgreSQL run to leave out (it would run them exactly as the embedded run does).
// Usage: node scripts/database-tests.mjs [--embedded | --embedded-only]  (one repository-relative path per line)
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
const EMBEDDED_UNITS = ['src/db/', 'src/jobs/', 'src/search/', 'src/catalogue/', 'src/modules.', 'rest-compat/engine.'];
/** Units of those folders that drive a process (the command line as a child), left to PostgreSQL. */
const PROCESS_UNITS = ['src/catalogue/seed/seed-cli.test.ts'];
const EMBEDDED_ONLY = ['src/db/pglite-template.test.ts'];

const EMBEDDED_API = [
  'test/accounts.test.ts',
  'test/api-v5.test.ts',
  'test/catalogue-detail.test.ts',
  'test/catalogue-listing.test.ts',
  'test/catalogue-search.test.ts',
  'test/collections.test.ts',
  'test/database-text.test.ts',
  'test/graphql.test.ts',
  'test/lifecycle.test.ts',
  'test/operation-transactions.test.ts',
  'test/ratings.test.ts',
  'test/review-queue.test.ts',
  'test/reviewer-browse.test.ts',
  'test/rollback.test.ts',
  'test/search-params-v5.test.ts',
  'test/signing.test.ts',
  'test/site.test.ts',
  'test/v5-endpoints.test.ts',
  'test/write-conflicts.test.ts',
];

const database = tests.filter((test) => reachesDatabase(test));
const missing = EMBEDDED_API.filter((test) => !database.includes(test));
if (missing.length) throw new Error(`EMBEDDED_API names files that reach no database: ${missing.join(', ')}`);
for (const test of [...PROCESS_UNITS, ...EMBEDDED_ONLY])
  if (!database.includes(test)) throw new Error(`${test} is listed but reaches no database`);
const embedded = (test) =>
  EMBEDDED_API.includes(test) ||
  (EMBEDDED_UNITS.some((prefix) => test.startsWith(prefix)) && !PROCESS_UNITS.includes(test));
const chosen = process.argv.includes('--embedded-only')
  ? EMBEDDED_ONLY
  : process.argv.includes('--embedded')
    ? database.filter(embedded)
    : database;
process.stdout.write(chosen.join('\n') + '\n');
