import { AbuseReport } from '../src/abuse/abuse-report.entity.js';
import { Collection } from '../src/collections/collection.entity.js';
import { Rating } from '../src/ratings/rating.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { caller, type Caller } from './helpers/ratings.js';

/**
 * Abuse reports of today's feedback form (issue 37): REST v5 takes the current reasons and the DSA
 * fields on add-on and user reports, and reports ratings and collections, echoing every field as the
 * original documents; v4 keeps the 2019 reasons. GraphQL reportRating and reportCollection are the
 * same rules; moderators see the reports with the others.
 */

let t: TestApp;
let user: Caller;
let moderator: Caller;
let addonId: number;
let ratingId: number;
let deletedRatingId: number;
let collectionId: number;
let unlistedId: number;

beforeAll(async () => {
  t = await startTestApp({
    env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test', TRUST_PROXY: '1', ABUSE_REPORTS_PER_DAY: '3' },
  });
  user = await caller(t, { name: 'Reporting Person' });
  moderator = await caller(t, { permission: ['AbuseReports:Edit'] });
  const em = t.em();
  const addon = await createAddon(em, { slug: 'reported-v5', guid: '@reported-v5' });
  addonId = addon.id;
  const author = await t.createUser({});
  const rating = em.create(Rating, { addon: addon.id, user: author.id, score: 1, body: 'evil rating' });
  const gone = em.create(Rating, { addon: addon.id, user: user.id, score: 2, deleted: true });
  const collection = em.create(Collection, {
    author: author.id,
    slug: 'spammy',
    name: { 'en-US': 'Spammy' },
    description: null,
  });
  const unlisted = em.create(Collection, {
    author: user.id,
    slug: 'mine',
    name: { 'en-US': 'Mine' },
    description: null,
    listed: false,
  });
  await em.flush();
  unlistedId = unlisted.id;
  ratingId = rating.id;
  deletedRatingId = gone.id;
  collectionId = collection.id;
}, 120_000);
afterAll(() => t?.close());

let addresses = 0;
const nextAddress = () => `10.7.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

async function post(path: string, who: Caller | null, body: object, ip = nextAddress()) {
  await t.em().getConnection().execute('delete from abuse_throttles');
  return send(path, who, body, ip);
}

function send(path: string, who: Caller | null, body: object, ip: string) {
  let req = t.http.post(path).set('X-Forwarded-For', ip);
  if (who) req = req.set('Authorization', `Bearer ${who.token}`);
  return req.send(body);
}

const reporterOf = async (who: Caller) => {
  const [row] = await t
    .em()
    .getConnection()
    .execute<{ username: string }[]>('select username from users where id = ?', [who.id]);
  return { id: who.id, name: 'Reporting Person', url: `http://addons.test/user/${who.id}/`, username: row.username };
};

