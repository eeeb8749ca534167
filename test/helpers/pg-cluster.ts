import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './process.js';

const run = promisify(execFile);

/** PostgreSQL 15's server programs (Debian's layout); PG_BIN overrides. */
const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * A throwaway PostgreSQL cluster of the test's own (initdb into a temporary directory, pg_ctl on a
 * free loopback port), which the test may stop and start at will: the machine's shared server is
 * never touched. The server runs as the `postgres` OS user when the test runs as root (initdb
 * refuses root).
 */
export class ThrowawayCluster {
  private constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly asUser: string | null,
  ) {}

  /** Why clusters cannot be made here, or null when they can. */
  static unavailable(): string | null {
    for (const program of ['initdb', 'pg_ctl']) {
      if (!existsSync(join(BIN, program))) return `${join(BIN, program)} is missing (set PG_BIN)`;
    }
    if (userInfo().uid === 0 && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) {
      return 'running as root without runuser (initdb refuses root)';
    }
    return null;
  }

  static async create(): Promise<ThrowawayCluster> {
    const root = userInfo().uid === 0;
    const dir = mkdtempSync(join(tmpdir(), 'addons-pg-'));
    if (root) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    const cluster = new ThrowawayCluster(dir, await freePort(), root ? 'postgres' : null);
    await cluster.exec('initdb', ['-D', cluster.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    await cluster.start();
    return cluster;
  }

  private get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** The cluster's `postgres` database. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
    await this.exec('pg_ctl', ['-D', this.dataDir, '-o', options, '-l', join(this.dir, 'log'), '-w', 'start']);
  }

  /** Stops the server: `fast` disconnects every session (a database restart), `immediate` is a crash. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.exec('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', 'stop']);
  }

  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async exec(program: string, args: string[]): Promise<void> {
    const path = join(BIN, program);
    const [command, argv] = this.asUser ? ['runuser', ['-u', this.asUser, '--', path, ...args]] : [path, args];
    await run(command, argv, { timeout: 60_000 });
  }
}
