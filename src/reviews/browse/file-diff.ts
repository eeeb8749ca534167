import { structuredPatch } from 'diff';
import { decodeText, fileType, looksBinary } from './mime.js';

/** git's short status of a path between two packages: added, deleted, modified, or '' (unchanged). */
export type FileStatus = 'A' | 'D' | 'M' | '';

export type ChangeType = 'insert' | 'delete' | 'normal' | 'insert-eofnl' | 'delete-eofnl' | 'normal-eofnl';

export interface DiffChange {
  content: string;
  type: ChangeType;
  /** -1 where the line has no number on that side (an insert has no old line). */
  old_line_number: number;
  new_line_number: number;
}

export interface DiffHunk {
  header: string;
  old_start: number;
  new_start: number;
  old_lines: number;
  new_lines: number;
  changes: DiffChange[];
}

/** One file's diff, in the original's (git-derived) shape. */
export interface FileDiff {
  path: string;
  old_path: string;
  /** Bytes of the file in the newer package (0 when deleted). */
  size: number;
  lines_added: number;
  lines_deleted: number;
  is_binary: boolean;
  mode: FileStatus;
  hunks: DiffHunk[];
  /** The packages compared: the base's and this one's sha256. */
  parent: string;
  hash: string;
  old_ending_new_line: boolean;
  new_ending_new_line: boolean;
}

/**
 * What one file's diff may cost: past these bytes (either side) or lines, the file is not shown
 * line by line. Each shown line is an object in the stored diff, the GraphQL result and the REST
 * answer, and twice in JSON, so lines cost far more than their bytes.
 */
export interface DiffLimits {
  /** Bytes of either side; larger files are never read for a diff. */
  maxBytes: number;
  /** Lines of either side, and lines a diff shows (an unchanged file all of its, a replaced one both sides'). */
  maxLines: number;
}

/** Lines of context around changes, as git shows them. */
const CONTEXT = 3;
/**
 * Past this many changed lines, or this long, jsdiff's search (O(N·D) time, worse in memory) stops
 * and the file is shown as all of its old lines removed and all of its new lines added: correct,
 * only not minimal. Measured here: 12,000 lines all changed give up after ~0.15-0.3 s, where a
 * bound of 10,000 searched for 19 s on the event loop.
 */
const MAX_EDIT_LENGTH = 2_000;
const MAX_DIFF_MS = 250;

/**
 * A unified-diff hunk header: `@@ -start[,count] +start[,count] @@` (a count of 1 is left out),
 * without its line ending: the original sends libgit2's header `rstrip('\r\n')`ed.
 */
function header(oldStart: number, oldLines: number, newStart: number, newLines: number): string {
  const side = (start: number, lines: number) => (lines === 1 ? `${start}` : `${start},${lines}`);
  return `@@ -${side(oldStart, oldLines)} +${side(newStart, newLines)} @@`;
}

/** The header of the original's made-up hunk of an unchanged file (git gives it none). */
const UNCHANGED_HEADER = '@@ -0 +0 @@';

/**
 * A line's content as the original sends it: libgit2's line `rstrip('\r\n')`ed, so without its
 * `\n` or `\r\n` (and any further `\r`/`\n` at its end).
 */
const lineContent = (line: string) => line.replace(/[\r\n]+$/, '');

/** libgit2's "no newline" line, stripped as every line is (its leading `\n` stays). */
const NO_NEWLINE = '\n\\ No newline at end of file';

/**
 * The "no newline" marker after a side's last line, as libgit2 makes it: the type is named after
 * the side that still ends in a newline (after an inserted line, the old side had one:
 * `delete-eofnl`; after a deleted line, `insert-eofnl`; after a context line, `normal-eofnl`),
 * and the line numbers are those of the line before it.
 */
function noNewlineMarker(previous: DiffChange): DiffChange {
  const type: ChangeType =
    previous.type === 'insert' ? 'delete-eofnl' : previous.type === 'delete' ? 'insert-eofnl' : 'normal-eofnl';
  return {
    content: NO_NEWLINE,
    type,
    old_line_number: previous.old_line_number,
    new_line_number: previous.new_line_number,
  };
}

/** Lines with their endings kept (`a\n`, `b\r\n`, and a last line without one). */
function splitLines(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  return lines.length === 1 && lines[0] === '' ? [] : lines;
}

const endsWithNewline = (text: string) => text === '' || text.endsWith('\n');

/**
 * Lines of a text's bytes (what `splitLines` gives for the decoded text), counted without decoding
 * or allocating: the newline bytes, plus a last line without one.
 */
export function countLines(bytes: Buffer): number {
  let lines = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? lines + 1 : lines;
}

/**
 * A diff without lines: a binary file, or one over the limits. The original (pygit2) has libgit2
 * mark any blob over its `max_size` as binary, so a file too large to show is answered the same
 * way: `is_binary`, no hunks, no line counts.
 */
export function diffWithoutLines(
  path: string,
  mode: FileStatus,
  size: number,
  packages: { parent: string; hash: string },
): FileDiff {
  return {
    path,
    old_path: path,
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
  };
}

/**
 * The diff of one path. `before`/`after` are the bytes in the base and in the newer package (null
 * where the path does not exist). An unchanged text file is the original's made-up hunk of all its
 * lines (`@@ -0 +0 @@`). Line contents and headers go without their line endings, as the original's.
 * Past `limits` (either side's bytes or lines, or the lines a whole replacement would show) the
 * file is answered as too large (`diffWithoutLines`).
 */
