import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { openDatabase } from '../src/db/database.js';
import { databaseSchema, modules } from '../src/modules.js';

/**
 * Diffs the entities against a scratch embedded database that has every existing migration
 * applied, and writes the difference as a new migration of a domain, in src/<domain>/migrations.
 * Usage: npm run migration:create -- <domain> [name]
 */
const [domain, name] = process.argv.slice(2);
const module = modules.find((candidate) => candidate.name === domain);
if (!module) {
  console.error(
    `Usage: npm run migration:create -- <domain> [name]; domains: ${modules.map((m) => m.name).join(', ')}`,
  );
  process.exit(2);
}
const dir = `src/${module.name}/migrations`;
const db = await openDatabase({ kind: 'embedded', dataDir: null }, databaseSchema);
try {
  const result = await db.orm.getMigrator().createMigration(dir, false, false, name);
  if (!result.fileName) {
    console.log('No changes: the migrations already match the entities.');
  } else {
    const className = result.fileName.replace(/\.ts$/, '');
    console.log(`Created ${dir}/${result.fileName}.`);
    console.log(
      `Register it in ${dir}/index.ts${existsSync(`${dir}/index.ts`) ? '' : ' (new: list it in its module.ts)'}:`,
    );
    console.log(`  import { ${className} } from './${className}.js';`);
    console.log(`  { name: '${className}', class: ${className} },`);
  }
} finally {
  await db.close();
}
