import { Channel } from '../src/catalogue/catalogue.enums.js';
import { Version } from '../src/catalogue/version.entity.js';
import { addBusinessDays, NeedsHumanReview, REVIEW_DUE_BUSINESS_DAYS } from '../src/reviews/human-review.js';
import { ReviewNote } from '../src/reviews/review.entity.js';
import { ReviewAction } from '../src/reviews/review.enums.js';
import { AddonReviewerFlags } from '../src/reviews/review.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { createAddon, firstExtensionCategoryId } from './helpers/catalogue.js';
import { extension } from './helpers/signing.js';

/**
 * Issue 27 parts 3 and 4: why a version waits for a human and by when (the due-date policy), the
 * queue in due-date order, and the developer's standing in it with an estimate.
 */

type Json = Record<string, any>;

let t: TestApp;
let reviewer: string;
let unlistedReviewer: string;
let admin: string;
let stranger: string;
let dev: KeyCaller;
let categoryId: number;

/** An add-on of `dev` with the metadata a listed upload needs. */
const listable = (guid: string) =>
  createAddon(t.em(), {
    guid,
    summary: { 'en-US': 'A summary' },
    categoryIds: [categoryId],
    authors: [{ id: dev.id }],
    versions: [{ version: '0.1' }],
  });

/** A GraphQL request with this Authorization header (none: anonymous). */
async function gqlAs(authorization: string | null, query: string, variables: Json = {}) {
  const req = t.http.post('/graphql');
  if (authorization) req.set('Authorization', authorization);
  return (await req.send({ query, variables })).body as { data?: Json; errors?: Json[] };
}

const gql = (token: string | null, query: string, variables: Json = {}) =>
  gqlAs(token && `Bearer ${token}`, query, variables);

const QUEUE = `query($channel: Channel) { reviewQueue(channel: $channel, pageSize: 50) {
  items { version { id version } dueDate waitingSince reasons { reason dueDate details } } } }`;

async function upload(guid: string, version: string, channel: 'listed' | 'unlisted') {
  const res = await t.http
    .put(`/api/v4/addons/${encodeURIComponent(guid)}/versions/${version}/`)
    .set('Authorization', dev.jwt())
    .field('channel', channel)
    .attach('upload', await extension({ id: guid, version }), 'addon.xpi');
  expect({ status: res.status, body: res.status === 202 ? null : res.body }).toEqual({ status: 202, body: null });
  // Validation runs in the job queue; this test runs the processor itself (JOB_WORKERS=false).
  const uuid = res.body.pk as string;
  await t.app.services.processor.validateUpload(uuid);
  const [row] = await t
    .em()
    .getConnection()
    .execute<{ id: number }[]>(
      'select v.id from versions v join addons a on a.id = v.addon_id where a.guid = ? and v.version = ?',
      [guid, version],
    );
  return row.id;
}

beforeAll(async () => {
  t = await startTestApp({ env: { JOB_WORKERS: 'false', ABUSE_REPORTS_REVIEW_THRESHOLD: '2' } });
  reviewer = (await t.createUser({ session: true, permission: ['Addons:Review'] })).sessionToken!;
  unlistedReviewer = (await t.createUser({ session: true, permission: ['Addons:ReviewUnlisted'] })).sessionToken!;
  admin = (await t.createUser({ session: true, permission: ['Reviews:Admin'] })).sessionToken!;
  stranger = (await t.createUser({ session: true })).sessionToken!;
  dev = await keyCaller(t);
  categoryId = await firstExtensionCategoryId(t.em());
}, 120_000);
afterAll(() => t?.close());

