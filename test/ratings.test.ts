import type { Addon } from '../src/catalogue/addon.entity.js';
import { AddonStatus, Channel, FileStatus } from '../src/catalogue/catalogue.enums.js';
import type { Version } from '../src/catalogue/version.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import {
  call,
  caller,
  clearThrottles,
  recount,
  ageThrottles,
  rewindThrottles,
  storedColumns,
  versionsOf,
  type Caller,
  type Method,
} from './helpers/ratings.js';

let t: TestApp;
/** Writes the add-on of the shared fixtures. */
let author: Caller;
let alice: Caller;
let bob: Caller;
let carol: Caller;
/** Holds Addons:Edit. */
let editor: Caller;
/** Holds Users:Edit. */
let userEditor: Caller;
/** In Rating Moderators (Ratings:Moderate). */
let moderator: Caller;
/** In Admins (`*:*`). */
let admin: Caller;
/** An admin who is also an author of the add-on. */
let adminAuthor: Caller;

const V4 = '/api/v4/ratings/rating/';
const V3 = '/api/v3/reviews/review/';
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const DENIED = { detail: 'You do not have permission to perform this action.' };
const UNAUTHENTICATED = { detail: 'Authentication credentials were not provided.' };
const FLAGGED = { msg: 'Thanks; this review has been flagged for reviewer approval.' };

/** An add-on by `author` (and `adminAuthor`), with 1.0 and 1.1 public, and versions nobody may rate. */
interface Fixture {
  addon: Addon;
  v1: Version;
  v2: Version;
  unlisted: Version;
  deleted: Version;
  unreviewed: Version;
}

async function fixture(extra: Parameters<typeof createAddon>[1] = {}): Promise<Fixture> {
  const em = t.em();
  const addon = await createAddon(em, {
    authors: [{ id: author.id }, { id: adminAuthor.id, listed: false }],
    versions: [
      { version: '1.0' },
      { version: '1.1' },
      { version: '2.0', channel: Channel.UNLISTED },
      { version: '0.9', deleted: true },
      { version: '1.2b', fileStatus: FileStatus.AWAITING_REVIEW },
    ],
    ...extra,
  });
  const [v1, v2, unlisted, deleted, unreviewed] = await versionsOf(em, addon);
  return { addon, v1, v2, unlisted, deleted, unreviewed };
}

/** A request; writes start with no throttle (the throttle tests use `call` directly). */
async function send(method: Method, path: string, who: Caller | null, body?: object) {
  if (method !== 'get') await clearThrottles(t);
  return call(t, method, path, who, body);
}

/** Posts a rating through the v4 API and returns it. */
async function rate(who: Caller, f: Fixture, version: Version, score: number, body: string | null = 'Fine.') {
  const res = await send('post', V4, who, { addon: f.addon.id, version: version.id, score, body });
  expect(res.status).toBe(201);
  return res.body as { id: number };
}

async function reply(who: Caller, ratingId: number, body = 'Thanks!') {
  const res = await send('post', `${V4}${ratingId}/reply/`, who, { body });
  expect([200, 201]).toContain(res.status);
  return res.body as { id: number };
}

async function editorReview(ratingId: number): Promise<boolean> {
  const [row] = await t
    .em()
    .getConnection()
    .execute<{ editor_review: boolean }[]>('select editor_review from ratings where id = ?', [ratingId]);
  return row.editor_review;
}

beforeAll(async () => {
  t = await startTestApp();
  author = await caller(t, { username: 'the-author', name: 'The Author' });
  alice = await caller(t, { username: 'alice', name: 'Alice' });
  bob = await caller(t, { username: 'bob', name: 'Bob' });
  carol = await caller(t, { username: 'carol' });
  editor = await caller(t, { username: 'editor', permission: ['Addons:Edit'] });
  userEditor = await caller(t, { username: 'user-editor', permission: ['Users:Edit'] });
  moderator = await caller(t, { username: 'moderator', group: ['Rating Moderators'] });
  admin = await caller(t, { username: 'admin', group: ['Admins'] });
  adminAuthor = await caller(t, { username: 'admin-author', group: ['Admins'] });
});
afterAll(() => t.close());

