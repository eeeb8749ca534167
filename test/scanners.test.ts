import { createHash } from 'node:crypto';
import { AddonStatus, Channel, FileStatus } from '../src/catalogue/catalogue.enums.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { createAddon } from './helpers/catalogue.js';
import { MAX_OWN_NAMES } from '../src/scanners/lookalike-keys.js';
import { normaliseName } from '../src/scanners/lookalike.js';
import { extension, waitFor } from './helpers/signing.js';

/**
 * The scanners on every upload (src/scanners): YARA rules managed by admins, secrets, look-alike
 * names; their results on the version for reviewers, and their actions (flag, delay, block) on
 * the signing pipeline. Job workers run: uploads go through validation, the scan, and signing.
 */

let t: TestApp;
let dev: Caller;
let admin: Caller;
let reviewer: Caller;

type Caller = KeyCaller;
/** The statements MikroORM logs while set (each with its result count). */
let statements: string[] | null = null;

const caller = (args: Parameters<TestApp['createUser']>[0] = {}) => keyCaller(t, args);

beforeAll(async () => {
  t = await startTestApp({
    env: {
      SIGNING_CA_KEY_BITS: '2048',
      SIGNING_KEY_POOL: '1',
      SITE_URL: 'http://addons.test',
      BROWSER_NAME: 'Browser',
      VENDOR_NAME: 'Vendor',
    },
    onQuery: (sql) => statements?.push(sql),
  });
  dev = await caller();
  admin = await caller({ permission: ['Admin:ScannersRulesEdit'] });
  reviewer = await caller({ permission: ['Addons:ReviewUnlisted', 'Reviews:Admin'] });
}, 120_000);
afterAll(() => t?.close());

const graphql = (who: Caller | null, query: string, variables: Record<string, unknown> = {}) => {
  const req = t.http.post('/graphql').send({ query, variables });
  return who ? req.set('Authorization', who.session) : req;
};

let counter = 0;
const uniqueGuid = (tag: string) => `${tag}-${Date.now()}-${++counter}@scanners.test`;

async function upload(guid: string, files: Record<string, string> = {}, name?: string) {
  const res = await t.http
    .put(`/api/v4/addons/${encodeURIComponent(guid)}/versions/1.0.0/`)
    .set('Authorization', dev.jwt())
    .attach('upload', await extension({ id: guid, files, name }), 'addon.xpi');
  expect(res.status).toBe(201);
}

interface Result {
  scanner: string;
  action: string;
  matches: { rule: string; file: string | null; line: number | null; addonId: number | null; action: string }[];
}

/** The version's id and scanner results once the scan has run (seen by a reviewer). */
async function scanned(guid: string): Promise<{ id: number; results: Result[] }> {
  return waitFor(`${guid} scanned`, async () => {
    const [row] = await t
      .em()
      .getConnection()
      .execute<{ id: number }[]>(
        `select v.id from versions v join addons a on a.id = v.addon_id where a.guid = ? and exists
          (select 1 from scanners_results r where r.version_id = v.id)`,
        [guid],
      );
    if (!row) return null;
    const res = await graphql(reviewer, RESULTS_BY_ID, { guid, id: row.id });
    expect(res.body.errors).toBeUndefined();
    return { id: row.id, results: res.body.data.addonVersion.scannerResults as Result[] };
  });
}

const RESULTS_BY_ID = `query($guid: String!, $id: Int!) { addonVersion(addon: $guid, id: $id) { id scannerResults {
  scanner action matches { rule file line addonId name action } } } }`;

async function fileStatus(versionId: number) {
  const [row] = await t
    .em()
    .getConnection()
    .execute<{ status: number; is_signed: boolean }[]>('select status, is_signed from files where version_id = ?', [
      versionId,
    ]);
  return row!;
}

const RULE = `mutation($input: ScannerRuleInput!) { createScannerRule(input: $input) { id name action isActive } }`;

