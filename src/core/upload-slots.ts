import { errors } from './errors.js';

export interface UploadSlotsOptions {
  /** Uploads of one account waiting for a slot; one more is refused (429). Default 4 x the slots. */
  maxWaiting?: number;
  /** The longest an upload waits for a slot before it is refused (429). Default 60 s. */
  waitMs?: number;
}

interface Waiter {
  grant: () => void;
}

/** What `acquireFor` needs of a response. */
export interface ResponseEvents {
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

interface Account {
  active: number;
  waiting: Waiter[];
}

/**
 * Caps the uploads one account streams into this process at once (REST and GraphQL multipart
 * alike). Slots are taken after authentication, before the body is read, and given back when the
 * response is done. An upload beyond the slots waits in the account's line (first come, first
 * served; its body is not read meanwhile) rather than being refused: the signing clients in use
 * (sign-addon, web-ext) do not retry a 429, and a developer's burst (a CI job signing several
 * add-ons at once) should just take a little longer. Only a line longer than `maxWaiting`, or a
 * wait past `waitMs`, is a 429 with `Retry-After`. One account's line never delays another's.
 */
export class UploadSlots {
  private readonly accounts = new Map<number, Account>();
  readonly maxWaiting: number;
  private readonly waitMs: number;

  constructor(
    readonly perUser: number,
    options: UploadSlotsOptions = {},
  ) {
    this.maxWaiting = options.maxWaiting ?? perUser * 4;
    this.waitMs = options.waitMs ?? 60_000;
  }

  /**
   * Takes a slot, waiting for one if need be; the returned function gives it back (once). Throws
   * THROTTLED when the line is full or the wait runs out, and stops waiting when `signal` aborts
   * (the client went away).
   */
  async acquire(userId: number, signal?: AbortSignal): Promise<() => void> {
    const account = this.accounts.get(userId) ?? { active: 0, waiting: [] };
    this.accounts.set(userId, account);
    if (account.active < this.perUser) {
      account.active += 1;
      return this.releaser(userId, account);
    }
    if (account.waiting.length >= this.maxWaiting || signal?.aborted) throw errors.throttled(UPLOAD_RETRY_SECONDS);
    await new Promise<void>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', refuse);
        const index = account.waiting.indexOf(waiter);
        if (index >= 0) account.waiting.splice(index, 1);
      };
      const refuse = () => {
        leave();
        this.forgetIfIdle(userId, account);
        reject(errors.throttled(UPLOAD_RETRY_SECONDS));
      };
      const waiter: Waiter = {
        // The releasing upload hands its slot over: `active` does not change.
        grant: () => {
          leave();
          resolve();
        },
      };
      const timer = setTimeout(refuse, this.waitMs);
      signal?.addEventListener('abort', refuse, { once: true });
      account.waiting.push(waiter);
    });
    return this.releaser(userId, account);
  }

  /**
   * `acquire` for an HTTP response: the wait ends if the client goes away, and the slot is given
   * back when the response closes (the returned function gives it back sooner).
   */
  async acquireFor(userId: number, res: ResponseEvents): Promise<() => void> {
    const gone = new AbortController();
    const abort = () => gone.abort();
    res.once('close', abort);
    let release: () => void;
    try {
      release = await this.acquire(userId, gone.signal);
    } finally {
      res.off('close', abort);
    }
    if (gone.signal.aborted) {
      release();
      throw errors.throttled(UPLOAD_RETRY_SECONDS);
    }
    res.once('close', release);
    return release;
  }

  inUse(userId: number): number {
    return this.accounts.get(userId)?.active ?? 0;
  }

  waiting(userId: number): number {
    return this.accounts.get(userId)?.waiting.length ?? 0;
  }

  private releaser(userId: number, account: Account): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = account.waiting[0];
      if (next) return next.grant();
      account.active -= 1;
      this.forgetIfIdle(userId, account);
    };
  }

  private forgetIfIdle(userId: number, account: Account): void {
    if (account.active <= 0 && account.waiting.length === 0 && this.accounts.get(userId) === account) {
      this.accounts.delete(userId);
    }
  }
}

const UPLOAD_RETRY_SECONDS = 5;
