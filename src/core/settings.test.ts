import { z } from 'zod';
import { ConfigError, loadSettings, settingsShape, type SettingsSlice } from './settings.js';

const storageShape = { STORE: z.enum(['disk', 'cloud']).default('disk'), BUCKET: z.string().min(3).optional() };
const storage: SettingsSlice<typeof storageShape, { cloud: boolean }> = {
  owner: 'storage',
  shape: storageShape,
  checks: [{ key: 'BUCKET', message: 'is required when STORE=cloud', holds: (v) => v.STORE !== 'cloud' || !!v.BUCKET }],
  derive: (v) => ({ cloud: v.STORE === 'cloud' }),
};
const limits: SettingsSlice = { owner: 'limits', shape: { MAX_ITEMS: z.coerce.number().int().min(1).default(10) } };

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('no ConfigError');
}

describe('settings slices', () => {
  it('parses every slice from one environment, then adds what each derives', () => {
    expect(loadSettings([storage, limits], { STORE: 'cloud', BUCKET: 'media', MAX_ITEMS: '3', OTHER: 'x' })).toEqual({
      STORE: 'cloud',
      BUCKET: 'media',
      MAX_ITEMS: 3,
      cloud: true,
    });
    expect(loadSettings([storage, limits], { BUCKET: '' })).toEqual({ STORE: 'disk', MAX_ITEMS: 10, cloud: false });
  });

  it("reports bad values of every slice and the slices' rules in one error", () => {
    const problems = problemsOf(() => loadSettings([storage, limits], { STORE: 'cloud', MAX_ITEMS: '0' }));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^MAX_ITEMS: .+ \(got "0"\)$/);
    expect(problems[1]).toBe('BUCKET: is required when STORE=cloud');
  });

  it('refuses a variable that two slices declare, naming both owners', () => {
    const again: SettingsSlice = { owner: 'archive', shape: { BUCKET: z.string().optional() } };
    expect(problemsOf(() => settingsShape([storage, limits, again]))).toEqual([
      'BUCKET: declared by both storage and archive',
    ]);
    expect(() => loadSettings([storage, again], {})).toThrow(/BUCKET: declared by both storage and archive/);
  });
});
