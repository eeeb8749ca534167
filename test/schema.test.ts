import { readFileSync } from 'node:fs';
import { isInterfaceType, isObjectType, type GraphQLObjectType } from 'graphql';
import { printAppSchema } from '../src/graphql/schema.js';
import { buildAppSchema } from '../src/modules.js';
import { startTestApp } from './helpers/app.js';

describe('schema.graphql', () => {
  it('is what the code generates (run `npm run schema:emit` after changing resolvers)', async () => {
    const committed = readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8');
    expect(printAppSchema(await buildAppSchema(null))).toBe(committed);
  });

  it('knows no REST version: no `rules` or `scoreField` argument, no version-rules enum (see rest-compat/gates.ts)', async () => {
    const schema = await buildAppSchema(null);
    const types = Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith('__'));
    const retiredEnums = ['AccountRules', 'CollectionRules', 'RatingScoreField'];
    expect(types.map((type) => type.name).filter((name) => retiredEnums.includes(name))).toEqual([]);
    const versionArguments = types
      .filter((type) => isObjectType(type) || isInterfaceType(type))
      .flatMap((type) =>
        Object.values((type as GraphQLObjectType).getFields()).flatMap((field) =>
          field.args
            .filter((arg) => arg.name === 'rules' || arg.name === 'scoreField')
            .map((arg) => `${type.name}.${field.name}(${arg.name})`),
        ),
      );
    expect(versionArguments).toEqual([]);
    // Nor do its descriptions name REST versions: what differs between them is rest-compat's.
    const printed = printAppSchema(schema);
    expect(printed.split('\n').filter((line) => /\bv[345]\b/i.test(line))).toEqual([]);
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
