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
});
