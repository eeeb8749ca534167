import v8 from 'node:v8';
import { collectGarbage, IdleCollector } from './idle-gc.js';

const MB = 1024 * 1024;

function fake(heap: { size: number }) {
  let clock = 0;
  const collected: number[] = [];
  const collector = new IdleCollector({
    idleMs: 2000,
    slackBytes: 16 * MB,
    now: () => clock,
    heapSize: () => heap.size,
    collect: () => {
      collected.push(clock);
      heap.size = 60 * MB;
    },
  });
  return { collector, collected, advance: (ms: number) => (clock += ms) };
}

describe('IdleCollector (issue 23, item 6c)', () => {
  it('collects once when the process goes idle after requests and its heap grew', () => {
    const heap = { size: 200 * MB };
    const { collector, collected, advance } = fake(heap);
    // Busy: a request between every check.
    for (let i = 0; i < 5; i++) {
      collector.touch();
      expect(collector.tick()).toBe(false);
      advance(1000);
    }
    advance(1000);
    expect(collector.tick()).toBe(true);
    expect(collected).toEqual([6000]);
    // Still idle: nothing more to do.
    advance(5000);
    expect(collector.tick()).toBe(false);
    expect(collector.collections).toBe(1);
  });

  it('never collects while requests keep arriving, nor when the heap did not grow past the slack', () => {
    const heap = { size: 200 * MB };
    const { collector, collected, advance } = fake(heap);
    for (let i = 0; i < 100; i++) {
      collector.touch();
      collector.tick();
      advance(1500);
    }
    expect(collected).toEqual([]);
    advance(2000);
    expect(collector.tick()).toBe(true); // heap 200 MB over a floor of 0
    // Busy again, but the heap stays within 16 MB of the 60 MB left by the last collection.
    heap.size = 70 * MB;
    collector.touch();
    collector.tick();
    advance(3000);
    expect(collector.tick()).toBe(false);
    // Busy again and grown past the slack: collected.
    heap.size = 90 * MB;
    collector.touch();
    collector.tick();
    advance(3000);
    expect(collector.tick()).toBe(true);
    expect(collected).toHaveLength(2);
  });

  it('does nothing in a process that served no request', () => {
    const { collector, collected, advance } = fake({ size: 500 * MB });
    advance(60_000);
    expect(collector.tick()).toBe(false);
    expect(collected).toEqual([]);
  });

  it('collectGarbage runs a real full collection that shrinks the heap, without a global gc', () => {
    const holder: { garbage: unknown[] | null } = {
      garbage: Array.from({ length: 400_000 }, (_, i) => ({ i, s: `item ${i}` })),
    };
    const before = v8.getHeapStatistics().used_heap_size;
    holder.garbage = null;
    collectGarbage();
    expect(v8.getHeapStatistics().used_heap_size).toBeLessThan(before - 10 * MB);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
