import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  isWorkerMessage,
  type FailureMessage,
  type LintRequest,
  type ReadyMessage,
  type ResultMessage,
} from './protocol.js';
import type { MappingOptions, ValidationResults } from './results.js';

/**
 * `unreachable`: the worker was gone before it accepted the file (not the package's fault, worth a retry);
 * `crash`: it died while linting; `failure`: the linter threw and the worker carries on.
 */
export type LintOutcome =
  | { ok: true; results: ValidationResults; lintMs: number }
  | { ok: false; reason: 'unreachable' | 'crash' | 'timeout' | 'failure'; detail: string };

export interface LinterProcessOptions {
  entry: URL;
  heapLimitMb: number;
  startupTimeoutMs: number;
  /** Receives what the worker writes on stderr (stack traces of real crashes); inherited when absent. */
  onStderr?: (text: string, pid: number | null) => void;
}

interface Pending {
  id: number;
  accepted: boolean;
  timer: NodeJS.Timeout;
  settle: (outcome: LintOutcome) => void;
}

/** One forked linter worker. It lints one file at a time; a crash or timeout leaves it dead for good. */
export class LinterProcess {
  /** Resolves once the worker has imported the linter and warmed up; rejects if it dies or hangs first. */
  readonly ready: Promise<ReadyMessage>;
  readonly exited: Promise<void>;
  rssBytes = 0;
  private readonly child: ChildProcess;
  private pending?: Pending;
  private onReady?: (message: ReadyMessage) => void;
  private nextId = 1;
  private alive = true;

  constructor(options: LinterProcessOptions) {
    this.child = fork(fileURLToPath(options.entry), [], {
      execArgv: workerExecArgv(options.entry, options.heapLimitMb),
      // The linter prints nothing useful on stdout (output: 'none').
      stdio: ['ignore', 'ignore', options.onStderr ? 'pipe' : 'inherit', 'ipc'],
    });
    const onStderr = options.onStderr;
    if (onStderr) this.child.stderr?.setEncoding('utf8').on('data', (text: string) => onStderr(text, this.pid));
    this.exited = new Promise((resolve) => this.watchExit(resolve));
    this.ready = this.awaitReady(options.startupTimeoutMs);
    this.ready.catch(() => undefined);
    this.child.on('message', (message: unknown) => this.receive(message));
  }

  get pid(): number | null {
    return this.alive ? (this.child.pid ?? null) : null;
  }

  /** Never rejects: a crash, a timeout (which kills the worker) or a linter exception is an outcome. */
  lint(path: string, options: MappingOptions, timeoutMs: number): Promise<LintOutcome> {
    if (this.pending) throw new Error('LinterProcess lints one file at a time');
    if (!this.alive) return Promise.resolve(unreachable('the worker is not running'));
    return new Promise((settle) => {
      const id = this.nextId++;
      const timer = setTimeout(() => this.timeOut(timeoutMs), timeoutMs);
      this.pending = { id, accepted: false, timer, settle };
      const request: LintRequest = { type: 'lint', id, path, options };
      this.child.send(request, (error) => {
        if (error) this.fail(unreachable(`could not reach the worker: ${error.message}`));
      });
    });
  }

  kill(): void {
    if (this.alive) this.child.kill('SIGKILL');
  }

  /** Asks the worker to exit (it does on disconnect, even mid-lint) and kills it if it has not after `graceMs`. */
  async stop(graceMs = 2000): Promise<void> {
    if (this.child.connected) this.child.disconnect();
    const timer = setTimeout(() => this.kill(), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  private watchExit(resolve: () => void): void {
    const onGone = (detail: string) => {
      if (!this.alive) return;
      this.alive = false;
      this.settle(this.pending?.accepted ? { ok: false, reason: 'crash', detail } : unreachable(detail));
      resolve();
    };
    this.child.once('exit', (code, signal) => onGone(`the worker exited (${signal ?? `code ${code}`})`));
    // Every failed kill or send is an 'error' event too; an unhandled one would take the server down.
    this.child.on('error', (error) => {
      // Without a pid the process never started and will not emit 'exit'.
      if (this.child.pid === undefined) onGone(`the worker could not start: ${error.message}`);
      else this.kill();
    });
  }

  private awaitReady(timeoutMs: number): Promise<ReadyMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`the linter worker did not start within ${timeoutMs} ms`));
        this.kill();
      }, timeoutMs);
      this.onReady = (message) => {
        clearTimeout(timer);
        resolve(message);
      };
      void this.exited.then(() => {
        clearTimeout(timer);
        reject(new Error('the linter worker exited while starting'));
      });
    });
  }

  private receive(message: unknown): void {
    if (!isWorkerMessage(message)) return;
    this.rssBytes = message.rss;
    if (message.type === 'ready') this.onReady?.(message);
    else if (message.id !== this.pending?.id) return;
    else if (message.type === 'accepted') this.pending.accepted = true;
    else this.settle(outcomeOf(message));
  }

  private timeOut(timeoutMs: number): void {
    this.fail({ ok: false, reason: 'timeout', detail: `linting took longer than ${timeoutMs} ms` });
  }

  /** Settles the pending lint and kills the worker, whose state can no longer be trusted. */
  private fail(outcome: LintOutcome): void {
    this.settle(outcome);
    this.kill();
  }

  private settle(outcome: LintOutcome): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    clearTimeout(pending.timer);
    pending.settle(outcome);
  }
}

function outcomeOf(message: ResultMessage | FailureMessage): LintOutcome {
  if (message.type === 'result') return { ok: true, results: message.results, lintMs: message.lintMs };
  return { ok: false, reason: 'failure', detail: message.error };
}

function unreachable(detail: string): LintOutcome {
  return { ok: false, reason: 'unreachable', detail };
}

/** From TypeScript sources (jest, the dev CLI) the worker needs the same swc loader as its parent. */
function workerExecArgv(entry: URL, heapLimitMb: number): string[] {
  const args = [`--max-old-space-size=${heapLimitMb}`];
  if (!entry.pathname.endsWith('.ts')) return args;
  return [...args, '--no-warnings', '--import', import.meta.resolve('@swc-node/register/esm-register')];
}
