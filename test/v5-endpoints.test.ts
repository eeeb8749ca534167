/**
 * Keeps docs/v5-endpoints.md true: the inventory of every REST v5 endpoint the original documents,
 * each marked `served` or `left out: <reason>`, is checked against the live route table (no
 * database). A row is served when a v5 route has its method and path, placeholder names ignored
 * (`<addon_id>` matches `<addon>`) and a trailing slash ignored (the original's docs drop it on a
 * few paths). The v5 routes that match no documented row are this service's extensions; they are
 * printed.
 *
 * After routes are added or removed, `V5_ENDPOINTS_UPDATE=1 npm test -- test/v5-endpoints.test.ts`
 * rewrites the Here column, the count line and the extensions from the route table (a row that gains
 * a route becomes `served`; a served row that lost its route becomes `left out: not built yet`),
 * then checks again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { routes } from '../rest-compat/routes/index.js';

const DOC = fileURLToPath(new URL('../docs/v5-endpoints.md', import.meta.url));
const COUNT_LINE = /^Count: (\d+) documented, (\d+) served, (\d+) left out\.$/m;
const COLUMNS = ['Method', 'Path', 'Section', 'Scope', 'Here'] as const;
const EXTENSIONS_HEADING = '## Extensions';
const EXTENSION_ITEM = /^- `(GET|POST|PUT|PATCH|DELETE) (\S+)`$/;

interface Row {
  file: string;
  method: string;
  path: string;
  section: string;
  scope: string;
  here: string;
}

interface Doc {
  text: string;
  rows: Row[];
  /** `METHOD /path` of each item listed under the extensions heading. */
  extensions: string[];
}

/** Method and path with placeholder names and a trailing slash dropped. */
function key(method: string, path: string): string {
  return `${method} ${path.replace(/<[^>]*>/g, '<>').replace(/\/$/, '')}`;
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());
}

function parse(text: string): Doc {
  const rows: Row[] = [];
  const extensions: string[] = [];
  let file: string | null = null;
  let inExtensions = false;
  for (const line of text.split('\n')) {
    const heading = /^## (\S+\.(?:rst|md))$/.exec(line);
    if (line.startsWith('## ')) {
      file = heading ? heading[1]! : null;
      inExtensions = line.startsWith(EXTENSIONS_HEADING);
      continue;
    }
    const item = EXTENSION_ITEM.exec(line);
    if (inExtensions && item) extensions.push(`${item[1]} ${item[2]}`);
    if (!line.startsWith('|') || !file) continue;
    const [method, path, section, scope, here, ...rest] = cells(line);
    if (method === 'Method' || /^-+$/.test(method ?? '')) continue;
    if (rest.length > 0 || here === undefined) throw new Error(`${file}: a row without 5 cells: ${line}`);
    rows.push({ file, method: method!, path: path!.replace(/^`|`$/g, ''), section: section!, scope: scope!, here });
  }
  return { text, rows, extensions };
}

/** One file's table, its columns padded so it reads in a terminal. */
function renderTable(rows: Row[]): string {
  const values = rows.map((row) => [row.method, `\`${row.path}\``, row.section, row.scope, row.here]);
  const widths = COLUMNS.map((title, index) => Math.max(title.length, ...values.map((value) => value[index]!.length)));
  const line = (value: readonly string[]) =>
    `| ${value.map((cell, index) => cell.padEnd(widths[index]!)).join(' | ')} |`;
  return [line(COLUMNS), line(widths.map((width) => '-'.repeat(width))), ...values.map(line)].join('\n');
}

function countLine(rows: Row[]): string {
  const served = rows.filter((row) => row.here === 'served').length;
  return `Count: ${rows.length} documented, ${served} served, ${rows.length - served} left out.`;
}

