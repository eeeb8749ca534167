import { AddonStatus, AddonType, Channel, FileStatus, PromotedCategory } from '../src/catalogue/catalogue.enums.js';
import { Version } from '../src/catalogue/version.entity.js';
import { AddonReviewerFlags } from '../src/reviews/review.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { caller, type Caller } from './helpers/ratings.js';

/**
 * The reviewer queue in GraphQL (issue 12, item 7): filters by add-on type, name, reviewer flags
 * and promotion, and orders, with the channel's permission.
 */

let t: TestApp;
let reviewer: Caller;
let unlistedReviewer: Caller;

beforeAll(async () => {
  t = await startTestApp({ env: { JOB_WORKERS: 'false' } });
  reviewer = await caller(t, { permission: ['Addons:Review'] });
  unlistedReviewer = await caller(t, { permission: ['Addons:ReviewUnlisted'] });
}, 120_000);
afterAll(() => t?.close());

const QUERY = `query($channel: Channel, $filter: ReviewQueueFilter, $order: ReviewQueueOrder, $page: Int, $pageSize: Int) {
  reviewQueue(channel: $channel, filter: $filter, order: $order, page: $page, pageSize: $pageSize) {
    count items { addon { slug } version { version } }
  }
}`;

const queue = (who: Caller, variables: Record<string, unknown> = {}) =>
  t.http.post('/graphql').set('Authorization', `Bearer ${who.token}`).send({ query: QUERY, variables });

const slugs = (res: { body: { data: { reviewQueue: { items: { addon: { slug: string } }[] } } } }) =>
  res.body.data.reviewQueue.items.map((i) => i.addon.slug);

async function waiting(name: string, fields: Record<string, unknown> = {}, channel: Channel = Channel.LISTED) {
  const addon = await createAddon(t.em(), {
    status: AddonStatus.NOMINATED,
    name: { 'en-US': name, de: `${name} (de)` },
    ...fields,
    versions: [{ version: '1.0', fileStatus: FileStatus.AWAITING_REVIEW, channel }],
  });
  return addon;
}

it('filters and orders the queue', async () => {
  const tag = `q${process.pid}${Date.now() % 100000}`;
  const theme = await waiting(`${tag} Night Theme`, { type: AddonType.STATICTHEME, averageDailyUsers: 5 });
  const flagged = await waiting(`${tag} Tab Manager`, { averageDailyUsers: 500 });
  const promoted = await waiting(`${tag} Password_Keeper 100%`, {
    averageDailyUsers: 50,
    promotedCategory: PromotedCategory.RECOMMENDED,
  });
  await waiting(`${tag} Hidden tool`, {}, Channel.UNLISTED);
  const em = t.em();
  em.create(AddonReviewerFlags, { addon: flagged.id, needsAdminCodeReview: true, autoApprovalDisabled: true });
  await em.flush();
  // Oldest first by default; the name filter narrows to this test's add-ons (any language, any case).
  const mine = await queue(reviewer, { filter: { name: tag.toUpperCase() } });
  expect(mine.body.errors).toBeUndefined();
  expect(slugs(mine)).toEqual([theme.slug, flagged.slug, promoted.slug]);
  expect(mine.body.data.reviewQueue.count).toBe(3);
  expect(slugs(await queue(reviewer, { filter: { name: tag }, order: 'NEWEST' }))).toEqual([
    promoted.slug,
    flagged.slug,
    theme.slug,
  ]);
  expect(slugs(await queue(reviewer, { filter: { name: tag }, order: 'MOST_USERS' }))).toEqual([
    flagged.slug,
    promoted.slug,
    theme.slug,
  ]);
  expect(slugs(await queue(reviewer, { filter: { name: `${tag} night theme (de)` } }))).toEqual([theme.slug]);
  // LIKE's wildcards in the name are literal.
  expect(slugs(await queue(reviewer, { filter: { name: `${tag} password_keeper 100%` } }))).toEqual([promoted.slug]);
  expect(slugs(await queue(reviewer, { filter: { name: `${tag} password%keeper` } }))).toEqual([]);
  expect(slugs(await queue(reviewer, { filter: { name: tag, addonType: 'STATICTHEME' } }))).toEqual([theme.slug]);
  expect(slugs(await queue(reviewer, { filter: { name: tag, needsAdminCodeReview: true } }))).toEqual([flagged.slug]);
  expect(slugs(await queue(reviewer, { filter: { name: tag, needsAdminCodeReview: false } }))).toEqual([
    theme.slug,
    promoted.slug,
  ]);
  expect(slugs(await queue(reviewer, { filter: { name: tag, autoApprovalDisabled: true } }))).toEqual([flagged.slug]);
  expect(slugs(await queue(reviewer, { filter: { name: tag, promoted: true } }))).toEqual([promoted.slug]);
  // Pages, and the unlisted channel for unlisted reviewers only.
  const second = await queue(reviewer, { filter: { name: tag }, page: 2, pageSize: 2 });
  expect(slugs(second)).toEqual([promoted.slug]);
  expect(second.body.data.reviewQueue.count).toBe(3);
  const unlisted = await queue(unlistedReviewer, { channel: 'UNLISTED', filter: { name: tag } });
  expect(slugs(unlisted)).toHaveLength(1);
  expect((await queue(reviewer, { channel: 'UNLISTED' })).body.errors[0].extensions.code).toBe('FORBIDDEN');
  // A name past 100 characters is refused before it is matched.
  const long = await queue(reviewer, { filter: { name: 'x'.repeat(101) } });
  expect(long.body.errors[0].extensions.fields).toEqual({
    name: ['Ensure this field has no more than 100 characters.'],
  });
  expect(await t.em().count(Version, { addon: theme.id })).toBe(1);
});
