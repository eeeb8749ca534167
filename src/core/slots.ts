import { errors } from './errors.js';

/**
 * A small counting semaphore: `run` waits for a free slot, behind at most `maxWaiting` others;
 * past that it throws THROTTLED at once (with `retryAfter` seconds).
 */
export class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(
    /** Tasks run at once. */
    readonly size: number,
    /** Tasks that may wait for a slot. */
    readonly maxWaiting = Number.POSITIVE_INFINITY,
    /** Seconds a throttled caller is told to wait. */
    private readonly retryAfter = 2,
  ) {}

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) {
      if (this.waiting.length >= this.maxWaiting) throw errors.throttled(this.retryAfter);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.active += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
