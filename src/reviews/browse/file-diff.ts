import { structuredPatch } from 'diff';
import { decodeText, looksBinary } from './mime.js';

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

/** A unified-diff hunk header: `@@ -start[,count] +start[,count] @@` (a count of 1 is left out). */
function header(oldStart: number, oldLines: number, newStart: number, newLines: number): string {
  const side = (start: number, lines: number) => (lines === 1 ? `${start}` : `${start},${lines}`);
  return `@@ -${side(oldStart, oldLines)} +${side(newStart, newLines)} @@\n`;
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
 * where the path does not exist). An unchanged file is one hunk of all its lines, unmodified.
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
  const endings = { old_ending_new_line: endsWithNewline(oldText), new_ending_new_line: endsWithNewline(newText) };
  if (mode === '') {
    const lines = splitLines(newText);
    const changes = lines.map((content, i) => ({
      content,
      type: 'normal' as const,
      old_line_number: i + 1,
      new_line_number: i + 1,
    }));
    const hunks = lines.length
      ? [
          {
            header: header(1, lines.length, 1, lines.length),
            old_start: 1,
            new_start: 1,
            old_lines: lines.length,
            new_lines: lines.length,
            changes,
          },
        ]
      : [];
    return { ...base, lines_added: 0, lines_deleted: 0, hunks, ...endings };
  }
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
    h.lines.forEach((line, i) => {
      const kind = line[0];
      // jsdiff drops line endings; a line keeps its `\n` unless a "no newline" marker follows it.
      const content = line.slice(1) + (h.lines[i + 1]?.[0] === '\\' ? '' : '\n');
      if (kind === '\\') {
        const previous = changes[changes.length - 1];
        const type = `${previous?.type ?? 'normal'}-eofnl` as ChangeType;
        changes.push({ content: `\n${line}\n`, type, old_line_number: -1, new_line_number: -1 });
      } else if (kind === '-') {
        changes.push({ content, type: 'delete', old_line_number: oldLine++, new_line_number: -1 });
      } else if (kind === '+') {
        changes.push({ content, type: 'insert', old_line_number: -1, new_line_number: newLine++ });
      } else {
        changes.push({ content, type: 'normal', old_line_number: oldLine++, new_line_number: newLine++ });
      }
    });
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

/** Every old line removed, every new line added (when the edit is too large to search). */
function wholeReplacement(oldLines: string[], newLines: string[]): DiffHunk {
  const oldStart = oldLines.length ? 1 : 0;
  const newStart = newLines.length ? 1 : 0;
  return {
    header: header(oldStart, oldLines.length, newStart, newLines.length),
    old_start: oldStart,
    new_start: newStart,
    old_lines: oldLines.length,
    new_lines: newLines.length,
    changes: [
      ...oldLines.map((content, i) => ({
        content,
        type: 'delete' as const,
        old_line_number: i + 1,
        new_line_number: -1,
      })),
      ...newLines.map((content, i) => ({
        content,
        type: 'insert' as const,
        old_line_number: -1,
        new_line_number: i + 1,
      })),
    ],
  };
}
