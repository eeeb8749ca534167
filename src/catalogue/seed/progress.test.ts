import { ProgressBar, duration, type ProgressStream } from './progress.js';

function stream(isTTY: boolean): ProgressStream & { text: string } {
  return {
    isTTY,
    columns: 120,
    text: '',
    write(chunk: string) {
      this.text += chunk;
    },
  };
}

describe('progress bar', () => {
  it('redraws one line on a terminal, with percentage, rate and ETA', () => {
    let now = 0;
    const out = stream(true);
    const bar = new ProgressBar(out, 'add-ons', 1000, { now: () => now, redrawEvery: 100 });
    now = 2000;
    bar.update(250, 5000);
    now = 2050;
    bar.update(260, 5200); // too soon: not drawn
    now = 4000;
    bar.update(500, 10_000);
    bar.finish();
    const frames = out.text.split('\r').filter(Boolean);
    expect(frames).toHaveLength(3);
    expect(frames[0]).toContain('25.0%');
    expect(frames[0]).toContain('250/1,000');
    expect(frames[0]).toContain('2,500 rows/s');
    expect(frames[0]).toContain('ETA 6s');
    expect(frames[0]).not.toContain('\n');
    expect(frames[1]).toContain('50.0%');
    expect(frames[2].endsWith('in 4s\x1b[K\n')).toBe(true);
  });

  it('prints occasional plain lines elsewhere', () => {
    let now = 0;
    const out = stream(false);
    const bar = new ProgressBar(out, 'users', 100, { now: () => now, lineEvery: 10_000 });
    for (let done = 1; done <= 100; done++) {
      now += 50;
      bar.update(done, done);
    }
    bar.finish();
    const lines = out.text.trimEnd().split('\n');
    // The first update, one per tenth up to 90%, then the final line.
    expect(lines).toHaveLength(11);
    expect(out.text).not.toContain('\r');
    expect(lines[0]).toContain('1.0%');
    expect(lines[1]).toContain('10.0%');
    expect(lines[9]).toContain('90.0%');
    expect(lines[10]).toContain('100.0%');
    expect(lines[10]).toContain('in 5s');
  });

  it('formats durations', () => {
    expect(duration(42)).toBe('42s');
    expect(duration(185)).toBe('3m05s');
    expect(duration(3720)).toBe('1h02m');
  });
});
