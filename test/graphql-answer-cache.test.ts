import { Addon } from '../src/catalogue/addon.entity.js';
import { AddonFile, Version, VersionCompat } from '../src/catalogue/version.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { png } from './helpers/images.js';
import { call, caller, clearThrottles, type Caller } from './helpers/ratings.js';

/**
 * Every anonymous GraphQL query whose answer is the same for every anonymous caller is shared
 * (issue 39): a detail query mirroring REST's keys, authors' public profiles included, is answered
 * from the cache with the tags of everything it read, and each write that changes what it shows
 * (a profile edit through REST, the add-on, its version, files and compatibility, its ratings, the
 * author's other add-ons) outdates it. Signed-in callers and caller-dependent fields never get a
 * shared answer.
 */

let t: TestApp;
let statements = 0;
let author: Caller;
let rater: Caller;

beforeAll(async () => {
  t = await startTestApp({
    env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test' },
    onQuery: () => statements++,
  });
  author = await caller(t, { name: 'Profiled Author' });
  rater = await caller(t);
}, 120_000);
afterAll(() => t?.close());

/** The add-on page of a front-end, with REST detail's keys. */
const DETAIL = `query AddonDetail($id: String!) {
  addon(id: $id) {
    id slug name summary description url iconUrl(size: 64) averageDailyUsers lastUpdated
    authors {
      position
      user { id name username url pictureUrl biography numAddonsListed isAddonDeveloper averageAddonRating }
    }
    currentVersion {
      id version
      compatibility { application min max }
      files { id size hash status url permissions }
      license { name url }
    }
    previews { id imageUrl thumbnailUrl caption }
    ratings { average bayesianAverage count textCount }
  }
}`;

/** Statements one anonymous (or signed-in) POST costs, its text and data. */
async function post(query: string, variables: Record<string, unknown>, auth?: Caller) {
  const before = statements;
  let req = t.http.post('/graphql').set('Content-Type', 'application/json');
  if (auth) req = req.set('Authorization', `Bearer ${auth.token}`);
  const res = await req.send({ query, variables });
  expect([res.status, res.body.errors]).toEqual([200, undefined]);
  return { cost: statements - before, text: res.text, data: res.body.data };
}

/** Asks twice: the first computes (and stores), the second must be a hit with the same bytes. */
async function warm(variables: Record<string, unknown>, query = DETAIL) {
  const computed = await post(query, variables);
  expect(computed.cost).toBeGreaterThan(1);
  const hit = await post(query, variables);
  expect(hit.cost).toBe(1); // the versions of its cache tags
  expect(hit.text).toBe(computed.text);
  return computed;
}

/** The next anonymous answer is computed again (outdated) and kept: the one after is a hit. Its data. */
async function outdated(variables: Record<string, unknown>) {
  const fresh = await post(DETAIL, variables);
  expect(fresh.cost).toBeGreaterThan(1);
  const hit = await post(DETAIL, variables);
  expect([hit.cost, hit.text]).toEqual([1, fresh.text]);
  return fresh.data.addon;
}

async function profiledAddon(name: string) {
  const addon = await createAddon(t.em(), { name: { 'en-US': name }, authors: [{ id: author.id }], previews: 1 });
  return { addon, vars: { id: String(addon.id) } };
}

