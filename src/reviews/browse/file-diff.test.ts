import { countLines, diffFile, type DiffLimits } from './file-diff.js';
import { fileType } from './mime.js';

const packages = { parent: 'a'.repeat(64), hash: 'b'.repeat(64) };
const diff = (before: string | Buffer | null, after: string | Buffer | null) =>
  diffFile('f.js', before === null ? null : Buffer.from(before), after === null ? null : Buffer.from(after), packages);

describe('diffFile', () => {
  it('sends changed middle lines and their context without line endings, the header without its own', () => {
    const d = diff('one\ntwo\nthree\nfour\nfive\n', 'one\ntwo\n3\nfour\nfive\n');
    expect(d.hunks).toEqual([
      {
        header: '@@ -1,5 +1,5 @@',
        old_start: 1,
        new_start: 1,
        old_lines: 5,
        new_lines: 5,
        changes: [
          { content: 'one', type: 'normal', old_line_number: 1, new_line_number: 1 },
          { content: 'two', type: 'normal', old_line_number: 2, new_line_number: 2 },
          { content: 'three', type: 'delete', old_line_number: 3, new_line_number: -1 },
          { content: '3', type: 'insert', old_line_number: -1, new_line_number: 3 },
          { content: 'four', type: 'normal', old_line_number: 4, new_line_number: 4 },
          { content: 'five', type: 'normal', old_line_number: 5, new_line_number: 5 },
        ],
      },
    ]);
    expect(d).toMatchObject({
      lines_added: 1,
      lines_deleted: 1,
      mode: 'M',
      old_ending_new_line: true,
      new_ending_new_line: true,
    });
  });

  it('strips CRLF endings from the content, as the original (rstrip of \\r and \\n)', () => {
    const d = diff('a\r\nb\r\n', 'a\r\nc\r\n');
    expect(d.hunks[0].header).toBe('@@ -1,2 +1,2 @@');
    expect(d.hunks[0].changes).toEqual([
      { content: 'a', type: 'normal', old_line_number: 1, new_line_number: 1 },
      { content: 'b', type: 'delete', old_line_number: 2, new_line_number: -1 },
      { content: 'c', type: 'insert', old_line_number: -1, new_line_number: 2 },
    ]);
    expect(d).toMatchObject({ lines_added: 1, lines_deleted: 1, mode: 'M' });
    // A `\r` inside a line stays; only the end is stripped.
    expect(diff('a\rb\n', 'c\r\n').hunks[0].changes.map((c) => c.content)).toEqual(['a\rb', 'c']);
  });

  it('marks a missing newline at the end of the new side as libgit2 does (delete-eofnl, new line number)', () => {
    // addons-server test_get_diff_newline_old_file
    const d = diff('{"id": "old"}\n', '{"id": "random"}');
    expect(d).toMatchObject({ old_ending_new_line: true, new_ending_new_line: false });
    expect(d.hunks).toEqual([
      {
        header: '@@ -1 +1 @@',
        old_start: 1,
        new_start: 1,
        old_lines: 1,
        new_lines: 1,
        changes: [
          { content: '{"id": "old"}', type: 'delete', old_line_number: 1, new_line_number: -1 },
          { content: '{"id": "random"}', type: 'insert', old_line_number: -1, new_line_number: 1 },
          { content: '\n\\ No newline at end of file', type: 'delete-eofnl', old_line_number: -1, new_line_number: 1 },
        ],
      },
    ]);
  });

  it('marks a missing newline at the end of the old side (insert-eofnl, old line number)', () => {
    const d = diff('x\ny', 'x\ny\n');
    expect(d).toMatchObject({ old_ending_new_line: false, new_ending_new_line: true });
    expect(d.hunks[0].header).toBe('@@ -1,2 +1,2 @@');
    expect(d.hunks[0].changes).toEqual([
      { content: 'x', type: 'normal', old_line_number: 1, new_line_number: 1 },
      { content: 'y', type: 'delete', old_line_number: 2, new_line_number: -1 },
      { content: '\n\\ No newline at end of file', type: 'insert-eofnl', old_line_number: 2, new_line_number: -1 },
      { content: 'y', type: 'insert', old_line_number: -1, new_line_number: 2 },
    ]);
  });

  it('marks both sides without a final newline as the original does', () => {
    // addons-server test_get_diff_newline_both_no_newline
    const d = diff('{"id": "random"}', '{"id": "new random id",\n"something": "foo"}');
    expect(d).toMatchObject({ old_ending_new_line: false, new_ending_new_line: false });
    expect(d.hunks[0].header).toBe('@@ -1 +1,2 @@');
    expect(d.hunks[0].changes).toEqual([
      { content: '{"id": "random"}', new_line_number: -1, old_line_number: 1, type: 'delete' },
      { content: '\n\\ No newline at end of file', new_line_number: -1, old_line_number: 1, type: 'insert-eofnl' },
      { content: '{"id": "new random id",', new_line_number: 1, old_line_number: -1, type: 'insert' },
      { content: '"something": "foo"}', new_line_number: 2, old_line_number: -1, type: 'insert' },
      { content: '\n\\ No newline at end of file', new_line_number: 2, old_line_number: -1, type: 'delete-eofnl' },
    ]);
    // A context line last on both sides: normal-eofnl, with both its numbers.
    const context = diff('a\nb\nend', 'A\nb\nend');
    expect(context.hunks[0].changes.slice(-2)).toEqual([
      { content: 'end', type: 'normal', old_line_number: 3, new_line_number: 3 },
      { content: '\n\\ No newline at end of file', type: 'normal-eofnl', old_line_number: 3, new_line_number: 3 },
    ]);
  });

  it('numbers hunks as git does, with context and a side of no lines starting at the line before', () => {
    const before = Array.from({ length: 30 }, (_, i) => `${i + 1}\n`).join('');
    const after = before.replace('15\n', '15b\n').replace('30\n', '');
    const d = diff(before, after);
    expect(d.hunks.map((h) => h.header)).toEqual(['@@ -12,7 +12,7 @@', '@@ -27,4 +27,3 @@']);
    // addons-server test_get_diff_add_new_file
    expect(diff(null, '{"id": "random"}\n').hunks).toEqual([
      {
        header: '@@ -0,0 +1 @@',
        old_start: 0,
        new_start: 1,
        old_lines: 0,
        new_lines: 1,
        changes: [{ content: '{"id": "random"}', type: 'insert', old_line_number: -1, new_line_number: 1 }],
      },
    ]);
    expect(diff('a\nb\n', null).hunks[0]).toMatchObject({ header: '@@ -1,2 +0,0 @@', new_start: 0 });
  });

  it("shows an unchanged text file as the original's one made-up hunk of its lines split at \\n", () => {
    const d = diff('a\nb\n', 'a\nb\n');
    expect(d.hunks).toEqual([
      {
        header: '@@ -0 +0 @@',
        old_start: 0,
        new_start: 0,
        old_lines: 3,
        new_lines: 3,
        changes: [
          { content: 'a', type: 'normal', old_line_number: 1, new_line_number: 1 },
          { content: 'b', type: 'normal', old_line_number: 2, new_line_number: 2 },
          { content: '', type: 'normal', old_line_number: 3, new_line_number: 3 },
        ],
      },
    ]);
    expect(d).toMatchObject({ mode: '', lines_added: 0, lines_deleted: 0 });
    // No final newline: no empty last line; the endings stay true (git showed no line).
    const unterminated = diff('a\r\nb', 'a\r\nb');
    expect(unterminated.hunks[0]).toMatchObject({ header: '@@ -0 +0 @@', old_lines: 2, new_lines: 2 });
    // Split at \n only, as the original splits the blob's bytes: a CR stays.
    expect(unterminated.hunks[0].changes.map((c) => c.content)).toEqual(['a\r', 'b']);
    expect(unterminated).toMatchObject({ old_ending_new_line: true, new_ending_new_line: true });
    // An empty file is one empty line; an image (not text by its type) has no hunk.
    expect(diff('', '').hunks).toEqual([
      {
        header: '@@ -0 +0 @@',
        old_start: 0,
        new_start: 0,
        old_lines: 1,
        new_lines: 1,
        changes: [{ content: '', type: 'normal', old_line_number: 1, new_line_number: 1 }],
      },
    ]);
    const svg = Buffer.from('<svg/>\n');
    expect(diffFile('icon.svg', svg, svg, packages)).toMatchObject({ mode: '', is_binary: false, hunks: [] });
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
    expect(d.hunks[0].header).toBe('@@ -1,12000 +1,12000 @@');
    expect(d.hunks[0].changes[12_000]).toEqual({
      content: 'new 0',
      type: 'insert',
      old_line_number: -1,
      new_line_number: 1,
    });
    // Sides without a final newline (CRLF lines): stripped lines, and each side's marker.
    const unterminated = diff(before.replace(/\n/g, '\r\n').slice(0, -2), after.slice(0, -1));
    const changes = unterminated.hunks[0].changes;
    expect(changes).toHaveLength(24_002);
    expect(changes[0].content).toBe('old 0');
    expect(changes.slice(11_999, 12_002)).toEqual([
      { content: 'old 11999', type: 'delete', old_line_number: 12_000, new_line_number: -1 },
      { content: '\n\\ No newline at end of file', type: 'insert-eofnl', old_line_number: 12_000, new_line_number: -1 },
      { content: 'new 0', type: 'insert', old_line_number: -1, new_line_number: 1 },
    ]);
    expect(changes[24_001]).toEqual({
      content: '\n\\ No newline at end of file',
      type: 'delete-eofnl',
      old_line_number: -1,
      new_line_number: 12_000,
    });
    expect(unterminated).toMatchObject({ old_ending_new_line: false, new_ending_new_line: false });
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
    // The original's split at \n: 1,000 terminated lines and the empty one after the last.
    expect(limited(atLimit, atLimit, limits).hunks[0].changes).toHaveLength(1_001);
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
