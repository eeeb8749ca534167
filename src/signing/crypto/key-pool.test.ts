import { KeyPool } from './key-pool.js';

const options = { bits: 1024, concurrency: 1 };

describe('KeyPool', () => {
  it('fills in the background, hands each key out once and refills', async () => {
    const pool = new KeyPool({ ...options, size: 3 }).start();
    await pool.ready();
    expect(pool.available).toBe(3);
    const keys = await Promise.all([pool.take(), pool.take()]);
    expect(pool.available).toBe(1);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[0]?.asymmetricKeyDetails?.modulusLength).toBe(1024);
    await pool.ready();
    expect(pool.available).toBe(3);
    await pool.close();
    expect(pool.available).toBe(0);
  });

  it('generates for the caller when empty', async () => {
    const pool = new KeyPool({ ...options, size: 0 });
    const key = await pool.take();
    expect(key.type).toBe('private');
    await pool.close();
  });

  it('stops refilling once closed', async () => {
    const pool = new KeyPool({ ...options, size: 2 }).start();
    await pool.close();
    await pool.take();
    expect(pool.available).toBe(0);
  });
});
