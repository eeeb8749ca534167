import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AddonRole, AddonUser } from '../src/catalogue/addon.entity.js';
import { AddonStatus, Channel, FileStatus } from '../src/catalogue/catalogue.enums.js';
import { Version } from '../src/catalogue/version.entity.js';
import type { ServiceJobs } from '../src/jobs/service-jobs.js';
import { MeilisearchEngine } from '../src/search/meilisearch.engine.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon, type AddonSpec } from './helpers/catalogue.js';

/**
 * The add-on lifecycle's audit log (addonActivity, userActivity), its durable domain events
 * (`domain-event` jobs in pg-boss's table) and search staying consistent with detail after each
 * lifecycle operation, for the PostgreSQL engine and the Meilisearch adapter's document path.
 */

const ADMIN = ['Reviews:Admin', 'Addons:Review', 'Addons:ReviewUnlisted'];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Caller {
  id: number;
  email: string;
  token: string;
}

interface Entry {
  id: number;
  action: string;
  addonId: number;
  versionId: number | null;
  version: string | null;
  fromStatus: string;
  toStatus: string;
  comments: string;
  date: string;
  user: { id: number } | null;
  userSummary: { id: number; username: string } | null;
  promotion: { category: string; apps: string[] } | null;
  guid: string | null;
  valid: boolean | null;
}

interface ActivityPage {
  count: number;
  page: number;
  pageSize: number;
  pageCount: number;
  items: Entry[];
}

type EventJobData = ServiceJobs['domain-event'];
interface EventJob {
  id: string;
  state: string;
  data: EventJobData;
}

interface GraphqlBody {
  data?: Record<string, any> | null;
  errors?: { message: string; extensions: { code: string } }[];
}

const ENTRY = `id action addonId versionId version fromStatus toStatus comments date user { id }
  userSummary { id username } promotion { category apps } guid valid`;
const ADDON_ACTIVITY = `query($a: String!, $actions: [ActivityAction!], $page: Int, $size: Int) {
  addonActivity(addon: $a, actions: $actions, page: $page, pageSize: $size) {
    count page pageSize pageCount items { ${ENTRY} } } }`;
const USER_ACTIVITY = `query($u: Int!, $actions: [ActivityAction!], $page: Int, $size: Int) {
  userActivity(userId: $u, actions: $actions, page: $page, pageSize: $size) {
    count page pageSize pageCount items { ${ENTRY} } } }`;
const STATE = 'id status isDisabledByDeveloper isDisabledByVendor isDeleted isGuidDenied promoted { category apps }';

let t: TestApp;
let admin: Caller;
let curator: Caller;
let reviewer: Caller;
let stranger: Caller;

async function caller(args: Parameters<TestApp['createUser']>[0] = {}): Promise<Caller> {
  const user = await t.createUser({ session: true, ...args });
  return { id: user.id, email: user.email, token: `Bearer ${user.sessionToken}` };
}

async function gql(who: Caller | null, query: string, variables: Record<string, unknown> = {}): Promise<GraphqlBody> {
  const req = t.http.post('/graphql');
  if (who) req.set('Authorization', who.token);
  const res = await req.send({ query, variables });
  return res.body as GraphqlBody;
}

const codeOf = (body: GraphqlBody) => body.errors?.[0]?.extensions.code;

function ok(body: GraphqlBody): Record<string, any> {
  expect(body.errors).toBeUndefined();
  return body.data!;
}

async function addonLog(
  who: Caller | null,
  addon: number | string,
  args: { actions?: string[]; page?: number; size?: number } = {},
): Promise<GraphqlBody> {
  return gql(who, ADDON_ACTIVITY, { a: String(addon), ...args });
}

/** The add-on's whole log as an admin reads it (newest first). */
async function entriesOf(addonId: number): Promise<Entry[]> {
  const page = ok(await addonLog(admin, addonId, { size: 50 })).addonActivity as ActivityPage;
  expect(page.count).toBeLessThanOrEqual(50);
  return page.items;
}

/**
 * The `domain-event` jobs about the add-on, as pg-boss stores them; those of the `webhooks`
 * subscriber (src/webhooks/, which gets every event it may turn into a webhook) only when asked.
 */
async function jobsOf(addonId: number, subscriber: 'others' | 'webhooks' = 'others'): Promise<EventJob[]> {
  const rows = await t
    .em()
    .getConnection()
    .execute<{ id: string; state: string; data: EventJobData | string }[]>(
      `select id::text as id, state::text as state, data from pgboss.job
        where name = 'domain-event' and data->'event'->'data'->>'addonId' = ?
          and (data->>'subscriber' = 'webhooks') = ? order by created_on, id`,
      [String(addonId), subscriber === 'webhooks'],
    );
  return rows.map((r) => ({
    id: r.id,
    state: r.state,
    data: typeof r.data === 'string' ? (JSON.parse(r.data) as EventJobData) : r.data,
  }));
}

/** Runs `operation` and returns the audit entries and `domain-event` jobs it added for the add-on. */
async function observe(addonId: number, operation: () => Promise<unknown>) {
  const entriesBefore = new Set((await entriesOf(addonId)).map((e) => e.id));
  const jobsBefore = new Set((await jobsOf(addonId)).map((j) => j.id));
  const result = await operation();
  const entries = (await entriesOf(addonId)).filter((e) => !entriesBefore.has(e.id));
  const jobs = (await jobsOf(addonId)).filter((j) => !jobsBefore.has(j.id));
  return { result, entries, jobs };
}

/** The job one subscriber gets for one event. */
function eventJob(subscriber: string, type: string, data: Record<string, unknown>, actorId: number | null) {
  return {
    state: 'created',
    data: {
      subscriber,
      event: { id: expect.stringMatching(UUID), type, data, actorId, occurredAt: expect.stringMatching(ISO) },
    },
  };
}

