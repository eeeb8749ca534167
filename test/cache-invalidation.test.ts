import { jest } from '@jest/globals';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Addon } from '../src/catalogue/addon.entity.js';
import { User } from '../src/accounts/user.entity.js';
import { Version } from '../src/catalogue/version.entity.js';
import { App, Channel, PromotedCategory } from '../src/catalogue/catalogue.enums.js';
import request from 'supertest';
import { startSecondProcess, startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { call, caller, clearThrottles, type Caller } from './helpers/ratings.js';

/**
 * Narrow invalidation (issue 11, item 1): a write invalidates only the cached answers that show
 * what it changed (per add-on, per user, per listing), in the writing transaction, across
 * processes; concurrent misses of one answer compute it once.
 */

let t: TestApp;
let statements = 0;
let rater: Caller;

beforeAll(async () => {
  t = await startTestApp({
    env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test' },
    onQuery: () => statements++,
  });
  rater = await caller(t);
}, 120_000);
afterAll(() => t?.close());

/** SQL statements an anonymous GET costs (a cache hit: 1, reading its tags' versions). */
async function cost(path: string): Promise<number> {
  const before = statements;
  const res = await t.http.get(path);
  expect(res.status).toBe(200);
  return statements - before;
}

const detail = (addon: Addon) => `/api/v4/addons/addon/${addon.id}/`;

async function rate(addon: Addon, score: number) {
  await clearThrottles(t);
  const [version] = await t.em().find(Version, { addon: addon.id });
  const res = await call(t, 'post', '/api/v4/ratings/rating/', rater, { addon: addon.id, version: version.id, score });
  expect(res.status).toBe(201);
}

/** Two public add-ons with a shared unique word, A more popular than B. */
async function pair(word: string) {
  const author = await t.createUser({ name: `Author of ${word}` });
  const a = await createAddon(t.em(), {
    name: { 'en-US': `${word} Alpha` },
    averageDailyUsers: 500,
    authors: [{ id: author.id }],
  });
  const b = await createAddon(t.em(), { name: { 'en-US': `${word} Beta` }, averageDailyUsers: 100 });
  return { a, b, author };
}

describe('a write invalidates only the answers that show what it changed', () => {
  it('a rating of one add-on leaves the other add-ons and the other orders cached', async () => {
    const { a, b } = await pair('quenelle');
    const search = `/api/v4/addons/search/?q=quenelle`;
    const byRating = `/api/v4/addons/search/?sort=rating&type=extension&page_size=50`;
    const users = `/api/v4/addons/search/?sort=users&page_size=1`;
    for (const path of [detail(a), detail(b), search, byRating, users]) await cost(path); // fill
    for (const path of [detail(a), detail(b), search, byRating, users]) expect(await cost(path)).toBe(1);

    await rate(b, 5);
    expect(await cost(detail(a))).toBe(1); // another add-on: still cached
    expect(await cost(users)).toBe(1); // an order that does not read ratings, without B on its page
    expect(await cost(detail(b))).toBeGreaterThan(1); // B changed
    expect((await t.http.get(detail(b))).body.ratings.count).toBe(1);
    expect(await cost(search)).toBeGreaterThan(1); // B is on the page
    expect(await cost(byRating)).toBeGreaterThan(1); // ordered by rating
  });

  it('a change of visibility invalidates the listings, not the other add-ons', async () => {
    const { a, b } = await pair('rillette');
    const search = `/api/v4/addons/search/?q=rillette`;
    for (const path of [detail(a), search, search]) await cost(path);
    expect(await cost(search)).toBe(1);
    await t.em().nativeUpdate(Addon, { id: b.id }, { disabledByUser: true });
    expect(await cost(detail(a))).toBe(1);
    expect(await cost(search)).toBeGreaterThan(1);
    expect((await t.http.get(search)).body.results.map((r: { id: number }) => r.id)).toEqual([a.id]);
  });

  it("an author's new name invalidates their add-ons' answers only", async () => {
    const { a, b, author } = await pair('gougere');
    for (const path of [detail(a), detail(b), detail(a), detail(b)]) await cost(path);
    await t.em().nativeUpdate(User, { id: author.id }, { displayName: 'Renamed Author' });
    expect(await cost(detail(b))).toBe(1);
    expect(await cost(detail(a))).toBeGreaterThan(1);
    expect((await t.http.get(detail(a))).body.authors[0].name).toBe('Renamed Author');
    // Signing in (last_login) changes nothing shown: nothing is invalidated.
    await t.em().nativeUpdate(User, { id: author.id }, { lastLogin: new Date() });
    expect(await cost(detail(a))).toBe(1);
  });

  it('a summary edit outdates searches with a query but not autocomplete; a name change outdates both', async () => {
    const { a } = await pair('raclette');
    const other = await createAddon(t.em(), { name: { 'en-US': 'Unrelated Zebu' } });
    const search = '/api/v4/addons/search/?q=raclette';
    const autocomplete = '/api/v4/addons/autocomplete/?q=raclette';
    for (const path of [search, autocomplete, search, autocomplete]) await cost(path);
    // Another add-on's summary now mentions the word: searches may find it, autocomplete cannot.
    await t.em().nativeUpdate(Addon, { id: other.id }, { summary: { 'en-US': 'Pairs well with raclette' } });
    expect(await cost(autocomplete)).toBe(1);
    expect(await cost(search)).toBeGreaterThan(1);
    expect((await t.http.get(search)).body.results.map((r: { id: number }) => r.id)).toContain(other.id);
    await t.em().nativeUpdate(Addon, { id: a.id }, { name: { 'en-US': 'raclette Gamma' } });
    expect(await cost(autocomplete)).toBeGreaterThan(1);
    expect((await t.http.get(autocomplete)).body.results.map((r: { name: unknown }) => r.name)).toContainEqual({
      'en-US': 'raclette Gamma',
    });
  });

  it('a text edit outdates the searches for words it adds or removes, not the others', async () => {
    await pair('tartiflette');
    const other = await createAddon(t.em(), { name: { 'en-US': 'Unrelated Okapi' } });
    const renamed = await createAddon(t.em(), { name: { 'en-US': 'Another Okapi' } });
    const search = (q: string) => `/api/v4/addons/search/?q=${encodeURIComponent(q)}`;
    const ids = async (q: string) => (await t.http.get(search(q))).body.results.map((r: { id: number }) => r.id);
    const plain = search('tartiflette');
    const typo = search('tartifletet'); // a transposition: found through typo variants
    const unrelated = search('bouillabaisse');
    const punctuated = search('tarti-flette'); // not plain: depends on every text
    const stopWords = search('the'); // no lexemes: only exact names match
    const all = [plain, typo, unrelated, punctuated, stopWords];
    for (const path of [...all, ...all]) await cost(path);
    for (const path of all) expect(await cost(path)).toBe(1);

    // Another add-on's summary gains a word starting "zu": the plain searches keep their answers.
    await t.em().nativeUpdate(Addon, { id: other.id }, { summary: { 'en-US': 'Zucchini season' } });
    for (const path of [plain, typo, unrelated, stopWords]) expect(await cost(path)).toBe(1);
    expect(await cost(punctuated)).toBeGreaterThan(1);

    // Now it mentions tartiflette: the searches that can match that word see it at once.
    await t.em().nativeUpdate(Addon, { id: other.id }, { summary: { 'en-US': 'Zucchini tartiflette' } });
    expect(await cost(unrelated)).toBe(1);
    expect(await cost(plain)).toBeGreaterThan(1);
    expect(await ids('tartiflette')).toContain(other.id);
    expect(await cost(typo)).toBeGreaterThan(1);
    expect(await ids('tartifletet')).toContain(other.id);
    // And when the word goes away again.
    await t.em().nativeUpdate(Addon, { id: other.id }, { summary: { 'en-US': 'Zucchini season' } });
    expect(await ids('tartiflette')).not.toContain(other.id);

    // A name of stop words has no lexemes; the exact-name match still follows the rename.
    expect(await ids('the')).not.toContain(renamed.id);
    await t.em().nativeUpdate(Addon, { id: renamed.id }, { name: { 'en-US': 'The' } });
    expect(await ids('the')).toContain(renamed.id);
  });

  it('a new version of an add-on invalidates its detail and its version list', async () => {
    const { a, b } = await pair('cassoulet');
    const versions = `/api/v4/addons/addon/${a.id}/versions/`;
    for (const path of [detail(a), versions, detail(b), detail(a), versions]) await cost(path);
    expect(await cost(versions)).toBe(1);
    const em = t.em();
    em.create(Version, { addon: em.getReference(Addon, a.id), version: '9.9.9', releaseNotes: null, license: null });
    await em.flush();
    expect(await cost(versions)).toBeGreaterThan(1);
    expect(await cost(detail(b))).toBe(1);
  });
});

describe('random orders (issue 24, item 3)', () => {
  it('answer with one of 8 kept draws, drawn again once the listing changes', async () => {
    for (let i = 0; i < 12; i++) {
      await createAddon(t.em(), {
        name: { 'en-US': `Shelf pick ${i}` },
        promotedCategory: PromotedCategory.LINE,
        promotedApps: [App.BROWSER],
      });
    }
    const path = '/api/v4/addons/search/?sort=random&promoted=line&page_size=3';
    const answers = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const res = await t.http.get(path);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(12);
      answers.add(JSON.stringify(res.body.results.map((r: { id: number }) => r.id)));
    }
    expect(answers.size).toBeGreaterThan(1);
    expect(answers.size).toBeLessThanOrEqual(8);
    expect(await cost(path)).toBe(1); // every draw is kept
    await createAddon(t.em(), { promotedCategory: PromotedCategory.LINE, promotedApps: [App.BROWSER] });
    expect(await cost(path)).toBeGreaterThan(1);
    expect((await t.http.get(path)).body.count).toBe(13);
  });
});