describe("an anonymous detail query with its authors' public profiles", () => {
  it('is answered from the cache, byte for byte the computed answer', async () => {
    const { vars } = await profiledAddon('Shared Shrew');
    const computed = await warm(vars);
    expect(computed.data.addon.authors[0].user).toMatchObject({ id: author.id, numAddonsListed: expect.any(Number) });
    expect(computed.data.addon.previews).toHaveLength(1);
    // Another anonymous caller (another address, another agent) gets the same bytes, for one statement.
    const before = statements;
    const other = await t.http
      .post('/graphql')
      .set('X-Forwarded-For', '203.0.113.9')
      .set('User-Agent', 'another agent')
      .send({ query: DETAIL, variables: vars });
    expect([statements - before, other.text]).toEqual([1, computed.text]);
  });

  it('a profile edit through REST (name, biography, picture) outdates the answers that show it', async () => {
    const { vars } = await profiledAddon('Profile Pika');
    const unrelated = await createAddon(t.em(), { name: { 'en-US': 'Unrelated Urchin' } });
    await warm(vars);
    await warm({ id: String(unrelated.id) });
    const edit = async (body: object) => {
      const res = await call(t, 'patch', `/api/v5/accounts/account/${author.id}/`, author, body);
      expect(res.status).toBe(200);
    };
    await edit({ display_name: 'Renamed Author' });
    expect((await post(DETAIL, { id: String(unrelated.id) })).cost).toBe(1);
    expect((await outdated(vars)).authors[0].user.name).toBe('Renamed Author');
    await edit({ biography: 'Writes add-ons.' });
    expect((await outdated(vars)).authors[0].user.biography).toBe('Writes add-ons.');
    const picture = await t.http
      .patch(`/api/v5/accounts/account/${author.id}/`)
      .set('Authorization', `Bearer ${author.token}`)
      .attach('picture_upload', await png(64, 64), 'me.png');
    expect(picture.status).toBe(200);
    expect((await outdated(vars)).authors[0].user.pictureUrl).toEqual(expect.stringContaining('userpics/'));
  });

  it('an edit of the add-on, its version, files or compatibility, or a rating, outdates it', async () => {
    const { addon, vars } = await profiledAddon('Edited Echidna');
    await warm(vars);
    await t.em().nativeUpdate(Addon, { id: addon.id }, { summary: { 'en-US': 'Edited summary' } });
    expect((await outdated(vars)).summary).toEqual({ 'en-US': 'Edited summary' });

    const [version] = await t.em().find(Version, { addon: addon.id });
    await t.em().nativeUpdate(Version, { id: version.id }, { version: '1.0.1' });
    expect((await outdated(vars)).currentVersion.version).toBe('1.0.1');

    await t.em().nativeUpdate(AddonFile, { version: version.id }, { size: 4242 });
    expect((await outdated(vars)).currentVersion.files[0].size).toBe(4242);

    await t.em().nativeUpdate(VersionCompat, { version: version.id }, { max: '999.*' });
    expect((await outdated(vars)).currentVersion.compatibility[0].max).toBe('999.*');

    await clearThrottles(t);
    const rated = await call(t, 'post', '/api/v4/ratings/rating/', rater, {
      addon: addon.id,
      version: version.id,
      score: 4,
    });
    expect(rated.status).toBe(201);
    expect((await outdated(vars)).ratings.count).toBe(1);
  });

  it("the author's other add-ons (a new authorship, one leaving the listings) outdate their statistics", async () => {
    const { vars } = await profiledAddon('Statistical Stoat');
    const before = (await warm(vars)).data.addon.authors[0].user.numAddonsListed as number;
    // Listed as an author of one more public add-on (an addon_users row: the author's tag).
    const other = await createAddon(t.em(), { name: { 'en-US': 'Second Stoat' }, authors: [{ id: author.id }] });
    expect((await outdated(vars)).authors[0].user.numAddonsListed).toBe(before + 1);
    // That add-on leaves the listings (its own row: its tag, recorded by the statistics).
    await t.em().nativeUpdate(Addon, { id: other.id }, { disabledByUser: true });
    expect((await outdated(vars)).authors[0].user.numAddonsListed).toBe(before);
  });
});

describe('answers that depend on the caller are never shared', () => {
  it('signed-in callers compute their answer every time, and are never given the shared one', async () => {
    const { vars } = await profiledAddon('Private Platypus');
    const anonymous = await warm(vars);
    for (const who of [author, rater, author]) {
      const signedIn = await post(DETAIL, vars, who);
      expect(signedIn.cost).toBeGreaterThan(1);
    }
    // Their reads stored nothing: the anonymous answer is still the kept one.
    const hit = await post(DETAIL, vars);
    expect([hit.cost, hit.text]).toEqual([1, anonymous.text]);
  });

  it('caller-dependent fields (random orders) and fields no domain declares shared execute every time', async () => {
    const { vars } = await profiledAddon('Random Rhea');
    await createAddon(t.em(), {
      name: { 'en-US': 'Promoted Puffin' },
      promotedCategory: 1,
      promotedApps: [1],
    } as never);
    const random = `{ searchAddons(filters: { promoted: [RECOMMENDED] }, sort: [RANDOM]) { count items { addon { id } } } }`;
    const undeclared = `query($id: String!) { addon(id: $id) { id } addonTags }`;
    const size = t.app.services.responseCache.size;
    for (let i = 0; i < 2; i++) {
      expect((await post(random, {})).cost).toBeGreaterThan(0);
      expect((await post(undeclared, vars)).cost).toBeGreaterThan(1);
    }
    expect(t.app.services.responseCache.size).toBe(size);
  });
});
