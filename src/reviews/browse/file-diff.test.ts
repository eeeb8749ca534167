import { countLines, diffFile, type DiffLimits } from './file-diff.js';
import { fileType } from './mime.js';

const packages = { parent: 'a'.repeat(64), hash: 'b'.repeat(64) };
const diff = (before: string | Buffer | null, after: string | Buffer | null) =>
  diffFile('f.js', before === null ? null : Buffer.from(before), after === null ? null : Buffer.from(after), packages);

describe('diffFile', () => {
  it('keeps line endings in the content, CRLF included', () => {
    const d = diff('a\r\nb\r\n', 'a\r\nc\r\n');
    expect(d.hunks[0].changes).toEqual([
      { content: 'a\r\n', type: 'normal', old_line_number: 1, new_line_number: 1 },
      { content: 'b\r\n', type: 'delete', old_line_number: 2, new_line_number: -1 },
      { content: 'c\r\n', type: 'insert', old_line_number: -1, new_line_number: 2 },
    ]);
    expect(d).toMatchObject({ lines_added: 1, lines_deleted: 1, mode: 'M' });
  });

  it('marks a missing newline at the end of either side', () => {
    const d = diff('x\ny', 'x\ny\n');
    expect(d).toMatchObject({ old_ending_new_line: false, new_ending_new_line: true });
    expect(d.hunks[0].changes.map((c) => [c.type, c.content])).toEqual([
      ['normal', 'x\n'],
      ['delete', 'y'],
      ['delete-eofnl', '\n\\ No newline at end of file\n'],
      ['insert', 'y\n'],
    ]);
  });

  it('numbers hunks as git does, with context and a side of no lines starting at the line before', () => {
    const before = Array.from({ length: 30 }, (_, i) => `${i + 1}\n`).join('');
    const after = before.replace('15\n', '15b\n').replace('30\n', '');
    const d = diff(before, after);
    expect(d.hunks.map((h) => h.header)).toEqual(['@@ -12,7 +12,7 @@\n', '@@ -27,4 +27,3 @@\n']);
    expect(diff('', 'a\n').hunks[0].header).toBe('@@ -0,0 +1 @@\n');
    expect(diff('a\nb\n', null).hunks[0]).toMatchObject({ header: '@@ -1,2 +0,0 @@\n', new_start: 0 });
  });

  it('shows an unchanged file as one hunk of its lines, and an empty one with none', () => {
    expect(diff('a\nb', 'a\nb').hunks).toEqual([
      {
        header: '@@ -1,2 +1,2 @@\n',
        old_start: 1,
        new_start: 1,
        old_lines: 2,
        new_lines: 2,
        changes: [
          { content: 'a\n', type: 'normal', old_line_number: 1, new_line_number: 1 },
          { content: 'b', type: 'normal', old_line_number: 2, new_line_number: 2 },
        ],
      },
    ]);
    expect(diff('', '')).toMatchObject({ mode: '', hunks: [] });
  });

  it('detects binary content as git does (a NUL byte in the first 8,000 bytes)', () => {
    const binary = Buffer.from([1, 0, 2]);
    expect(diff('text\n', binary)).toMatchObject({ is_binary: true, hunks: [], mode: 'M', size: 3 });
    const late = Buffer.concat([Buffer.alloc(9000, 'a'), Buffer.from([0])]);
    expect(diff('a', late).is_binary).toBe(false);
  });

  it('falls back to a whole replacement when the edit is too large to search', () => {
    const before = Array.from({ length: 12_000 }, (_, i) => `old ${i}\n`).join('');
    const after = Array.from({ length: 12_000 }, (_, i) => `new ${i}\n`).join('');
    const d = diff(before, after);
    expect(d.hunks).toHaveLength(1);
    expect(d).toMatchObject({ lines_added: 12_000, lines_deleted: 12_000 });
    expect(d.hunks[0].header).toBe('@@ -1,12000 +1,12000 @@\n');
    expect(d.hunks[0].changes[12_000]).toEqual({
      content: 'new 0\n',
      type: 'insert',
      old_line_number: -1,
      new_line_number: 1,
    });
  });
});

