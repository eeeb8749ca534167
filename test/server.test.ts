import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from './helpers/database.js';
import { freePort, runTs, startTs } from './helpers/process.js';

/** The real entry point: boots with zero setup, serves, and shuts down cleanly on SIGTERM. */
describe('the server process', () => {
  it('serves the site status and stops gracefully', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'addons-server-'));
    const database = await createTestDatabase();
    const port = await freePort();
    const child = startTs('src/main.ts', {
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      ...(database.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    try {
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 90_000;
      for (;;) {
        const ok = await fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      const res = await fetch(`${base}/api/v4/site/`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.text()).toBe('{"read_only":false,"notice":null}');
      expect(stderr).toContain(`GraphQL:  ${base}/graphql`);
      expect(stderr).toContain(`REST:     ${base}/api/v4/`);

      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect([code, code === 0 ? '' : stderr.slice(-3000)]).toEqual([0, '']);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses to start on invalid configuration, naming the variable', async () => {
    const run = await runTs('src/main.ts', [], { PORT: 'eighty', OUTGOING_URL: 'ftp://x' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Invalid configuration:');
    expect(run.stderr).toContain('PORT:');
    expect(run.stderr).toContain('OUTGOING_URL: must be a URL starting with http:// or https://');
  });
});