/** An admin's rule `name` matching `text`, with `action`. */
const stringRule = (name: string, text: string, action: string) =>
  graphql(admin, RULE, {
    input: { name, definition: `rule ${name} { strings: $a = "${text}" condition: $a }`, action },
  });

describe('YARA rules (admins)', () => {
  it('compile-checks a rule when saved: a bad rule is a field error', async () => {
    const bad = await graphql(admin, RULE, {
      input: { name: 'broken', definition: 'rule broken { condition: $nothing }', action: 'FLAG_FOR_HUMAN_REVIEW' },
    });
    expect(bad.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(bad.body.errors[0].extensions.fields.definition[0]).toMatch(/undefined string/);
    const forbidden = await graphql(dev, RULE, { input: { name: 'x', definition: 'rule x { condition: true }' } });
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('a YARA hit on an unlisted upload stops automatic signing and reaches the unlisted queue with its reason', async () => {
    const created = await stringRule('coinhive_miner', 'CoinHive.Anonymous', 'FLAG_FOR_HUMAN_REVIEW');
    expect(created.body.data.createScannerRule).toMatchObject({ name: 'coinhive_miner', isActive: true });
    const guid = uniqueGuid('miner');
    await upload(guid, { 'lib/mine.js': 'const miner = new CoinHive.Anonymous("key");\n' });
    const { id, results } = await scanned(guid);
    expect(results.find((r) => r.scanner === 'yara')).toMatchObject({
      action: 'FLAG_FOR_HUMAN_REVIEW',
      matches: [{ rule: 'coinhive_miner', file: 'lib/mine.js' }],
    });
    const queue = await graphql(
      reviewer,
      `
        {
          reviewQueue(channel: UNLISTED, pageSize: 50) {
            items {
              version {
                id
              }
              reasons {
                reason
                details
              }
            }
          }
        }
      `,
    );
    expect(queue.body.errors).toBeUndefined();
    const item = queue.body.data.reviewQueue.items.find((i: { version: { id: number } }) => i.version.id === id);
    expect(item.reasons).toEqual([
      expect.objectContaining({
        reason: 'SCANNER_ACTION',
        details: expect.objectContaining({ scanner: 'yara', rule: 'coinhive_miner' }),
      }),
    ]);
    // Not signed, still waiting (the sign job was never queued).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await fileStatus(id)).toEqual({ status: FileStatus.AWAITING_REVIEW, is_signed: false });

    // Disabled, the rule no longer runs.
    const ruleId = created.body.data.createScannerRule.id;
    const disabled = await graphql(
      admin,
      `
        mutation ($id: Int!) {
          updateScannerRule(id: $id, input: { isActive: false }) {
            isActive
          }
        }
      `,
      { id: ruleId },
    );
    expect(disabled.body.data.updateScannerRule.isActive).toBe(false);
    const rules = await graphql(admin, '{ scannerRules { name isActive } }');
    expect(rules.body.data.scannerRules).toContainEqual({ name: 'coinhive_miner', isActive: false });
  });

  it("delay: the add-on's automatic approval is delayed and the signature waits", async () => {
    await stringRule('suspicious_eval', 'eval(atob(', 'DELAY_AUTO_APPROVAL');
    const guid = uniqueGuid('delayed');
    const before = Date.now();
    await upload(guid, { 'lib/loader.js': 'eval(atob("YWxlcnQoMSk="));\n' });
    const { id, results } = await scanned(guid);
    expect(results.find((r) => r.scanner === 'yara')!.action).toBe('DELAY_AUTO_APPROVAL');
    const [flags] = await t
      .em()
      .getConnection()
      .execute<{ until: Date }[]>(
        `select f.auto_approval_delayed_until as until from addon_reviewer_flags f
          join addons a on a.id = f.addon_id where a.guid = ?`,
        [guid],
      );
    const delay = new Date(flags!.until).getTime() - before;
    expect(delay).toBeGreaterThan(23 * 3600 * 1000);
    expect(delay).toBeLessThan(25 * 3600 * 1000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await fileStatus(id)).toEqual({ status: FileStatus.AWAITING_REVIEW, is_signed: false });
  });

  it('block: the version is rejected, never signed', async () => {
    await stringRule('known_malware', 'steal_all_passwords()', 'BLOCK');
    const guid = uniqueGuid('blocked');
    await upload(guid, { 'background.js': 'steal_all_passwords();\n' });
    const { id } = await scanned(guid);
    await waitFor('file disabled', async () => (await fileStatus(id)).status === FileStatus.DISABLED);
    expect((await fileStatus(id)).is_signed).toBe(false);
  });
});

describe('secrets', () => {
  it('a secret in a package is reported with file and line; a clean upload is still signed automatically', async () => {
    const guid = uniqueGuid('secret');
    await upload(guid, {
      'lib/config.js': [
        '// settings',
        'const region = "us-east-1";',
        'const awsKey = "AKIAIOSFODNN7EXAMPLE";',
        '',
        'const api_key = "0123456789abcdef0123";',
      ].join('\n'),
    });
    const { results } = await scanned(guid);
    expect(results.find((r) => r.scanner === 'secrets')!.matches).toEqual([
      expect.objectContaining({ rule: 'aws_access_key_id', file: 'lib/config.js', line: 3 }),
      expect.objectContaining({ rule: 'generic_api_key', file: 'lib/config.js', line: 5 }),
    ]);

    const clean = uniqueGuid('clean');
    await upload(clean);
    const scan = await scanned(clean);
    expect(scan.results.every((r) => r.matches.length === 0 && r.action === 'NO_ACTION')).toBe(true);
    await waitFor('clean version signed and approved', async () => {
      const file = await fileStatus(scan.id);
      return file.is_signed && file.status === FileStatus.APPROVED;
    });
  });

  it("a new version is searched where it changed; an unchanged file's secret is still reported", async () => {
    const guid = uniqueGuid('versions');
    const config = 'const region = "eu";\nconst awsKey = "AKIAIOSFODNN7EXAMPLE";\n';
    await upload(guid, { 'lib/config.js': config });
    await scanned(guid);
    const res = await t.http
      .put(`/api/v4/addons/${encodeURIComponent(guid)}/versions/1.0.1/`)
      .set('Authorization', dev.jwt())
      .attach(
        'upload',
        await extension({
          id: guid,
          version: '1.0.1',
          files: { 'lib/config.js': config, 'lib/new.js': 'xoxb-1234567890-abcdef\n' },
        }),
        'addon.xpi',
      );
    expect(res.status).toBe(202);
    const second = await waitFor(`${guid} 1.0.1 scanned`, async () => {
      const [row] = await t
        .em()
        .getConnection()
        .execute<{ matches: { rule: string; file: string; line: number }[] }[]>(
          `select r.matches from scanners_results r join versions v on v.id = r.version_id join addons a on a.id = v.addon_id
            where a.guid = ? and v.version = '1.0.1' and r.scanner = 'secrets'`,
          [guid],
        );
      return row ?? null;
    });
    expect(second.matches).toEqual([
      expect.objectContaining({ rule: 'aws_access_key_id', file: 'lib/config.js', line: 2 }),
      expect.objectContaining({ rule: 'slack_token', file: 'lib/new.js', line: 1 }),
    ]);
  });

  it('results are for reviewers only (GraphQL and the v4 reviewer route)', async () => {
    const guid = uniqueGuid('private');
    await upload(guid, { 'key.pem': 'x\n-----BEGIN PRIVATE KEY-----\nMIIE\n' });
    const { id } = await scanned(guid);
    const [addon] = await t
      .em()
      .getConnection()
      .execute<{ id: number }[]>('select id from addons where guid = ?', [guid]);
    const path = `/api/v4/reviewers/addon/${addon!.id}/versions/${id}/scanner_results/`;
    const rest = await t.http.get(path).set('Authorization', reviewer.session);
    expect(rest.status).toBe(200);
    expect(rest.body.find((r: { scanner: string }) => r.scanner === 'secrets')).toMatchObject({
      action: 'flag_for_human_review',
      results: [{ rule: 'private_key', file: 'key.pem', line: 2, action: 'flag_for_human_review' }],
    });
    expect((await t.http.get(path).set('Authorization', dev.session)).status).toBe(403);
    expect((await t.http.get(path)).status).toBe(401);
    const res = await graphql(dev, RESULTS_BY_ID, { guid, id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.addonVersion).toEqual({ id, scannerResults: null });
  });
});

describe('look-alike names', () => {
  it('a new add-on whose normalised name equals a public one is flagged', async () => {
    const original = await createAddon(t.em(), {
      status: AddonStatus.PUBLIC,
      name: { 'en-US': 'Password Keeper Deluxe' },
      versions: [{ version: '1.0', channel: Channel.LISTED }],
    });
    const guid = uniqueGuid('lookalike');
    await upload(guid, {}, 'PassW0rd  Keeper-Deluxé');
    const { id, results } = await scanned(guid);
    expect(results.find((r) => r.scanner === 'lookalike')!.matches).toEqual([
      expect.objectContaining({ rule: 'lookalike', addonId: original.id, action: 'FLAG_FOR_HUMAN_REVIEW' }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await fileStatus(id)).is_signed).toBe(false);
  });
});

describe('look-alike names at scale (stored keys)', () => {
  /** Rows each logged statement returned ("[took 1 ms, 3 results]"). */
  const resultCounts = (logged: readonly string[]) =>
    logged.map((line) => Number(/(\d+) results?\]/.exec(line)?.[1] ?? 0));
  const publicAddon = (name: Record<string, string>, authors: { id: number }[] = []) =>
    createAddon(t.em(), { status: AddonStatus.PUBLIC, name, authors, versions: [{ version: '1.0' }] });
  /** A name unlike the others (letters drawn from a hash of `i`). */
  const filler = (i: number) => {
    const letters = [...createHash('sha256').update(String(i)).digest()].map((b) => 'bcdfghjkmnpqrstvwxz'[b % 19]);
    return `${letters.slice(0, 7).join('')} ${letters.slice(7, 14).join('')}`;
  };
  const find = (name: Record<string, string>) =>
    t.app.services.scanners.names.find(t.em(), { id: 0, name, defaultLocale: 'en-US' });

  it('a scan reads candidates through the index, never every public add-on', async () => {
    // A first scan: after the migration, it computes the keys of the add-ons written before (once).
    const first = uniqueGuid('first');
    await upload(first, {}, 'First Scan');
    await scanned(first);
    for (let i = 0; i < 60; i++) await publicAddon({ 'en-US': filler(i), de: filler(i + 1000) });
    const original = await publicAddon({ 'en-US': 'Lantern Bookmark Sorter' });
    const guid = uniqueGuid('lantern');
    statements = [];
    try {
      await upload(guid, {}, 'Lantern B00kmark Sorter');
      const { results } = await scanned(guid);
      expect(results.find((r) => r.scanner === 'lookalike')!.matches).toEqual([
        expect.objectContaining({ addonId: original.id, name: 'Lantern Bookmark Sorter' }),
      ]);
      // The old scan's read of every public add-on returned 60+ rows in one statement.
      expect(Math.max(...resultCounts(statements))).toBeLessThan(60);
    } finally {
      statements = null;
    }
  });

  it('costs the same few statements whatever the size of the catalogue, and bounds the own names', async () => {
    const counted = async (name: Record<string, string>) => {
      statements = [];
      try {
        const hits = await find(name);
        return { hits, statements: statements.length, rows: Math.max(...resultCounts(statements)) };
      } finally {
        statements = null;
      }
    };
    const before = await counted({ 'en-US': `${filler(7)}s` });
    for (let i = 60; i < 120; i++) await publicAddon({ 'en-US': filler(i) });
    const after = await counted({ 'en-US': `${filler(7)}s` });
    expect(before.hits).toEqual([expect.objectContaining({ name: filler(7) })]);
    expect(after.hits).toEqual(before.hits);
    expect(after.statements).toBe(before.statements);
    expect(after.statements).toBeLessThanOrEqual(4);
    expect(after.rows).toBeLessThan(60);
    // 40 distinct own names: MAX_OWN_NAMES of them are compared, the default locale's first, then
    // by locale code (en-US, x-0, x-1, x-10 … x-16): a look-alike in x-9 is compared only as the default.
    expect(MAX_OWN_NAMES).toBe(10);
    const many: Record<string, string> = { 'en-US': filler(500) };
    for (let i = 0; i < 39; i++) many[`x-${i}`] = filler(600 + i);
    many['x-9'] = `${filler(7)}s`;
    const scanners = t.app.services.scanners;
    expect(await scanners.names.find(t.em(), { id: 0, name: many, defaultLocale: 'en-US' })).toEqual([]);
    expect(await scanners.names.find(t.em(), { id: 0, name: many, defaultLocale: 'x-9' })).toEqual(before.hits);
  });

  it('the stored keys follow the name: edits through the API, and raw writes (keyed again before the look-up)', async () => {
    const addon = await publicAddon({ 'en-US': 'Quiet Harbour Reader' }, [{ id: dev.id }]);
    expect(await find({ 'en-US': 'Qu1et Harbour Reader' })).toEqual([
      { addonId: addon.id, name: 'Quiet Harbour Reader' },
    ]);
    const keys = async () =>
      (
        await t
          .em()
          .getConnection()
          .execute<{ keys: string[] | null }[]>('select lookalike_keys as keys from addons where id = ?', [addon.id])
      )[0]!.keys;
    expect(await keys()).toContain(`=${normaliseName('Quiet Harbour Reader', ['Vendor', 'Browser'])}`);

    const renamed = await graphql(
      dev,
      `
        mutation ($addon: String!, $input: UpdateAddonListingInput!) {
          updateAddonListing(addon: $addon, input: $input) {
            id
            name
          }
        }
      `,
      { addon: String(addon.id), input: { name: { 'en-US': 'Velvet Compass Notes' } } },
    );
    expect(renamed.body.errors).toBeUndefined();
    // Written with the name, in the same statement: nothing left to catch up.
    expect(await keys()).toContain(`=${normaliseName('Velvet Compass Notes', ['Vendor', 'Browser'])}`);
    expect(await keys()).not.toContain(`=${normaliseName('Quiet Harbour Reader', ['Vendor', 'Browser'])}`);
    expect(await find({ 'en-US': 'Qu1et Harbour Reader' })).toEqual([]);
    expect(await find({ 'en-US': 'Velvet Compass Note' })).toEqual([
      { addonId: addon.id, name: 'Velvet Compass Notes' },
    ]);

    // A write without the keys (raw SQL) clears them (trigger); the next look-up keys the row again.
    await t
      .em()
      .getConnection()
      .execute(`update addons set name = '{"en-US": "Amber Signal Tracker"}' where id = ?`, [addon.id]);
    expect(await keys()).toBeNull();
    expect(await find({ 'en-US': 'Amber Signal Trackers' })).toEqual([
      { addonId: addon.id, name: 'Amber Signal Tracker' },
    ]);
    expect(await find({ 'en-US': 'Velvet Compass Note' })).toEqual([]);
    expect(await keys()).toContain(`=${normaliseName('Amber Signal Tracker', ['Vendor', 'Browser'])}`);
  });
});