describe('diffFile limits', () => {
  const limited = (before: string | null, after: string | null, limits: DiffLimits) =>
    diffFile(
      'f.js',
      before === null ? null : Buffer.from(before),
      after === null ? null : Buffer.from(after),
      packages,
      limits,
    );
  const lines = (n: number, word = 'line') => Array.from({ length: n }, (_, i) => `${word} ${i}\n`).join('');
  const tooLarge = (mode: string, size: number) => ({
    path: 'f.js',
    old_path: 'f.js',
    size,
    lines_added: 0,
    lines_deleted: 0,
    is_binary: true,
    mode,
    hunks: [],
    parent: packages.parent,
    hash: packages.hash,
    old_ending_new_line: true,
    new_ending_new_line: true,
  });

  it('counts lines as the diff splits them', () => {
    for (const text of ['', 'a', 'a\n', 'a\nb', 'a\r\nb\r\n', '\n\n\n', 'x\ny\nz']) {
      const split = text.split(/(?<=\n)/).filter((line) => line !== '');
      expect([text, countLines(Buffer.from(text))]).toEqual([text, split.length]);
    }
  });

  it('shows an unchanged file line by line up to the line limit, and as too large past it', () => {
    const limits = { maxBytes: 1 << 20, maxLines: 1_000 };
    const atLimit = lines(1_000);
    expect(limited(atLimit, atLimit, limits).hunks[0].changes).toHaveLength(1_000);
    const over = lines(1_001);
    expect(limited(over, over, limits)).toEqual(tooLarge('', Buffer.byteLength(over)));
  });

  it('answers a side over the byte limit as too large, whatever its lines', () => {
    const limits = { maxBytes: 100, maxLines: 1_000 };
    const long = 'x'.repeat(101);
    expect(limited(null, long, limits)).toEqual(tooLarge('A', 101));
    expect(limited(long, null, limits)).toEqual(tooLarge('D', 0));
    expect(limited(long, 'short\n', limits)).toEqual(tooLarge('M', 6));
    expect(limited('x'.repeat(100), 'y'.repeat(100), limits)).toMatchObject({ is_binary: false, lines_added: 1 });
  });

  it('answers a whole replacement over the line limit as too large, and a small edit of a long file in full', () => {
    const limits = { maxBytes: 1 << 20, maxLines: 20_000 };
    // jsdiff gives up (more than 2,000 changed lines): 12,000 + 12,000 lines would be shown.
    expect(limited(lines(12_000, 'old'), lines(12_000, 'new'), limits)).toEqual(
      tooLarge('M', Buffer.byteLength(lines(12_000, 'new'))),
    );
    expect(limited(lines(9_000, 'old'), lines(9_000, 'new'), limits)).toMatchObject({
      lines_added: 9_000,
      lines_deleted: 9_000,
    });
    const before = lines(15_000);
    const edited = limited(before, before.replace('line 7000\n', 'changed\n'), limits);
    expect(edited).toMatchObject({ is_binary: false, lines_added: 1, lines_deleted: 1 });
    expect(edited.hunks[0].changes).toHaveLength(8);
  });

  it('answers a 2 MiB file of empty lines with one small object, not millions', () => {
    const newlines = Buffer.alloc(2 * 1024 * 1024, 0x0a);
    const d = diffFile('f.txt', newlines, newlines, packages, { maxBytes: 8 << 20, maxLines: 100_000 });
    expect(d).toMatchObject({ is_binary: true, hunks: [], mode: '' });
    expect(JSON.stringify(d).length).toBeLessThan(1_000);
  });
});

describe('fileType', () => {
  it('types files by extension, and sniffs unknown names', () => {
    expect(fileType('a/b.JS', Buffer.from('x'))).toEqual({ mimetype: 'application/javascript', category: 'text' });
    expect(fileType('icon.svg', Buffer.from('<svg/>'))).toEqual({ mimetype: 'image/svg+xml', category: 'image' });
    expect(fileType('LICENSE', Buffer.from('MIT'))).toEqual({ mimetype: 'text/plain', category: 'text' });
    expect(fileType('blob', Buffer.from([0, 1]))).toEqual({ mimetype: 'application/octet-stream', category: 'binary' });
    expect(fileType('font.woff2', Buffer.from('x'))).toEqual({ mimetype: 'font/woff2', category: 'binary' });
    // A text extension on binary bytes is not shown as text.
    expect(fileType('weird.js', Buffer.from([0x7f, 0]))).toEqual({
      mimetype: 'application/javascript',
      category: 'binary',
    });
  });
});
