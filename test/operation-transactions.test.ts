import type { GraphQLObjectType } from 'graphql';
import { buildAppSchema } from '../src/modules.js';
import { fieldOwnTransactions } from '../src/graphql/transactions.js';
import type { Addon } from '../src/catalogue/addon.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { call, caller, clearThrottles, versionsOf, type Caller } from './helpers/ratings.js';

/**
 * Issue 26: every mutation runs in one transaction opened by the executor (src/graphql/transactions.ts),
 * for both APIs: an operation that fails after writing leaves nothing written, and a job it sent
 * is not queued.
 */

let t: TestApp;
let author: Caller;
let rater: Caller;
let addon: Addon;
let ratingId: number;

const V4 = '/api/v4/ratings/rating/';

beforeAll(async () => {
  t = await startTestApp({ env: { JOB_WORKERS: 'false' } });
  author = await caller(t);
  rater = await caller(t);
  addon = await createAddon(t.em(), { authors: [{ id: author.id }], versions: [{ version: '1.0' }] });
  const [version] = await versionsOf(t.em(), addon);
  await clearThrottles(t);
  const created = await call(t, 'post', V4, rater, { addon: addon.id, version: version.id, score: 5, body: 'Fine.' });
  expect(created.status).toBe(201);
  ratingId = created.body.id;
}, 120_000);
afterAll(() => t?.close());

const gql = (who: Caller, query: string) =>
  t.http.post('/graphql').set('Authorization', `Bearer ${who.token}`).send({ query });

/** The rating's stored score and body. */
async function stored(): Promise<{ score: number; body: string | null }> {
  const [row] = await t
    .em()
    .getConnection()
    .execute<{ score: number; body: string | null }[]>('select score, body from ratings where id = ?', [ratingId]);
  return row;
}

/** `index-addon` jobs queued for the add-on. */
async function indexJobs(): Promise<number> {
  const [row] = await t
    .em()
    .getConnection()
    .execute<{ n: number }[]>(
      `select count(*)::int as n from pgboss.job where name = 'index-addon' and data->>'addonId' = ?`,
      [String(addon.id)],
    );
  return row.n;
}

describe('one transaction per mutation', () => {
  it('GraphQL: a mutation whose second field fails keeps nothing of the first, nor the job it sent', async () => {
    // The rating's creation queued one (a singleton per add-on while queued): start from none.
    await t
      .em()
      .getConnection()
      .execute(`delete from pgboss.job where name = 'index-addon' and data->>'addonId' = ?`, [String(addon.id)]);
    const res = await gql(
      rater,
      `mutation {
        changed: updateRating(id: ${ratingId}, input: { score: 2, body: "Changed." }) { id score }
        unknown: updateRating(id: 2147483000, input: { score: 1 }) { id }
      }`,
    );
    // The first field ran (its write and its job were in the transaction), the second failed
    // (non-null fields: the whole answer is null).
    expect(res.body.errors).toMatchObject([{ path: ['unknown'], extensions: { code: 'NOT_FOUND' } }]);
    expect(res.body.data).toBeNull();
    expect(await stored()).toEqual({ score: 5, body: 'Fine.' });
    expect(await indexJobs()).toBe(0);

    // The same change alone commits, with its job.
    const alone = await gql(rater, `mutation { updateRating(id: ${ratingId}, input: { score: 2 }) { score } }`);
    expect(alone.body.errors).toBeUndefined();
    expect((await stored()).score).toBe(2);
    expect(await indexJobs()).toBe(1);
  });

  it('REST: a route whose operation fails after writing leaves nothing written', async () => {
    const path = `/api/v4/accounts/account/${rater.id}/collections/`;
    expect((await call(t, 'post', path, rater, { name: 'Before', slug: 'tx-test' })).status).toBe(201);
    const name = async () => (await call(t, 'get', `${path}tx-test/`, rater)).body.name;
    const collections = t.app.services.collections;
    const update = collections.update;
    // The service writes (and flushes) the new name, then the operation fails.
    collections.update = async (...args) => {
      await update.apply(collections, args);
      throw new Error('fails after writing');
    };
    try {
      const res = await call(t, 'patch', `${path}tx-test/`, rater, { name: 'After' });
      expect(res.status).toBe(500);
    } finally {
      collections.update = update;
    }
    expect(await name()).toEqual({ 'en-US': 'Before' });
    expect((await call(t, 'patch', `${path}tx-test/`, rater, { name: 'After' })).status).toBe(200);
    expect(await name()).toEqual({ 'en-US': 'After' });
  });
});

describe('@OwnTransactions', () => {
  it('is declared on mutations only, each with its reason', async () => {
    const schema = await buildAppSchema(null);
    const declared = (type: GraphQLObjectType | null | undefined) =>
      Object.values(type?.getFields() ?? {})
        .filter((field) => fieldOwnTransactions(field))
        .map((field) => field.name);
    expect(declared(schema.getQueryType())).toEqual([]);
    const mutations = schema.getMutationType()!;
    expect(declared(mutations).sort()).toEqual([
      'addAddonPreview',
      'createAddonVersion',
      'createRating',
      'createWebhookEndpoint',
      'editUser',
      'editVersion',
      'exchangeOidcToken',
      'finishSignIn',
      'replyToRating',
      'reportAddon',
      'reportCollection',
      'reportRating',
      'reportUser',
      'setAddonIcon',
      'startSignIn',
      'submitAddonVersion',
      'submitSupportTicket',
      'updateAddonListing',
      'updateWebhookEndpoint',
    ]);
    for (const name of declared(mutations)) {
      expect(fieldOwnTransactions(mutations.getFields()[name])).toMatch(
        /^(commits before failing|slow external work): ./,
      );
    }
  });
});
