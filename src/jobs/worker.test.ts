import { Worker, type FetchedJob } from './worker.js';

/** The worker loop alone, with fake fetch/complete/fail (the pg-boss adapter is covered by queue.test.ts). */
describe('Worker', () => {
  it('keeps trying to record an outcome the database refused, holding the job until it is recorded', async () => {
    const job: FetchedJob<{ n: number }> = { id: 'j1', name: 'q', data: { n: 1 }, retryCount: 0, expireInSeconds: 60 };
    let queued = [job];
    const completions: string[] = [];
    let refusals = 2;
    let fetchedWhileRecording = 0;
    const worker = new Worker<{ n: number }>({
      name: 'q',
      concurrency: 1,
      pollIntervalMs: 50,
      handler: async () => 'done',
      fetch: async () => {
        if (completions.length === 0 && queued.length === 0) fetchedWhileRecording++;
        const batch = queued;
        queued = [];
        return batch;
      },
      complete: async (id) => {
        if (refusals-- > 0) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        completions.push(id);
      },
      fail: async () => {
        throw new Error('not expected');
      },
      onError: () => {},
    });
    worker.start();
    const deadline = Date.now() + 10_000;
    while (!completions.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await worker.stop(true, 1_000);
    // Recorded on the third try (after 0.5 s and 1 s), and the slot was not given to another fetch meanwhile.
    expect(completions).toEqual(['j1']);
    expect(refusals).toBe(-1);
    expect(fetchedWhileRecording).toBe(0);
  });

  it('stops retrying when the worker stops', async () => {
    const job: FetchedJob<object> = { id: 'j2', name: 'q', data: {}, retryCount: 0, expireInSeconds: 60 };
    let queued = [job];
    let attempts = 0;
    const worker = new Worker<object>({
      name: 'q',
      concurrency: 1,
      pollIntervalMs: 50,
      handler: async () => null,
      fetch: async () => {
        const batch = queued;
        queued = [];
        return batch;
      },
      complete: async () => {
        attempts++;
        throw new Error('Connection terminated unexpectedly');
      },
      fail: async () => {},
      onError: () => {},
    });
    worker.start();
    while (attempts === 0) await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    await worker.stop(true, 5_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    const after = attempts;
    await new Promise((r) => setTimeout(r, 1_200));
    expect(attempts).toBe(after);
  });
});
