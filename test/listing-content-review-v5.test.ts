import { AddonRole } from '../src/catalogue/addon.entity.js';
import { AddonUser } from '../src/catalogue/addon.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { call, caller, type Caller } from './helpers/ratings.js';

/**
 * The listing content review (issue 37; the original's activity API, "Listing Content Review"):
 * content reviewers reject an add-on's listing naming the policies it violates (status `rejected`,
 * out of the public catalogue) or approve it; the authors read the documented object on
 * `GET /api/v5/addons/addon/<id>/listingcontentreview/` and ask for a new review with `PATCH`,
 * which puts the listing in the content reviewers' queue. GraphQL carries the history.
 */
let t: TestApp;
let owner: Caller;
let developer: Caller;
let stranger: Caller;
let contentReviewer: Caller;
let codeReviewer: Caller;
let addonId: number;

const url = (addon: string | number = 'judged') => `/api/v5/addons/addon/${addon}/listingcontentreview/`;

async function gql(who: Caller | null, query: string, variables: Record<string, unknown> = {}) {
  let req = t.http.post('/graphql');
  if (who) req = req.set('Authorization', `Bearer ${who.token}`);
  return (await req.send({ query, variables })).body;
}

const REJECT = `mutation($addon: String!, $policies: [String!]!, $comments: String) {
  rejectListingContent(addon: $addon, policies: $policies, comments: $comments) { isRejected policies comments }
}`;
const APPROVE = `mutation($addon: String!) { approveListingContent(addon: $addon, comments: "fixed") { isRejected } }`;
const QUEUE = `{ listingContentReviewQueue { addonId slug requestedAt } }`;
const STATE = `query($addon: String!) {
  addonListingContentReview(addon: $addon) {
    isRejected hasRequestedReview history { action userId comments policies }
  }
}`;

beforeAll(async () => {
  t = await startTestApp();
  owner = await caller(t, { name: 'Owner Person' });
  developer = await caller(t, { name: 'Developer Person' });
  stranger = await caller(t);
  contentReviewer = await caller(t, { permission: ['Addons:ContentReview'] });
  codeReviewer = await caller(t, { permission: ['Addons:Review'] });
  const em = t.em();
  const addon = await createAddon(em, { slug: 'judged', authors: [{ id: owner.id }] });
  addonId = addon.id;
  em.create(AddonUser, { addon, user: developer.id, role: AddonRole.DEVELOPER, listed: true, position: 1 });
  await em.flush();
  await createAddon(em, { slug: 'fine', authors: [{ id: owner.id }] });
}, 120_000);
afterAll(() => t?.close());

const NOT_REJECTED = {
  is_rejected: false,
  can_request_review: false,
  has_requested_review: false,
  policies: [],
  comments: null,
};

describe('GET listingcontentreview', () => {
  it('answers the documented object to the authors and reviewers', async () => {
    for (const who of [owner, developer, contentReviewer, codeReviewer]) {
      const res = await call(t, 'get', url(), who);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(NOT_REJECTED);
    }
    expect((await call(t, 'get', url(addonId), owner)).body).toEqual(NOT_REJECTED);
  });

  it('refuses anonymous callers (401) and strangers (403); unknown add-ons and v4 are 404', async () => {
    expect((await call(t, 'get', url(), null)).status).toBe(401);
    const forbidden = await call(t, 'get', url(), stranger);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ detail: expect.any(String) });
    expect((await call(t, 'get', url('nope'), owner)).status).toBe(404);
    expect((await call(t, 'get', '/api/v4/addons/addon/judged/listingcontentreview/', owner)).status).toBe(404);
  });
});

