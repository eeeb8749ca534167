import { AddonStatus, Channel, FileStatus } from '../src/catalogue/catalogue.enums.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { createAddon } from './helpers/catalogue.js';
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
