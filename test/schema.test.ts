import { readFileSync } from 'node:fs';
import { buildAppSchema, printAppSchema } from '../src/graphql/schema.js';
import { startTestApp } from './helpers/app.js';

describe('schema.graphql', () => {
  it('is what the code generates (run `npm run schema:emit` after changing resolvers)', async () => {
    const committed = readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8');
    expect(printAppSchema(await buildAppSchema(null))).toBe(committed);
  });
});

describe('migrations', () => {
  it('leave nothing for the entities to change (run `npm run migration:create` after changing entities)', async () => {
    const t = await startTestApp();
    try {
      const diff = await t.app.db.orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
      expect(diff.trim()).toBe('');
      const extensions: { extname: string }[] = await t
        .em()
        .getConnection()
        .execute(`select extname from pg_extension where extname = 'pg_trgm'`);
      expect(extensions).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