/** The doc with its tables, count line and extensions rendered (everything else kept). */
function render(doc: Doc, rows: Row[], extensions: readonly string[]): string {
  const byFile = new Map<string, Row[]>();
  for (const row of rows) byFile.set(row.file, [...(byFile.get(row.file) ?? []), row]);
  const out: string[] = [];
  let file: string | null = null;
  let inExtensions = false;
  let inBlock = false;
  for (const line of doc.text.split('\n')) {
    if (line.startsWith('## ')) {
      file = /^## (\S+\.(?:rst|md))$/.exec(line)?.[1] ?? null;
      inExtensions = line.startsWith(EXTENSIONS_HEADING);
    }
    const tableLine = file !== null && line.startsWith('|');
    const extensionLine = inExtensions && EXTENSION_ITEM.test(line);
    if (tableLine || extensionLine) {
      if (!inBlock)
        out.push(tableLine ? renderTable(byFile.get(file!) ?? []) : extensions.map((e) => `- \`${e}\``).join('\n'));
      inBlock = true;
      continue;
    }
    inBlock = false;
    out.push(COUNT_LINE.test(line) ? countLine(rows) : line);
  }
  return out.join('\n');
}

const v5Routes = routes.filter((route) => (route.versions as readonly string[]).includes('v5'));
const routeKeys = new Set(v5Routes.map((route) => key(route.method, route.path)));
const isServed = (row: Row) => routeKeys.has(key(row.method, row.path));

/** The v5 routes no documented row matches, as `METHOD /path`, in route table order. */
function extensionsOf(rows: readonly Row[]): string[] {
  const documented = new Set(rows.map((row) => key(row.method, row.path)));
  return v5Routes
    .filter((route) => !documented.has(key(route.method, route.path)))
    .map((route) => `${route.method} ${route.path}`);
}

let doc = parse(readFileSync(DOC, 'utf8'));
if (process.env.V5_ENDPOINTS_UPDATE === '1') {
  const updated = doc.rows.map((row) => {
    if (isServed(row)) return { ...row, here: 'served' };
    return row.here === 'served' ? { ...row, here: 'left out: not built yet' } : row;
  });
  writeFileSync(DOC, render(doc, updated, extensionsOf(updated)));
  doc = parse(readFileSync(DOC, 'utf8'));
}

describe('docs/v5-endpoints.md', () => {
  it('lists rows, each with a method, a /-path, a scope and a Here of served or left out: <reason>', () => {
    expect(doc.rows.length).toBeGreaterThan(0);
    for (const row of doc.rows) {
      expect(`${row.file} ${row.method}`).toMatch(/ (GET|POST|PUT|PATCH|DELETE)$/);
      expect(row.path).toMatch(/^\/\S+$/);
      expect(row.path).not.toMatch(/^\/api\//);
      expect(['public', 'internal']).toContain(row.scope);
      expect(`${row.file} ${row.method} ${row.path}: ${row.here}`).toMatch(/: (served|left out: \S.*)$/);
    }
  });

  it('lists each method and path once', () => {
    const keys = doc.rows.map((row) => key(row.method, row.path));
    expect(keys.filter((value, index) => keys.indexOf(value) !== index)).toEqual([]);
  });

  it('marks served only rows that have a v5 route', () => {
    const missing = doc.rows.filter((row) => row.here === 'served' && !isServed(row));
    expect(missing.map((row) => `${row.file}: ${row.method} ${row.path}`)).toEqual([]);
  });

  it('marks left out only rows that have no v5 route (else the doc needs updating)', () => {
    const stale = doc.rows.filter((row) => row.here !== 'served' && isServed(row));
    expect(stale.map((row) => `${row.file}: ${row.method} ${row.path} has a route now`)).toEqual([]);
  });

  it('has a count line that matches the rows', () => {
    const match = COUNT_LINE.exec(doc.text);
    expect(match).not.toBeNull();
    expect(match![0]).toBe(countLine(doc.rows));
  });

  it('lists the v5 routes the original does not document (extensions), and prints them', () => {
    const extensions = extensionsOf(doc.rows);
    expect([...doc.extensions].sort()).toEqual([...extensions].sort());
    console.log(`v5 routes the original does not document (${extensions.length}):\n  ${extensions.join('\n  ')}`);
  });

  it('is laid out as its renderer writes it (padded tables)', () => {
    expect(render(doc, doc.rows, doc.extensions)).toBe(doc.text);
  });
});