describe('the due-date policy', () => {
  it('counts business days (Monday to Friday, UTC); a weekend start counts from Monday', () => {
    const friday = new Date('2026-11-27T10:00:00Z');
    expect(addBusinessDays(friday, 1).toISOString()).toBe('2026-11-30T10:00:00.000Z');
    expect(addBusinessDays(friday, 3).toISOString()).toBe('2026-12-02T10:00:00.000Z');
    const saturday = new Date('2026-11-28T09:00:00Z');
    expect(addBusinessDays(saturday, 1).toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(addBusinessDays(new Date('2026-11-23T08:00:00Z'), 2).toISOString()).toBe('2026-11-25T08:00:00.000Z');
    expect(REVIEW_DUE_BUSINESS_DAYS).toMatchObject({ abuse_reports: 1, admin_flag: 1, listed_submission: 3 });
  });
});

describe('reasons, due dates and the queue', () => {
  let first: number;
  let second: number;

  it('a listed submission waits with its reason, due by the policy; the queue is in due-date order', async () => {
    await listable('due-a@example.com');
    await listable('due-b@example.com');
    first = await upload('due-a@example.com', '1.0', 'listed');
    second = await upload('due-b@example.com', '1.0', 'listed');
    const res = await gql(reviewer, QUEUE);
    expect(res.errors).toBeUndefined();
    const items = res.data!.reviewQueue.items as Json[];
    expect(items.map((i) => i.version.id)).toEqual([first, second]);
    const item = items[0];
    expect(item.reasons).toEqual([{ reason: 'LISTED_SUBMISSION', dueDate: item.dueDate, details: null }]);
    const expected = addBusinessDays(new Date(item.waitingSince), 3).getTime();
    expect(Math.abs(new Date(item.dueDate).getTime() - expected)).toBeLessThan(5_000);
  });

  it('an admin flag makes a later version due first; reviewers see the reason and the note', async () => {
    const refused = await gql(reviewer, 'mutation($v: Int!) { flagVersionForReview(versionId: $v) }', { v: second });
    expect(refused.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const flagged = await gql(admin, 'mutation($v: Int!) { flagVersionForReview(versionId: $v, note: "Look now") }', {
      v: second,
    });
    expect(flagged.data?.flagVersionForReview).toBe(true);
    const again = await gql(admin, 'mutation($v: Int!) { flagVersionForReview(versionId: $v) }', { v: second });
    expect(again.data?.flagVersionForReview).toBe(false);
    const items = (await gql(reviewer, QUEUE)).data!.reviewQueue.items as Json[];
    expect(items.map((i) => i.version.id)).toEqual([second, first]);
    expect(items[0].reasons.map((r: Json) => r.reason)).toEqual(['ADMIN_FLAG', 'LISTED_SUBMISSION']);
    expect(items[0].reasons[0].details).toMatchObject({ note: 'Look now' });
    expect(items[0].dueDate).toBe(items[0].reasons[0].dueDate);
  });

  it('the developer sees the position and an estimate from the last 28 days of decisions; others do not', async () => {
    const standing = `query($v: Int!) { addonVersion(addon: "due-a@example.com", id: $v) {
      queueStanding { position total dueDate reviewsPerDay estimatedReviewDate } } }`;
    let mine = (await gqlAs(dev.session, standing, { v: first })).data!.addonVersion.queueStanding;
    expect(mine).toMatchObject({ position: 2, total: 2, reviewsPerDay: 0, estimatedReviewDate: null });
    // 14 human decisions in the listed channel within 28 days: half a review a day.
    const em = t.em();
    const someone = await em.findOneOrFail(Version, { id: { $nin: [first, second] }, channel: Channel.LISTED });
    for (let i = 0; i < 14; i++) {
      em.create(ReviewNote, {
        addon: someone.addon,
        version: someone,
        user: dev.id,
        action: ReviewAction.APPROVED,
        created: new Date(Date.now() - i * 86_400_000),
      });
    }
    await em.flush();
    mine = (await gqlAs(dev.session, standing, { v: first })).data!.addonVersion.queueStanding;
    expect(mine.reviewsPerDay).toBe(0.5);
    const days = (new Date(mine.estimatedReviewDate).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(3.9);
    expect(days).toBeLessThan(4.1); // position 2 at 0.5 a day
    // v4 and v5 version details carry it for the author; v3 does not; a stranger sees null.
    const v4 = await t.http
      .get(`/api/v4/addons/addon/due-a@example.com/versions/${first}/`)
      .set('Authorization', dev.session);
    expect(v4.body.queue_standing).toMatchObject({ position: 2, total: 2, reviews_per_day: 0.5 });
    const v5 = await t.http
      .get(`/api/v5/addons/addon/due-a@example.com/versions/${first}/`)
      .set('Authorization', dev.session);
    expect(v5.body.queue_standing.due_date).toBe(v4.body.queue_standing.due_date);
    const v3 = await t.http
      .get(`/api/v3/addons/addon/due-a@example.com/versions/${first}/`)
      .set('Authorization', dev.session);
    expect(v3.body).not.toHaveProperty('queue_standing');
    const other = await gql(stranger, standing, { v: first });
    expect(other.data?.addonVersion ?? null).toBeNull();
  });

  it('a decision closes the reasons; the next in line moves up', async () => {
    const decided = await gql(
      reviewer,
      'mutation($v: Int!) { reviewVersion(versionId: $v, decision: REJECT, comments: "No") { id } }',
      {
        v: second,
      },
    );
    expect(decided.errors).toBeUndefined();
    expect(await t.em().count(NeedsHumanReview, { version: second, isActive: true })).toBe(0);
    const items = (await gql(reviewer, QUEUE)).data!.reviewQueue.items as Json[];
    expect(items.map((i) => i.version.id)).toEqual([first]);
  });

  it('a developer reply to a request for information is a reason of its own', async () => {
    const asked = await gql(
      reviewer,
      'mutation($v: Int!) { reviewVersion(versionId: $v, decision: REQUEST_INFORMATION, comments: "Why?") { id } }',
      { v: first },
    );
    expect(asked.errors).toBeUndefined();
    const reply = await t.http
      .post(`/api/v4/addons/addon/due-a@example.com/versions/${first}/reviewnotes/`)
      .set('Authorization', dev.session)
      .send({ comments: 'Because.' });
    expect([200, 201]).toContain(reply.status);
    const item = ((await gql(reviewer, QUEUE)).data!.reviewQueue.items as Json[])[0];
    expect(item.reasons.map((r: Json) => r.reason)).toEqual(['DEVELOPER_REPLY', 'LISTED_SUBMISSION']);
  });
});

describe('abuse reports over the threshold', () => {
  it("send the add-on's waiting versions to humans sooner and stop its next automatic approval", async () => {
    // Unlisted versions are signed automatically: the reviewer flag makes this one wait for a human.
    const held = await createAddon(t.em(), {
      guid: 'held@example.com',
      authors: [{ id: dev.id }],
      versions: [{ version: '0.1' }],
    });
    const em = t.em();
    em.create(AddonReviewerFlags, { addon: held.id, autoApprovalDisabled: true });
    await em.flush();
    const heldVersion = await upload('held@example.com', '2.0', 'unlisted');
    const queued = (await gql(unlistedReviewer, QUEUE, { channel: 'UNLISTED' })).data!.reviewQueue.items as Json[];
    expect(queued.map((i) => i.version.id)).toContain(heldVersion);
    for (const message of ['spam', 'malware']) {
      const res = await t.http.post('/api/v4/abuse/report/addon/').send({ addon: 'held@example.com', message });
      expect(res.status).toBe(201);
    }
    const reasons = await t
      .em()
      .find(NeedsHumanReview, { version: heldVersion, isActive: true }, { orderBy: { dueDate: 'asc' } });
    expect(reasons.map((r) => r.reason)).toEqual(['abuse_reports', 'auto_approval_disabled']);
    expect(reasons[0].details).toEqual({ openReports: 2 });
    const flags = await t.em().findOneOrFail(AddonReviewerFlags, { addon: held.id });
    expect(flags.autoApprovalDisabledUntilNextApproval).toBe(true);
  });
});