describe('signed-in callers without permissions who author no add-on (issue 24)', () => {
  it('get the anonymous answer of a detail or version list, from the cache or stored for everyone', async () => {
    const author = await caller(t);
    const addon = await createAddon(t.em(), {
      authors: [{ id: author.id }],
      versions: [{ version: '1.0' }, { version: '2.0b1', channel: Channel.UNLISTED }],
    });
    const path = `/api/v4/addons/addon/${addon.id}/?lang=de`;
    const anonymous = await t.http.get(path);
    expect(anonymous.status).toBe(200);
    await call(t, 'get', '/api/v4/accounts/profile/', rater); // its last login recorded
    const before = statements;
    const plain = await call(t, 'get', path, rater);
    // The session (with whether its user authors any add-on) and the cache tags' versions.
    expect(statements - before).toBe(2);
    expect(plain.text).toBe(anonymous.text);
    expect(plain.headers['cache-control']).toBe('private, no-cache');
    expect(plain.headers.etag).toBeUndefined();
    // Computed for a plain viewer first, an answer is stored for everyone.
    const versions = `/api/v4/addons/addon/${addon.id}/versions/`;
    await cost(versions); // the route learns its parameters
    await t.em().nativeUpdate(Addon, { id: addon.id }, { weeklyDownloads: 7 });
    expect((await call(t, 'get', versions, rater)).status).toBe(200);
    expect(await cost(versions)).toBe(1);

    // Authors and reviewers of unlisted versions see more: computed for them.
    const authored = await call(t, 'get', path, author);
    expect(authored.body.latest_unlisted_version.version).toBe('2.0b1');
    const reviewer = await caller(t, { group: ['Unlisted Reviewers'] });
    expect((await call(t, 'get', path, reviewer)).body.latest_unlisted_version.version).toBe('2.0b1');
    // A developer of another add-on is never served a shared answer either.
    const developer = await caller(t);
    await createAddon(t.em(), { authors: [{ id: developer.id }] });
    const fresh = await t.http.get(path);
    const lookups = jest.spyOn(t.app.services.responseCache, 'get');
    try {
      expect((await call(t, 'get', path, developer)).text).toBe(fresh.text);
      expect(lookups).not.toHaveBeenCalled();
    } finally {
      lookups.mockRestore();
    }
  });
});