const byType = (jobs: EventJob[]) =>
  [...jobs].sort((a, b) =>
    `${a.data.event.type}/${a.data.subscriber}`.localeCompare(`${b.data.event.type}/${b.data.subscriber}`),
  );

// ---- Operations ----

const disableByDeveloper = (who: Caller | null, addon: number, disabled: boolean) =>
  gql(
    who,
    `mutation($a: String!, $d: Boolean!) { setAddonDisabledByDeveloper(addon: $a, disabled: $d) { ${STATE} } }`,
    {
      a: String(addon),
      d: disabled,
    },
  );

const disableByVendor = (who: Caller | null, addon: number, disabled: boolean, comment?: string) =>
  gql(
    who,
    `mutation($a: String!, $d: Boolean!, $c: String) { setAddonDisabledByVendor(addon: $a, disabled: $d, comment: $c) { ${STATE} } }`,
    { a: String(addon), d: disabled, c: comment },
  );

const deleteAddon = (who: Caller | null, addon: number, reason?: string) =>
  gql(who, 'mutation($a: String!, $r: String) { deleteAddon(addon: $a, reason: $r) }', { a: String(addon), r: reason });

const deleteVersion = (who: Caller | null, addon: number, versionId: number) =>
  gql(who, `mutation($a: String!, $v: Int!) { deleteAddonVersion(addon: $a, versionId: $v) { ${STATE} } }`, {
    a: String(addon),
    v: versionId,
  });

const denyResubmission = (who: Caller | null, addon: number, denied: boolean, comment?: string) =>
  gql(
    who,
    `mutation($a: String!, $d: Boolean!, $c: String) { setAddonResubmissionDenied(addon: $a, denied: $d, comment: $c) { ${STATE} } }`,
    { a: String(addon), d: denied, c: comment },
  );

const promote = (who: Caller | null, addon: number, promotion: { category: string; apps: string[] } | null) =>
  gql(
    who,
    `mutation($a: String!, $p: AddonPromotionInput) { setAddonPromotion(addon: $a, promotion: $p) { ${STATE} } }`,
    {
      a: String(addon),
      p: promotion,
    },
  );

type Decision = 'APPROVE' | 'REJECT' | 'REQUEST_INFORMATION' | 'COMMENT';
const decide = (who: Caller | null, versionId: number, decision: Decision, comments: string) =>
  gql(
    who,
    'mutation($v: Int!, $d: ReviewDecision!, $c: String) { reviewVersion(versionId: $v, decision: $d, comments: $c) { id action } }',
    { v: versionId, d: decision, c: comments },
  );

async function versionIds(addonId: number): Promise<number[]> {
  return (await t.em().find(Version, { addon: addonId }, { orderBy: { id: 'asc' } })).map((v) => v.id);
}

/** A public add-on owned by `owner` (two approved listed versions unless told otherwise). */
async function ownedAddon(owner: Caller, spec: AddonSpec = {}) {
  return createAddon(t.em(), { authors: [{ id: owner.id }], versions: [{}, {}], ...spec });
}

