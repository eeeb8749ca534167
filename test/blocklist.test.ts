import { createHash, randomUUID } from 'node:crypto';
import type { Addon } from '../src/catalogue/addon.entity.js';
import { AddonActivity } from '../src/catalogue/lifecycle/activity.entity.js';
import { parseCascade } from '../src/blocklist/mlbf/filter-cascade.js';
import { publishedState, type BaseFilters, type Stash } from '../src/blocklist/mlbf/publication.js';
import { HARD_BASE, SOFT_BASE } from '../src/blocklist/blocklist.publisher.js';
import { Block } from '../src/blocklist/block.entity.js';
import { requestPublication } from '../src/blocklist/publication-requests.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { createAddon } from './helpers/catalogue.js';
import { extension } from './helpers/signing.js';

type Json = Record<string, any>;

let t: TestApp;
let admin: string;
let plain: string;
let developer: KeyCaller;
/** Signed add-ons: `alpha` with versions 1.0 … 3.0, `beta` 1.0 and 2.0, `gamma` 1.0. */
let alpha: Addon;
let beta: Addon;
let gamma: Addon;

async function gql(query: string, variables: Json = {}, token: string | null = admin, app: TestApp = t) {
  const req = app.http.post('/graphql');
  if (token) req.set('Authorization', `Bearer ${token}`);
  return (await req.send({ query, variables })).body as { data?: Json; errors?: Json[] };
}

const BLOCK_FIELDS = 'id guid addonId addonName minVersion maxVersion isAllVersions versions soft reason url';

async function createBlock(input: Json, token: string | null = admin) {
  return gql(`mutation($input: BlockInput!) { createBlock(input: $input) { ${BLOCK_FIELDS} } }`, { input }, token);
}

/** Marks every file of the add-on signed (as the signing job leaves them). */
async function signAll(addon: Addon, app: TestApp = t) {
  await app
    .em()
    .getConnection()
    .execute('update files set is_signed = true where version_id in (select id from versions where addon_id = ?)', [
      addon.id,
    ]);
}

