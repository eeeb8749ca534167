/**
 * Firefox itself keeps add-ons installed from this service up to date: Debian's firefox-esr,
 * headless, launched over WebDriver BiDi (puppeteer-core) with a profile whose update URL is this
 * service's update service, holding two add-ons installed from it at 1.0. One has a newer signed
 * release (Firefox asks, downloads it and replaces 1.0); the other's newer release is blocked
 * (Firefox asks, is offered nothing, keeps 1.0). The service sees every request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Addon } from '../src/catalogue/addon.entity.js';
import { Version, type AddonFile } from '../src/catalogue/version.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { createAddon, firstExtensionCategoryId } from './helpers/catalogue.js';
import { launchFirefox, UPDATE_QUERY, type RunningFirefox } from './helpers/firefox.js';
import { freePort } from './helpers/process.js';
import { extension, signedAndApproved, waitFor } from './helpers/signing.js';

type Json = Record<string, any>;

let t: TestApp;
let server: Server;
let base: string;
let dev: KeyCaller;
let reviewer: string;
let blockAdmin: string;
let categoryId: number;
let firefox: RunningFirefox | null = null;
/** Every request the service received from Firefox: method and URL. */
const seen: string[] = [];

function gql(auth: string, query: string, variables: Json = {}) {
  return t.http.post('/graphql').set('Authorization', auth).send({ query, variables });
}

const signedFile = (versionId: number) => signedAndApproved(() => t.em(), versionId);

/** A listed release through the signing API, approved by a reviewer, signed; its signed package. */
async function release(addon: Addon, version: string): Promise<{ file: AddonFile; bytes: Buffer }> {
  const res = await t.http
    .put(`/api/v4/addons/${encodeURIComponent(addon.guid!)}/versions/${version}/`)
    .set('Authorization', dev.jwt())
    .field('channel', 'listed')
    .attach('upload', await extension({ id: addon.guid, version, name: `Firefox ${addon.slug}` }), 'addon.xpi');
  expect(res.status).toBe(202);
  const created = await waitFor(`version ${version}`, () => t.em().findOne(Version, { addon: addon.id, version }));
  const approve = await gql(
    reviewer,
    `mutation { reviewVersion(versionId: ${created.id}, decision: APPROVE) { action } }`,
  );
  expect(approve.body.errors).toBeUndefined();
  const file = await signedFile(created.id);
  return { file, bytes: (await t.app.services.files.get(file.storageKey))! };
}

function freshAddon(word: string): Promise<Addon> {
  return createAddon(t.em(), {
    guid: `${word}@firefox.test`,
    slug: `firefox-${word}`,
    name: { 'en-US': `Firefox ${word}` },
    categoryIds: [categoryId],
    authors: [{ id: dev.id }],
    versions: [],
  } as never);
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({
    env: { SIGNING_CA_KEY_BITS: '2048', SIGNING_KEY_POOL: '1', SITE_URL: base },
  });
  server = createServer((req, res) => {
    if (/firefox/i.test(req.headers['user-agent'] ?? '')) seen.push(`${req.method} ${req.url}`);
    t.app.express(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  expect((server.address() as AddressInfo).port).toBe(port);
  dev = await keyCaller(t);
  reviewer = `Bearer ${(await t.createUser({ session: true, permission: ['Addons:Review'] })).sessionToken}`;
  blockAdmin = `Bearer ${(await t.createUser({ session: true, permission: ['Blocklist:Create'] })).sessionToken}`;
  categoryId = await firstExtensionCategoryId(t.em());
}, 120_000);

afterAll(async () => {
  await firefox?.close();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

it('updates an installed add-on to its newer signed release, and never to a blocked one', async () => {
  const updated = await freshAddon('updated');
  const oldUpdated = await release(updated, '1.0');
  const newUpdated = await release(updated, '2.0');
  const blocked = await freshAddon('blocked');
  const oldBlocked = await release(blocked, '1.0');
  const newBlocked = await release(blocked, '1.1');
  const block = await gql(blockAdmin, 'mutation($input: BlockInput!) { createBlock(input: $input) { id } }', {
    input: { guid: blocked.guid, minVersion: '1.1', maxVersion: '*' },
  });
  expect(block.body.errors).toBeUndefined();

  firefox = await launchFirefox({
    updateUrl: `${base}/update/VersionCheck.php?${UPDATE_QUERY}`,
    addons: { [updated.guid!]: oldUpdated.bytes, [blocked.guid!]: oldBlocked.bytes },
  });
  // Driven over BiDi: the browser is up and reaches the service.
  const page = await firefox.browser.newPage();
  await page.goto(`${base}/api/v5/addons/addon/${updated.slug}/`);
  expect(JSON.parse((await page.evaluate('document.body.innerText')) as string)).toMatchObject({ guid: updated.guid });

  await waitFor(
    `Firefox to install ${updated.guid} 2.0`,
    async () => firefox!.installed(updated.guid!)?.version === '2.0',
    90_000,
  );
  expect(firefox.installed(updated.guid!)).toMatchObject({ version: '2.0', active: true });

  const checks = seen.filter((line) => line.startsWith('GET /update/VersionCheck.php?'));
  const asked = (guid: string, version: string) =>
    checks.some((line) => {
      const query = new URL(line.slice(4), base).searchParams;
      return query.get('id') === guid && query.get('version') === version && query.get('appVersion') !== null;
    });
  expect(asked(updated.guid!, '1.0')).toBe(true);
  expect(asked(blocked.guid!, '1.0')).toBe(true);
  // The download Firefox made is the signed 2.0 file; the blocked 1.1 was never fetched.
  const downloads = seen.filter((line) => line.startsWith('GET /downloads/file/'));
  expect(downloads.some((line) => line.includes(`/downloads/file/${newUpdated.file.id}/`))).toBe(true);
  expect(downloads.some((line) => line.includes(`/downloads/file/${newBlocked.file.id}/`))).toBe(false);
  expect(firefox.installed(blocked.guid!)).toMatchObject({ version: '1.0', active: true });
}, 300_000);
