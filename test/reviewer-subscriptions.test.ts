import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Channel } from '../src/catalogue/catalogue.enums.js';
import { Version } from '../src/catalogue/version.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { call, caller, type Caller } from './helpers/ratings.js';

/**
 * Reviewer subscriptions (issue 12, item 1): `POST /api/v4/reviewers/addon/<id>/(un)subscribe…/`,
 * any reviewer for the listed channel, unlisted reviewers for the unlisted one; idempotent; a mail
 * to each subscriber when a version of their channel is created.
 */

let t: TestApp;
let listed: Caller;
let unlisted: Caller;
let user: Caller;

beforeAll(async () => {
  t = await startTestApp({ env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test' } });
  listed = await caller(t, { permission: ['Addons:Review'] });
  unlisted = await caller(t, { permission: ['Addons:ReviewUnlisted'] });
  user = await caller(t);
}, 120_000);
afterAll(() => t?.close());

const path = (id: number | string, action: string, version = 'v4') =>
  `/api/${version}/reviewers/addon/${id}/${action}/`;
const ACTIONS = ['subscribe', 'subscribe_listed', 'unsubscribe', 'unsubscribe_listed'];
const UNLISTED_ACTIONS = ['subscribe_unlisted', 'unsubscribe_unlisted'];

async function subscriptions(who: Caller) {
  const res = await t.http
    .post('/graphql')
    .set('Authorization', `Bearer ${who.token}`)
    .send({ query: '{ reviewerSubscriptions { addonId channel } }' });
  return res.body.data.reviewerSubscriptions as { addonId: number; channel: string }[];
}

it('answers 202 with an empty body to reviewers, by channel; 401, 403 and 404 otherwise', async () => {
  const addon = await createAddon(t.em());
  for (const action of [...ACTIONS, ...UNLISTED_ACTIONS]) {
    expect([action, (await call(t, 'post', path(addon.id, action), null)).status]).toEqual([action, 401]);
    expect([action, (await call(t, 'post', path(addon.id, action), user)).status]).toEqual([action, 403]);
    const byUnlisted = await call(t, 'post', path(addon.id, action), unlisted);
    expect([action, byUnlisted.status, byUnlisted.text]).toEqual([action, 202, '']);
    const byListed = await call(t, 'post', path(addon.id, action), listed);
    expect([action, byListed.status]).toEqual([action, UNLISTED_ACTIONS.includes(action) ? 403 : 202]);
    for (const missing of [path(999_999, action), path(addon.slug, action), path(addon.id, action, 'v3')]) {
      const res = await call(t, 'post', missing, unlisted);
      expect([missing, res.status, res.body]).toEqual([missing, 404, { detail: 'Not found.' }]);
    }
  }
});

it('is idempotent, per channel, and listed by GraphQL', async () => {
  const addon = await createAddon(t.em());
  const reviewer = await caller(t, { permission: ['Addons:Review', 'Addons:ReviewUnlisted'] });
  for (const action of ['subscribe', 'subscribe_listed', 'subscribe_unlisted', 'subscribe_unlisted']) {
    expect((await call(t, 'post', path(addon.id, action), reviewer)).status).toBe(202);
  }
  expect((await subscriptions(reviewer)).sort((a, b) => a.channel.localeCompare(b.channel))).toEqual([
    { addonId: addon.id, channel: 'LISTED' },
    { addonId: addon.id, channel: 'UNLISTED' },
  ]);
  expect((await call(t, 'post', path(addon.id, 'unsubscribe'), reviewer)).status).toBe(202);
  expect((await call(t, 'post', path(addon.id, 'unsubscribe'), reviewer)).status).toBe(202);
  expect(await subscriptions(reviewer)).toEqual([{ addonId: addon.id, channel: 'UNLISTED' }]);
});

it('mails the subscribers of a new version’s channel who may still review it', async () => {
  const author = await t.createUser();
  const addon = await createAddon(t.em(), {
    authors: [{ id: author.id }],
    versions: [{ version: '1.0' }, { version: '2.0', channel: Channel.UNLISTED }],
  });
  const versions = await t.em().find(Version, { addon: addon.id }, { orderBy: { id: 'asc' } });
  const listedFan = await t.createUser({ session: true, permission: ['Addons:Review'] });
  const unlistedFan = await t.createUser({ session: true, permission: ['Addons:ReviewUnlisted'] });
  const demoted = await t.createUser({ session: true, permission: ['Addons:Review'] });
  for (const [who, action] of [
    [listedFan, 'subscribe_listed'],
    [unlistedFan, 'subscribe_unlisted'],
    [demoted, 'subscribe'],
  ] as const) {
    expect((await call(t, 'post', path(addon.id, action), { id: who.id, token: who.sessionToken! })).status).toBe(202);
  }
  // The demoted reviewer loses the permission after subscribing.
  await t.em().getConnection().execute('delete from users_groups where user_id = ?', [demoted.id]);

  const outbox = join(t.app.services.config.dataDir, 'mail', 'outbox');
  const mails = () => (existsSync(outbox) ? readdirSync(outbox) : []);
  const deliver = async (versionId: number) => {
    const before = new Set(mails());
    await t.app.services.events.deliver({
      subscriber: 'reviewer-subscriptions',
      event: {
        id: `test-${versionId}`,
        type: 'version.validated',
        data: { addonId: addon.id, uploadId: 'test', valid: true, versionId },
        occurredAt: new Date().toISOString(),
        actorId: null,
      },
    });
    return mails()
      .filter((f) => !before.has(f))
      .map((f) => readFileSync(join(outbox, f), 'utf8'));
  };
  const to = (mail: string) => /^To: (.*)$/m.exec(mail)?.[1];

  const listedMails = await deliver(versions[0].id);
  expect(listedMails.map(to)).toEqual([listedFan.email]);
  expect(listedMails[0]).toContain('A new listed version of');
  expect(listedMails[0]).toContain(`http://addons.test/reviewers/review/${addon.id}`);
  const unlistedMails = await deliver(versions[1].id);
  expect(unlistedMails.map(to)).toEqual([unlistedFan.email]);
  expect(unlistedMails[0]).toContain('2.0');
});