describe('add-on reports (v5)', () => {
  it('takes the feedback form’s body and echoes every field', async () => {
    const res = await post('/api/v5/abuse/report/addon/', null, {
      addon: String(addonId),
      message: '',
      reason: 'does_not_work',
      reporter_name: 'Some Body',
      reporter_email: 'some@body.example',
      location: 'both',
      addon_version: '1.0',
      lang: 'en-US',
      illegal_category: null,
      illegal_subcategory: null,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      reporter: null,
      reporter_name: 'Some Body',
      reporter_email: 'some@body.example',
      addon: { guid: '@reported-v5', id: addonId, slug: 'reported-v5' },
      message: '',
      reason: 'does_not_work',
      location: 'both',
      addon_version: '1.0',
      lang: 'en-US',
      app: 'firefox',
      illegal_category: null,
      illegal_subcategory: null,
    });
  });

  it('takes an illegal-content report with its category and subcategory', async () => {
    const res = await post('/api/v5/abuse/report/addon/', null, {
      addon: '@reported-v5',
      reason: 'illegal',
      illegal_category: 'consumer_information',
      illegal_subcategory: 'hidden_advertisement',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ reason: 'illegal', illegal_category: 'consumer_information' });
    expect(res.body.illegal_subcategory).toBe('hidden_advertisement');
  });

  it.each([
    [{ reason: 'illegal' }, { illegal_category: ['This field is required.'] }],
    [{ reason: 'illegal', illegal_category: null }, { illegal_category: ['This field may not be null.'] }],
    [{ reason: 'illegal', illegal_category: 'violence' }, { illegal_subcategory: ['This field is required.'] }],
    [
      { reason: 'illegal', illegal_category: 'violence', illegal_subcategory: 'phishing' },
      { illegal_subcategory: ['This value cannot be used in combination with the supplied `illegal_category`.'] },
    ],
    [
      { reason: 'feedback_spam', illegal_category: 'violence' },
      { illegal_category: ['This value must be omitted or set to "null" when the `reason` is not "illegal".'] },
    ],
    [{ reason: 'nope' }, { reason: ['"nope" is not a valid choice.'] }],
    [{ reason: 'other', location: 'moon' }, { location: ['"moon" is not a valid choice.'] }],
    [{ reason: 'other', reporter_email: 'not an address' }, { reporter_email: ['Enter a valid email address.'] }],
    [{ reporter_name: 'Someone' }, { message: ['This field is required.'] }],
  ])('refuses %j in the original’s shape', async (body, errors) => {
    const res = await post('/api/v5/abuse/report/addon/', null, { addon: String(addonId), ...body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errors);
  });

  it('v4 keeps the 2019 reasons and answers no DSA field', async () => {
    const refused = await post('/api/v4/abuse/report/addon/', null, {
      addon: String(addonId),
      reason: 'does_not_work',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ reason: ['"does_not_work" is not a valid choice.'] });
    const ok = await post('/api/v4/abuse/report/addon/', null, {
      addon: String(addonId),
      reason: 'broken',
      reporter_name: 'ignored',
    });
    expect(ok.status).toBe(201);
    expect(ok.body).not.toHaveProperty('reporter_name');
    expect(ok.body).not.toHaveProperty('illegal_category');
  });

  it('takes today’s entry points, install sources and signatures by the original’s names', async () => {
    const res = await post('/api/v5/abuse/report/addon/', null, {
      addon: String(addonId),
      reason: 'does_not_work',
      report_entry_point: 'unified_context_menu',
      addon_install_source: 'winreg-app-user',
      addon_signature: 'unknown: 12',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      report_entry_point: 'unified_context_menu',
      addon_install_source: 'winreg_app_user',
      addon_signature: 'unknown',
    });
    const amo = await post('/api/v5/abuse/report/addon/', null, {
      addon: String(addonId),
      reason: 'does_not_work',
      report_entry_point: 'AMO',
      addon_install_source: 'rtamo',
      addon_signature: 'not_required',
    });
    expect(amo.status).toBe(201);
    expect(amo.body).toMatchObject({
      report_entry_point: 'amo',
      addon_install_source: 'rtamo',
      addon_signature: 'not_required',
    });
    // Stored by the neutral names GraphQL and v3/v4 use.
    const stored = await t
      .em()
      .getConnection()
      .execute<{ e: string; s: string }[]>(
        'select report_entry_point as e, addon_install_source as s from abuse_reports order by id desc limit 2',
      );
    expect(stored).toEqual([
      { e: 'site', s: 'return_to_site' },
      { e: 'unified_context_menu', s: 'winreg_app_user' },
    ]);
    // v5 does not know the neutral entry point; an unknown install source is `other`, as the original.
    const neutral = await post('/api/v5/abuse/report/addon/', null, {
      addon: String(addonId),
      reason: 'does_not_work',
      report_entry_point: 'site',
      addon_install_source: 'return_to_site',
    });
    expect(neutral.status).toBe(400);
    expect(neutral.body).toEqual({ report_entry_point: ['"site" is not a valid choice.'] });
  });

  it('v4 answers as before: the contract’s names, newer sources as `other`, `unknown: …` refused', async () => {
    const res = await post('/api/v4/abuse/report/addon/', null, {
      addon: String(addonId),
      message: 'bad',
      report_entry_point: 'site',
      addon_install_source: 'winreg_app_user',
      addon_signature: 'signed',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      report_entry_point: 'site',
      addon_install_source: 'other',
      addon_signature: 'signed',
    });
    const refused = await post('/api/v4/abuse/report/addon/', null, {
      addon: String(addonId),
      message: 'bad',
      report_entry_point: 'unified_context_menu',
      addon_signature: 'unknown: 12',
    });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body).sort()).toEqual(['addon_signature', 'report_entry_point']);
  });

  it('GraphQL takes the current lists by their stored names', async () => {
    await t.em().getConnection().execute('delete from abuse_throttles');
    const res = await t.http
      .post('/graphql')
      .set('X-Forwarded-For', nextAddress())
      .send({
        query: `mutation { reportAddon(input: { addon: "${addonId}", message: "m", reportEntryPoint: "site",
          addonInstallSource: "app_builtin", addonSignature: "unknown: x" }) {
          reportEntryPoint addonInstallSource addonSignature } }`,
      });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.reportAddon).toEqual({
      reportEntryPoint: 'site',
      addonInstallSource: 'app_builtin',
      addonSignature: 'unknown',
    });
  });
});

describe('user reports (v5)', () => {
  it('takes a content reason without a message, and echoes the DSA fields', async () => {
    const res = await post('/api/v5/abuse/report/user/', user, { user: String(moderator.id), reason: 'feedback_spam' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      reporter: await reporterOf(user),
      reporter_email: null,
      reporter_name: null,
      user: { id: moderator.id },
      message: '',
      reason: 'feedback_spam',
      lang: null,
      illegal_category: null,
      illegal_subcategory: null,
    });
  });

  it('refuses an add-on-only reason', async () => {
    const res = await post('/api/v5/abuse/report/user/', null, { user: String(moderator.id), reason: 'does_not_work' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ reason: ['"does_not_work" is not a valid choice.'] });
  });
});

