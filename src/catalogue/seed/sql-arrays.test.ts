import { startTestApp, type TestApp } from '../../../test/helpers/app.js';
import { boolArray, intArray, numericArray, textArray } from '../../db/sql.js';

/** The array-literal helpers of src/db/sql.ts, alone and through the database (bound with knex). */
describe('array literal helpers', () => {
  it('quote every text element and escape backslashes and double quotes', () => {
    expect(textArray([])).toBe('{}');
    expect(textArray(['a', null, '', 'NULL', 'x,y', 'say "hi"', 'C:\\dir'])).toBe(
      '{"a",NULL,"","NULL","x,y","say \\"hi\\"","C:\\\\dir"}',
    );
    expect(() => textArray(['nul\0'])).toThrow('NUL');
  });

  it('write numbers and booleans bare, refusing what PostgreSQL would misread', () => {
    expect(numericArray([1, -2.5, null, 1e-7])).toBe('{1,-2.5,NULL,1e-7}');
    expect(() => numericArray([NaN])).toThrow('finite');
    expect(() => numericArray([Infinity])).toThrow('finite');
    expect(boolArray([true, false, null])).toBe('{t,f,NULL}');
    expect(intArray([1, 2])).toBe('{1,2}');
  });

  describe('through the database', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp();
    }, 120_000);
    afterAll(() => app?.close());

    const roundTrip = async <T>(sql: string, literal: string): Promise<T[]> => {
      const result = await app.em().getKnex().raw(sql, [literal]);
      return (result.rows as { v: T }[]).map((r) => r.v);
    };

    it('reads texts back exactly', async () => {
      const texts = [
        'plain',
        '',
        'NULL',
        'a,b',
        '{braces}',
        ' spaced ',
        'quote " here',
        'back\\slash',
        '\\"',
        'line\nbreak\ttab',
        'Тёмная ☾ 🦊',
        null,
      ];
      const back = await roundTrip<string | null>(
        'select v from unnest(?::text[]) with ordinality as u(v, n) order by n',
        textArray(texts),
      );
      expect(back).toEqual(texts);
    });

    it('reads nested literals (per-row arrays) and JSON documents back', async () => {
      const rows = [['dark mode', 'a"b'], [], ['x\\y', 'NULL']];
      const back = await roundTrip<string[]>(
        'select v::text[] as v from unnest(?::text[]) with ordinality as u(v, n) order by n',
        textArray(rows.map((r) => textArray(r))),
      );
      expect(back).toEqual(rows);
      const docs = [{ 'en-US': 'say "hi" \\ {x}' }, null];
      const json = await roundTrip<unknown>(
        'select v from unnest(?::jsonb[]) with ordinality as u(v, n) order by n',
        textArray(docs.map((d) => (d === null ? null : JSON.stringify(d)))),
      );
      expect(json).toEqual(docs);
    });

    it('reads numbers and booleans back', async () => {
      expect(
        await roundTrip<number | null>(
          'select v from unnest(?::float8[]) with ordinality as u(v, n) order by n',
          numericArray([1.25, null, -3]),
        ),
      ).toEqual([1.25, null, -3]);
      expect(
        await roundTrip<boolean | null>(
          'select v from unnest(?::boolean[]) with ordinality as u(v, n) order by n',
          boolArray([true, null, false]),
        ),
      ).toEqual([true, null, false]);
    });
  });
});
