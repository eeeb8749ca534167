import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import {
  BAD_EXTENSION,
  NO_MANIFEST,
  SELF_UPDATING_EXTENSION,
  SLOW_EXTENSION,
  VALID_EXTENSION,
  tempDir,
  writeText,
  writeZip,
  type TempDir,
} from './__tests__/packages.js';
import { CRASH_MESSAGE, type ValidationResults } from './results.js';
import { Validator, ValidatorClosedError } from './validator.js';

interface LogLine {
  msg: string;
  [key: string]: unknown;
}

let dir: TempDir;
let validator: Validator;
const logs: LogLine[] = [];
const files = { valid: '', bad: '', selfUpdating: '', slow: '', noManifest: '', notZip: '' };
const timings = { startMs: 0, firstLintMs: 0, warmLintMs: 0 };

beforeAll(async () => {
  dir = await tempDir();
  files.valid = await writeZip(dir.path('valid.xpi'), VALID_EXTENSION);
  files.bad = await writeZip(dir.path('bad.xpi'), BAD_EXTENSION);
  files.selfUpdating = await writeZip(dir.path('self-updating.xpi'), SELF_UPDATING_EXTENSION);
  files.slow = await writeZip(dir.path('slow.xpi'), SLOW_EXTENSION);
  files.noManifest = await writeZip(dir.path('no-manifest.zip'), NO_MANIFEST);
  files.notZip = await writeText(dir.path('not-a-zip.xpi'), 'This is plain text.\n');

  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  validator = new Validator({ logger });
  const started = performance.now();
  await validator.start();
  timings.startMs = performance.now() - started;
});

afterAll(async () => {
  await validator?.close();
  await dir?.remove();
  const ready = logs.find((line) => line.msg === 'linter worker ready');
  console.log(
    `linter worker: start ${ms(timings.startMs)} (import ${ms(ready?.importMs)}, warm-up ${ms(ready?.warmUpMs)}),` +
      ` first lint ${ms(timings.firstLintMs)}, warm lint ${ms(timings.warmLintMs)} (median of 5),` +
      ` RSS ${Math.round(Number(ready?.rss) / 2 ** 20)} MiB after start-up`,
  );
});

const sleep = (delayMs: number) => new Promise((resolve) => setTimeout(resolve, delayMs));

const ms = (value: unknown) => `${Math.round(Number(value))} ms`;

const codes = (results: ValidationResults, type?: string) =>
  results.messages.filter((m) => !type || m.type === type).map((m) => m.id.join('.'));

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