describe('create', () => {
  it('creates a v4 rating (201) and shows it with the v4 fields', async () => {
    const f = await fixture({ name: { 'en-US': 'Rated', fr: 'Noté' } });
    const res = await send('post', V4, alice, {
      addon: f.addon.slug,
      version: f.v1.id,
      score: 4,
      body: '  Great; really <br>great.  ',
      title: 'ignored',
    });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toEqual({
      id: expect.any(Number),
      addon: {
        id: f.addon.id,
        slug: f.addon.slug,
        name: { 'en-US': 'Rated', fr: 'Noté' },
        icon_url: expect.stringMatching(/^http:\/\//),
      },
      body: 'Great; really \ngreat.',
      created: expect.stringMatching(TIMESTAMP),
      is_deleted: false,
      is_developer_reply: false,
      is_latest: true,
      previous_count: 0,
      user: {
        id: alice.id,
        name: 'Alice',
        url: expect.stringMatching(new RegExp(`/user/${alice.id}/$`)),
        username: 'alice',
      },
      score: 4,
      reply: null,
      version: { id: f.v1.id, version: '1.0' },
    });
    expect(await editorReview(res.body.id)).toBe(false);
  });

  it('creates a v3 review: `rating` for the score, `title: null`, the add-on by id and slug, no is_deleted', async () => {
    const f = await fixture();
    const res = await send('post', V3, alice, { addon: f.addon.guid, version: String(f.v1.id), rating: 5, body: null });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      addon: { id: f.addon.id, slug: f.addon.slug },
      body: null,
      created: expect.stringMatching(TIMESTAMP),
      is_developer_reply: false,
      is_latest: true,
      previous_count: 0,
      user: { id: alice.id, name: 'Alice', url: expect.any(String), username: 'alice' },
      reply: null,
      version: { id: f.v1.id, version: '1.0' },
      rating: 5,
      title: null,
    });
    // v3 names the score `rating` in errors too; `score` means nothing to it.
    const wrong = await send('post', V3, bob, { addon: f.addon.id, version: f.v1.id, score: 5 });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ rating: ['This field is required.'] });
    expect((await send('post', V3, bob, { addon: f.addon.id, version: f.v1.id, rating: 0 })).body).toEqual({
      rating: ['Ensure this value is greater than or equal to 1.'],
    });
  });

  it('refuses bad fields with the original messages, all fields at once', async () => {
    const f = await fixture();
    const expectError = async (body: object, expected: object) => {
      const res = await send('post', V4, alice, { addon: f.addon.id, ...body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expected);
    };
    await expectError({}, { version: ['This field is required.'], score: ['This field is required.'] });
    await expectError({ version: f.v1.id }, { score: ['This field is required.'] });
    await expectError({ version: 'abc', score: 3 }, { version: ['Incorrect type. Expected pk value, received str.'] });
    await expectError({ version: 999999, score: 3 }, { version: ['Invalid pk "999999" - object does not exist.'] });
    await expectError(
      { version: null, score: null },
      {
        version: ['This field may not be null.'],
        score: ['This field may not be null.'],
      },
    );
    await expectError({ version: f.v1.id, score: 0 }, { score: ['Ensure this value is greater than or equal to 1.'] });
    await expectError({ version: f.v1.id, score: 6 }, { score: ['Ensure this value is less than or equal to 5.'] });
    await expectError({ version: f.v1.id, score: 1.5 }, { score: ['A valid integer is required.'] });
    await expectError({ version: f.v1.id, score: 'x' }, { score: ['A valid integer is required.'] });
    await expectError({ version: f.v1.id, score: 3, body: '   ' }, { body: ['This field may not be blank.'] });
    const notPublic = { version: ["This version of the add-on doesn't exist or isn't public."] };
    const other = await fixture();
    for (const version of [f.unlisted, f.deleted, f.unreviewed, other.v1]) {
      await expectError({ version: version.id, score: 3 }, notPublic);
    }
    // The add-on is checked once the fields are valid.
    const noAddon = await send('post', V4, alice, { version: f.v1.id, score: 3 });
    expect(noAddon.status).toBe(400);
    expect(noAddon.body).toEqual({ addon: ['This field is required.'] });
    // A numeric string is an integer.
    expect((await send('post', V4, alice, { addon: String(f.addon.id), version: f.v1.id, score: '3' })).status).toBe(
      201,
    );
  });

  it('allows one rating per user and version, never on your own add-on', async () => {
    const f = await fixture();
    const first = await rate(alice, f, f.v1, 2);
    const again = await send('post', V4, alice, { addon: f.addon.id, version: f.v1.id, score: 3 });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      non_field_errors: ["You can't leave more than one review for the same version of an add-on."],
    });
    for (const who of [author, adminAuthor]) {
      const own = await send('post', V4, who, { addon: f.addon.id, version: f.v1.id, score: 5 });
      expect(own.status).toBe(400);
      expect(own.body).toEqual({ non_field_errors: ["You can't leave a review on your own add-on."] });
    }
    // Another version is fine: it becomes the latest, and the earlier one is counted.
    const second = await send('post', V4, alice, { addon: f.addon.id, version: f.v2.id, score: 4 });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ is_latest: true, previous_count: 1 });
    expect((await send('get', `${V4}${first.id}/`, null)).body).toMatchObject({ is_latest: false, previous_count: 0 });
    // A deleted rating no longer blocks its version.
    expect((await send('delete', `${V4}${first.id}/`, alice)).status).toBe(204);
    const third = await send('post', V4, alice, { addon: f.addon.id, version: f.v1.id, score: 5 });
    expect(third.status).toBe(201);
    expect(third.body).toMatchObject({ is_latest: true, previous_count: 1 });
  });

  it('needs credentials, and a public add-on (404 unknown or deleted, 401/403 otherwise)', async () => {
    const f = await fixture();
    const body = { addon: f.addon.id, version: f.v1.id, score: 3 };
    const anonymous = await send('post', V4, null, body);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHENTICATED);
    expect((await send('post', V4, alice, { ...body, addon: 'no-such-addon' })).status).toBe(404);
    const removed = await fixture({ status: AddonStatus.DELETED });
    expect((await send('post', V4, alice, { ...body, addon: removed.addon.id })).body).toEqual({
      detail: 'Not found.',
    });
    const hidden = await fixture({ disabledByUser: true });
    const forbidden = await send('post', V4, alice, { ...body, addon: hidden.addon.id, version: hidden.v1.id });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ ...DENIED, is_disabled_by_developer: true, is_disabled_by_vendor: false });
    const anonymousHidden = await send('post', V4, null, { ...body, addon: hidden.addon.id });
    expect(anonymousHidden.status).toBe(401);
    expect(anonymousHidden.body).toEqual({
      ...UNAUTHENTICATED,
      is_disabled_by_developer: true,
      is_disabled_by_vendor: false,
    });
    // Only the internal scheme authenticates ratings: any other header is no credential.
    expect((await t.http.post(V4).set('Authorization', 'JWT abc').send(body)).status).toBe(401);
  });

  it('keeps texts exactly, semicolons and quotes included; a link waits for a moderator', async () => {
    const f = await fixture();
    const text = `It's "great"; 100% worth it \\o/ ? -- %3B`;
    const res = await send('post', V4, alice, { addon: f.addon.id, version: f.v1.id, score: 5, body: text });
    expect(res.status).toBe(201);
    expect(res.body.body).toBe(text);
    expect((await send('get', `${V4}${res.body.id}/`, null)).body.body).toBe(text);
    expect(await editorReview(res.body.id)).toBe(false);
    for (const body of ['See https://example.com', 'Go to example%2ecom now', 'at 10.0.0.1']) {
      const linked = await send('post', V4, bob, { addon: f.addon.id, version: f.v1.id, score: 1, body });
      expect(linked.status).toBe(201);
      expect(await editorReview(linked.body.id)).toBe(true);
      await send('delete', `${V4}${linked.body.id}/`, bob);
    }
    const nul = await send('post', V4, carol, { addon: f.addon.id, version: f.v1.id, score: 1, body: 'a\u0000b' });
    expect(nul.body).toEqual({ body: ['Null characters are not allowed.'] });
  });
});