describe("an add-on's ratings are cached for anonymous callers under their own tag (issue 24)", () => {
  const ratings = (addon: Addon) => `/api/v4/ratings/rating/?addon=${addon.id}`;
  const RATINGS = `query Ratings($addon: String!) {
    ratings(addon: $addon) { count items { id body score userSummary { name } reply { id body } } groupedRatings { score count } }
  }`;
  /** Statements one anonymous GraphQL POST costs, and its data. */
  async function graphqlCost(query: string, variables: Record<string, unknown>) {
    const before = statements;
    const res = await t.http.post('/graphql').set('Content-Type', 'application/json').send({ query, variables });
    expect(res.body.errors).toBeUndefined();
    return { cost: statements - before, data: res.body.data };
  }

  it("a rating, an edit, a reply or a writer's new name outdates that add-on's lists only", async () => {
    const { a, b, author } = await pair('clafoutis');
    await rate(a, 4);
    const vars = { addon: String(a.id) };
    for (const path of [ratings(a), ratings(b), ratings(a), ratings(b)]) await cost(path);
    await graphqlCost(RATINGS, vars);
    expect(await cost(ratings(a))).toBe(1);
    expect(await cost(ratings(b))).toBe(1); // an empty list is cached too ...
    expect((await graphqlCost(RATINGS, vars)).cost).toBe(1);

    await rate(b, 2); // ... and outdated by the first rating
    expect(await cost(ratings(a))).toBe(1);
    expect(await cost(ratings(b))).toBeGreaterThan(1);
    expect((await t.http.get(ratings(b))).body.count).toBe(1);

    const [mine] = (await t.http.get(ratings(a))).body.results as { id: number }[];
    const edited = await call(t, 'patch', `/api/v4/ratings/rating/${mine.id}/`, rater, { body: 'Edited text' });
    expect(edited.status).toBe(200);
    expect(await cost(ratings(b))).toBe(1);
    expect(await cost(ratings(a))).toBeGreaterThan(1);
    expect((await t.http.get(ratings(a))).body.results[0].body).toBe('Edited text');
    const edit = await graphqlCost(RATINGS, vars);
    expect(edit.cost).toBeGreaterThan(1);
    expect(edit.data.ratings.items[0].body).toBe('Edited text');

    // A reply, written as the author would (a row of the same add-on's ratings).
    await t
      .em()
      .getConnection()
      .execute(
        `insert into ratings (addon_id, user_id, reply_to_id, body, deleted, is_latest, previous_count, editor_review, created, modified)
         values (?, ?, ?, 'Thanks', false, true, 0, false, now(), now())`,
        [a.id, author.id, mine.id],
      );
    expect(await cost(ratings(a))).toBeGreaterThan(1);
    expect((await t.http.get(ratings(a))).body.results[0].reply.body).toBe('Thanks');
    expect((await graphqlCost(RATINGS, vars)).data.ratings.items[0].reply.body).toBe('Thanks');

    await t.em().nativeUpdate(User, { id: rater.id }, { displayName: 'Renamed Rater' });
    expect(await cost(ratings(a))).toBeGreaterThan(1);
    expect((await t.http.get(ratings(a))).body.results[0].user.name).toBe('Renamed Rater');
    expect((await graphqlCost(RATINGS, vars)).data.ratings.items[0].userSummary.name).toBe('Renamed Rater');
    expect(await cost(ratings(b))).toBeGreaterThan(1); // the same writer rated B
  });

  it('lists by user and signed-in lists are computed every time', async () => {
    const { a } = await pair('far-breton');
    const byUser = `/api/v4/ratings/rating/?user=${rater.id}`;
    await cost(byUser);
    expect(await cost(byUser)).toBeGreaterThan(1);
    await call(t, 'get', ratings(a), rater);
    const before = statements;
    expect((await call(t, 'get', ratings(a), rater)).status).toBe(200);
    expect(statements - before).toBeGreaterThan(1);
    const query = `query($user: Int!) { ratings(user: $user) { count } }`;
    await graphqlCost(query, { user: rater.id });
    expect((await graphqlCost(query, { user: rater.id })).cost).toBeGreaterThan(1);
  });
});

