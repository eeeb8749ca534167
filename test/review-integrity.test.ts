import { Addon } from '../src/catalogue/addon.entity.js';
import { AddonStatus, AddonType, Channel, FileStatus } from '../src/catalogue/catalogue.enums.js';
import { Version } from '../src/catalogue/version.entity.js';
import { ReviewNote } from '../src/reviews/review.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon, type AddonSpec } from './helpers/catalogue.js';
import { extension } from './helpers/signing.js';

/**
 * Review integrity (issue 9, item 8): no self-reviews, the "needs admin review" flags reserve
 * decisions to Reviews:Admin, and uploads need the developer agreement whatever the credential.
 */

const REVIEWER = ['Addons:Review', 'Addons:ReviewUnlisted'];
const SELF_REVIEW = 'Self-reviews are not allowed.';
const adminMessage = (flag: string) =>
  `This add-on is flagged for an admin ${flag} review: only admin reviewers (Reviews:Admin) can make this decision.`;

type Decision = 'APPROVE' | 'REJECT' | 'REQUEST_INFORMATION' | 'COMMENT';
const DECISIONS: Decision[] = ['APPROVE', 'REJECT', 'REQUEST_INFORMATION', 'COMMENT'];

interface Caller {
  id: number;
  token: string;
}

async function caller(t: TestApp, args: Parameters<TestApp['createUser']>[0] = {}): Promise<Caller> {
  const user = await t.createUser({ session: true, ...args });
  return { id: user.id, token: `Bearer ${user.sessionToken}` };
}

function graphql(t: TestApp, who: Caller, query: string, variables: Record<string, unknown> = {}) {
  return t.http.post('/graphql').set('Authorization', who.token).send({ query, variables });
}

function decide(t: TestApp, who: Caller, versionId: number, decision: Decision) {
  return graphql(
    t,
    who,
    'mutation($v: Int!, $d: ReviewDecision!) { reviewVersion(versionId: $v, decision: $d, comments: "Looked at it") { action } }',
    { v: versionId, d: decision },
  );
}

/** An add-on whose only version waits for a reviewer. */
async function awaiting(t: TestApp, spec: AddonSpec & { channel?: Channel } = {}) {
  const { channel = Channel.LISTED, ...rest } = spec;
  const addon = await createAddon(t.em(), {
    status: channel === Channel.LISTED ? AddonStatus.NOMINATED : AddonStatus.INCOMPLETE,
    versions: [{ channel, fileStatus: FileStatus.AWAITING_REVIEW }],
    ...rest,
  });
  const [version] = await t.em().find(Version, { addon: addon.id });
  return { addon, versionId: version.id };
}

async function notesOf(t: TestApp, versionId: number): Promise<number> {
  return t.em().count(ReviewNote, { version: versionId });
}

function expectForbidden(
  res: { body: { errors?: { message: string; extensions: { code: string } }[] } },
  message: string,
) {
  expect(res.body.errors?.[0]).toMatchObject({ message, extensions: { code: 'FORBIDDEN' } });
}