describe('throttles', () => {
  it('lets a user post one rating a minute (429 with Retry-After), failed attempts included', async () => {
    const f = await fixture();
    const dave = await caller(t);
    await clearThrottles(t);
    expect((await call(t, 'post', V4, dave, { addon: f.addon.id, version: f.v1.id, score: 3 })).status).toBe(201);
    const throttled = await call(t, 'post', V4, dave, { addon: f.addon.id, version: f.v2.id, score: 3 });
    expect(throttled.status).toBe(429);
    const wait = Number(throttled.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(59);
    expect(wait).toBeLessThanOrEqual(60);
    expect(throttled.body).toEqual({ detail: `Request was throttled. Expected available in ${wait} seconds.` });
    // Other users, and edits, are not throttled.
    expect((await call(t, 'post', V4, alice, { addon: f.addon.id, version: f.v2.id, score: 3 })).status).toBe(201);
    const [mine] = (await call(t, 'get', `${V4}?addon=${f.addon.id}&user=${dave.id}`, null)).body.results;
    expect((await call(t, 'patch', `${V4}${mine.id}/`, dave, { score: 4 })).status).toBe(200);
    // 2 s before the minute is up, counted from now: the requests above may take a while on a
    // loaded machine, and only the next one's own time is left to chance.
    await ageThrottles(t, 58);
    const soon = await call(t, 'post', V4, dave, { addon: f.addon.id, version: f.v2.id, score: 3 });
    expect(soon.status).toBe(429);
    const left = soon.headers['retry-after'];
    expect(['1', '2']).toContain(left);
    expect(soon.body).toEqual({
      detail: `Request was throttled. Expected available in ${left} second${left === '1' ? '' : 's'}.`,
    });
    await rewindThrottles(t, 2);
    // As in the original, a request counts once it is allowed, even if it then fails.
    expect((await call(t, 'post', V4, dave, { addon: f.addon.id, version: f.v2.id })).status).toBe(400);
    expect((await call(t, 'post', V4, dave, { addon: f.addon.id, version: f.v2.id, score: 3 })).status).toBe(429);
    await rewindThrottles(t, 60);
    expect((await call(t, 'post', V4, dave, { addon: f.addon.id, version: f.v2.id, score: 3 })).status).toBe(201);
  });

  it('lets a developer post one reply every 5 seconds', async () => {
    const f = await fixture();
    const one = await rate(alice, f, f.v1, 3);
    const two = await rate(bob, f, f.v1, 3);
    await clearThrottles(t);
    expect((await call(t, 'post', `${V4}${one.id}/reply/`, author, { body: 'Thanks' })).status).toBe(201);
    const throttled = await call(t, 'post', `${V4}${two.id}/reply/`, author, { body: 'Thanks' });
    expect(throttled.status).toBe(429);
    expect(['4', '5']).toContain(throttled.headers['retry-after']);
    await rewindThrottles(t, 5);
    expect((await call(t, 'post', `${V4}${two.id}/reply/`, author, { body: 'Thanks' })).status).toBe(201);
    expect((await call(t, 'post', `${V4}${two.id}/reply/`, author, { body: 'Again' })).status).toBe(429);
  });
});

describe('list', () => {
  let f: Fixture;
  const ids: Record<string, number> = {};
  // Raters of this add-on only, so that lists by user hold nothing else.
  let ann: Caller;
  let ben: Caller;
  let cat: Caller;

  beforeAll(async () => {
    ann = await caller(t);
    ben = await caller(t);
    cat = await caller(t);
    f = await fixture();
    ids.aliceOld = (await rate(ann, f, f.v1, 2, 'Was bad.')).id;
    ids.ann = (await rate(ann, f, f.v2, 4, 'Better now.')).id;
    ids.ben = (await rate(ben, f, f.v1, 5, null)).id;
    ids.cat = (await rate(cat, f, f.v2, 1, 'Broken.')).id;
    ids.reply = (await reply(author, ids.cat, 'Fixed in 1.2.')).id;
    ids.editor = (await rate(editor, f, f.v1, 3, 'Removed later.')).id;
    expect((await send('delete', `${V4}${ids.editor}/`, editor)).status).toBe(204);
  });

  const list = async (query: string, who: Caller | null = null, base = V4) => {
    const res = await send('get', `${base}?${query}`, who);
    return res;
  };
  const resultIds = (res: { body: { results: { id: number }[] } }) => res.body.results.map((r) => r.id);

  it("lists an add-on's latest rating per user, newest first, with replies nested", async () => {
    const res = await list(`addon=${f.addon.slug}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['page_size', 'page_count', 'count', 'next', 'previous', 'results']);
    expect(res.body).toMatchObject({ page_size: 25, page_count: 1, count: 3, next: null, previous: null });
    expect(resultIds(res)).toEqual([ids.cat, ids.ben, ids.ann]);
    expect(res.body.results[0].reply).toEqual({
      id: ids.reply,
      addon: expect.objectContaining({ id: f.addon.id }),
      body: 'Fixed in 1.2.',
      created: expect.stringMatching(TIMESTAMP),
      is_deleted: false,
      is_developer_reply: true,
      is_latest: true,
      previous_count: 0,
      user: { id: author.id, name: 'The Author', url: expect.any(String), username: 'the-author' },
    });
    const v3 = await list(`addon=${f.addon.id}`, null, V3);
    expect(v3.body.results[0].reply).toEqual(expect.objectContaining({ title: null }));
    expect(v3.body.results[0].reply).not.toHaveProperty('is_deleted');
    expect(v3.body.results[0]).toMatchObject({ rating: 1, title: null });
  });

  it('lists one version of the add-on with `version`, all of it', async () => {
    expect(resultIds(await list(`addon=${f.addon.id}&version=${f.v1.id}`))).toEqual([ids.ben, ids.aliceOld]);
  });

  it("lists a user's ratings with `user`, replies included, and refuses neither addon nor user", async () => {
    expect(resultIds(await list(`user=${ann.id}`))).toEqual([ids.ann, ids.aliceOld]);
    const replies = await list(`user=${author.id}`);
    expect(resultIds(replies)).toContain(ids.reply);
    expect(replies.body.results.every((r: { is_developer_reply: boolean }) => r.is_developer_reply)).toBe(true);
    expect(resultIds(await list(`addon=${f.addon.id}&user=${ann.id}`))).toEqual([ids.ann]);
    for (const query of ['', 'addon=', 'version=1', 'filter=with_deleted']) {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'Need an addon or user parameter' });
    }
    expect((await list('user=abc')).body).toEqual({ detail: 'user parameter should be an integer.' });
    expect((await list(`addon=${f.addon.id}&version=1.0`)).body).toEqual({
      detail: 'version parameter should be an integer.',
    });
  });

  it('finds one rating or none with addon, user and version (page size 1, no links)', async () => {
    const one = await list(`addon=${f.addon.id}&user=${ann.id}&version=${f.v1.id}&page_size=10`);
    expect(one.body).toEqual({
      page_size: 1,
      page_count: 1,
      count: 1,
      next: null,
      previous: null,
      results: [expect.objectContaining({ id: ids.aliceOld, is_latest: false })],
    });
    const none = await list(`addon=${f.addon.id}&user=${cat.id}&version=${f.v1.id}`);
    expect(none.body).toEqual({ page_size: 1, page_count: 1, count: 0, next: null, previous: null, results: [] });
  });

  it('pages with page and page_size', async () => {
    const first = await list(`addon=${f.addon.id}&page_size=2`);
    expect(first.body).toMatchObject({ page_size: 2, page_count: 2, count: 3, previous: null });
    expect(first.body.next).toMatch(/\?addon=\d+&page=2&page_size=2$/);
    const second = await send('get', first.body.next.replace(/^https?:\/\/[^/]+/, ''), null);
    expect(resultIds(second)).toEqual([ids.ann]);
    expect((await list(`addon=${f.addon.id}&page=3&page_size=2`)).body).toEqual({ detail: 'Invalid page.' });
  });

  it('filters: without_empty_body, with_yours, with_deleted (Addons:Edit only)', async () => {
    expect(resultIds(await list(`addon=${f.addon.id}&filter=without_empty_body`))).toEqual([ids.cat, ids.ann]);
    expect(resultIds(await list(`addon=${f.addon.id}&filter=without_empty_body,with_yours`, ben))).toEqual([
      ids.cat,
      ids.ben,
      ids.ann,
    ]);
    expect(resultIds(await list(`addon=${f.addon.id}&filter=with_yours`, ben))).toHaveLength(3);
    for (const who of [null, ann, editor, admin]) {
      const res = await list(`addon=${f.addon.id}&filter=with_deleted`, who);
      const canSee = who === editor || who === admin;
      expect(resultIds(res)).toEqual(canSee ? [ids.editor, ids.cat, ids.ben, ids.ann] : [ids.cat, ids.ben, ids.ann]);
      if (canSee) expect(res.body.results[0]).toMatchObject({ is_deleted: true });
    }
  });

  it('v4: score and exclude_ratings filters, with their messages; v3 ignores them', async () => {
    expect(resultIds(await list(`addon=${f.addon.id}&score=1,5`))).toEqual([ids.cat, ids.ben]);
    expect(resultIds(await list(`addon=${f.addon.id}&score=4`))).toEqual([ids.ann]);
    expect(resultIds(await list(`addon=${f.addon.id}&exclude_ratings=${ids.cat},${ids.ben}`))).toEqual([ids.ann]);
    expect((await list(`addon=${f.addon.id}&score=a`)).body).toEqual({
      detail: 'score parameter should be an integer or a list of integers (separated by a comma).',
    });
    expect((await list(`addon=${f.addon.id}&exclude_ratings=1,x`)).body).toEqual({
      detail: 'exclude_ratings parameter should be an integer or a list of integers (separated by a comma).',
    });
    expect(resultIds(await list(`addon=${f.addon.id}&score=a&exclude_ratings=x`, null, V3))).toHaveLength(3);
  });

  it('show_grouped_ratings adds counts per score (with an add-on)', async () => {
    for (const base of [V4, V3]) {
      const res = await list(`addon=${f.addon.id}&show_grouped_ratings=true`, null, base);
      expect(res.body.grouped_ratings).toEqual({ 1: 1, 2: 0, 3: 0, 4: 1, 5: 1 });
      expect(Object.keys(res.body.grouped_ratings)).toEqual(['1', '2', '3', '4', '5']);
    }
    expect((await list(`addon=${f.addon.id}&show_grouped_ratings=0`)).body).not.toHaveProperty('grouped_ratings');
    expect((await list(`user=${ann.id}&show_grouped_ratings=1`)).body).not.toHaveProperty('grouped_ratings');
    expect((await list(`addon=${f.addon.id}&show_grouped_ratings=maybe`)).body).toEqual({
      detail: 'show_grouped_ratings parameter should be a boolean',
    });
  });

  it('v4 show_permissions_for: can_reply for the caller, with an add-on', async () => {
    const canReply = async (who: Caller) =>
      (await list(`addon=${f.addon.id}&show_permissions_for=${who.id}`, who)).body.can_reply;
    expect(await canReply(author)).toBe(true);
    expect(await canReply(adminAuthor)).toBe(true);
    expect(await canReply(editor)).toBe(true);
    expect(await canReply(admin)).toBe(true);
    expect(await canReply(ann)).toBe(false);
    expect(await canReply(moderator)).toBe(false);
    const other = {
      detail: 'show_permissions_for parameter value should be equal to the user id of the authenticated user',
    };
    expect((await list(`addon=${f.addon.id}&show_permissions_for=${author.id}`, ann)).body).toEqual(other);
    expect((await list(`addon=${f.addon.id}&show_permissions_for=${author.id}`)).body).toEqual(other);
    expect((await list(`addon=${f.addon.id}&show_permissions_for=me`, ann)).body).toEqual(other);
    expect((await list(`user=${ann.id}&show_permissions_for=${ann.id}`, ann)).body).toEqual({
      detail: 'show_permissions_for parameter is only valid if the addon parameter is also present',
    });
    const v3 = await list(`addon=${f.addon.id}&show_permissions_for=${author.id}`, ann, V3);
    expect(v3.status).toBe(200);
    expect(v3.body).not.toHaveProperty('can_reply');
  });

  it("v4 show_flags_for: the caller's flags on each rating", async () => {
    const res = await send('post', `${V4}${ids.cat}/flag/`, ben, { flag: 'rating_flag_reason_spam' });
    expect(res.status).toBe(202);
    const flagged = await list(`addon=${f.addon.id}&show_flags_for=${ben.id}`, ben);
    expect(flagged.body.results.map((r: { flags: unknown }) => r.flags)).toEqual([
      [{ flag: 'rating_flag_reason_spam', note: null }],
      [],
      [],
    ]);
    expect(flagged.body.results[0].reply.flags).toEqual([]);
    expect((await list(`addon=${f.addon.id}`, ben)).body.results[0]).not.toHaveProperty('flags');
    const message = {
      detail: 'show_flags_for parameter value should be equal to the user id of the authenticated user',
    };
    expect((await list(`addon=${f.addon.id}&show_flags_for=${ben.id}`, ann)).body).toEqual(message);
    expect((await list(`addon=${f.addon.id}&show_flags_for=${ben.id}`)).body).toEqual(message);
    expect((await send('get', `${V4}${ids.cat}/?show_flags_for=${ann.id}`, ben)).body).toEqual(message);
    expect((await send('get', `${V4}${ids.cat}/?show_flags_for=${ben.id}`, ben)).body.flags).toHaveLength(1);
    const v3 = await list(`addon=${f.addon.id}&show_flags_for=${ben.id}`, ann, V3);
    expect(v3.status).toBe(200);
    expect(v3.body.results[0]).not.toHaveProperty('flags');
  });

  it('needs a public add-on: 404 when unknown, 401/403 when not public; a user list shows everything', async () => {
    expect((await list('addon=no-such-addon')).status).toBe(404);
    const hidden = await fixture();
    const hiddenRating = await rate(ann, hidden, hidden.v1, 3);
    await t.em().getConnection().execute('update addons set disabled_by_user = true where id = ?', [hidden.addon.id]);
    const keys = { is_disabled_by_developer: true, is_disabled_by_vendor: false };
    expect((await list(`addon=${hidden.addon.id}`)).body).toEqual({ ...UNAUTHENTICATED, ...keys });
    expect((await list(`addon=${hidden.addon.id}`, ann)).body).toEqual({ ...DENIED, ...keys });
    expect((await list(`addon=${hidden.addon.id}`, author)).status).toBe(403);
    expect(resultIds(await list(`user=${ann.id}`))).toContain(hiddenRating.id);
  });
});

describe('v3 delete', () => {
  it('deletes through /api/v3/reviews/review/<id>/ as through v4 (owner: 204; others 403; anonymous 401)', async () => {
    const f = await fixture();
    const rating = await rate(alice, f, f.v1, 3);
    expect((await send('delete', `${V3}${rating.id}/`, null)).status).toBe(401);
    expect((await send('delete', `${V3}${rating.id}/`, bob)).status).toBe(403);
    expect((await send('delete', `${V3}${rating.id}/`, alice)).status).toBe(204);
    expect((await send('get', `${V3}${rating.id}/`, null)).status).toBe(404);
  });
});

describe('detail', () => {
  it('shows a rating; deleted ones only to Addons:Edit (is_deleted: true)', async () => {
    const f = await fixture();
    const rating = await rate(alice, f, f.v1, 3);
    for (const base of [V4, V3]) expect((await send('get', `${base}${rating.id}/`, null)).status).toBe(200);
    expect((await send('delete', `${V4}${rating.id}/`, alice)).status).toBe(204);
    for (const who of [null, alice, bob, author, moderator, userEditor]) {
      const res = await send('get', `${V4}${rating.id}/`, who);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
    }
    for (const who of [editor, admin]) {
      expect((await send('get', `${V4}${rating.id}/`, who)).body).toMatchObject({ id: rating.id, is_deleted: true });
    }
    expect((await send('get', `${V4}999999/`, null)).status).toBe(404);
    expect((await send('get', `${V4}abc/`, null)).status).toBe(404);
  });

  it('shows a reply by its id as a rating without score and version; hides replies to deleted ratings', async () => {
    const f = await fixture();
    const rating = await rate(alice, f, f.v1, 3);
    const answer = await reply(author, rating.id);
    const res = await send('get', `${V4}${answer.id}/`, null);
    expect(res.body).toMatchObject({
      id: answer.id,
      is_developer_reply: true,
      score: null,
      version: null,
      reply: null,
    });
    await send('delete', `${V4}${rating.id}/`, alice);
    expect((await send('get', `${V4}${answer.id}/`, null)).status).toBe(404);
    expect((await send('get', `${V4}${answer.id}/`, editor)).status).toBe(200);
  });
});

describe('edit', () => {
  it('changes body and score for the author or Addons:Edit (401 anonymous, 403 others)', async () => {
    const f = await fixture();
    const rating = await rate(alice, f, f.v1, 3, 'Fine.');
    const patch = (who: Caller | null, body: object) => send('patch', `${V4}${rating.id}/`, who, body);
    expect((await patch(null, { score: 1 })).status).toBe(401);
    for (const who of [bob, author, moderator, userEditor]) {
      const res = await patch(who, { score: 1 });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(DENIED);
    }
    const own = await patch(alice, { score: 5, body: 'Great now.' });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: rating.id, score: 5, body: 'Great now.', version: { id: f.v1.id } });
    expect((await patch(editor, { body: null })).body).toMatchObject({ score: 5, body: null });
    expect((await patch(admin, { score: 2 })).body).toMatchObject({ score: 2, body: null });
    // Authors may not delete others' ratings, but Addons:Edit edits them all the same.
    expect((await patch(adminAuthor, { score: 3 })).body).toMatchObject({ score: 3 });
    expect((await send('patch', `${V3}${rating.id}/`, alice, { rating: 4, title: 'x' })).body).toMatchObject({
      rating: 4,
      title: null,
    });
    expect(await storedColumns(t, f.addon.id)).toMatchObject({ count: 1, average: 4, textCount: 0 });
  });

  it('never changes the add-on or the version; refuses bad values; PUT is not allowed', async () => {
    const f = await fixture();
    const rating = await rate(alice, f, f.v1, 3);
    const patch = (body: object) => send('patch', `${V4}${rating.id}/`, alice, body);
    expect((await patch({ version: f.v2.id })).body).toEqual({
      version: ["You can't change the version of the add-on reviewed once the review has been created."],
    });
    expect((await patch({ addon: f.addon.id, body: 'x' })).body).toEqual({
      addon: ["You can't change the add-on of a review once it has been created."],
    });
    expect((await patch({ score: 9 })).body).toEqual({ score: ['Ensure this value is less than or equal to 5.'] });
    expect((await patch({ score: null })).body).toEqual({ score: ['This field may not be null.'] });
    expect((await patch({ body: '' })).body).toEqual({ body: ['This field may not be blank.'] });
    expect((await send('patch', `${V3}${rating.id}/`, alice, { rating: 0 })).body).toEqual({
      rating: ['Ensure this value is greater than or equal to 1.'],
    });
    const put = await send('put', `${V4}${rating.id}/`, alice, { score: 1 });
    expect(put.status).toBe(405);
    expect(put.body).toEqual({ detail: 'Method "PUT" not allowed.' });
    expect((await patch({ score: 1 })).status).toBe(200);
    expect((await send('patch', `${V4}999999/`, alice, { score: 1 })).status).toBe(404);
  });

  it('edits a reply as a reply (body only); its author or Addons:Edit', async () => {
    const f = await fixture();
    const rating = await rate(alice, f, f.v1, 3);
    const answer = await reply(author, rating.id, 'Thanks');
    expect((await send('patch', `${V4}${answer.id}/`, alice, { body: 'Hacked' })).status).toBe(403);
    const res = await send('patch', `${V4}${answer.id}/`, author, { body: 'Thank you!', score: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: answer.id, body: 'Thank you!', is_developer_reply: true });
    expect(res.body).not.toHaveProperty('score');
    expect(res.body).not.toHaveProperty('version');
    expect((await send('patch', `${V4}${answer.id}/`, editor, { body: null })).body).toEqual({
      body: ['This field may not be null.'],
    });
  });
});

describe('delete', () => {
  it('follows the permission matrix (soft delete)', async () => {
    const f = await fixture();
    const cases: [Caller | null, number][] = [
      [null, 401],
      [bob, 403],
      [author, 403],
      [adminAuthor, 403],
      [moderator, 403],
      [userEditor, 204],
      [editor, 204],
      [admin, 204],
      [alice, 204],
    ];
    for (const [who, status] of cases) {
      await clearThrottles(t);
      const [existing] = (await send('get', `${V4}?addon=${f.addon.id}&user=${alice.id}`, null)).body.results;
      const rating = existing ?? (await rate(alice, f, f.v1, 3));
      const res = await send('delete', `${V4}${rating.id}/`, who);
      expect([who && who.id, res.status]).toEqual([who && who.id, status]);
      if (status === 204) expect(res.text).toBe('');
      if (status === 401) expect(res.body).toEqual(UNAUTHENTICATED);
      if (status === 403) expect(res.body).toEqual(DENIED);
    }
    const [row] = await t
      .em()
      .getConnection()
      .execute<{ count: number }[]>('select count(*)::int as count from ratings where user_id = ? and deleted', [
        alice.id,
      ]);
    expect(row.count).toBeGreaterThanOrEqual(4);
  });

  it('lets Ratings:Moderate delete flagged ratings only; deleting someone else’s clears its flags', async () => {
    const f = await fixture();
    const rating = await rate(alice, f, f.v1, 3, 'Meh.');
    expect((await send('delete', `${V4}${rating.id}/`, moderator)).status).toBe(403);
    expect((await send('post', `${V4}${rating.id}/flag/`, bob, { flag: 'review_flag_reason_language' })).status).toBe(
      202,
    );
    expect((await send('delete', `${V4}${rating.id}/`, moderator)).status).toBe(204);
    const [flags] = await t
      .em()
      .getConnection()
      .execute<{ count: number }[]>('select count(*)::int as count from rating_flags where rating_id = ?', [rating.id]);
    expect(flags.count).toBe(0);
    // A link in the text flags it too.
    const linked = await rate(bob, f, f.v1, 1, 'Use www.example.com instead');
    expect((await send('delete', `${V4}${linked.id}/`, moderator)).status).toBe(204);
  });

  it('brings back the previous rating as the latest one, and recounts the add-on', async () => {
    const f = await fixture();
    const old = await rate(alice, f, f.v1, 1, null);
    const latest = await rate(alice, f, f.v2, 5, 'Love it');
    expect(await storedColumns(t, f.addon.id)).toMatchObject({ count: 1, average: 5, textCount: 1 });
    expect((await send('delete', `${V4}${latest.id}/`, alice)).status).toBe(204);
    expect((await send('get', `${V4}${old.id}/`, null)).body).toMatchObject({ is_latest: true, previous_count: 0 });
    expect(await storedColumns(t, f.addon.id)).toMatchObject({ count: 1, average: 1, textCount: 0 });
    expect((await send('delete', `${V4}${old.id}/`, alice)).status).toBe(204);
    expect(await storedColumns(t, f.addon.id)).toMatchObject({ count: 0, average: 0, textCount: 0, bayesian: 0 });
  });
});

describe('reply', () => {
  it('follows the permission matrix; creates (201) then changes (200) the one reply', async () => {
    const f = await fixture();
    const rating = await rate(alice, f, f.v1, 2, 'Slow.');
    const post = (who: Caller | null, body: object = { body: 'Thanks' }) =>
      send('post', `${V4}${rating.id}/reply/`, who, body);
    expect((await post(null)).status).toBe(401);
    for (const who of [alice, bob, moderator, userEditor]) expect((await post(who)).body).toEqual(DENIED);
    const created = await post(author, { body: 'Faster in 1.1.' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      addon: expect.objectContaining({ id: f.addon.id }),
      body: 'Faster in 1.1.',
      created: expect.stringMatching(TIMESTAMP),
      is_deleted: false,
      is_developer_reply: true,
      is_latest: true,
      previous_count: 0,
      user: expect.objectContaining({ id: author.id }),
    });
    for (const who of [adminAuthor, editor, admin]) {
      const res = await post(who, { body: `By ${who.id}` });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: created.body.id, body: `By ${who.id}` });
    }
    const v3 = await send('post', `${V3}${rating.id}/reply/`, author, { body: 'v3', title: 'ignored' });
    expect(v3.status).toBe(200);
    expect(v3.body).toMatchObject({ id: created.body.id, body: 'v3', title: null });
    expect((await send('get', `${V4}${rating.id}/`, null)).body.reply).toMatchObject({
      id: created.body.id,
      body: 'v3',
    });
  });

  it('undeletes a deleted reply when replying again; never replies to a reply', async () => {
    const f = await fixture();
    const rating = await rate(alice, f, f.v1, 2);
    const answer = await reply(author, rating.id, 'First');
    expect((await send('delete', `${V4}${answer.id}/`, author)).status).toBe(204);
    expect((await send('get', `${V4}${rating.id}/`, null)).body.reply).toBeNull();
    expect((await send('get', `${V4}${rating.id}/`, editor)).body.reply).toMatchObject({ is_deleted: true });
    const again = await send('post', `${V4}${rating.id}/reply/`, author, { body: 'Second' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: answer.id, body: 'Second', is_deleted: false });
    const nested = await send('post', `${V4}${answer.id}/reply/`, author, { body: 'Nested' });
    expect(nested.status).toBe(400);
    expect(nested.body).toEqual({ non_field_errors: ["You can't reply to a review that is already a reply."] });
  });

  it('needs a body, a rating and a public add-on; GET is not allowed', async () => {
    const f = await fixture();
    const rating = await rate(alice, f, f.v1, 2);
    const post = (body: object) => send('post', `${V4}${rating.id}/reply/`, author, body);
    expect((await post({})).body).toEqual({ body: ['This field is required.'] });
    expect((await post({ body: '  ' })).body).toEqual({ body: ['This field may not be blank.'] });
    expect((await post({ body: null })).body).toEqual({ body: ['This field may not be null.'] });
    expect((await send('post', `${V4}999999/reply/`, author, { body: 'x' })).status).toBe(404);
    const get = await send('get', `${V4}${rating.id}/reply/`, author);
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    await t.em().getConnection().execute('update addons set disabled_by_user = true where id = ?', [f.addon.id]);
    const hidden = await post({ body: 'x' });
    expect(hidden.status).toBe(403);
    expect(hidden.body).toEqual({ ...DENIED, is_disabled_by_developer: true, is_disabled_by_vendor: false });
  });
});

describe('flag', () => {
  it('follows the permission matrix: not anonymous, not your own', async () => {
    const f = await fixture();
    const rating = await rate(alice, f, f.v1, 2, 'Bad.');
    const flag = (who: Caller | null) =>
      send('post', `${V4}${rating.id}/flag/`, who, { flag: 'rating_flag_reason_bug_support' });
    expect((await flag(null)).status).toBe(401);
    expect((await flag(alice)).body).toEqual(DENIED);
    for (const who of [bob, author, editor, moderator, admin]) {
      const res = await flag(who);
      expect(res.status).toBe(202);
      expect(res.body).toEqual(FLAGGED);
    }
    expect(await editorReview(rating.id)).toBe(true);
    expect((await send('post', `${V4}999999/flag/`, bob, { flag: 'rating_flag_reason_spam' })).status).toBe(404);
  });

  it('checks flag and note with the original messages; a note makes the flag "other"; flagging again changes it', async () => {
    const f = await fixture();
    const rating = await rate(alice, f, f.v1, 2, 'Bad.');
    const flag = (body: object, base = V4) => send('post', `${base}${rating.id}/flag/`, bob, body);
    expect((await flag({})).body).toEqual({ flag: ['This field is required.'] });
    expect((await flag({ flag: '' })).body).toEqual({ flag: ['This field may not be blank.'] });
    expect((await flag({ flag: 'lol' })).body).toEqual({
      flag: [
        'Invalid flag [lol] - must be one of [review_flag_reason_spam,review_flag_reason_language,review_flag_reason_bug_support,review_flag_reason_other]',
      ],
    });
    expect((await flag({ flag: 'rating_flag_reason_other' })).body).toEqual({
      note: ['A short explanation must be provided when selecting "Other" as a flag reason.'],
    });
    expect((await flag({ flag: 'review_flag_reason_spam', note: '' })).body).toEqual({
      note: ['This field may not be blank.'],
    });
    expect((await flag({ flag: 'review_flag_reason_spam', note: 'x'.repeat(101) })).body).toEqual({
      note: ['Ensure this field has no more than 100 characters.'],
    });
    const flagsOf = async () =>
      (await send('get', `${V4}${rating.id}/?show_flags_for=${bob.id}`, bob)).body.flags as object[];
    expect((await flag({ flag: 'review_flag_reason_spam', note: 'It is; an advert' }, V3)).status).toBe(202);
    expect(await flagsOf()).toEqual([{ flag: 'rating_flag_reason_other', note: 'It is; an advert' }]);
    expect((await flag({ flag: 'rating_flag_reason_language' })).status).toBe(202);
    expect(await flagsOf()).toEqual([{ flag: 'rating_flag_reason_language', note: null }]);
  });

  it("refuses ratings without text and ratings of add-ons that aren't public", async () => {
    const f = await fixture();
    const silent = await rate(alice, f, f.v1, 2, null);
    const res = await send('post', `${V4}${silent.id}/flag/`, bob, { flag: 'rating_flag_reason_spam' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ non_field_errors: ["This rating can't be flagged because it has no review text."] });
    const rating = await rate(bob, f, f.v1, 2, 'Text.');
    await t.em().getConnection().execute('update addons set disabled_by_user = true where id = ?', [f.addon.id]);
    expect((await send('post', `${V4}${rating.id}/flag/`, alice, { flag: 'rating_flag_reason_spam' })).status).toBe(
      403,
    );
  });
});

describe('the add-on ratings object', () => {
  it('counts each user’s latest live rating: count, average, text count, grouped counts', async () => {
    const f = await fixture();
    await rate(alice, f, f.v1, 1, null);
    await rate(alice, f, f.v2, 3, 'Better');
    await rate(bob, f, f.v1, 5, null);
    const carolRating = await rate(carol, f, f.v2, 4, 'Good');
    await reply(author, carolRating.id);
    const expected = await recount(t, f.addon.id);
    expect(expected).toMatchObject({ count: 3, average: 4, textCount: 2 });
    const detail = await send('get', `/api/v4/addons/addon/${f.addon.id}/`, null);
    expect(detail.body.ratings).toEqual({
      average: expect.closeTo(expected.average, 5),
      bayesian_average: expect.any(Number),
      count: expected.count,
      text_count: expected.textCount,
    });
    expect(detail.body.ratings.bayesian_average).toBeGreaterThan(0);
    const grouped = await send('get', `${V4}?addon=${f.addon.id}&show_grouped_ratings=1`, null);
    expect(grouped.body.grouped_ratings).toEqual(expected.grouped);
  });
});

describe('GraphQL', () => {
  const gql = (who: Caller | null, query: string, variables: object = {}) => {
    const req = t.http.post('/graphql');
    return (who ? req.set('Authorization', `Bearer ${who.token}`) : req).send({ query, variables });
  };

  it('lists ratings with their replies, flags, grouped counts and reply permission', async () => {
    const f = await fixture();
    const rating = await rate(alice, f, f.v1, 4, 'Nice');
    await reply(author, rating.id, 'Thanks');
    await send('post', `${V4}${rating.id}/flag/`, bob, { flag: 'rating_flag_reason_spam' });
    const res = await gql(
      bob,
      `query ($addon: String) {
        ratings(addon: $addon) {
          count
          canReply
          groupedRatings { score count }
          items { id score body isDeleted isDeveloperReply user: userSummary { id } version { version } addon { slug }
                  flags { flag note } reply { body isDeveloperReply user { id } } }
        }
      }`,
      { addon: f.addon.slug },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.ratings).toEqual({
      count: 1,
      canReply: false,
      groupedRatings: [1, 2, 3, 4, 5].map((score) => ({ score, count: score === 4 ? 1 : 0 })),
      items: [
        {
          id: rating.id,
          score: 4,
          body: 'Nice',
          isDeleted: false,
          isDeveloperReply: false,
          user: { id: alice.id },
          version: { version: '1.0' },
          addon: { slug: f.addon.slug },
          flags: [{ flag: 'SPAM', note: null }],
          reply: { body: 'Thanks', isDeveloperReply: true, user: { id: author.id } },
        },
      ],
    });
    const asAuthor = await gql(author, `query ($addon: String) { ratings(addon: $addon) { canReply } }`, {
      addon: f.addon.slug,
    });
    expect(asAuthor.body.data.ratings.canReply).toBe(true);
    const noAddon = await gql(null, `{ ratings { count } }`);
    expect(noAddon.body.errors[0]).toMatchObject({
      message: 'Need an addon or user parameter',
      extensions: { code: 'BAD_REQUEST' },
    });
  });

  it('applies the same rules to mutations', async () => {
    const f = await fixture();
    const create = `mutation ($input: RatingInput!) { createRating(input: $input) { id score isLatest } }`;
    const input = { addon: String(f.addon.id), version: f.v1.id, score: 3, body: 'Ok' };
    const anonymous = await gql(null, create, { input });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    await clearThrottles(t);
    const invalid = await gql(alice, create, { input: { ...input, score: 7 } });
    expect(invalid.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { score: ['Ensure this value is less than or equal to 5.'] },
    });
    await clearThrottles(t);
    const created = await gql(alice, create, { input });
    expect(created.body.data.createRating).toEqual({ id: expect.any(Number), score: 3, isLatest: true });
    const id = created.body.data.createRating.id;
    const update = `mutation ($id: Int!) { updateRating(id: $id, input: { score: 1 }) { score } }`;
    expect((await gql(bob, update, { id })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await gql(alice, update, { id })).body.data.updateRating).toEqual({ score: 1 });
    const replyTo = `mutation ($id: Int!) { replyToRating(id: $id, body: "Hi") { created reply { body } } }`;
    await clearThrottles(t);
    expect((await gql(bob, replyTo, { id })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    await clearThrottles(t);
    expect((await gql(author, replyTo, { id })).body.data.replyToRating).toEqual({
      created: true,
      reply: { body: 'Hi' },
    });
    const flag = `mutation ($id: Int!) { flagRating(id: $id, flag: "rating_flag_reason_other", note: "Why") { flag note } }`;
    expect((await gql(alice, flag, { id })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await gql(bob, flag, { id })).body.data.flagRating).toEqual({ flag: 'OTHER', note: 'Why' });
    const remove = `mutation ($id: Int!) { deleteRating(id: $id) }`;
    expect((await gql(author, remove, { id })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await gql(alice, remove, { id })).body.data.deleteRating).toBe(true);
    const read = `query ($id: Int!) { rating(id: $id) { isDeleted } }`;
    expect((await gql(alice, read, { id })).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await gql(editor, read, { id })).body.data.rating).toEqual({ isDeleted: true });
  });
});
