import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { runTs } from './helpers/process.js';

/** The real `npm run cli` entry point, on the embedded default or the real PostgreSQL. */
let dataDir: string;
let database: TestDatabase;
let env: Record<string, string>;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'addons-cli-'));
  database = await createTestDatabase();
  env = { DATA_DIR: dataDir, ...(database.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}) };
});
afterAll(async () => {
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runTs('src/cli.ts', args, env);

describe('npm run cli', () => {
  it('users:create prints exactly one JSON object', async () => {
    const run = await cli(
      'users:create',
      '--email',
      'Dev@Example.com',
      '--username',
      'dev_one',
      '--name',
      'Dev One',
      '--permission',
      'Addons:Review',
      '--permission',
      'Users:Edit',
      '--group',
      'Curators',
      '--api-key',
      '--session',
    );
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]);
    expect(Object.keys(out)).toEqual(['id', 'username', 'email', 'permissions', 'apiKey', 'sessionToken']);
    expect(out).toMatchObject({
      username: 'dev_one',
      email: 'dev@example.com',
      permissions: ['Addons:Review', 'Admin:Curation', 'Collections:Contribute', 'Users:Edit'],
    });
    expect(out.apiKey.key).toMatch(new RegExp(`^user:${out.id}:\\d{1,3}$`));
    expect(out.apiKey.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(out.sessionToken).toEqual(expect.any(String));
  });

  it('users:create without extras gives a generated username and null credentials', async () => {
    const out = JSON.parse((await cli('users:create', '--email', 'plain@example.com')).stdout);
    expect(out.username).toMatch(/^anonymous-[0-9a-f]{32}$/);
    expect(out).toMatchObject({ permissions: [], apiKey: null, sessionToken: null });
  });

  it('refuses bad input with a message on stderr and a non-zero exit', async () => {
    const duplicate = await cli('users:create', '--email', 'plain@example.com');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stdout).toBe('');
    expect(duplicate.stderr).toContain('email: A user with this email address already exists.');
    const group = await cli('users:create', '--email', 'g@example.com', '--group', 'Nope');
    expect(group.code).toBe(1);
    expect(group.stderr).toContain('Group "Nope" does not exist.');
    const usage = await cli('users:create', '--emial', 'x@example.com');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: users:create');
    expect((await cli('nope')).code).toBe(2);
    expect((await cli('users:create')).stderr).toContain('--email is required');
  });

  it('site:set switches maintenance mode and the notice', async () => {
    const on = await cli('site:set', '--read-only', 'true', '--notice', 'Maintenance until noon');
    expect(on.code).toBe(0);
    expect(JSON.parse(on.stdout)).toEqual({ read_only: true, notice: 'Maintenance until noon' });
    const off = await cli('site:set', '--read-only', 'false', '--notice', '');
    expect(JSON.parse(off.stdout)).toEqual({ read_only: false, notice: null });
    const bad = await cli('site:set', '--read-only', 'maybe');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--read-only must be true or false');
  });

  it('explains bad configuration instead of crashing', async () => {
    const run = await runTs('src/cli.ts', ['site:set', '--read-only', 'true'], { ...env, DATABASE_URL: 'mysql://x' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('DATABASE_URL: must be a URL starting with postgres:// or postgresql://');
  });
});

describe('the embedded database lock', () => {
  it('refuses to open a data directory another live process is using', async () => {
    const locked = mkdtempSync(join(tmpdir(), 'addons-lock-'));
    try {
      writeFileSync(join(locked, '.lock'), String(process.pid));
      const run = await runTs('src/cli.ts', ['site:set', '--read-only', 'false'], { DATA_DIR: locked });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`is in use by another process (pid ${process.pid})`);
    } finally {
      rmSync(locked, { recursive: true, force: true });
    }
  });
});
