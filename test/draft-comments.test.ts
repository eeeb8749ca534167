import { AddonStatus, Channel, FileStatus } from '../src/catalogue/catalogue.enums.js';
import { Version } from '../src/catalogue/version.entity.js';
import { ReviewNote } from '../src/reviews/review.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { call, caller, type Caller } from './helpers/ratings.js';

/**
 * Canned responses and draft comments (issue 12, item 4; docs/compat-notes.md §4.5): reviewers see and
 * change only their own drafts, with the original's messages; a decision takes the decider's
 * drafts as its comments.
 */

let t: TestApp;
let reviewer: Caller;
let other: Caller;
let admin: Caller;
let user: Caller;

beforeAll(async () => {
  t = await startTestApp({ env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test' } });
  reviewer = await caller(t, { permission: ['Addons:Review'] });
  other = await caller(t, { permission: ['Addons:Review'] });
  admin = await caller(t, { permission: ['Reviews:Admin', 'Addons:Review'] });
  user = await caller(t);
}, 120_000);
afterAll(() => t?.close());

const gql = (who: Caller, query: string, variables: Record<string, unknown> = {}) =>
  t.http.post('/graphql').set('Authorization', `Bearer ${who.token}`).send({ query, variables });

async function addonWithVersions() {
  const author = await caller(t);
  const addon = await createAddon(t.em(), {
    status: AddonStatus.NOMINATED,
    authors: [{ id: author.id }],
    versions: [
      { version: '1.0', fileStatus: FileStatus.AWAITING_REVIEW },
      { version: '1.1', channel: Channel.UNLISTED },
    ],
  });
  const [listed, unlisted] = await t.em().find(Version, { addon: addon.id }, { orderBy: { id: 'asc' } });
  const base = (v: Version) => `/api/v4/reviewers/addon/${addon.id}/versions/${v.id}/draft_comments/`;
  return { addon, author, listed, unlisted, base };
}

describe('canned responses', () => {
  it('are listed to reviewers, unpaginated, with the seeded defaults', async () => {
    const res = await call(t, 'get', '/api/v4/reviewers/canned-responses/', reviewer);
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThanOrEqual(6);
    expect(Object.keys(res.body[0]).sort()).toEqual(['category', 'id', 'response', 'title']);
    expect(res.body.map((c: { title: string }) => c.title)).toContain('Minified code without sources');
    expect((await call(t, 'get', '/api/v4/reviewers/canned-responses/', null)).status).toBe(401);
    expect((await call(t, 'get', '/api/v4/reviewers/canned-responses/', user)).status).toBe(403);
    expect((await call(t, 'get', '/api/v3/reviewers/canned-responses/', reviewer)).status).toBe(404);
  });

  it('are managed by review admins through GraphQL', async () => {
    const save = `mutation($id: Int, $input: CannedResponseInput!) { saveCannedResponse(id: $id, input: $input) { id title response category } }`;
    const input = { title: 'Obfuscated code', response: 'Please remove the obfuscation.', category: 'Security' };
    expect((await gql(reviewer, save, { input })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const created = (await gql(admin, save, { input })).body.data.saveCannedResponse;
    expect(created).toMatchObject(input);
    const blank = await gql(admin, save, { id: created.id, input: { ...input, title: '  ' } });
    expect(blank.body.errors[0].extensions.fields).toEqual({ title: ['This field may not be blank.'] });
    const renamed = await gql(admin, save, { id: created.id, input: { ...input, title: 'Obfuscation' } });
    expect(renamed.body.data.saveCannedResponse.title).toBe('Obfuscation');
    const list = await call(t, 'get', '/api/v4/reviewers/canned-responses/', reviewer);
    expect(list.body).toContainEqual({ id: created.id, ...input, title: 'Obfuscation' });
    await gql(admin, 'mutation($id: Int!) { deleteCannedResponse(id: $id) }', { id: created.id });
    const after = await call(t, 'get', '/api/v4/reviewers/canned-responses/', reviewer);
    expect(after.body.map((c: { id: number }) => c.id)).not.toContain(created.id);
  });
});

describe('draft comments', () => {
  it('are created, listed, read, edited and deleted by their reviewer only', async () => {
    const { listed, base } = await addonWithVersions();
    const created = await call(t, 'post', base(listed), reviewer, {
      comment: 'Why eval?',
      filename: 'lib/main.js',
      lineno: 12,
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      comment: 'Why eval?',
      filename: 'lib/main.js',
      lineno: 12,
      version_id: listed.id,
      user: { id: reviewer.id, name: expect.any(String), username: expect.any(String), url: expect.any(String) },
      canned_response: null,
    });
    const mine = `${base(listed)}${created.body.id}/`;
    await call(t, 'post', base(listed), other, { comment: "Another reviewer's" });

    const list = await call(t, 'get', base(listed), reviewer);
    expect([list.status, list.body.count, list.body.results]).toEqual([200, 1, [created.body]]);
    expect(list.body).toMatchObject({ next: null, previous: null });
    expect((await call(t, 'get', mine, reviewer)).body).toEqual(created.body);
    expect((await call(t, 'get', mine, other)).status).toBe(404);
    expect((await call(t, 'patch', mine, other, { comment: 'mine now' })).status).toBe(404);
    expect((await call(t, 'delete', mine, other)).status).toBe(404);

    const edited = await call(t, 'patch', mine.slice(0, -1), reviewer, { comment: 'Why eval() here?' });
    expect([edited.status, edited.body.comment, edited.body.lineno]).toEqual([200, 'Why eval() here?', 12]);
    const deleted = await call(t, 'delete', mine, reviewer);
    expect([deleted.status, deleted.text]).toEqual([204, '']);
    expect((await call(t, 'get', mine, reviewer)).status).toBe(404);
  });

  it('follow the version permissions: 401, 403 (unlisted without the permission), authors allowed, 404', async () => {
    const { addon, author, listed, unlisted, base } = await addonWithVersions();
    const body = { comment: 'A note' };
    expect((await call(t, 'post', base(listed), null, body)).status).toBe(401);
    expect((await call(t, 'post', base(listed), user, body)).status).toBe(403);
    expect((await call(t, 'post', base(unlisted), reviewer, body)).status).toBe(403);
    const unlistedReviewer = await caller(t, { permission: ['Addons:ReviewUnlisted'] });
    expect((await call(t, 'post', base(unlisted), unlistedReviewer, body)).status).toBe(201);
    expect((await call(t, 'post', base(listed), author, body)).status).toBe(201);
    const elsewhere = await createAddon(t.em());
    for (const path of [
      `/api/v4/reviewers/addon/${elsewhere.id}/versions/${listed.id}/draft_comments/`,
      `/api/v4/reviewers/addon/${addon.id}/versions/999999/draft_comments/`,
      `/api/v4/reviewers/addon/${addon.id}/versions/abc/draft_comments/`,
      `/api/v3/reviewers/addon/${addon.id}/versions/${listed.id}/draft_comments/`,
    ]) {
      expect([path, (await call(t, 'post', path, reviewer, body)).status]).toEqual([path, 404]);
    }
  });

  it('refuse what the original refuses, with its messages', async () => {
    const { listed, base } = await addonWithVersions();
    const [canned] = (await call(t, 'get', '/api/v4/reviewers/canned-responses/', reviewer)).body;
    const cases: [object, object][] = [
      [
        { comment: 'x', canned_response: canned.id },
        { comment: ["You can't submit a comment if `canned_response` is defined."] },
      ],
      [{ comment: '  ' }, { comment: ["You can't submit an empty comment."] }],
      [{}, { comment: ["You can't submit an empty comment."] }],
      [
        { comment: 'x', lineno: 3 },
        { comment: ["You can't submit a line number without associating it to a filename."] },
      ],
      [{ canned_response: 999999 }, { canned_response: ['Invalid pk "999999" - object does not exist.'] }],
      [{ canned_response: 'abc' }, { canned_response: ['Incorrect type. Expected pk value, received str.'] }],
      [{ comment: 'x', filename: 'a.js', lineno: 'ten' }, { lineno: ['A valid integer is required.'] }],
      [
        { comment: 'x', filename: 'a.js', lineno: -1 },
        { lineno: ['Ensure this value is greater than or equal to 0.'] },
      ],
    ];
    for (const [body, errors] of cases) {
      const res = await call(t, 'post', base(listed), reviewer, body);
      expect([body, res.status, res.body]).toEqual([body, 400, errors]);
    }
    const withCanned = await call(t, 'post', base(listed), reviewer, { canned_response: canned.id, filename: 'a.js' });
    expect([withCanned.status, withCanned.body.canned_response]).toEqual([201, canned]);
    expect((await call(t, 'get', base(listed), reviewer)).body.count).toBe(1);
  });

  it('become the comments of the reviewer’s next decision on the version, and are gone then', async () => {
    const { listed, base } = await addonWithVersions();
    await call(t, 'post', base(listed), reviewer, { comment: 'Remove eval.', filename: 'lib/main.js', lineno: 12 });
    await call(t, 'post', base(listed), reviewer, { comment: 'Where are the sources?' });
    await call(t, 'post', base(listed), other, { comment: 'Not part of this decision.' });
    const decided = await gql(
      reviewer,
      'mutation($v: Int!) { reviewVersion(versionId: $v, decision: REQUEST_INFORMATION) { id } }',
      { v: listed.id },
    );
    expect(decided.body.errors).toBeUndefined();
    const note = await t.em().findOneOrFail(ReviewNote, decided.body.data.reviewVersion.id);
    expect(note.comments).toBe('lib/main.js:12: Remove eval.\nWhere are the sources?');
    expect((await call(t, 'get', base(listed), reviewer)).body.count).toBe(0);
    expect((await call(t, 'get', base(listed), other)).body.count).toBe(1);
  });
});
