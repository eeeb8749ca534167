import { type KeyObject } from 'node:crypto';
import { KeyGenerator } from './key-generator.js';

export interface KeyPoolOptions {
  /** Keys kept ready. */
  size: number;
  bits: number;
  /**
   * Keys generated at once in the background. Generation runs in threads of its own (KeyGenerator:
   * this many, plus one for callers waiting for a key), never on libuv's thread pool, which file
   * system and zlib work need.
   */
  concurrency: number;
}

/**
 * RSA private keys generated ahead of time, each handed out once. `take()` returns a ready key at
 * once and starts a replacement in the background; when the pool is empty (a burst larger than
 * `size`) it generates one for the caller, about 50-200 ms for 2048 bits, ahead of the refills.
 */
export class KeyPool {
  private readonly keys: KeyObject[] = [];
  private readonly generator: KeyGenerator;
  private generating = 0;
  private closed = false;
  private failed = false;
  private idle: (() => void)[] = [];

  constructor(private readonly options: KeyPoolOptions) {
    this.generator = new KeyGenerator(options.concurrency + 1);
  }

  /** Starts filling the pool in the background. */
  start(): this {
    this.fill();
    return this;
  }

  get available(): number {
    return this.keys.length;
  }

  async take(): Promise<KeyObject> {
    const key = this.keys.shift();
    this.failed = false;
    this.fill();
    return key ?? this.generator.generate(this.options.bits, true);
  }

  /** Resolves once the pool is full (or closed, or a generation failed). */
  async ready(): Promise<void> {
    this.fill();
    if (this.settled()) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  /** Stops refilling and waits for generations under way. */
  async close(): Promise<void> {
    this.closed = true;
    await this.ready();
    this.keys.length = 0;
    await this.generator.close();
  }

  private fill(): void {
    while (!this.closed && !this.failed && this.generating < this.options.concurrency && this.missing() > 0) {
      this.generating += 1;
      void this.generator.generate(this.options.bits, false).then(
        (key) => this.finish(key),
        () => this.finish(null),
      );
    }
  }

  private finish(key: KeyObject | null): void {
    this.generating -= 1;
    if (key && !this.closed) this.keys.push(key);
    // A failure stops refilling until the next take(), which then surfaces the error itself.
    if (!key) this.failed = true;
    this.fill();
    if (this.settled()) this.wakeIdle();
  }

  private missing(): number {
    return this.options.size - this.keys.length - this.generating;
  }

  private settled(): boolean {
    return this.generating === 0 && (this.closed || this.failed || this.missing() <= 0);
  }

  private wakeIdle(): void {
    const waiting = this.idle;
    this.idle = [];
    for (const resolve of waiting) resolve();
  }
}