beforeAll(async () => {
  t = await startTestApp({ env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test' } });
  admin = (await t.createUser({ session: true, permission: ['Blocklist:Create'] })).sessionToken!;
  plain = (await t.createUser({ session: true })).sessionToken!;
  developer = await keyCaller(t);
  const em = t.em();
  const authors = [{ id: developer.id }];
  alpha = await createAddon(em, {
    guid: 'alpha@blocklist.test',
    name: { 'en-US': 'Alpha', fr: 'Alpha FR' },
    authors,
    versions: [{ version: '1.0' }, { version: '2.0' }, { version: '2.5b1' }, { version: '3.0' }],
  });
  beta = await createAddon(em, {
    guid: 'beta@blocklist.test',
    authors,
    versions: [{ version: '1.0' }, { version: '2.0' }],
  });
  gamma = await createAddon(em, { guid: 'gamma@blocklist.test', authors, versions: [{ version: '1.0' }] });
  for (const addon of [alpha, beta, gamma]) await signAll(addon);
}, 120_000);
afterAll(() => t?.close());

describe('blocks: who may write them and their rules', () => {
  it('refuses anonymous callers (401) and callers without a blocklist permission (403)', async () => {
    const anonymous = await createBlock({ guid: 'x@blocklist.test' }, null);
    expect(anonymous.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    const denied = await createBlock({ guid: 'x@blocklist.test' }, plain);
    expect(denied.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  it('checks every field before writing: id, range order, URL, lengths', async () => {
    const res = await createBlock({
      guid: ' ',
      minVersion: '3.0',
      maxVersion: '2.0',
      url: 'javascript:alert(1)',
      reason: 'x'.repeat(10_001),
    });
    expect(res.errors?.[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: {
        guid: ['This field may not be blank.'],
        min_version: ['Min version can not be greater than Max version.'],
        url: ['Enter a valid URL.'],
        reason: ['Ensure this field has no more than 10000 characters.'],
      },
    });
    const long = await createBlock({ guid: 'g'.repeat(256) });
    expect(long.errors?.[0].extensions.fields).toEqual({
      guid: ['Ensure this field has no more than 255 characters.'],
    });
    expect((await gql('{ blocks { count } }')).data?.blocks.count).toBe(0);
  });

  it('blocks a range of signed versions, in the browser version order, and records it in the audit log', async () => {
    const res = await createBlock({
      guid: 'alpha@blocklist.test',
      minVersion: '2.0',
      maxVersion: '3.0a1',
      reason: 'Exfiltrates browsing history',
      url: 'https://bugs.example.com/1',
    });
    expect(res.errors).toBeUndefined();
    expect(res.data?.createBlock).toMatchObject({
      guid: 'alpha@blocklist.test',
      addonId: alpha.id,
      addonName: { 'en-US': 'Alpha', fr: 'Alpha FR' },
      versions: ['2.0', '2.5b1'],
      isAllVersions: false,
      soft: false,
    });
    const again = await createBlock({ guid: 'alpha@blocklist.test' });
    expect(again.errors?.[0].extensions.fields).toEqual({ guid: ['A block for this add-on id already exists.'] });
    const log = await t.em().find(AddonActivity, { addon: alpha.id, action: 'blocked' });
    expect(log).toHaveLength(1);
    expect(log[0].details).toMatchObject({ block: { minVersion: '2.0', maxVersion: '3.0a1', soft: false } });
  });

  it('serves a block to anyone by id or guid, in the original v5 and v4 shapes', async () => {
    const v5 = await t.http.get('/api/v5/blocklist/block/alpha@blocklist.test/?lang=fr');
    expect(v5.status).toBe(200);
    expect(v5.body).toMatchObject({
      guid: 'alpha@blocklist.test',
      addon_name: { fr: 'Alpha FR' },
      blocked: ['2.0', '2.5b1'],
      soft_blocked: [],
      versions: ['2.0', '2.5b1'],
      reason: 'Exfiltrates browsing history',
      url: { url: 'https://bugs.example.com/1' },
      is_all_versions: false,
    });
    expect(v5.body).not.toHaveProperty('min_version');
    const v4 = await t.http.get(`/api/v4/blocklist/block/${v5.body.id}/?lang=fr`);
    expect(v4.body).toMatchObject({ addon_name: 'Alpha FR', min_version: '2.0', max_version: '2.5b1' });
    expect(v4.body.url).toBe('https://bugs.example.com/1');
    expect((await t.http.get('/api/v5/blocklist/block/nobody@blocklist.test/')).status).toBe(404);
    expect((await t.http.get('/api/v3/blocklist/block/alpha@blocklist.test/')).status).toBe(404);
  });

  it('refuses to take a blocked version for signing, and takes one outside the range', async () => {
    const upload = async (version: string) =>
      t.http
        .put(`/api/v4/addons/alpha@blocklist.test/versions/${version}/`)
        .set('Authorization', developer.jwt())
        .field('channel', 'unlisted')
        .attach('upload', await extension({ id: 'alpha@blocklist.test', version }), 'addon.xpi');
    const blocked = await upload('2.7');
    expect(blocked.status).toBe(400);
    expect(blocked.body.error).toMatch(
      /^Version 2\.7 matches \/api\/v5\/blocklist\/block\/alpha%40blocklist\.test\/ for this add-on\./,
    );
    const allowed = await upload('3.1');
    expect(allowed.status).toBe(202);
  });

  it('soft blocks, edits and removals are recorded; a closed add-on id blocked in full is "all versions"', async () => {
    const soft = await createBlock({ guid: 'beta@blocklist.test', soft: true });
    expect(soft.data?.createBlock).toMatchObject({ versions: ['1.0', '2.0'], soft: true, isAllVersions: false });
    const orphan = await createBlock({ guid: 'gone@blocklist.test' });
    expect(orphan.data?.createBlock).toMatchObject({ addonId: null, versions: [], isAllVersions: true });
    const id = orphan.data?.createBlock.id;
    const edited = await gql(
      `mutation($id: Int!) { updateBlock(id: $id, input: { reason: "Spam" }) { reason guid } }`,
      {
        id,
      },
    );
    expect(edited.data?.updateBlock).toEqual({ reason: 'Spam', guid: 'gone@blocklist.test' });
    const renamed = await gql(`mutation($id: Int!) { updateBlock(id: $id, input: { guid: "other@x" }) { id } }`, {
      id,
    });
    expect(renamed.errors?.[0].extensions.fields).toEqual({ guid: ['The add-on id of a block cannot change.'] });
    expect((await gql(`mutation($id: Int!) { deleteBlock(id: $id) }`, { id })).data?.deleteBlock).toBe(true);
    expect((await gql(`mutation($id: Int!) { deleteBlock(id: $id) }`, { id })).data?.deleteBlock).toBe(false);
  });
});

const collection = '/v1/buckets/blocklists/collections/addons-bloomfilters';

/** Every signed version's key in the app's database. */
async function signedKeysOf(app: TestApp): Promise<string[]> {
  const rows = await app
    .em()
    .getConnection()
    .execute<{ key: string }[]>(
      `select a.guid || ':' || v.version as key from versions v join addons a on a.id = v.addon_id
        where exists (select 1 from files f where f.version_id = v.id and f.is_signed)`,
    );
  return rows.map((row) => row.key);
}

/** What a browser reads: the base filters (checked against their hashes) and the stashes since them. */
async function browserViewOf(app: TestApp): Promise<{ base: BaseFilters; stashes: Stash[]; generation: number }> {
  const server = await app.http.get('/v1/');
  const attachments = new URL(server.body.capabilities.attachments.base_url).pathname;
  const records = (await app.http.get(`${collection}/changeset`)).body.changes as Json[];
  const filter = async (type: string) => {
    const record = records.find((r) => r.attachment_type === type)!;
    const bytes = (await app.http.get(`${attachments}${record.attachment.location}`).buffer(true)).body as Buffer;
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(record.attachment.hash);
    expect(bytes.length).toBe(record.attachment.size);
    return { cascade: parseCascade(bytes), time: record.generation_time as number };
  };
  const hard = await filter(HARD_BASE);
  const soft = await filter(SOFT_BASE);
  const stashes = records
    .filter((r) => r.stash && r.stash_time > hard.time)
    .sort((a, b) => a.stash_time - b.stash_time)
    .map((r) => r.stash as Stash);
  return { base: { hard: hard.cascade, soft: soft.cascade }, stashes, generation: hard.time };
}

/** Each key's state as a browser reads it (`publishedState`, the format's reader). */
async function browserSees(app: TestApp, keys: string[]): Promise<Record<string, 'hard' | 'soft' | 'none'>> {
  const { base, stashes } = await browserViewOf(app);
  return Object.fromEntries(keys.map((key) => [key, publishedState(key, base, stashes)]));
}

describe('publication for browsers (filter cascades and stashes over Remote Settings)', () => {
  const signedKeys = () => signedKeysOf(t);
  const expectBrowserSees = async (expected: Record<string, 'hard' | 'soft' | 'none'>) =>
    expect(await browserSees(t, Object.keys(expected))).toEqual(expected);

  it('publishes base filters: every blocked key in, every other signed key out', async () => {
    // Many more signed versions, so the filters have real layers.
    const em = t.em();
    for (let i = 0; i < 20; i++) {
      const addon = await createAddon(em, {
        guid: `filler${i}@blocklist.test`,
        versions: Array.from({ length: 10 }, (_, j) => ({ version: `${j}.0` })),
      });
      await signAll(addon);
    }
    const result = await t.app.services.blocklistPublisher.publish();
    expect(result).toMatchObject({ kind: 'base', blocked: 2, softBlocked: 2 });
    const keys = await signedKeys();
    expect(keys.length).toBe(result.signed);
    const expected = Object.fromEntries(keys.map((key) => [key, 'none'])) as Record<string, 'hard' | 'soft' | 'none'>;
    expected['alpha@blocklist.test:2.0'] = 'hard';
    expected['alpha@blocklist.test:2.5b1'] = 'hard';
    expected['beta@blocklist.test:1.0'] = 'soft';
    expected['beta@blocklist.test:2.0'] = 'soft';
    await expectBrowserSees(expected);
    const monitor = await t.http.get('/v1/buckets/monitor/collections/changes/changeset');
    expect(monitor.body.changes).toEqual([
      expect.objectContaining({ bucket: 'blocklists', collection: 'addons-bloomfilters' }),
    ]);
    expect((await t.http.get('/v1/attachments/blocklist/mlbf/1/secret.json')).status).toBe(404);
    expect((await t.http.get('/v1/buckets/main/collections/other/records')).body).toMatchObject({
      code: 404,
      errno: 111,
    });
  });

  it('publishes nothing when nothing changed, then stashes that give browsers the new state', async () => {
    expect((await t.app.services.blocklistPublisher.publish()).kind).toBe('none');
    // Block gamma, unblock beta, and sign a new version of a filler (never seen by the filters).
    expect((await createBlock({ guid: 'gamma@blocklist.test' })).errors).toBeUndefined();
    const betaBlock = (await gql('{ block(idOrGuid: "beta@blocklist.test") { id } }')).data?.block.id;
    await gql(`mutation($id: Int!) { deleteBlock(id: $id) }`, { id: betaBlock });
    const late = await createAddon(t.em(), { guid: 'late@blocklist.test', versions: [{ version: '1.0' }] });
    await signAll(late);
    const result = await t.app.services.blocklistPublisher.publish();
    expect(result.kind).toBe('stash');
    expect(result.stash).toMatchObject({
      blocked: ['gamma@blocklist.test:1.0'],
      softblocked: [],
      unblocked: expect.arrayContaining(['beta@blocklist.test:1.0', 'beta@blocklist.test:2.0']),
    });
    const keys = await signedKeys();
    const expected = Object.fromEntries(keys.map((key) => [key, 'none'])) as Record<string, 'hard' | 'soft' | 'none'>;
    expected['alpha@blocklist.test:2.0'] = 'hard';
    expected['alpha@blocklist.test:2.5b1'] = 'hard';
    expected['gamma@blocklist.test:1.0'] = 'hard';
    await expectBrowserSees(expected);
    // A new base replaces the stashes.
    const rebuilt = await t.app.services.blocklistPublisher.publish({ force: true });
    expect(rebuilt.kind).toBe('base');
    const records = (await t.http.get(`${collection}/records`)).body.data as Json[];
    expect(records.map((r) => r.attachment_type ?? 'stash').sort()).toEqual([HARD_BASE, SOFT_BASE]);
    await expectBrowserSees(expected);
  });

  it('GraphQL lists the same records', async () => {
    const res = await gql(
      '{ blocklistRecords { attachmentType keyFormat generationTime attachment { hash size } } }',
      {},
      null,
    );
    expect(res.data?.blocklistRecords).toHaveLength(2);
    expect(res.data?.blocklistRecords[0]).toMatchObject({ keyFormat: '{guid}:{version}', attachmentType: HARD_BASE });
  });

  it('a requested rebuild is kept in the database until a run publishes base filters, whatever its job says', async () => {
    const publisher = t.app.services.blocklistPublisher;
    expect((await publisher.publish()).kind).toBe('none');
    expect((await gql('mutation { publishBlocklist(rebuild: true) }')).data?.publishBlocklist).toBe(true);
    // Any run rebuilds (here one without `force`, as a job of another request), and only once.
    expect((await publisher.publish()).kind).toBe('base');
    expect((await publisher.publish()).kind).toBe('none');
  });

  (process.env.DATABASE_URL ? it : it.skip)(
    'a request committed while a run publishes makes that run publish again (PostgreSQL: concurrent transactions)',
    async () => {
      const publisher = t.app.services.blocklistPublisher;
      let requested!: () => void;
      let release!: () => void;
      const inTransaction = new Promise<void>((resolve) => (requested = resolve));
      const held = new Promise<void>((resolve) => (release = resolve));
      // A block change whose transaction is still open while the run reads and publishes.
      const change = t.em().transactional(async (tx) => {
        tx.create(Block, { guid: 'late@blocklist.test' });
        await tx.flush();
        await requestPublication(tx, t.app.services.jobs, false);
        requested();
        await held;
      });
      await inTransaction;
      const run = publisher.publish();
      // The run waits for the request's row lock as it settles; then the change commits.
      const waiting = () =>
        t
          .em()
          .getConnection()
          .execute<{ n: number }[]>(
            `select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock' and query like '%blocklist_requests%'`,
          );
      const deadline = Date.now() + 20_000;
      while ((await waiting())[0].n === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      release();
      await change;
      const result = await run;
      expect(result).toMatchObject({ kind: 'stash', stash: { blocked: ['late@blocklist.test:1.0'] } });
      expect(await browserSees(t, ['late@blocklist.test:1.0'])).toEqual({ 'late@blocklist.test:1.0': 'hard' });
    },
  );
});

describe('publication jobs: block changes publish at once, a rebuild is never lost (job workers on)', () => {
  /** The default BLOCKLIST_PUBLISH_DELAY_SECONDS (300 s) and job workers. */
  let q: TestApp;
  let qAdmin: string;
  const qgql = (query: string, variables: Json = {}) => gql(query, variables, qAdmin, q);
  const block = async (guid: string, input: Json = {}) => {
    const res = await qgql('mutation($input: BlockInput!) { createBlock(input: $input) { id } }', {
      input: { guid, ...input },
    });
    expect(res.errors).toBeUndefined();
    return res.data?.createBlock.id as number;
  };
  const keys = [
    'alpha@jobs.test:1.0',
    'alpha@jobs.test:2.0',
    'beta@jobs.test:1.0',
    'gamma@jobs.test:1.0',
    'delta@jobs.test:1.0',
  ];
  type Seen = Record<string, 'hard' | 'soft' | 'none'>;
  /** What browsers should read of the keys: `none` but for those named. */
  const only = (states: Seen): Seen => ({ ...Object.fromEntries(keys.map((key) => [key, 'none'])), ...states });
  const rebuild = async () =>
    expect((await qgql('mutation { publishBlocklist(rebuild: true) }')).data?.publishBlocklist).toBe(true);

  /** The post-signing publication still waiting (its delay far from over). */
  const delayedJobs = () =>
    q
      .em()
      .getConnection()
      .execute<{ name: string }[]>(
        `select name from pgboss.job where name like 'publish-blocklist%' and state = 'created'
          and start_after > now() + interval '200 seconds'`,
      );

  /** Runs `check` until it passes, every 100 ms for up to 20 s; its last failure otherwise. */
  async function eventually(check: () => Promise<void>) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        return await check();
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Browsers read `expected` (base filters and the stashes since). */
  const seen = (expected: Seen) => eventually(async () => expect(await browserSees(q, keys)).toEqual(expected));

  /** Browsers read `expected` from base filters published at or after `since`, with no stash over them. */
  const basePublished = (expected: Seen, since: number) =>
    eventually(async () => {
      const view = await browserViewOf(q);
      expect({ generation: view.generation >= since, stashes: view.stashes }).toEqual({
        generation: true,
        stashes: [],
      });
      expect(await browserSees(q, keys)).toEqual(expected);
    });

  beforeAll(async () => {
    q = await startTestApp({ env: { SITE_URL: 'http://addons.test' } });
    qAdmin = (await q.createUser({ session: true, permission: ['Blocklist:Create'] })).sessionToken!;
    const em = q.em();
    const alphaQ = await createAddon(em, {
      guid: 'alpha@jobs.test',
      versions: [{ version: '1.0' }, { version: '2.0' }],
    });
    for (const guid of ['beta@jobs.test', 'gamma@jobs.test', 'delta@jobs.test']) {
      await signAll(await createAddon(em, { guid, versions: [{ version: '1.0' }] }), q);
    }
    await signAll(alphaQ, q);
    const [version] = await em
      .getConnection()
      .execute<{ id: number }[]>('select id from versions where addon_id = ? order by id limit 1', [alphaQ.id]);
    // A signing's event, as the signing job's transaction queues it: the publication 300 s later.
    await q.app.services.events.deliver({
      subscriber: 'blocklist',
      event: {
        id: randomUUID(),
        type: 'version.signed',
        data: { addonId: alphaQ.id, versionId: version.id },
        occurredAt: new Date().toISOString(),
        actorId: null,
      },
    });
    expect(await delayedJobs()).toHaveLength(1);
  }, 120_000);
  afterAll(() => q?.close());

  it('publishes block creations, edits and removals within seconds while the post-signing publication waits', async () => {
    await block('alpha@jobs.test');
    await block('beta@jobs.test', { soft: true });
    const gammaBlock = await block('gamma@jobs.test');
    await seen(
      only({
        'alpha@jobs.test:1.0': 'hard',
        'alpha@jobs.test:2.0': 'hard',
        'beta@jobs.test:1.0': 'soft',
        'gamma@jobs.test:1.0': 'hard',
      }),
    );
    const alphaBlock = (await qgql('{ block(idOrGuid: "alpha@jobs.test") { id } }')).data?.block.id;
    const edited = await qgql('mutation($id: Int!) { updateBlock(id: $id, input: { minVersion: "2.0" }) { id } }', {
      id: alphaBlock,
    });
    expect(edited.errors).toBeUndefined();
    expect((await qgql('mutation($id: Int!) { deleteBlock(id: $id) }', { id: gammaBlock })).data?.deleteBlock).toBe(
      true,
    );
    await seen(only({ 'alpha@jobs.test:2.0': 'hard', 'beta@jobs.test:1.0': 'soft' }));
    expect(await delayedJobs()).toHaveLength(1);
  });

  it('publishBlocklist(rebuild: true) publishes new base filters while the post-signing publication waits', async () => {
    // (Base filters published before, if any: the previous test's block changes.)
    const before = await browserViewOf(q).then(
      (view) => view.generation,
      () => 0,
    );
    await rebuild();
    await basePublished(only({ 'alpha@jobs.test:2.0': 'hard', 'beta@jobs.test:1.0': 'soft' }), before + 1);
    expect(await delayedJobs()).toHaveLength(1);
  });

  it('a rebuild right after a block change publishes base filters with it, not only a stash', async () => {
    expect(await delayedJobs()).toHaveLength(1);
    const since = Date.now();
    await block('delta@jobs.test', { soft: true });
    await rebuild();
    await basePublished(
      only({ 'alpha@jobs.test:2.0': 'hard', 'beta@jobs.test:1.0': 'soft', 'delta@jobs.test:1.0': 'soft' }),
      since,
    );
  });
});
