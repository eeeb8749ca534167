import { hasOverlap, isSafeEntryName } from './zip.entries.js';

describe('isSafeEntryName', () => {
  it.each(['manifest.json', 'a/b/c.js', 'dir/', '_locales/en_US/messages.json', '.hidden', 'a..b', '..a/b', 'é.js'])(
    'accepts %j',
    (name) => {
      expect(isSafeEntryName(name)).toBe(true);
    },
  );

  it.each([
    '',
    '/',
    '/abs',
    '..',
    '../x',
    'a/..',
    'a/../b',
    '.',
    './x',
    'a//b',
    '//server/share',
    'C:\\x',
    'C:x',
    'z:/x',
    'a\\b',
    '\\\\server\\share',
    'a\u0000b',
    'a\u001fb',
    'a\u007fb',
    'dir//',
  ])('refuses %j', (name) => {
    expect(isSafeEntryName(name)).toBe(false);
  });
});

describe('hasOverlap', () => {
  it('spots members sharing bytes, in any order', () => {
    expect(
      hasOverlap([
        { start: 0, end: 100 },
        { start: 100, end: 150 },
      ]),
    ).toBe(false);
    expect(
      hasOverlap([
        { start: 100, end: 150 },
        { start: 0, end: 101 },
      ]),
    ).toBe(true);
    expect(
      hasOverlap([
        { start: 0, end: 1000 },
        { start: 30, end: 60 },
      ]),
    ).toBe(true);
    expect(hasOverlap([])).toBe(false);
  });
});