it('concurrent misses of one answer compute it once', async () => {
  await pair('tartiflette');
  const path = '/api/v4/addons/search/?q=tartiflette&sort=created';
  await cost('/api/v4/addons/search/?q=tartiflette&sort=updated'); // the route knows its parameters
  const before = statements;
  await cost(path);
  const oneMiss = statements - before;
  const uncached = '/api/v4/addons/search/?q=tartiflette&sort=hotness';
  const start = statements;
  const answers = await Promise.all(Array.from({ length: 8 }, () => t.http.get(uncached)));
  const eight = statements - start;
  expect(answers.every((r) => r.status === 200 && r.text === answers[0].text)).toBe(true);
  // One computation plus a version read per request, far from eight computations.
  expect(eight).toBeLessThan(oneMiss + 8 * 2);
  expect(eight).toBeLessThan(oneMiss * 3);
});

describe('reading the versions of cache tags', () => {
  const bump = (tag: string) =>
    t
      .em()
      .getConnection()
      .execute(
        `insert into cache_tags (tag, version) values ('${tag}', 1) on conflict (tag) do update set version = cache_tags.version + 1`,
      );

  it('reads asked while one is in flight share the next statement', async () => {
    const cache = t.app.services.responseCache;
    const before = statements;
    const reads = await Promise.all(
      Array.from({ length: 6 }, (_, i) => cache.tagVersions(t.em(), [`l:test-shared-${i % 3}`, 'global'])),
    );
    // The first read goes at once; the five asked meanwhile wait and go together.
    expect(statements - before).toBe(2);
    expect(reads).toEqual(Array.from({ length: 6 }, () => ['0', reads[0][1]]));
  });

  it('a failed statement fails the reads that shared it, and the next reads go on', async () => {
    const cache = t.app.services.responseCache;
    const lost = new Error('connection lost');
    const broken = {
      getConnection: () => ({ execute: () => Promise.reject(lost) }),
      execute: () => Promise.reject(lost),
      getTransactionContext: () => undefined,
    } as unknown as EntityManager;
    const failed = cache.tagVersions(broken, ['global']);
    const next = cache.tagVersions(t.em(), ['global']);
    await expect(failed).rejects.toBe(lost);
    expect(await next).toHaveLength(1);
    expect(await cache.tagVersions(t.em(), ['global'])).toEqual(await next);
  });

  it('a read asked after a write sees it, even while an earlier read is in flight', async () => {
    const cache = t.app.services.responseCache;
    const tag = 'l:test-read-order';
    await bump(tag);
    const [initial] = await cache.tagVersions(t.em(), [tag]);
    const inFlight = cache.tagVersions(t.em(), [tag]);
    await bump(tag);
    const asked = cache.tagVersions(t.em(), [tag]);
    const [[first], [second]] = await Promise.all([inFlight, asked]);
    expect(Number(first)).toBeGreaterThanOrEqual(Number(initial));
    expect(Number(second)).toBe(Number(initial) + 1);
    expect(await cache.tagVersions(t.em(), [])).toEqual([]);
    expect(await cache.tagVersions(t.em(), ['l:never-bumped', tag])).toEqual(['0', second]);
  });
});

(process.env.DATABASE_URL ? describe : describe.skip)('two processes on one PostgreSQL database', () => {
  it("a write through one invalidates the other's cached answer", async () => {
    const { a } = await pair('aligot');
    const other = await startSecondProcess(t);
    try {
      const http = request(other.express);
      const first = await http.get(detail(a));
      expect(first.status).toBe(200);
      await rate(a, 3); // through the first process
      const second = await http.get(detail(a));
      expect(second.body.ratings.count).toBe(first.body.ratings.count + 1);
    } finally {
      await other.close();
    }
  }, 60_000);
});
