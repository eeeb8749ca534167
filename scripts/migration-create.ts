import 'reflect-metadata';
import { openDatabase } from '../src/db/database.js';
import { entities, unmappedTables } from '../src/modules.js';

/**
 * Diffs the entities against a scratch embedded database that has every existing migration
 * applied, and writes the difference as a new migration in src/migrations.
 * Usage: npm run migration:create -- [name]
 */
const db = await openDatabase({ kind: 'embedded', dataDir: null }, { entities, unmappedTables });
try {
  const result = await db.orm.getMigrator().createMigration('src/migrations', false, false, process.argv[2]);
  if (!result.fileName) {
    console.log('No changes: the migrations already match the entities.');
  } else {
    const className = result.fileName.replace(/\.ts$/, '');
    console.log(`Created src/migrations/${result.fileName}.`);
    console.log(`Register it in src/migrations/index.ts:`);
    console.log(`  import { ${className} } from './${className}.js';`);
    console.log(`  { name: '${className}', class: ${className} },`);
  }
} finally {
  await db.close();
}
