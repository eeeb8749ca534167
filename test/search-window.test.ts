import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';

/** SEARCH_MAX_RESULT_WINDOW bounds page_count (and reachable pages); count stays the real total. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { SEARCH_MAX_RESULT_WINDOW: '50' } });
  for (let i = 0; i < 60; i++) await createAddon(t.em(), { averageDailyUsers: i });
});
afterAll(() => t.close());

describe('the maximum result window', () => {
  it('limits page_count but not count', async () => {
    const res = await t.http.get('/api/v4/addons/search/?page_size=20');
    expect(res.body).toMatchObject({ count: 60, page_size: 20, page_count: 3 });
    const last = await t.http.get('/api/v4/addons/search/?page_size=20&page=3');
    expect(last.status).toBe(200);
    expect(last.body.results).toHaveLength(10);
    expect(last.body.next).toBeNull();
    expect((await t.http.get('/api/v4/addons/search/?page_size=20&page=4')).body).toEqual({ detail: 'Invalid page.' });
  });

  it('is validated at boot', async () => {
    await expect(startTestApp({ env: { SEARCH_MAX_RESULT_WINDOW: '10' } })).rejects.toThrow(/SEARCH_MAX_RESULT_WINDOW/);
  });
});
