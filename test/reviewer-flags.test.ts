import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { call, caller, type Caller } from './helpers/ratings.js';

/**
 * `PATCH /api/v4/reviewers/addon/<id>/flags/` (issue 12, item 2): the add-on's reviewer flags,
 * `Reviews:Admin` only, answered with all of them; DRF's messages for what it refuses.
 */

let t: TestApp;
let admin: Caller;
let reviewer: Caller;
let user: Caller;

beforeAll(async () => {
  t = await startTestApp({ env: { JOB_WORKERS: 'false' } });
  admin = await caller(t, { permission: ['Reviews:Admin'] });
  reviewer = await caller(t, { permission: ['Addons:Review'] });
  user = await caller(t);
}, 120_000);
afterAll(() => t?.close());

const flags = (id: number | string, version = 'v4') => `/api/${version}/reviewers/addon/${id}/flags/`;
const NONE = {
  auto_approval_disabled: false,
  auto_approval_disabled_until_next_approval: false,
  auto_approval_delayed_until: null,
  needs_admin_code_review: false,
  needs_admin_content_review: false,
  needs_admin_theme_review: false,
};

it('is for Reviews:Admin: 401 anonymous, 403 others, 404 for unknown, non-numeric ids and v3', async () => {
  const addon = await createAddon(t.em());
  const body = { auto_approval_disabled: true };
  expect((await call(t, 'patch', flags(addon.id), null, body)).status).toBe(401);
  expect((await call(t, 'patch', flags(addon.id), user, body)).status).toBe(403);
  expect((await call(t, 'patch', flags(addon.id), reviewer, body)).status).toBe(403);
  for (const path of [flags(999_999), flags(addon.slug), flags(addon.id, 'v3')]) {
    const res = await call(t, 'patch', path, admin, body);
    expect([res.status, res.body]).toEqual([404, { detail: 'Not found.' }]);
  }
  expect((await call(t, 'get', flags(addon.id), admin)).status).toBe(405);
});

it('changes the given flags, keeps the others, and answers all of them', async () => {
  const addon = await createAddon(t.em());
  const first = await call(t, 'patch', flags(addon.id), admin, { needs_admin_code_review: 'true', unknown: 1 });
  expect([first.status, first.body]).toEqual([200, { ...NONE, needs_admin_code_review: true }]);
  const second = await call(t, 'patch', flags(addon.id), admin, {
    auto_approval_disabled: 1,
    auto_approval_delayed_until: '2030-01-02T03:04:05+01:00',
  });
  expect(second.body).toEqual({
    ...NONE,
    needs_admin_code_review: true,
    auto_approval_disabled: true,
    auto_approval_delayed_until: '2030-01-02T02:04:05Z',
  });
  const cleared = await call(t, 'patch', flags(addon.id), admin, { auto_approval_delayed_until: null });
  expect(cleared.body.auto_approval_delayed_until).toBeNull();
  // The same flags through GraphQL (read by reviewers).
  const graphql = await t.http
    .post('/graphql')
    .set('Authorization', `Bearer ${reviewer.token}`)
    .send({ query: `{ addonReviewerFlags(addon: "${addon.id}") { needsAdminCodeReview autoApprovalDisabled } }` });
  expect(graphql.body.data.addonReviewerFlags).toEqual({ needsAdminCodeReview: true, autoApprovalDisabled: true });
});

it('refuses what DRF refuses, every field at once, and changes nothing', async () => {
  const addon = await createAddon(t.em());
  const res = await call(t, 'patch', flags(addon.id), admin, {
    auto_approval_disabled: 'maybe',
    needs_admin_theme_review: null,
    auto_approval_delayed_until: 'tomorrow',
    needs_admin_content_review: true,
  });
  expect([res.status, res.body]).toEqual([
    400,
    {
      auto_approval_disabled: ['Must be a valid boolean.'],
      needs_admin_theme_review: ['This field may not be null.'],
      auto_approval_delayed_until: [
        'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
      ],
    },
  ]);
  for (const bad of ['0000-01-01T00:00:00Z', '2030-02-30T00:00:00Z', '2030-01-01T24:00:00Z', 'x'.repeat(10_000), 5]) {
    const refused = await call(t, 'patch', flags(addon.id), admin, { auto_approval_delayed_until: bad });
    expect([refused.status, Object.keys(refused.body)]).toEqual([400, ['auto_approval_delayed_until']]);
  }
  const unchanged = await call(t, 'patch', flags(addon.id), admin, {});
  expect([unchanged.status, unchanged.body]).toEqual([200, NONE]);
});