export function diffFile(
  path: string,
  before: Buffer | null,
  after: Buffer | null,
  packages: { parent: string; hash: string },
  limits: DiffLimits = { maxBytes: Infinity, maxLines: Infinity },
): FileDiff {
  const mode: FileStatus = before === null ? 'A' : after === null ? 'D' : before.equals(after) ? '' : 'M';
  const size = after?.length ?? 0;
  const isBinary = (before !== null && looksBinary(before)) || (after !== null && looksBinary(after));
  const sides = [before, after].filter((side) => side !== null);
  const tooLarge = sides.some((side) => side.length > limits.maxBytes || countLines(side) > limits.maxLines);
  if (isBinary || tooLarge) return diffWithoutLines(path, mode, size, packages);
  const base = { path, old_path: path, size, is_binary: false, mode, parent: packages.parent, hash: packages.hash };
  const oldText = before === null ? '' : decodeText(before);
  const newText = after === null ? '' : decodeText(after);
  if (mode === '') {
    // git has no hunk for an unchanged file; the original makes one up for a text file (by its
    // mime category), of its bytes split at each `\n`: a `\r` stays, a final newline gives a last
    // empty line, an empty file one empty line. Its endings stay true (no git line said otherwise).
    const hunks: DiffHunk[] = [];
    if (fileType(path, after as Buffer).category === 'text') {
      const changes = newText.split('\n').map((content, i) => ({
        content,
        type: 'normal' as const,
        old_line_number: i + 1,
        new_line_number: i + 1,
      }));
      const lines = changes.length;
      hunks.push({ header: UNCHANGED_HEADER, old_start: 0, new_start: 0, old_lines: lines, new_lines: lines, changes });
    }
    return { ...base, lines_added: 0, lines_deleted: 0, hunks, old_ending_new_line: true, new_ending_new_line: true };
  }
  // The original sets these from libgit2's "no newline" lines; its diff shows whole files, so
  // there is one exactly when a side (not empty) lacks its final newline.
  const endings = { old_ending_new_line: endsWithNewline(oldText), new_ending_new_line: endsWithNewline(newText) };
  const hunks = patchHunks(oldText, newText, limits.maxLines);
  if (!hunks) return diffWithoutLines(path, mode, size, packages);
  let added = 0;
  let deleted = 0;
  for (const hunk of hunks) {
    for (const change of hunk.changes) {
      if (change.type === 'insert') added++;
      else if (change.type === 'delete') deleted++;
    }
  }
  return { ...base, lines_added: added, lines_deleted: deleted, hunks, ...endings };
}

/** The hunks of a modified file; null when only a whole replacement of more than `maxLines` lines would do. */
function patchHunks(oldText: string, newText: string, maxLines: number): DiffHunk[] | null {
  const patch = structuredPatch('a', 'b', oldText, newText, '', '', {
    context: CONTEXT,
    maxEditLength: MAX_EDIT_LENGTH,
    timeout: MAX_DIFF_MS,
  });
  if (!patch) {
    const oldLines = splitLines(oldText);
    const newLines = splitLines(newText);
    return oldLines.length + newLines.length > maxLines ? null : [wholeReplacement(oldLines, newLines)];
  }
  return patch.hunks.map((h) => {
    // As git prints them: a side with no lines starts at the line before.
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    let oldLine = h.oldStart;
    let newLine = h.newStart;
    const changes: DiffChange[] = [];
    for (const line of h.lines) {
      const kind = line[0];
      // jsdiff drops the `\n` but keeps a `\r` before it; the original drops both.
      const content = lineContent(line.slice(1));
      if (kind === '\\') {
        // jsdiff's marker follows the side's last line, as libgit2's does.
        const previous = changes[changes.length - 1];
        if (previous) changes.push(noNewlineMarker(previous));
      } else if (kind === '-') {
        changes.push({ content, type: 'delete', old_line_number: oldLine++, new_line_number: -1 });
      } else if (kind === '+') {
        changes.push({ content, type: 'insert', old_line_number: -1, new_line_number: newLine++ });
      } else {
        changes.push({ content, type: 'normal', old_line_number: oldLine++, new_line_number: newLine++ });
      }
    }
    return {
      header: header(oldStart, h.oldLines, newStart, h.newLines),
      old_start: oldStart,
      new_start: newStart,
      old_lines: h.oldLines,
      new_lines: h.newLines,
      changes,
    };
  });
}

/**
 * Every old line removed, every new line added (when the edit is too large to search), each
 * side's last line followed by a "no newline" marker where it lacks one.
 */
function wholeReplacement(oldLines: string[], newLines: string[]): DiffHunk {
  const oldStart = oldLines.length ? 1 : 0;
  const newStart = newLines.length ? 1 : 0;
  const side = (lines: string[], type: 'delete' | 'insert'): DiffChange[] => {
    const changes: DiffChange[] = lines.map((line, i) => ({
      content: lineContent(line),
      type,
      old_line_number: type === 'delete' ? i + 1 : -1,
      new_line_number: type === 'insert' ? i + 1 : -1,
    }));
    const last = changes[changes.length - 1];
    if (last && !lines[lines.length - 1].endsWith('\n')) changes.push(noNewlineMarker(last));
    return changes;
  };
  return {
    header: header(oldStart, oldLines.length, newStart, newLines.length),
    old_start: oldStart,
    new_start: newStart,
    old_lines: oldLines.length,
    new_lines: newLines.length,
    changes: [...side(oldLines, 'delete'), ...side(newLines, 'insert')],
  };
}