beforeAll(async () => {
  t = await startTestApp({ env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test' } });
  admin = await caller({ permission: ADMIN });
  curator = await caller({ permission: ['Admin:Curation'] });
  reviewer = await caller({ permission: ['Addons:Review'] });
  stranger = await caller();
}, 120_000);
afterAll(() => t?.close());

describe('audit log reads', () => {
  it('addonActivity: 401 anonymous, admins any add-on (deleted too), its authors, others 403, unknown 404', async () => {
    const owner = await caller();
    const developer = await caller();
    const addon = await createAddon(t.em(), { authors: [{ id: owner.id }, { id: developer.id, listed: false }] });
    await t.em().nativeUpdate(AddonUser, { addon: addon.id, user: developer.id }, { role: AddonRole.DEVELOPER });
    ok(await disableByDeveloper(owner, addon.id, true));

    expect(codeOf(await addonLog(null, addon.id))).toBe('UNAUTHENTICATED');
    expect(codeOf(await addonLog(stranger, addon.id))).toBe('FORBIDDEN');
    expect(codeOf(await addonLog(reviewer, addon.id))).toBe('FORBIDDEN');
    expect(codeOf(await addonLog(curator, addon.id))).toBe('FORBIDDEN');
    expect(codeOf(await addonLog(admin, 2_000_000_000))).toBe('NOT_FOUND');
    expect(codeOf(await addonLog(admin, 'no-such-addon'))).toBe('NOT_FOUND');
    expect(codeOf(await addonLog(owner, 'no-such-addon@example.com'))).toBe('NOT_FOUND');

    // By id, slug and guid. `user` follows the user query's rule (the owner is no public developer
    // while their add-on is hidden: only they see it); `userSummary` is for everyone who sees the log.
    for (const [who, key] of [
      [admin, addon.id],
      [owner, addon.slug],
      [developer, addon.guid!],
    ] as const) {
      const page = ok(await addonLog(who, key)).addonActivity as ActivityPage;
      expect(page).toMatchObject({ count: 1, page: 1, pageSize: 25, pageCount: 1 });
      expect(page.items[0]).toMatchObject({
        action: 'DISABLED_BY_DEVELOPER',
        addonId: addon.id,
        userSummary: { id: owner.id },
        user: who === owner ? { id: owner.id } : null,
      });
    }

    ok(await deleteAddon(owner, addon.id, 'Moving on'));
    expect(codeOf(await addonLog(owner, addon.id))).toBe('NOT_FOUND');
    expect(codeOf(await addonLog(developer, addon.id))).toBe('NOT_FOUND');
    expect(codeOf(await addonLog(stranger, addon.id))).toBe('NOT_FOUND');
    const afterDeletion = ok(await addonLog(admin, addon.id)).addonActivity as ActivityPage;
    expect(afterDeletion.items.map((e) => e.action)).toEqual(['DELETED', 'DISABLED_BY_DEVELOPER']);
  });

  it('userActivity: admins and the user themself; others 403, anonymous 401', async () => {
    const owner = await caller();
    const first = await ownedAddon(owner);
    const second = await ownedAddon(owner);
    ok(await disableByDeveloper(owner, first.id, true));
    ok(await disableByDeveloper(owner, second.id, true));
    ok(await disableByVendor(admin, second.id, true, 'Not by the owner'));

    expect(codeOf(await gql(null, USER_ACTIVITY, { u: owner.id }))).toBe('UNAUTHENTICATED');
    expect(codeOf(await gql(stranger, USER_ACTIVITY, { u: owner.id }))).toBe('FORBIDDEN');
    expect(codeOf(await gql(curator, USER_ACTIVITY, { u: owner.id }))).toBe('FORBIDDEN');
    for (const who of [owner, admin]) {
      const page = ok(await gql(who, USER_ACTIVITY, { u: owner.id })).userActivity as ActivityPage;
      expect(page.count).toBe(2);
      expect(page.items.map((e) => [e.action, e.addonId, e.userSummary?.id])).toEqual([
        ['DISABLED_BY_DEVELOPER', second.id, owner.id],
        ['DISABLED_BY_DEVELOPER', first.id, owner.id],
      ]);
    }
    // The admin's own log holds what they did.
    const mine = ok(await gql(admin, USER_ACTIVITY, { u: admin.id, actions: ['DISABLED_BY_ADMIN'], size: 50 }))
      .userActivity as ActivityPage;
    expect(mine.items.find((e) => e.addonId === second.id)).toMatchObject({
      action: 'DISABLED_BY_ADMIN',
      comments: 'Not by the owner',
      userSummary: { id: admin.id },
    });
    // An unknown user has an empty log.
    expect(ok(await gql(admin, USER_ACTIVITY, { u: 2_000_000_000 })).userActivity).toMatchObject({ count: 0 });
  });

  it('is newest first, filtered by actions, paginated; a page past the end is INVALID_PAGE', async () => {
    const owner = await caller();
    const addon = await ownedAddon(owner);
    ok(await disableByDeveloper(owner, addon.id, true));
    ok(await disableByDeveloper(owner, addon.id, false));
    ok(await disableByVendor(admin, addon.id, true, 'Spam'));
    ok(await disableByVendor(admin, addon.id, false));

    const all = ok(await addonLog(owner, addon.id)).addonActivity as ActivityPage;
    expect(all).toMatchObject({ count: 4, page: 1, pageCount: 1 });
    expect(all.items.map((e) => e.action)).toEqual([
      'ENABLED_BY_ADMIN',
      'DISABLED_BY_ADMIN',
      'ENABLED_BY_DEVELOPER',
      'DISABLED_BY_DEVELOPER',
    ]);
    const ids = all.items.map((e) => e.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const dates = all.items.map((e) => Date.parse(e.date));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect(all.items.every((e) => ISO.test(e.date))).toBe(true);

    const filtered = ok(await addonLog(owner, addon.id, { actions: ['DISABLED_BY_ADMIN'] })).addonActivity;
    expect(filtered).toMatchObject({ count: 1, items: [{ action: 'DISABLED_BY_ADMIN', comments: 'Spam' }] });
    const two = ok(await addonLog(admin, addon.id, { actions: ['DISABLED_BY_DEVELOPER', 'DISABLED_BY_ADMIN'] }))
      .addonActivity as ActivityPage;
    expect(two.items.map((e) => e.action)).toEqual(['DISABLED_BY_ADMIN', 'DISABLED_BY_DEVELOPER']);
    expect(ok(await addonLog(admin, addon.id, { actions: [] })).addonActivity.count).toBe(4);
    expect(ok(await addonLog(admin, addon.id, { actions: ['DELETED'] })).addonActivity).toMatchObject({
      count: 0,
      pageCount: 1,
      items: [],
    });
    expect(codeOf(await addonLog(admin, addon.id, { actions: ['NOT_AN_ACTION'] }))).toBe('BAD_USER_INPUT');

    const second = ok(await addonLog(owner, addon.id, { page: 2, size: 1 })).addonActivity as ActivityPage;
    expect(second).toMatchObject({ count: 4, page: 2, pageSize: 1, pageCount: 4 });
    expect(second.items.map((e) => e.id)).toEqual([ids[1]]);
    const lastFiltered = ok(await addonLog(owner, addon.id, { actions: ['ENABLED_BY_DEVELOPER'], page: 1, size: 1 }));
    expect(lastFiltered.addonActivity.items.map((e: Entry) => e.id)).toEqual([ids[2]]);
    expect(codeOf(await addonLog(owner, addon.id, { page: 5, size: 1 }))).toBe('INVALID_PAGE');
    expect(codeOf(await addonLog(owner, addon.id, { page: 0 }))).toBe('INVALID_PAGE');
    expect(codeOf(await addonLog(owner, addon.id, { actions: ['DELETED'], page: 2 }))).toBe('INVALID_PAGE');
    expect(codeOf(await gql(owner, USER_ACTIVITY, { u: owner.id, page: 2 }))).toBe('INVALID_PAGE');
  });
});

describe('each lifecycle operation writes one audit entry and queues its domain events', () => {
  it('setAddonDisabledByDeveloper: DISABLED/ENABLED_BY_DEVELOPER; repeats write and queue nothing', async () => {
    const owner = await caller();
    const addon = await ownedAddon(owner);

    const off = await observe(addon.id, () => disableByDeveloper(owner, addon.id, true));
    expect(ok(off.result as GraphqlBody).setAddonDisabledByDeveloper).toMatchObject({
      status: 'PUBLIC',
      isDisabledByDeveloper: true,
    });
    expect(off.entries).toEqual([
      expect.objectContaining({
        action: 'DISABLED_BY_DEVELOPER',
        addonId: addon.id,
        versionId: null,
        version: null,
        fromStatus: 'PUBLIC',
        toStatus: 'PUBLIC',
        comments: '',
        userSummary: { id: owner.id, username: expect.any(String) },
        promotion: null,
        guid: null,
        valid: null,
      }),
    ]);
    expect(off.jobs).toMatchObject([
      eventJob('search-index', 'addon.disabled', { addonId: addon.id, by: 'developer' }, owner.id),
    ]);

    const again = await observe(addon.id, () => disableByDeveloper(owner, addon.id, true));
    expect(ok(again.result as GraphqlBody).setAddonDisabledByDeveloper.isDisabledByDeveloper).toBe(true);
    expect([again.entries, again.jobs]).toEqual([[], []]);

    const on = await observe(addon.id, () => disableByDeveloper(owner, addon.id, false));
    expect(on.entries).toMatchObject([
      { action: 'ENABLED_BY_DEVELOPER', fromStatus: 'PUBLIC', toStatus: 'PUBLIC', userSummary: { id: owner.id } },
    ]);
    expect(on.jobs).toMatchObject([
      eventJob('search-index', 'addon.enabled', { addonId: addon.id, by: 'developer' }, owner.id),
    ]);
    const onAgain = await observe(addon.id, () => disableByDeveloper(owner, addon.id, false));
    expect([onAgain.entries, onAgain.jobs]).toEqual([[], []]);
    // The webhooks subscriber got the disabling (a webhook event), not the enabling (none).
    expect(await jobsOf(addon.id, 'webhooks')).toMatchObject([
      eventJob('webhooks', 'addon.disabled', { addonId: addon.id, by: 'developer' }, owner.id),
    ]);
  });

  it('setAddonDisabledByVendor: DISABLED_BY_ADMIN (PUBLIC to DISABLED) and ENABLED_BY_ADMIN back, with the comment', async () => {
    const owner = await caller();
    const addon = await ownedAddon(owner);

    const off = await observe(addon.id, () => disableByVendor(admin, addon.id, true, '  Malware  '));
    expect(ok(off.result as GraphqlBody).setAddonDisabledByVendor).toMatchObject({
      status: 'DISABLED',
      isDisabledByVendor: true,
    });
    expect(off.entries).toMatchObject([
      {
        action: 'DISABLED_BY_ADMIN',
        fromStatus: 'PUBLIC',
        toStatus: 'DISABLED',
        comments: 'Malware',
        userSummary: { id: admin.id },
      },
    ]);
    expect(off.jobs).toMatchObject([
      eventJob('search-index', 'addon.disabled', { addonId: addon.id, by: 'vendor' }, admin.id),
    ]);
    const again = await observe(addon.id, () => disableByVendor(admin, addon.id, true));
    expect([again.entries, again.jobs]).toEqual([[], []]);

    // The owner cannot switch it back on, nor see who did it (not a developer), only their summary.
    const refused = await observe(addon.id, () => disableByDeveloper(owner, addon.id, false));
    expect(codeOf(refused.result as GraphqlBody)).toBe('CONFLICT');
    expect([refused.entries, refused.jobs]).toEqual([[], []]);
    const ownerView = ok(await addonLog(owner, addon.id)).addonActivity as ActivityPage;
    expect(ownerView.items[0]).toMatchObject({ user: null, userSummary: { id: admin.id } });

    const on = await observe(addon.id, () => disableByVendor(admin, addon.id, false, 'Cleared'));
    expect(on.entries).toMatchObject([
      { action: 'ENABLED_BY_ADMIN', fromStatus: 'DISABLED', toStatus: 'PUBLIC', comments: 'Cleared' },
    ]);
    expect(on.jobs).toMatchObject([
      eventJob('search-index', 'addon.enabled', { addonId: addon.id, by: 'vendor' }, admin.id),
    ]);
    const onAgain = await observe(addon.id, () => disableByVendor(admin, addon.id, false));
    expect([onAgain.entries, onAgain.jobs]).toEqual([[], []]);
  });

  it('enabling by an admin derives the status from the versions (NOMINATED without an approved listed one)', async () => {
    const owner = await caller();
    const addon = await ownedAddon(owner, {
      status: AddonStatus.NOMINATED,
      versions: [{ fileStatus: FileStatus.AWAITING_REVIEW }],
    });
    ok(await disableByVendor(admin, addon.id, true));
    const on = await observe(addon.id, () => disableByVendor(admin, addon.id, false));
    expect(on.entries).toMatchObject([{ action: 'ENABLED_BY_ADMIN', fromStatus: 'DISABLED', toStatus: 'NOMINATED' }]);
  });

  it('deleteAddonVersion: VERSION_DELETED with the version string; the last approved listed one makes it INCOMPLETE', async () => {
    const owner = await caller();
    const addon = await ownedAddon(owner);
    const [first, second] = await versionIds(addon.id);

    const one = await observe(addon.id, () => deleteVersion(owner, addon.id, second));
    expect(ok(one.result as GraphqlBody).deleteAddonVersion.status).toBe('PUBLIC');
    expect(one.entries).toMatchObject([
      {
        action: 'VERSION_DELETED',
        versionId: second,
        version: '1.1.0',
        fromStatus: 'PUBLIC',
        toStatus: 'PUBLIC',
        userSummary: { id: owner.id },
      },
    ]);
    expect(one.jobs).toMatchObject([
      eventJob('search-index', 'version.deleted', { addonId: addon.id, versionId: second }, owner.id),
    ]);
    const twice = await observe(addon.id, () => deleteVersion(owner, addon.id, second));
    expect(codeOf(twice.result as GraphqlBody)).toBe('NOT_FOUND');
    expect([twice.entries, twice.jobs]).toEqual([[], []]);

    const last = await observe(addon.id, () => deleteVersion(owner, addon.id, first));
    expect(last.entries).toMatchObject([
      { action: 'VERSION_DELETED', versionId: first, version: '1.0.0', fromStatus: 'PUBLIC', toStatus: 'INCOMPLETE' },
    ]);
    expect(last.jobs).toMatchObject([
      eventJob('search-index', 'version.deleted', { addonId: addon.id, versionId: first }, owner.id),
    ]);
  });

  it('deleteAddon: DELETED with the reason (owners)', async () => {
    const owner = await caller();
    const addon = await ownedAddon(owner);
    const gone = await observe(addon.id, () => deleteAddon(owner, addon.id, 'No longer maintained'));
    expect(ok(gone.result as GraphqlBody).deleteAddon).toBe(true);
    expect(gone.entries).toMatchObject([
      {
        action: 'DELETED',
        fromStatus: 'PUBLIC',
        toStatus: 'DELETED',
        comments: 'No longer maintained',
        userSummary: { id: owner.id },
      },
    ]);
    expect(gone.jobs).toMatchObject([eventJob('search-index', 'addon.deleted', { addonId: addon.id }, owner.id)]);
    const twice = await observe(addon.id, () => deleteAddon(owner, addon.id));
    expect(codeOf(twice.result as GraphqlBody)).toBe('NOT_FOUND');
    expect([twice.entries, twice.jobs]).toEqual([[], []]);
  });

  it('setAddonResubmissionDenied: RESUBMISSION_DENIED / ALLOWED with the guid; repeats are CONFLICT', async () => {
    const owner = await caller();
    const addon = await ownedAddon(owner);
    const denied = await observe(addon.id, () => denyResubmission(admin, addon.id, true, 'Repeat offender'));
    expect(ok(denied.result as GraphqlBody).setAddonResubmissionDenied.isGuidDenied).toBe(true);
    expect(denied.entries).toMatchObject([
      {
        action: 'RESUBMISSION_DENIED',
        guid: addon.guid,
        fromStatus: 'PUBLIC',
        toStatus: 'PUBLIC',
        comments: 'Repeat offender',
        userSummary: { id: admin.id },
      },
    ]);
    expect(denied.jobs).toEqual([]);
    const twice = await observe(addon.id, () => denyResubmission(admin, addon.id, true));
    expect(codeOf(twice.result as GraphqlBody)).toBe('CONFLICT');
    expect([twice.entries, twice.jobs]).toEqual([[], []]);

    const allowed = await observe(addon.id, () => denyResubmission(admin, addon.id, false));
    expect(ok(allowed.result as GraphqlBody).setAddonResubmissionDenied.isGuidDenied).toBe(false);
    expect(allowed.entries).toMatchObject([{ action: 'RESUBMISSION_ALLOWED', guid: addon.guid, comments: '' }]);
    const allowedTwice = await observe(addon.id, () => denyResubmission(admin, addon.id, false));
    expect(codeOf(allowedTwice.result as GraphqlBody)).toBe('CONFLICT');
    expect([allowedTwice.entries, allowedTwice.jobs]).toEqual([[], []]);
  });

  it('setAddonPromotion: PROMOTED with the promotion, PROMOTION_CLEARED with the one removed; repeats are no-ops', async () => {
    const owner = await caller();
    const addon = await ownedAddon(owner);
    const promotion = { category: 'RECOMMENDED', apps: ['BROWSER', 'ANDROID'] };

    const set = await observe(addon.id, () => promote(curator, addon.id, promotion));
    expect(ok(set.result as GraphqlBody).setAddonPromotion.promoted).toEqual({
      category: 'RECOMMENDED',
      apps: ['BROWSER', 'ANDROID'],
    });
    expect(set.entries).toMatchObject([
      {
        action: 'PROMOTED',
        promotion: { category: 'RECOMMENDED', apps: ['BROWSER', 'ANDROID'] },
        fromStatus: 'PUBLIC',
        toStatus: 'PUBLIC',
        userSummary: { id: curator.id },
      },
    ]);
    expect(set.jobs).toMatchObject([
      eventJob('search-index', 'addon.promoted', { addonId: addon.id, category: 2, apps: [1, 61] }, curator.id),
    ]);
    const same = await observe(addon.id, () =>
      promote(curator, addon.id, { ...promotion, apps: ['ANDROID', 'BROWSER'] }),
    );
    expect([same.entries, same.jobs]).toEqual([[], []]);

    const cleared = await observe(addon.id, () => promote(curator, addon.id, null));
    expect(ok(cleared.result as GraphqlBody).setAddonPromotion.promoted).toBeNull();
    expect(cleared.entries).toMatchObject([
      { action: 'PROMOTION_CLEARED', promotion: { category: 'RECOMMENDED', apps: ['BROWSER', 'ANDROID'] } },
    ]);
    expect(cleared.jobs).toMatchObject([
      eventJob('search-index', 'addon.promoted', { addonId: addon.id, category: null, apps: [] }, curator.id),
    ]);
    const clearedAgain = await observe(addon.id, () => promote(curator, addon.id, null));
    expect([clearedAgain.entries, clearedAgain.jobs]).toEqual([[], []]);
  });

  it('reviewVersion: REVIEW_* entries, review.decided for the mail; a rejection makes the status follow', async () => {
    const owner = await caller();
    const awaiting = (versions: AddonSpec['versions']) =>
      ownedAddon(owner, { status: AddonStatus.NOMINATED, versions });

    // Approval: the version is reviewed (its signature is queued), the status waits for the signature.
    const approved = await awaiting([{ fileStatus: FileStatus.AWAITING_REVIEW }]);
    const [approvedVersion] = await versionIds(approved.id);
    const approve = await observe(approved.id, () => decide(reviewer, approvedVersion, 'APPROVE', 'Fine'));
    const approveNote = ok(approve.result as GraphqlBody).reviewVersion as { id: number; action: string };
    expect(approve.entries).toMatchObject([
      {
        action: 'REVIEW_APPROVED',
        versionId: approvedVersion,
        version: '1.0.0',
        fromStatus: 'NOMINATED',
        toStatus: 'NOMINATED',
        comments: 'Fine',
        userSummary: { id: reviewer.id },
      },
    ]);
    expect(approve.jobs).toMatchObject([
      eventJob(
        'review-mail',
        'review.decided',
        { addonId: approved.id, versionId: approvedVersion, noteId: approveNote.id, decision: 'approve' },
        reviewer.id,
      ),
    ]);

    // Rejection of the only listed version: NOMINATED to INCOMPLETE; search is told too.
    const rejected = await awaiting([{ fileStatus: FileStatus.AWAITING_REVIEW }]);
    const [rejectedVersion] = await versionIds(rejected.id);
    const reject = await observe(rejected.id, () => decide(admin, rejectedVersion, 'REJECT', 'Broken'));
    const rejectNote = ok(reject.result as GraphqlBody).reviewVersion as { id: number };
    expect(reject.entries).toMatchObject([
      {
        action: 'REVIEW_REJECTED',
        versionId: rejectedVersion,
        fromStatus: 'NOMINATED',
        toStatus: 'INCOMPLETE',
        comments: 'Broken',
        userSummary: { id: admin.id },
      },
    ]);
    expect(byType(reject.jobs)).toMatchObject([
      eventJob(
        'review-mail',
        'review.decided',
        { addonId: rejected.id, versionId: rejectedVersion, noteId: rejectNote.id, decision: 'reject' },
        admin.id,
      ),
      eventJob(
        'search-index',
        'version.rejected',
        { addonId: rejected.id, versionId: rejectedVersion, channel: Channel.LISTED },
        admin.id,
      ),
    ]);

    // Rejecting a newer version of a public add-on leaves it public.
    const update = await ownedAddon(owner, { versions: [{}, { fileStatus: FileStatus.AWAITING_REVIEW }] });
    const [, waiting] = await versionIds(update.id);
    const rejectUpdate = await observe(update.id, () => decide(reviewer, waiting, 'REJECT', 'Not this one'));
    expect(rejectUpdate.entries).toMatchObject([
      { action: 'REVIEW_REJECTED', version: '1.1.0', fromStatus: 'PUBLIC', toStatus: 'PUBLIC' },
    ]);

    // Information requests and comments change nothing but the log.
    const asked = await awaiting([{ fileStatus: FileStatus.AWAITING_REVIEW }]);
    const [askedVersion] = await versionIds(asked.id);
    for (const [decision, action, kind] of [
      ['REQUEST_INFORMATION', 'REVIEW_INFORMATION_REQUESTED', 'requestInformation'],
      ['COMMENT', 'REVIEW_COMMENTED', 'comment'],
    ] as const) {
      const step = await observe(asked.id, () => decide(reviewer, askedVersion, decision, `About ${kind}`));
      const note = ok(step.result as GraphqlBody).reviewVersion as { id: number };
      expect(step.entries).toMatchObject([
        { action, versionId: askedVersion, fromStatus: 'NOMINATED', toStatus: 'NOMINATED', comments: `About ${kind}` },
      ]);
      expect(step.jobs).toMatchObject([
        eventJob(
          'review-mail',
          'review.decided',
          { addonId: asked.id, versionId: askedVersion, noteId: note.id, decision: kind },
          reviewer.id,
        ),
      ]);
    }

    // Refused decisions (not a reviewer; an approval of a version no longer awaiting review) queue nothing.
    for (const [who, decision, code] of [
      [stranger, 'APPROVE', 'FORBIDDEN'],
      [owner, 'COMMENT', 'FORBIDDEN'],
      [reviewer, 'APPROVE', 'BAD_REQUEST'],
    ] as const) {
      const refused = await observe(approved.id, () => decide(who, approvedVersion, decision, 'No'));
      expect(codeOf(refused.result as GraphqlBody)).toBe(code);
      expect([refused.entries, refused.jobs]).toEqual([[], []]);
    }
  });

  it('delivering a queued review-mail job by hand writes the mail to the outbox', async () => {
    const owner = await caller();
    const addon = await ownedAddon(owner, {
      status: AddonStatus.NOMINATED,
      versions: [{ version: '2.4.6', fileStatus: FileStatus.AWAITING_REVIEW }],
    });
    const [versionId] = await versionIds(addon.id);
    const outbox = join(t.app.services.config.dataDir, 'mail', 'outbox');
    const mails = () => (existsSync(outbox) ? readdirSync(outbox) : []);
    const before = new Set(mails());

    const { jobs } = await observe(addon.id, () => decide(reviewer, versionId, 'REQUEST_INFORMATION', 'Source code?'));
    expect(jobs.map((j) => j.data.subscriber)).toEqual(['review-mail']);
    // Workers are off: queued, not delivered, no mail yet.
    expect(jobs[0].state).toBe('created');
    expect(mails().filter((f) => !before.has(f))).toEqual([]);

    await t.app.services.events.deliver(jobs[0].data);
    const sent = mails()
      .filter((f) => !before.has(f))
      .map((f) => readFileSync(join(outbox, f), 'utf8'));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(new RegExp(`^To: ${owner.email.replace(/[.+]/g, '\\$&')}$`, 'm'));
    expect(sent[0]).toMatch(/^Reply-To: reviewreply\+[0-9a-f]{32}@addons\.test$/m);
    expect(sent[0]).toContain('2.4.6');
    expect(sent[0]).toContain('Source code?');
  });

  it('v4 account deletion deletes the add-ons it alone authors: DELETED, the user null afterwards', async () => {
    const leaver = await caller();
    const partner = await caller();
    const sole = await ownedAddon(leaver);
    const shared = await createAddon(t.em(), { authors: [{ id: leaver.id }, { id: partner.id }] });

    const sharedBefore = await jobsOf(shared.id);
    const gone = await observe(sole.id, async () => {
      const res = await t.http.delete(`/api/v4/accounts/account/${leaver.id}/`).set('Authorization', leaver.token);
      expect(res.status).toBe(204);
    });
    expect(gone.entries).toMatchObject([
      {
        action: 'DELETED',
        addonId: sole.id,
        fromStatus: 'PUBLIC',
        toStatus: 'DELETED',
        comments: 'The account of its only author was deleted.',
        user: null,
        userSummary: null,
      },
    ]);
    expect(gone.jobs).toMatchObject([eventJob('search-index', 'addon.deleted', { addonId: sole.id }, leaver.id)]);
    // The shared add-on keeps its other author, its status, an empty log and no events.
    expect(await entriesOf(shared.id)).toEqual([]);
    expect(await jobsOf(shared.id)).toEqual(sharedBefore);
    expect((await t.http.get(`/api/v4/addons/addon/${shared.id}/`)).status).toBe(200);
  });

  it('refused operations write and queue nothing', async () => {
    const owner = await caller();
    const developer = await caller();
    const addon = await createAddon(t.em(), { authors: [{ id: owner.id }, { id: developer.id }], versions: [{}, {}] });
    await t.em().nativeUpdate(AddonUser, { addon: addon.id, user: developer.id }, { role: AddonRole.DEVELOPER });
    const [versionId] = await versionIds(addon.id);
    const attempts: [string, () => Promise<GraphqlBody>, string][] = [
      ['developer disable, anonymous', () => disableByDeveloper(null, addon.id, true), 'UNAUTHENTICATED'],
      ['developer disable, stranger', () => disableByDeveloper(stranger, addon.id, true), 'FORBIDDEN'],
      ['developer disable, non-owner author', () => disableByDeveloper(developer, addon.id, true), 'FORBIDDEN'],
      ['developer disable, admin', () => disableByDeveloper(admin, addon.id, true), 'FORBIDDEN'],
      ['vendor disable, owner', () => disableByVendor(owner, addon.id, true), 'FORBIDDEN'],
      ['vendor disable, curator', () => disableByVendor(curator, addon.id, true), 'FORBIDDEN'],
      ['delete, stranger', () => deleteAddon(stranger, addon.id), 'FORBIDDEN'],
      ['delete, reviewer admin', () => deleteAddon(admin, addon.id), 'FORBIDDEN'],
      ['delete version, stranger', () => deleteVersion(stranger, addon.id, versionId), 'FORBIDDEN'],
      ['delete unknown version', () => deleteVersion(owner, addon.id, 2_000_000_000), 'NOT_FOUND'],
      ['deny resubmission, owner', () => denyResubmission(owner, addon.id, true), 'FORBIDDEN'],
      ['promote, owner', () => promote(owner, addon.id, { category: 'LINE', apps: ['BROWSER'] }), 'FORBIDDEN'],
      ['promote, admin', () => promote(admin, addon.id, { category: 'LINE', apps: ['BROWSER'] }), 'FORBIDDEN'],
      ['promote without apps', () => promote(curator, addon.id, { category: 'LINE', apps: [] }), 'VALIDATION_FAILED'],
      ['review, owner', () => decide(owner, versionId, 'COMMENT', 'Mine'), 'FORBIDDEN'],
      [
        'vendor disable, comment too long',
        () => disableByVendor(admin, addon.id, true, 'x'.repeat(3_001)),
        'VALIDATION_FAILED',
      ],
    ];
    for (const [name, attempt, code] of attempts) {
      const res = await observe(addon.id, attempt);
      expect([name, codeOf(res.result as GraphqlBody)]).toEqual([name, code]);
      expect([name, res.entries, res.jobs]).toEqual([name, [], []]);
    }
    expect(await entriesOf(addon.id)).toEqual([]);
    expect(await jobsOf(addon.id)).toEqual([]);
  });
});

describe('search stays consistent with detail after each lifecycle operation', () => {
  let serial = 0;
  /** A word no other add-on's name holds (letters only, so the text search keeps it whole). */
  const uniqueWord = () => {
    const n = ++serial;
    const letters = [...`${process.pid}${n}`].map((d) => String.fromCharCode(97 + Number(d))).join('');
    return `zqlifecycle${letters}x`;
  };

  interface Subject {
    id: number;
    word: string;
    versions: number[];
  }

  async function subject(owner: Caller): Promise<Subject> {
    const word = uniqueWord();
    const addon = await ownedAddon(owner, { name: { 'en-US': `Tidy ${word} tabs` } });
    return { id: addon.id, word, versions: await versionIds(addon.id) };
  }

  interface Step {
    name: string;
    run: (s: Subject) => Promise<GraphqlBody>;
    public: boolean;
    promoted: boolean;
  }

  const steps = (owner: Caller): Step[] => [
    { name: 'developer disable', run: (s) => disableByDeveloper(owner, s.id, true), public: false, promoted: false },
    { name: 'developer enable', run: (s) => disableByDeveloper(owner, s.id, false), public: true, promoted: false },
    { name: 'admin disable', run: (s) => disableByVendor(admin, s.id, true), public: false, promoted: false },
    { name: 'admin enable', run: (s) => disableByVendor(admin, s.id, false), public: true, promoted: false },
    {
      name: 'promotion set',
      run: (s) => promote(curator, s.id, { category: 'RECOMMENDED', apps: ['BROWSER'] }),
      public: true,
      promoted: true,
    },
    { name: 'promotion cleared', run: (s) => promote(curator, s.id, null), public: true, promoted: false },
    {
      name: 'newer version deleted',
      run: (s) => deleteVersion(owner, s.id, s.versions[1]),
      public: true,
      promoted: false,
    },
    {
      name: 'last version deleted',
      run: (s) => deleteVersion(owner, s.id, s.versions[0]),
      public: false,
      promoted: false,
    },
  ];

  /** Anonymous detail and search agree, and both show what the step should leave. */
  async function expectConsistent(s: Subject, step: Step): Promise<void> {
    const detail = await t.http.get(`/api/v4/addons/addon/${s.id}/`);
    const found = await t.http.get('/api/v4/addons/search/').query({ q: s.word });
    const promoted = await t.http.get('/api/v4/addons/search/').query({ q: s.word, promoted: 'recommended' });
    expect([step.name, found.status, promoted.status]).toEqual([step.name, 200, 200]);
    const inSearch = (found.body.results as { id: number }[]).some((r) => r.id === s.id);
    const inPromoted = (promoted.body.results as { id: number }[]).some((r) => r.id === s.id);
    const visible = detail.status === 200;
    expect([step.name, visible, inSearch]).toEqual([step.name, step.public, visible]);
    const detailPromoted = visible && (detail.body.promoted as { category: string } | null)?.category === 'recommended';
    expect([step.name, detailPromoted, inPromoted]).toEqual([step.name, step.promoted, detailPromoted]);
  }

  it('PostgreSQL engine: in search exactly when detail answers 200, in promoted search exactly when detail is promoted', async () => {
    expect(t.app.services.search.engineName).toBe('postgres');
    const owner = await caller();
    const s = await subject(owner);
    await expectConsistent(s, { name: 'created', run: async () => ({}), public: true, promoted: false });
    for (const step of steps(owner)) {
      ok(await step.run(s));
      await expectConsistent(s, step);
    }
    // Deletion of the add-on.
    const deleted = await subject(owner);
    const deletion: Step = {
      name: 'add-on deleted',
      run: (x) => deleteAddon(owner, x.id),
      public: false,
      promoted: false,
    };
    ok(await deletion.run(deleted));
    await expectConsistent(deleted, deletion);
  });

  /** A Meilisearch adapter with no server: settings are skipped, the index records what it is told. */
  function meilisearchWithoutServer() {
    const engine = new MeilisearchEngine(t.app.db, { url: 'http://127.0.0.1:9', indexName: 'lifecycle-audit' });
    const calls: ['add' | 'delete', number[]][] = [];
    const task = { waitTask: async () => undefined };
    Object.assign(engine as unknown as Record<string, unknown>, {
      settingsApplied: Promise.resolve(),
      index_: {
        addDocuments: (docs: { id: number }[]) => (calls.push(['add', docs.map((d) => d.id)]), task),
        deleteDocuments: (ids: number[]) => (calls.push(['delete', [...ids]]), task),
      },
    });
    const documents = (ids: number[]) =>
      (
        engine as unknown as {
          documents(
            ids: readonly number[],
          ): Promise<{ id: number; name_text: string; promoted_category: number | null }[]>;
        }
      ).documents(ids);
    return { engine, calls, documents };
  }

  /** Runs `fn` with the app's search service on `engine` (the composition root picks one at boot). */
  async function withSearchEngine(engine: MeilisearchEngine, fn: () => Promise<void>): Promise<void> {
    const service = t.app.services.search as unknown as { engine: unknown };
    const original = service.engine;
    service.engine = engine;
    try {
      await fn();
    } finally {
      service.engine = original;
    }
  }

  it('Meilisearch adapter: each queued search-index job names the add-on, and index() then adds or deletes its document', async () => {
    const meili = meilisearchWithoutServer();
    const owner = await caller();
    const s = await subject(owner);
    const other = await subject(owner);

    // The document query itself, against the database: one document for a public add-on, none otherwise.
    const [doc] = await meili.documents([s.id]);
    expect(doc).toMatchObject({ id: s.id, promoted_category: null });
    expect(doc.name_text).toContain(s.word);
    expect((await meili.documents([s.id, other.id, 2_000_000_000])).map((d) => d.id).sort()).toEqual(
      [s.id, other.id].sort(),
    );

    const all = [
      ...steps(owner),
      { name: 'add-on deleted', run: (x: Subject) => deleteAddon(owner, x.id), public: false, promoted: false },
    ];
    // The add-on deletion runs on the second add-on: the last version deletion left the first one incomplete.
    for (const step of all) {
      const target = step.name === 'add-on deleted' ? other : s;
      const { result, jobs } = await observe(target.id, () => step.run(target));
      ok(result as GraphqlBody);
      const indexJobs = jobs.filter((j) => j.data.subscriber === 'search-index');
      expect([step.name, indexJobs.length]).toEqual([step.name, 1]);
      const addonId = (indexJobs[0].data.event.data as { addonId: number }).addonId;
      expect([step.name, addonId]).toEqual([step.name, target.id]);

      // The queued job, delivered by hand to the app's own search-index subscriber with the search
      // service on the Meilisearch adapter: it calls index([addonId]).
      meili.calls.length = 0;
      await withSearchEngine(meili.engine, () => t.app.services.events.deliver(indexJobs[0].data));
      const visible = (await t.http.get(`/api/v4/addons/addon/${target.id}/`)).status === 200;
      expect([step.name, visible]).toEqual([step.name, step.public]);
      expect([step.name, meili.calls]).toEqual([step.name, [[visible ? 'add' : 'delete', [target.id]]]]);
      const docs = await meili.documents([target.id]);
      expect([step.name, docs.length]).toEqual([step.name, visible ? 1 : 0]);
      if (visible) {
        expect([step.name, docs[0].promoted_category]).toEqual([step.name, step.promoted ? 2 : null]);
      }
    }
  });
});