describe('rejection, request and approval', () => {
  it('lets content reviewers alone reject a listing, naming policies; it leaves the public catalogue', async () => {
    for (const who of [owner, codeReviewer]) {
      const refused = await gql(who, REJECT, { addon: 'judged', policies: ['Spam'] });
      expect(refused.errors[0].extensions.code).toBe('FORBIDDEN');
    }
    const noPolicy = await gql(contentReviewer, REJECT, { addon: 'judged', policies: [' '] });
    expect(noPolicy.errors[0].extensions.fields).toEqual({ policies: [expect.any(String)] });

    const res = await gql(contentReviewer, REJECT, {
      addon: 'judged',
      policies: ['Misleading description', 'Keyword spam'],
      comments: 'The summary lists other brands.',
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.rejectListingContent).toEqual({
      isRejected: true,
      policies: ['Misleading description', 'Keyword spam'],
      comments: 'The summary lists other brands.',
    });

    const state = await call(t, 'get', url(), developer);
    expect(state.body).toEqual({
      is_rejected: true,
      can_request_review: true,
      has_requested_review: false,
      policies: ['Misleading description', 'Keyword spam'],
      comments: 'The summary lists other brands.',
    });
    // The add-on is `rejected` for its authors, and no longer public.
    const detail = await call(t, 'get', '/api/v5/addons/addon/judged/', owner);
    expect(detail.body.status).toBe('rejected');
    expect((await call(t, 'get', '/api/v5/addons/addon/judged/', null)).status).not.toBe(200);
    const search = await call(t, 'get', '/api/v5/addons/search/?q=&page_size=50', null);
    expect(search.body.results.map((r: { slug: string }) => r.slug)).not.toContain('judged');
    expect(search.body.results.map((r: { slug: string }) => r.slug)).toContain('fine');
  });

  it('refuses bad PATCH bodies, strangers, reviewers and requests for listings not rejected', async () => {
    const missing = await call(t, 'patch', url(), owner, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ has_requested_review: ['This field is required.'] });
    const notBool = await call(t, 'patch', url(), owner, { has_requested_review: 'yes' });
    expect(notBool.status).toBe(400);
    expect(notBool.body).toEqual({ has_requested_review: ['Must be a valid boolean.'] });
    const falsy = await call(t, 'patch', url(), owner, { has_requested_review: false });
    expect(falsy.status).toBe(400);
    expect(Object.keys(falsy.body)).toEqual(['has_requested_review']);
    expect((await call(t, 'patch', url(), null, { has_requested_review: true })).status).toBe(401);
    expect((await call(t, 'patch', url(), stranger, { has_requested_review: true })).status).toBe(403);
    expect((await call(t, 'patch', url(), contentReviewer, { has_requested_review: true })).status).toBe(403);
    const fine = await call(t, 'patch', url('fine'), owner, { has_requested_review: true });
    expect(fine.status).toBe(400);
    expect(fine.body).toEqual({ has_requested_review: [expect.stringContaining('not rejected')] });
    expect((await call(t, 'get', url(), owner)).body.has_requested_review).toBe(false);
  });

  it('lets any author request a new review once; the listing joins the content reviewers’ queue', async () => {
    expect((await gql(contentReviewer, QUEUE)).data.listingContentReviewQueue).toEqual([]);
    const res = await call(t, 'patch', url(), developer, { has_requested_review: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      is_rejected: true,
      can_request_review: false,
      has_requested_review: true,
      policies: ['Misleading description', 'Keyword spam'],
      comments: 'The summary lists other brands.',
    });
    const again = await call(t, 'patch', url(), owner, { has_requested_review: true });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    const queue = (await gql(contentReviewer, QUEUE)).data.listingContentReviewQueue;
    expect(queue).toEqual([{ addonId, slug: 'judged', requestedAt: expect.any(String) }]);
    expect((await gql(owner, QUEUE)).errors[0].extensions.code).toBe('FORBIDDEN');
    // Still rejected while it waits.
    expect((await call(t, 'get', '/api/v5/addons/addon/judged/', owner)).body.status).toBe('rejected');
  });

  it('approval makes the add-on public again and empties the queue; GraphQL keeps the history', async () => {
    expect((await gql(owner, APPROVE, { addon: 'judged' })).errors[0].extensions.code).toBe('FORBIDDEN');
    const res = await gql(contentReviewer, APPROVE, { addon: 'judged' });
    expect(res.errors).toBeUndefined();
    expect(res.data.approveListingContent).toEqual({ isRejected: false });
    expect((await call(t, 'get', url(), owner)).body).toEqual(NOT_REJECTED);
    expect((await call(t, 'get', '/api/v5/addons/addon/judged/', null)).body.status).toBe('public');
    expect((await gql(contentReviewer, QUEUE)).data.listingContentReviewQueue).toEqual([]);

    const state = (await gql(owner, STATE, { addon: 'judged' })).data.addonListingContentReview;
    expect(state).toEqual({
      isRejected: false,
      hasRequestedReview: false,
      history: [
        {
          action: 'LISTING_CONTENT_REJECTED',
          userId: contentReviewer.id,
          comments: 'The summary lists other brands.',
          policies: ['Misleading description', 'Keyword spam'],
        },
        { action: 'LISTING_REVIEW_REQUESTED', userId: developer.id, comments: '', policies: [] },
        { action: 'LISTING_CONTENT_APPROVED', userId: contentReviewer.id, comments: 'fixed', policies: [] },
      ],
    });
    // The audit log has the status changes.
    const [rejected, approved] = await t
      .em()
      .getConnection()
      .execute<{ from_status: number; to_status: number }[]>(
        `select from_status, to_status from addon_activity where addon_id = ? and action like 'listing_content_%' order by id`,
        [addonId],
      );
    expect([rejected, approved]).toEqual([
      { from_status: 4, to_status: 12 },
      { from_status: 12, to_status: 4 },
    ]);
  });

  it('a vendor-disabled add-on stays disabled when its listing is rejected', async () => {
    const em = t.em();
    await createAddon(em, { slug: 'switched-off', status: 5, authors: [{ id: owner.id }] } as never);
    const res = await gql(contentReviewer, REJECT, { addon: 'switched-off', policies: ['Spam'] });
    expect(res.data.rejectListingContent.isRejected).toBe(false);
    const patch = await call(t, 'patch', url('switched-off'), owner, { has_requested_review: true });
    expect(patch.status).toBe(400);
  });
});
