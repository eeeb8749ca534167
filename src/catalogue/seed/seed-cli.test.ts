import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/database.js';
import { runTs } from '../../../test/helpers/process.js';

/** `npm run -s cli -- catalogue:seed` as a process, on the embedded default or the real PostgreSQL. */
let dataDir: string;
let database: TestDatabase;
let env: Record<string, string>;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'addons-seed-cli-'));
  database = await createTestDatabase();
  env = { DATA_DIR: dataDir, ...(database.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}) };
});
afterAll(async () => {
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runTs('src/cli.ts', ['catalogue:seed', ...args], env, 120_000);

describe('npm run cli -- catalogue:seed', () => {
  it('prints one JSON object on stdout and its progress on stderr', async () => {
    const run = await cli('--addons', '40', '--seed', '5');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]);
    expect(Object.keys(out)).toEqual([
      'addons',
      'versions',
      'files',
      'users',
      'previews',
      'compat',
      'authors',
      'featured',
      'seed',
      'firstAddonId',
      'seconds',
    ]);
    expect(out).toMatchObject({ addons: 40, users: 14, seed: 5, firstAddonId: 1 });
    expect(out.versions).toBeGreaterThanOrEqual(40);
    expect(out.seconds).toEqual(expect.any(Number));
    // Not a terminal: plain lines, no carriage returns.
    expect(run.stderr).not.toContain('\r');
    expect(run.stderr).toMatch(/^users .*100\.0%.*in \d+s$/m);
    expect(run.stderr).toMatch(/^add-ons .*100\.0% +40\/40 .*rows\/s +in \d+s$/m);
  }, 180_000);

  it('refuses to seed a non-empty catalogue without --append, and rejects bad options', async () => {
    const refused = await cli('--addons', '5');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('The catalogue already has 40 add-ons; give --append to add more.');
    const appended = await cli('--addons', '5', '--append');
    expect(appended.code).toBe(0);
    expect(JSON.parse(appended.stdout)).toMatchObject({ addons: 5, firstAddonId: 41 });
    const usage = await cli('--addons', 'many');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--addons must be a non-negative integer');
    expect((await cli()).stderr).toContain('--addons is required');
  }, 300_000);
});
