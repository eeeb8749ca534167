import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Gives memory back when a busy web process goes quiet. Under load V8 lets the heap grow to
 * HEAP_GROWING_PERCENT past what survived its last full collection, and it shrinks the heap again
 * only when its own memory reducer decides to: after a flood of 20,000 hostile GraphQL requests on
 * PostgreSQL, RSS stayed at 1.65x its level before them for 30 s or more (1.10x with this). So
 * when no request has arrived for `idleMs` after some did, and the heap has grown by more than
 * `slackBytes` since the last such collection, one full collection runs (tens of milliseconds at
 * this service's ~100 MB heaps, while nobody is waiting). A process that is never idle for that
 * long never collects here.
 */
export class IdleCollector {
  private requests = 0;
  private seen = 0;
  private lastActivity: number;
  private active = false;
  /** The heap's size after the last collection made here (0: none yet). */
  private floor = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Collections made, for tests and logs. */
  collections = 0;

  constructor(
    private readonly options: {
      idleMs: number;
      slackBytes: number;
      now?: () => number;
      heapSize?: () => number;
      collect?: () => void;
      /** Told the heap's size before and after each collection made here. */
      onCollect?: (beforeBytes: number, afterBytes: number) => void;
    },
  ) {
    this.lastActivity = this.now();
  }

  /** One request arrived (cheap: a counter). */
  touch(): void {
    this.requests++;
  }

  /** Checks every `idleMs / 2` (an unref'd timer: it never keeps the process alive). */
  start(): this {
    this.timer ??= setInterval(() => this.tick(), Math.max(100, Math.floor(this.options.idleMs / 2)));
    this.timer.unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Collects when the process has gone idle after activity and the heap grew; true when it did. */
  tick(): boolean {
    const now = this.now();
    if (this.requests !== this.seen) {
      this.seen = this.requests;
      this.lastActivity = now;
      this.active = true;
      return false;
    }
    if (!this.active || now - this.lastActivity < this.options.idleMs) return false;
    this.active = false;
    const before = this.heapSize();
    if (before <= this.floor + this.options.slackBytes) return false;
    (this.options.collect ?? collectGarbage)();
    this.floor = this.heapSize();
    this.collections++;
    this.options.onCollect?.(before, this.floor);
    return true;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private heapSize(): number {
    return (this.options.heapSize ?? (() => v8.getHeapStatistics().total_heap_size))();
  }
}

let gc: (() => void) | undefined;

/**
 * One full, synchronous, compacting collection: live objects are moved off sparse pages, so V8 can
 * release every page left empty (a plain full collection frees the objects but keeps most pages:
 * after a flood of hostile requests the old space stayed at 212 MB committed for 105 MB used).
 * Compaction is switched on for this collection only. `gc` is taken from a fresh context once
 * `--expose-gc` is set, so the service's own global scope never gains a `gc` function.
 */
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  v8.setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    v8.setFlagsFromString('--no-compact-on-every-full-gc');
  }
}
