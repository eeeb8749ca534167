import pg from 'pg';

/** The key under which a job row records the process running it (in pg-boss's `output` column). */
export const OWNER_FIELD = 'runningOwner';

/** SQL for the advisory-lock key of an owner id (a UUID): its first 64 bits. */
export function ownerLockKey(ownerExpression: string): string {
  return `('x' || left(replace(${ownerExpression}, '-', ''), 16))::bit(64)::bigint`;
}

/**
 * Proof of life on a shared PostgreSQL: a dedicated session holds a session-level advisory lock
 * keyed by this process's owner id for as long as the process lives. PostgreSQL drops the lock when
 * the session ends (process killed, host gone once TCP keepalives give up), so another instance that
 * can take the lock knows the owner is dead and its active jobs are orphans.
 */
export class OwnerLease {
  #client: pg.Client | null = null;
  #closed = false;
  #retry: NodeJS.Timeout | null = null;

  constructor(
    readonly owner: string,
    private readonly connectionString: string,
    private readonly onError: (error: Error) => void,
  ) {}

  /** False while the session is lost: the process must not claim jobs it could not prove it owns. */
  get held(): boolean {
    return this.#client !== null;
  }

  async acquire(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: 'addons-jobs-lease',
      keepAlive: true,
    });
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, new Error('The job owner lease session ended')));
    await client.connect();
    try {
      // Server-side keepalives end the session (and free the lock) soon after the host disappears.
      await client.query(
        'SET tcp_keepalives_idle = 30; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 3',
      );
      const { rows } = await client.query<{ locked: boolean }>(
        `SELECT pg_try_advisory_lock(${ownerLockKey('$1::text')}) AS locked`,
        [this.owner],
      );
      if (!rows[0]?.locked) throw new Error(`Job owner lock ${this.owner} is already held`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (this.#closed) await client.end().catch(() => {});
    else this.#client = client;
  }

  async release(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => {});
  }

  #lost(client: pg.Client, error: Error): void {
    if (this.#client !== client) return;
    this.#client = null;
    client.end().catch(() => {});
    if (this.#closed) return;
    this.onError(error);
    this.#scheduleReacquire(1000);
  }

  #scheduleReacquire(delayMs: number): void {
    this.#retry = setTimeout(() => {
      this.#retry = null;
      if (this.#closed || this.#client) return;
      this.acquire().catch((error: Error) => {
        this.onError(error);
        this.#scheduleReacquire(Math.min(delayMs * 2, 30_000));
      });
    }, delayMs);
  }
}
