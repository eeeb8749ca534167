import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { jpeg, readImage } from './helpers/images.js';
import { startTestS3, type TestS3 } from './helpers/s3.js';

/**
 * The service with STORAGE=s3 (issue 11, item 7): media go to the object store and are served at
 * /user-media/ through the service; nothing lands in DATA_DIR/media.
 */

let s3: TestS3;
let t: TestApp;
let owner: { id: number; token: string };

beforeAll(async () => {
  s3 = await startTestS3();
  t = await startTestApp({ env: { ...s3.env, JOB_WORKERS: 'false', SITE_URL: 'http://addons.test' } });
  const user = await t.createUser({ session: true });
  owner = { id: user.id, token: `Bearer ${user.sessionToken}` };
}, 120_000);
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

it('stores an icon in the object store and serves it at /user-media/', async () => {
  const addon = await createAddon(t.em(), { authors: [{ id: owner.id }] });
  const query = `mutation($addon: String!, $icon: Upload!) { setAddonIcon(addon: $addon, icon: $icon) { icon64: iconUrl(size: 64) } }`;
  const res = await t.http
    .post('/graphql')
    .set('Authorization', owner.token)
    .set('apollo-require-preflight', 'true')
    .field('operations', JSON.stringify({ query, variables: { addon: addon.slug, icon: null } }))
    .field('map', JSON.stringify({ 0: ['variables.icon'] }))
    .attach('0', await jpeg(128, 128), 'icon.jpg');
  expect(res.body.errors).toBeUndefined();
  const url = new URL(res.body.data.setAddonIcon.icon64);
  expect(url.pathname).toMatch(/^\/user-media\/addon_icons\/\d+\/\d+-64\.png$/);

  const served = await t.http.get(url.pathname).buffer(true);
  expect(served.status).toBe(200);
  expect(served.headers['content-type']).toBe('image/png');
  expect(await readImage(served.body as Buffer)).toMatchObject({ format: 'png', width: 64, height: 64 });
  const stored = await t.app.services.storage.get(url.pathname.replace('/user-media/', ''));
  expect(stored).not.toBeNull();
  expect(Buffer.compare(served.body as Buffer, stored!)).toBe(0);

  for (const missing of ['/user-media/addon_icons/0/0-64.jpg', '/user-media/../secret-key', '/user-media/A/b']) {
    const res = await t.http.get(missing);
    expect([res.status, res.body]).toEqual([404, { detail: 'Not found.' }]);
  }
});
