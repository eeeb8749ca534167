import { Slots } from './slots.js';

describe('Slots', () => {
  it('runs at most `size` tasks at once, the others in order of arrival', async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (n: number) =>
      slots.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(n);
        running -= 1;
        if (n === 3) throw new Error('boom');
        return n;
      });
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map(task));
    expect(most).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5, 6]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(await slots.run(async () => 'free again')).toBe('free again');
  });

  it('lets at most `maxWaiting` tasks wait; one more is THROTTLED without waiting', async () => {
    const slots = new Slots(1, 2, 7);
    const release: (() => void)[] = [];
    const blocked = () => new Promise<void>((resolve) => release.push(resolve));
    const first = slots.run(blocked);
    const waiting = [slots.run(async () => 'second'), slots.run(async () => 'third')];
    expect(slots.queued).toBe(2);
    await expect(slots.run(async () => 'fourth')).rejects.toMatchObject({ code: 'THROTTLED', retryAfter: 7 });
    expect(slots.queued).toBe(2);
    release[0]();
    await first;
    expect(await Promise.all(waiting)).toEqual(['second', 'third']);
    expect(await slots.run(async () => 'room again')).toBe('room again');
    const none = new Slots(1, 0);
    const busy = none.run(blocked);
    await expect(none.run(async () => 'x')).rejects.toMatchObject({ code: 'THROTTLED' });
    release[1]();
    await busy;
  });
});
