/** Where progress goes: process.stderr, or anything with `write` (tests). */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  /** Milliseconds clock (injectable for tests). */
  now?: () => number;
  /** Minimum milliseconds between two redraws on a terminal. */
  redrawEvery?: number;
  /** On a pipe or file: a line every this many milliseconds at most, besides every 10%. */
  lineEvery?: number;
}

/**
 * A progress report for one phase (`users`, `add-ons`…). On a terminal: one line redrawn in place
 * with a bar, percentage, rows per second and ETA. Elsewhere (CI logs, pipes): a plain line at each
 * tenth and at most every `lineEvery` ms, so logs stay short.
 */
export class ProgressBar {
  private readonly now: () => number;
  private readonly started: number;
  private lastDraw = -Infinity;
  private lastTenth = 0;
  private done = 0;
  private rows = 0;

  constructor(
    private readonly stream: ProgressStream,
    private readonly label: string,
    private readonly total: number,
    private readonly options: ProgressOptions = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    this.started = this.now();
  }

  /** `done` units of `total` are finished; `rows` database rows written so far in this phase. */
  update(done: number, rows: number): void {
    this.done = done;
    this.rows = rows;
    const t = this.now();
    if (this.stream.isTTY) {
      if (t - this.lastDraw < (this.options.redrawEvery ?? 100)) return;
      this.lastDraw = t;
      this.stream.write(`\r${this.line(t).slice(0, Math.max(20, (this.stream.columns || 100) - 1))}\x1b[K`);
      return;
    }
    // The last tenth is left to finish().
    if (done >= this.total) return;
    const tenth = Math.floor((done * 10) / this.total);
    if (tenth > this.lastTenth || t - this.lastDraw >= (this.options.lineEvery ?? 15_000)) {
      this.lastTenth = tenth;
      this.lastDraw = t;
      this.stream.write(`${this.line(t)}\n`);
    }
  }

  /** The final state, always shown (and the terminal line ended). */
  finish(): void {
    const t = this.now();
    const text = this.line(t, true);
    this.stream.write(this.stream.isTTY ? `\r${text}\x1b[K\n` : `${text}\n`);
  }

  private line(t: number, final = false): string {
    const seconds = Math.max((t - this.started) / 1000, 1e-3);
    const fraction = this.total ? Math.min(1, this.done / this.total) : 1;
    const width = 24;
    const filled = Math.round(fraction * width);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
    const rate = Math.round(this.rows / seconds);
    const tail = final
      ? `in ${duration(seconds)}`
      : `ETA ${this.done ? duration(((this.total - this.done) * seconds) / this.done) : '?'}`;
    return (
      `${this.label.padEnd(8)} ${bar} ${(fraction * 100).toFixed(1).padStart(5)}%  ` +
      `${count(this.done)}/${count(this.total)}  ${count(rate)} rows/s  ${tail}`
    );
  }
}

const count = (n: number) => n.toLocaleString('en-US');

/** `42s`, `3m05s`, `1h02m`. */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