describe('rating reports', () => {
  it('reports a rating as the original documents', async () => {
    const res = await post('/api/v5/abuse/report/rating/', null, {
      rating: ratingId,
      message: 'bad stuff',
      reason: 'illegal',
      illegal_category: 'animal_welfare',
      illegal_subcategory: 'other',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      reporter: null,
      reporter_email: null,
      reporter_name: null,
      rating: { id: ratingId },
      reason: 'illegal',
      message: 'bad stuff',
      lang: null,
      illegal_category: 'animal_welfare',
      illegal_subcategory: 'other',
    });
    const stored = await t.em().fork().findOneOrFail(AbuseReport, { rating: ratingId });
    expect(stored.illegalCategory).toBe('animal_welfare');
  });

  it.each([
    [{}, 400, { rating: ['This field is required.'] }],
    [{ rating: 'abc', message: 'x' }, 404, undefined],
    [{ rating: 999999, message: 'x' }, 404, undefined],
    [{ rating: 1, reason: 'damage' }, 400, { reason: ['"damage" is not a valid choice.'] }],
  ])('refuses %j', async (body, status, errors) => {
    const res = await post('/api/v5/abuse/report/rating/', null, body);
    expect(res.status).toBe(status);
    if (errors) expect(res.body).toEqual(errors);
  });

  it('does not find a deleted rating, and is v5 only', async () => {
    expect((await post('/api/v5/abuse/report/rating/', null, { rating: deletedRatingId, message: 'x' })).status).toBe(
      404,
    );
    expect((await post('/api/v4/abuse/report/rating/', null, { rating: ratingId, message: 'x' })).status).toBe(404);
  });

  it('counts against the same daily throttle', async () => {
    await t.em().getConnection().execute('delete from abuse_throttles');
    const ip = nextAddress();
    for (let i = 0; i < 3; i++) {
      expect((await send('/api/v5/abuse/report/rating/', null, { rating: ratingId, message: 'x' }, ip)).status).toBe(
        201,
      );
    }
    expect((await send('/api/v5/abuse/report/rating/', null, { rating: ratingId, message: 'x' }, ip)).status).toBe(429);
  });
});

describe('collection reports', () => {
  it('reports a collection as the original documents', async () => {
    const res = await post('/api/v5/abuse/report/collection/', user, {
      collection: String(collectionId),
      message: 'this is some spammy stûff',
      reason: 'feedback_spam',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      reporter: await reporterOf(user),
      reporter_email: null,
      reporter_name: null,
      collection: { id: collectionId },
      reason: 'feedback_spam',
      message: 'this is some spammy stûff',
      lang: null,
      illegal_category: null,
      illegal_subcategory: null,
    });
  });

  it('404s an unknown collection and another user’s unlisted one, 400s a missing one', async () => {
    expect((await post('/api/v5/abuse/report/collection/', null, { collection: 99999, message: 'x' })).status).toBe(
      404,
    );
    const hidden = { collection: unlistedId, message: 'x' };
    expect((await post('/api/v5/abuse/report/collection/', null, hidden)).status).toBe(404);
    expect((await post('/api/v5/abuse/report/collection/', moderator, hidden)).status).toBe(404);
    expect((await post('/api/v5/abuse/report/collection/', user, hidden)).status).toBe(201);
    const res = await post('/api/v5/abuse/report/collection/', null, { message: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ collection: ['This field is required.'] });
  });
});

describe('GraphQL and moderation', () => {
  it('reportRating and reportCollection; moderators see them', async () => {
    await t.em().getConnection().execute('delete from abuse_throttles');
    const gql = (who: Caller | null, query: string, variables: object) => {
      let req = t.http.post('/graphql').set('X-Forwarded-For', nextAddress());
      if (who) req = req.set('Authorization', `Bearer ${who.token}`);
      return req.send({ query, variables });
    };
    const rating = await gql(
      null,
      'mutation ($id: String!) { reportRating(input: { rating: $id, reason: "hateful_violent_deceptive", reporterName: "A" }) { id rating { id } reason reporterName } }',
      { id: String(ratingId) },
    );
    expect(rating.body.errors).toBeUndefined();
    expect(rating.body.data.reportRating).toMatchObject({ rating: { id: ratingId }, reporterName: 'A' });
    const collection = await gql(
      null,
      'mutation ($id: String!) { reportCollection(input: { collection: $id, message: "spam" }) { id collection { id } } }',
      { id: String(collectionId) },
    );
    expect(collection.body.data.reportCollection.collection).toEqual({ id: collectionId });
    const list = await gql(
      moderator,
      'query { abuseReports(filter: { reason: "hateful_violent_deceptive" }) { items { id rating { id } state } } }',
      {},
    );
    expect(list.body.errors).toBeUndefined();
    expect(list.body.data.abuseReports.items).toContainEqual({
      id: rating.body.data.reportRating.id,
      rating: { id: ratingId },
      state: 'OPEN',
    });
    const resolved = await gql(
      moderator,
      'mutation ($id: Int!) { resolveAbuseReport(id: $id, note: "gone") { state } }',
      { id: collection.body.data.reportCollection.id },
    );
    expect(resolved.body.data.resolveAbuseReport.state).toBe('RESOLVED');
  });
});
