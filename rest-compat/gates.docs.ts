import { API_GATES, API_VERSIONS, GATES, type Gate } from './gates.js';

/** Marks around the gate table in README.md (rewritten by `npm run docs:gates`). */
export const GATE_TABLE_START = '<!-- api-gates:start (generated from rest-compat/gates.ts: npm run docs:gates) -->';
export const GATE_TABLE_END = '<!-- api-gates:end -->';

/** The README's table of what differs between the REST versions: one row per gate. */
export function gateTableMarkdown(): string {
  const header = ['Gate', ...API_VERSIONS, 'Where on, what it does'];
  const rows = (Object.keys(GATES) as Gate[]).map((name) => [
    `\`${name}\``,
    ...API_VERSIONS.map((version) => (API_GATES[version].includes(name) ? 'on' : '')),
    GATES[name].replaceAll('|', '\\|'),
  ]);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** A Markdown table's text without its alignment (cells trimmed, rules as `---`), for comparisons. */
export function unaligned(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line.startsWith('|')
        ? line
            .split('|')
            .map((cell) => (/^ *:?-+:? *$/.test(cell) ? '---' : cell.trim()))
            .join('|')
        : line,
    )
    .join('\n');
}

/** README text with the table between its marks replaced by the current one. */
export function withGateTable(readme: string): string {
  const start = readme.indexOf(GATE_TABLE_START);
  const end = readme.indexOf(GATE_TABLE_END);
  if (start < 0 || end < start) throw new Error('README.md has no gate table marks');
  return `${readme.slice(0, start + GATE_TABLE_START.length)}\n\n${gateTableMarkdown()}\n\n${readme.slice(end)}`;
}
