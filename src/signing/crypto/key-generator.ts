import type { KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/**
 * RSA key generation in threads of its own. Node's async `generateKeyPair` runs on libuv's thread
 * pool (4 threads), which every file read, file copy and zlib call of the process share: a burst
 * of signings (each takes a fresh key) filled it with key generations of 0.1-2 s each, and the
 * uploads' reads and writes queued behind them for seconds (10 small reads waited ~10 s behind 10
 * generations on a loaded machine). Here generations queue for `threads` dedicated threads
 * instead, callers waiting for a key first, refills after.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { generateKeyPairSync } = require('node:crypto');
parentPort.on('message', ({ id, bits }) => {
  try {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: bits });
    parentPort.postMessage({ id, key: privateKey });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});
`;

interface Request {
  id: number;
  bits: number;
  resolve: (key: KeyObject) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  busy: Request | null;
}

export class KeyGenerator {
  private readonly threads: Thread[] = [];
  private readonly urgent: Request[] = [];
  private readonly later: Request[] = [];
  private nextId = 1;

  constructor(private readonly size: number) {}

  /** A new RSA key; `urgent` (a caller waits for it) goes before background refills. */
  generate(bits: number, urgent: boolean): Promise<KeyObject> {
    return new Promise((resolve, reject) => {
      (urgent ? this.urgent : this.later).push({ id: this.nextId++, bits, resolve, reject });
      this.pump();
    });
  }

  /** Stops the threads (queued generations fail); a later `generate` starts them again. */
  async close(): Promise<void> {
    const error = new Error('The key generator is closed');
    for (const request of [...this.urgent.splice(0), ...this.later.splice(0)]) request.reject(error);
    const threads = this.threads.splice(0);
    for (const thread of threads) thread.busy?.reject(error);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private pump(): void {
    for (;;) {
      const request = this.urgent[0] ?? this.later[0];
      const thread = request && this.idleThread();
      if (!request || !thread) return;
      (this.urgent[0] === request ? this.urgent : this.later).shift();
      thread.busy = request;
      thread.worker.ref();
      thread.worker.postMessage({ id: request.id, bits: request.bits });
    }
  }

  private idleThread(): Thread | null {
    const idle = this.threads.find((thread) => !thread.busy);
    if (idle) return idle;
    if (this.threads.length >= this.size) return null;
    const thread: Thread = { worker: new Worker(WORKER_SOURCE, { eval: true }), busy: null };
    thread.worker.unref();
    thread.worker.on('message', (message: { id: number; key?: KeyObject; error?: string }) => {
      const request = thread.busy;
      thread.busy = null;
      // An idle thread does not keep the process alive.
      thread.worker.unref();
      if (request && request.id === message.id) {
        if (message.key) request.resolve(message.key);
        else request.reject(new Error(message.error ?? 'key generation failed'));
      }
      this.pump();
    });
    thread.worker.on('error', (error) => this.lose(thread, error));
    thread.worker.on('exit', () => this.lose(thread, new Error('The key generation thread stopped')));
    this.threads.push(thread);
    return thread;
  }

  private lose(thread: Thread, error: Error): void {
    const index = this.threads.indexOf(thread);
    if (index >= 0) this.threads.splice(index, 1);
    thread.busy?.reject(error);
    thread.busy = null;
    this.pump();
  }
}
