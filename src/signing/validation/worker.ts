/**
 * Linter worker: a child process forked by `LinterProcess`. It imports addons-linter once, lints one
 * package at a time on request and reports its RSS with every answer. It exits when the parent
 * disconnects (or dies), so it never outlives the server.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type linterModule from 'addons-linter';
import type { LinterOutput } from './linter-output.js';
import { isLintRequest, type LintRequest, type WorkerMessage } from './protocol.js';
import { toValidationResults } from './results.js';

type Linter = typeof linterModule;

const WARM_UP_PACKAGE: Record<string, string> = {
  'manifest.json': JSON.stringify({
    manifest_version: 2,
    name: 'Linter warm-up',
    version: '1.0',
    browser_specific_settings: { gecko: { id: 'warm-up@linter.invalid' } },
    background: { scripts: ['background.js'] },
  }),
  'background.js': 'browser.runtime.onInstalled.addListener(() => console.log("installed"));\n',
};

async function lint(linter: Linter, path: string, selfHosted: boolean): Promise<LinterOutput> {
  const instance = linter.createInstance({
    config: {
      _: [path],
      logLevel: 'fatal',
      stack: false,
      pretty: false,
      boring: true,
      warningsAsErrors: false,
      metadata: false,
      output: 'none',
      selfHosted,
    },
    runAsBinary: false,
  });
  // The JSON the CLI prints, which is what AMO maps (metadata.experimentApiPaths is a Set until then).
  return JSON.parse(JSON.stringify(await instance.run())) as LinterOutput;
}

/** The first run compiles schemas and rules (about 0.5 s); do it before the first upload arrives. */
async function warmUp(linter: Linter): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'linter-warm-up-'));
  try {
    for (const [name, content] of Object.entries(WARM_UP_PACKAGE)) await writeFile(join(dir, name), content);
    await lint(linter, dir, false);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function handle(linter: Linter, request: LintRequest): Promise<WorkerMessage> {
  const started = performance.now();
  try {
    const output = await lint(linter, request.path, !request.options.listed);
    const results = toValidationResults(output, request.options);
    return { type: 'result', id: request.id, rss: rss(), lintMs: performance.now() - started, results };
  } catch (error) {
    return {
      type: 'failure',
      id: request.id,
      rss: rss(),
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

function serve(linter: Linter): void {
  let queue = Promise.resolve();
  process.on('message', (message: unknown) => {
    if (!isLintRequest(message)) return;
    queue = queue.then(async () => {
      send({ type: 'accepted', id: message.id, rss: rss() });
      send(await handle(linter, message));
    });
  });
}

function send(message: WorkerMessage): void {
  // Once the parent has disconnected this process is about to exit; there is nobody left to tell.
  if (process.connected) process.send?.(message, undefined, undefined, () => undefined);
}

function rss(): number {
  return process.memoryUsage.rss();
}

async function main(): Promise<void> {
  if (!process.send) throw new Error('The linter worker must be started with child_process.fork');
  process.on('disconnect', () => process.exit(0));
  const started = performance.now();
  const { default: linter } = await import('addons-linter');
  const imported = performance.now();
  await warmUp(linter);
  serve(linter);
  send({ type: 'ready', rss: rss(), importMs: imported - started, warmUpMs: performance.now() - imported });
}

await main();
