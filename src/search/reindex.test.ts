import { seedCatalogue } from '../catalogue/seed/seed.js';
import { startTestApp, type TestApp } from '../../test/helpers/app.js';
import { reindex } from './reindex.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const snapshot = (t: TestApp) =>
  t
    .em()
    .getConnection()
    .execute(
      `select id, current_version_id, compat_apps, compat_min, compat_max, platforms, tags, category_ids
         from addons order by id`,
    );

const postings = async (t: TestApp) => {
  const [row] = await t
    .em()
    .getConnection()
    .execute<{ n: number; sum: string }[]>(
      `select count(*)::int as n,
              md5(string_agg(lexeme || ':' || score::text || ':' || addon_id, '|' order by lexeme, addon_id)) as sum
         from addon_search_postings`,
    );
  return row;
};

describe('search:reindex', () => {
  it('recomputes exactly the search columns the seeder wrote, and reports what it did', async () => {
    await seedCatalogue(t.em(), { addons: 400, seed: 5 });
    const before = await snapshot(t);
    const chunks: string[] = [];
    const result = await reindex(t.em(), t.app.services.search, {
      batchSize: 150,
      progress: { write: (s: string) => chunks.push(s), isTTY: false },
    });
    expect(result).toMatchObject({ addons: 400, engine: 'postgres' });
    expect(await snapshot(t)).toEqual(before);
    expect(chunks.join('')).toContain('400/400');
  });

  it('repairs drifted search columns and postings, writing only what differs, with the same result as a full rebuild', async () => {
    const execute = (text: string) => t.em().getConnection().execute(text);
    const before = await snapshot(t);
    const good = await postings(t);
    expect(good.n).toBeGreaterThan(1000);
    // Drift behind the triggers' back: stale compatibility, a lost current version, postings
    // missing, one posting's score changed, one posting that no add-on gives.
    await execute(
      `update addons set compat_apps = '{}', platforms = '{9}' where id in (select id from addons order by id limit 3)`,
    );
    await execute(
      `update addons set current_version_id = null
        where id = (select id from addons where current_version_id is not null order by id desc limit 1)`,
    );
    await execute(
      `delete from addon_search_postings where addon_id in (select addon_id from addon_search_postings order by addon_id limit 2)`,
    );
    await execute(
      `update addon_search_postings set score = score + 1
        where (lexeme, addon_id) = (select lexeme, addon_id from addon_search_postings order by lexeme desc, addon_id limit 1)`,
    );
    await execute(`insert into addon_search_postings (lexeme, score, addon_id) values ('zzzdrift', 1, 1)`);
    expect(await snapshot(t)).not.toEqual(before);
    expect(await postings(t)).not.toEqual(good);

    const quiet = { write: () => true, isTTY: false };
    await reindex(t.em(), t.app.services.search, { batchSize: 150, progress: quiet });
    expect(await snapshot(t)).toEqual(before);
    expect(await postings(t)).toEqual(good);

    // The full rebuild (search:reindex --rebuild-postings) gives the same table.
    await execute(`insert into addon_search_postings (lexeme, score, addon_id) values ('zzzdrift', 1, 1)`);
    await reindex(t.em(), t.app.services.search, { progress: quiet, rebuildPostings: true });
    expect(await snapshot(t)).toEqual(before);
    expect(await postings(t)).toEqual(good);
  });
});