describe('Validator', () => {
  it('passes a valid MV2 extension, fast once warm', async () => {
    const [results, firstMs] = await timed(() => validator.validate(files.valid, { listed: true }));
    timings.firstLintMs = firstMs;

    expect(results).toMatchObject({
      success: true,
      errors: 0,
      warnings: 0,
      detected_type: 'extension',
      ending_tier: 5,
      metadata: {
        id: 'valid@example.com',
        version: '1.0.0',
        manifestVersion: 2,
        listed: true,
        processed_by_addons_linter: true,
        is_webextension: true,
        identified_files: {},
      },
      messages: [],
    });

    const warm: number[] = [];
    for (let i = 0; i < 5; i++) warm.push((await timed(() => validator.validate(files.valid, { listed: true })))[1]);
    timings.warmLintMs = warm.sort((a, b) => a - b)[2];
    expect(timings.warmLintMs).toBeLessThan(1000);
  });

  it('reports errors and warnings with their location', async () => {
    const results = await validator.validate(files.bad, { listed: true });

    expect(results.success).toBe(false);
    expect(results.errors).toBeGreaterThanOrEqual(1);
    expect(codes(results, 'error')).toContain('VERSION_FORMAT_INVALID');
    const evalWarning = results.messages.find((m) => m.id[0] === 'DANGEROUS_EVAL');
    expect(evalWarning).toMatchObject({ type: 'warning', tier: 1, file: 'background.js', line: 3, column: 10 });
    expect(evalWarning?.uid).toMatch(/^[0-9a-f]{32}$/);
  });

  it('answers broken packages with results, not exceptions', async () => {
    const notZip = await validator.validate(files.notZip, { listed: true });
    expect(notZip).toMatchObject({ success: false, errors: 1, metadata: { listed: true, is_webextension: true } });
    expect(codes(notZip)).toEqual(['BAD_ZIPFILE']);

    const noManifest = await validator.validate(files.noManifest, { listed: true });
    expect(codes(noManifest)).toEqual(['TYPE_NO_MANIFEST_JSON']);
  });

  it('lints unlisted uploads as self-hosted', async () => {
    const listed = await validator.validate(files.selfUpdating, { listed: true });
    const unlisted = await validator.validate(files.selfUpdating, { listed: false });

    expect(listed.metadata.listed).toBe(true);
    expect(codes(listed, 'error')).toContain('MANIFEST_UPDATE_URL');
    expect(unlisted.metadata.listed).toBe(false);
    expect(codes(unlisted)).not.toContain('MANIFEST_UPDATE_URL');
    expect(unlisted.success).toBe(true);
  });

  it('passes injected messages and the detected type through', async () => {
    const results = await validator.validate(files.valid, {
      listed: false,
      detectedType: 'statictheme',
      injected: [{ type: 'warning', id: 'server_check', message: 'Checked by the server.' }],
    });
    expect(results).toMatchObject({ success: true, warnings: 1, detected_type: 'statictheme' });
    expect(results.messages[0].id).toEqual(['validation', 'messages', 'server_check']);
  });

  it('answers a linter exception with the crash skeleton and keeps the worker', async () => {
    const pid = validator.stats().workers[0].pid;
    const results = await validator.validate(dir.path('missing.xpi'), { listed: true });

    expect(codes(results)).toEqual(['validator.unexpected_exception']);
    expect(validator.stats().workers[0].pid).toBe(pid);
  });

  it('answers the crash skeleton when the worker dies mid-run, and carries on', async () => {
    const before = validator.stats();
    const pending = validator.validate(files.slow, { listed: true });
    await sleep(500);
    process.kill(before.workers[0].pid!, 'SIGKILL');

    const crashed = await pending;
    expect(crashed).toMatchObject({ success: false, errors: 1, messages: [{ message: CRASH_MESSAGE, fatal: true }] });

    const next = await validator.validate(files.valid, { listed: true });
    expect(next.success).toBe(true);
    const after = validator.stats();
    expect(after).toMatchObject({ crashes: before.crashes + 1, restarts: before.restarts + 1 });
    expect(after.workers[0].pid).not.toBe(before.workers[0].pid);
  });

  it('replaces a worker that died while idle without failing the next file', async () => {
    const before = validator.stats();
    process.kill(before.workers[0].pid!, 'SIGKILL');

    const results = await validator.validate(files.valid, { listed: true });

    expect(results.success).toBe(true);
    expect(validator.stats()).toMatchObject({ crashes: before.crashes, restarts: before.restarts + 1 });
  });

  it('kills and replaces a worker that runs over the time limit', async () => {
    const before = validator.stats();
    const timedOut = await validator.validate(files.valid, { listed: true, timeoutMs: 1 });
    expect(timedOut.messages).toMatchObject([{ id: ['validator', 'unexpected_exception'] }]);

    const next = await validator.validate(files.valid, { listed: true });
    expect(next.success).toBe(true);
    expect(validator.stats()).toMatchObject({ timeouts: before.timeouts + 1, restarts: before.restarts + 1 });
    expect(logs.some((line) => line.msg.startsWith('validation failed') && line.reason === 'timeout')).toBe(true);
  });

  it('queues parallel validations and answers each one', async () => {
    const jobsBefore = validator.stats().jobs;
    const paths = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? files.valid : files.bad));
    const pending = paths.map((path) => validator.validate(path, { listed: true }));
    expect(validator.stats().queued).toBe(9);

    const results = await Promise.all(pending);
    expect(results.map((r) => r.success)).toEqual(paths.map((path) => path === files.valid));
    expect(validator.stats()).toMatchObject({ queued: 0, jobs: jobsBefore + 10 });
  });

  it('reports the worker and its memory', () => {
    const stats = validator.stats();
    expect(stats.workers).toHaveLength(1);
    expect(stats.workers[0]).toMatchObject({ pid: expect.any(Number), busy: false });
    expect(stats.workers[0].rssBytes).toBeGreaterThan(50 * 2 ** 20);
  });

  it('leaves no worker behind once closed', async () => {
    const pid = validator.stats().workers[0].pid!;
    expect(isRunning(pid)).toBe(true);

    await validator.close();

    expect(isRunning(pid)).toBe(false);
    expect(validator.stats().workers[0].pid).toBeNull();
    await expect(validator.validate(files.valid, { listed: true })).rejects.toBeInstanceOf(ValidatorClosedError);
  });
});

describe('Validator with an idle limit', () => {
  it('stops a worker nobody uses and starts another for the next file', async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
    const idling = new Validator({ logger, idleMs: 300 });
    try {
      await idling.start();
      const first = idling.stats().workers[0].pid!;
      expect((await idling.validate(files.valid, { listed: true })).success).toBe(true);
      // Used again within the limit: the same worker.
      expect(idling.stats().workers[0].pid).toBe(first);
      await waitFor(() => !isRunning(first), 10_000);
      expect(idling.stats().workers[0]).toMatchObject({ pid: null, rssBytes: 0 });
      expect(logs.some((line) => line.msg === 'linter worker stopped after idling' && line.pid === first)).toBe(true);

      expect((await idling.validate(files.valid, { listed: true })).success).toBe(true);
      const second = idling.stats().workers[0].pid!;
      expect(second).not.toBe(first);
      expect(idling.stats()).toMatchObject({ crashes: 0, restarts: 1 });
    } finally {
      await idling.close();
    }
  });
});

describe('Validator whose worker cannot start', () => {
  it('answers with the crash skeleton instead of hanging', async () => {
    const lines: LogLine[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const broken = new Validator({ workerEntry: new URL('./no-such-worker.js', import.meta.url), logger });
    try {
      await expect(broken.start()).rejects.toThrow('exited while starting');
      const results = await broken.validate(files.valid || 'any.xpi', { listed: false });
      expect(results).toMatchObject({ success: false, metadata: { listed: false } });
      expect(results.messages[0].message).toBe(CRASH_MESSAGE);
      expect(lines).toContainEqual(expect.objectContaining({ stderr: expect.stringContaining('Cannot find module') }));
      expect(lines).toContainEqual(expect.objectContaining({ reason: 'startup' }));
    } finally {
      await broken.close();
    }
  });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
