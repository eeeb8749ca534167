/**
 * Whether SQL text is a script of several statements: a `;` outside string literals, quoted
 * identifiers, dollar quotes and comments, with more SQL after it.
 */
export function isMultiStatement(sql: string): boolean {
  let i = 0;
  let sawTerminator = false;
  while (i < sql.length) {
    const c = sql[i];
    const next = sql[i + 1];
    if (sawTerminator && !/\s/.test(c) && !(c === '-' && next === '-') && !(c === '/' && next === '*')) return true;
    if (c === "'") i = skipQuoted(sql, i, "'", isEscapeString(sql, i));
    else if (c === '"') i = skipQuoted(sql, i, '"', false);
    else if (c === '-' && next === '-') i = skipUntil(sql, i + 2, '\n');
    else if (c === '/' && next === '*') i = skipBlockComment(sql, i + 2);
    else if (c === '$') i = skipDollarQuoted(sql, i);
    else {
      if (c === ';') sawTerminator = true;
      i++;
    }
  }
  return false;
}

/** `E'…'` strings take backslash escapes. */
function isEscapeString(sql: string, quote: number): boolean {
  const before = sql[quote - 1];
  return (before === 'E' || before === 'e') && !/[\w$]/.test(sql[quote - 2] ?? ' ');
}

/** Index after the closing quote (a doubled quote is part of the text). */
function skipQuoted(sql: string, start: number, quote: string, backslashEscapes: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    if (backslashEscapes && sql[i] === '\\') i += 2;
    else if (sql[i] === quote && sql[i + 1] === quote) i += 2;
    else if (sql[i] === quote) return i + 1;
    else i++;
  }
  return i;
}

function skipUntil(sql: string, start: number, end: string): number {
  const at = sql.indexOf(end, start);
  return at < 0 ? sql.length : at + end.length;
}

/** Block comments nest in PostgreSQL. */
function skipBlockComment(sql: string, start: number): number {
  let depth = 1;
  let i = start;
  while (i < sql.length && depth > 0) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      depth++;
      i += 2;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i += 2;
    } else i++;
  }
  return i;
}

/** `$tag$ … $tag$`; a `$` that does not open one (`$1`, part of a name) is skipped alone. */
function skipDollarQuoted(sql: string, start: number): number {
  const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(start));
  if (!tag || /[\w$]/.test(sql[start - 1] ?? ' ')) return start + 1;
  return skipUntil(sql, start + tag[0].length, tag[0]);
}