describe('with the default settings', () => {
  let t: TestApp;
  let reviewer: Caller;
  let otherReviewer: Caller;
  let admin: Caller;

  beforeAll(async () => {
    t = await startTestApp({ env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test' } });
    reviewer = await caller(t, { permission: REVIEWER });
    otherReviewer = await caller(t, { permission: REVIEWER });
    admin = await caller(t, { permission: [...REVIEWER, 'Reviews:Admin'] });
  }, 120_000);
  afterAll(() => t?.close());

  describe('self-reviews', () => {
    it('refuses every decision on a version of an add-on the reviewer is an author of, listed or unlisted', async () => {
      for (const channel of [Channel.LISTED, Channel.UNLISTED]) {
        const { versionId } = await awaiting(t, { channel, authors: [{ id: otherReviewer.id }, { id: reviewer.id }] });
        for (const decision of DECISIONS) {
          expectForbidden(await decide(t, reviewer, versionId, decision), SELF_REVIEW);
        }
        expect(await notesOf(t, versionId)).toBe(0);
        const version = await t.em().findOneOrFail(Version, versionId, { populate: ['files'] });
        expect(version.reviewed).toBeNull();
        expect(version.files.getItems()[0].status).toBe(FileStatus.AWAITING_REVIEW);
      }
    });

    it('refuses them to admins who are authors too; another reviewer decides', async () => {
      const { versionId } = await awaiting(t, { authors: [{ id: admin.id, listed: false }] });
      expectForbidden(await decide(t, admin, versionId, 'APPROVE'), SELF_REVIEW);
      const approved = await decide(t, otherReviewer, versionId, 'APPROVE');
      expect(approved.body).toEqual({ data: { reviewVersion: { action: 'approved' } } });
    });
  });

  describe('"needs admin review" flags', () => {
    async function flag(guid: string, flags: Record<string, boolean>) {
      const res = await graphql(
        t,
        admin,
        'mutation($a: String!, $f: AddonReviewerFlagsInput!) { updateAddonReviewerFlags(addon: $a, flags: $f) { needsAdminCodeReview } }',
        { a: guid, f: flags },
      );
      expect(res.body.errors).toBeUndefined();
    }

    it('needs_admin_code_review: only Reviews:Admin approves, rejects or asks; reviewers may still comment', async () => {
      const { addon, versionId } = await awaiting(t);
      await flag(addon.guid!, { needsAdminCodeReview: true });
      for (const decision of ['APPROVE', 'REJECT', 'REQUEST_INFORMATION'] as const) {
        expectForbidden(await decide(t, reviewer, versionId, decision), adminMessage('code'));
      }
      expect((await decide(t, reviewer, versionId, 'COMMENT')).body.data.reviewVersion.action).toBe('comment');
      expect((await decide(t, admin, versionId, 'APPROVE')).body.data.reviewVersion.action).toBe('approved');
    });

    it('needs_admin_theme_review applies to themes, needs_admin_code_review does not', async () => {
      const theme = await awaiting(t, { type: AddonType.STATICTHEME });
      await flag(theme.addon.guid!, { needsAdminThemeReview: true });
      expectForbidden(await decide(t, reviewer, theme.versionId, 'APPROVE'), adminMessage('theme'));
      expect((await decide(t, admin, theme.versionId, 'REJECT')).body.data.reviewVersion.action).toBe('rejected');

      const codeFlagged = await awaiting(t, { type: AddonType.STATICTHEME });
      await flag(codeFlagged.addon.guid!, { needsAdminCodeReview: true });
      const approved = await decide(t, reviewer, codeFlagged.versionId, 'APPROVE');
      expect(approved.body).toEqual({ data: { reviewVersion: { action: 'approved' } } });

      const extension = await awaiting(t);
      await flag(extension.addon.guid!, { needsAdminThemeReview: true });
      expect((await decide(t, reviewer, extension.versionId, 'APPROVE')).body.errors).toBeUndefined();
    });

    it('needs_admin_content_review applies to listed versions', async () => {
      const listed = await awaiting(t);
      await flag(listed.addon.guid!, { needsAdminContentReview: true });
      expectForbidden(await decide(t, reviewer, listed.versionId, 'APPROVE'), adminMessage('content'));

      const unlisted = await awaiting(t, { channel: Channel.UNLISTED });
      await flag(unlisted.addon.guid!, { needsAdminContentReview: true });
      expect((await decide(t, reviewer, unlisted.versionId, 'APPROVE')).body.errors).toBeUndefined();
    });

    it('keep new versions of flagged add-ons from automatic approval', async () => {
      const { addon } = await awaiting(t, { channel: Channel.UNLISTED });
      const em = t.em();
      const entity = await em.findOneOrFail(Addon, addon.id);
      expect(await t.app.services.reviewFlags.blocksAutoApproval(em, entity)).toBe(false);
      await flag(addon.guid!, { needsAdminContentReview: true });
      expect(await t.app.services.reviewFlags.blocksAutoApproval(t.em(), entity)).toBe(false);
      await flag(addon.guid!, { needsAdminContentReview: false, needsAdminCodeReview: true });
      expect(await t.app.services.reviewFlags.blocksAutoApproval(t.em(), entity)).toBe(true);
    });
  });

  describe('uploads', () => {
    const submit = async (who: Caller, guid: string) => {
      const operations = {
        query: `mutation ($upload: Upload!) { submitAddonVersion(upload: $upload, guid: "${guid}", version: "1.0.0") { addonCreated } }`,
        variables: { upload: null },
      };
      return t.http
        .post('/graphql')
        .set('Authorization', who.token)
        .set('apollo-require-preflight', 'true')
        .field('operations', JSON.stringify(operations))
        .field('map', JSON.stringify({ 0: ['variables.upload'] }))
        .attach('0', await extension({ id: guid }), 'addon.xpi');
    };

    it('need the developer agreement with a session too', async () => {
      const user = await caller(t);
      const guid = 'session-upload@example.com';
      expectForbidden(await submit(user, guid), 'User has not read developer agreement.');
      expect(await t.app.services.uploads.findByGuid(t.em(), guid)).toBeNull();

      const accept = await graphql(t, user, 'mutation { acceptDeveloperAgreement { private { readDevAgreement } } }');
      expect(accept.body.data.acceptDeveloperAgreement.private).toEqual({ readDevAgreement: true });
      const res = await submit(user, guid);
      expect(res.body).toEqual({ data: { submitAddonVersion: { addonCreated: true } } });
    });
  });
});

describe('with ALLOW_SELF_REVIEWS=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { JOB_WORKERS: 'false', ALLOW_SELF_REVIEWS: 'true' } });
  }, 120_000);
  afterAll(() => t?.close());

  it('reviewers may decide on their own add-ons', async () => {
    const reviewer = await caller(t, { permission: REVIEWER });
    const { versionId } = await awaiting(t, { authors: [{ id: reviewer.id }] });
    const res = await decide(t, reviewer, versionId, 'APPROVE');
    expect(res.body).toEqual({ data: { reviewVersion: { action: 'approved' } } });
  });
});
