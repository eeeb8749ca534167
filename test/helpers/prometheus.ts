/**
 * A strict parser of Prometheus's text exposition format (version 0.0.4): every line must be a
 * HELP, a TYPE or a sample of the family the last TYPE declared, label names and values well
 * formed and escaped, no series twice, and each histogram's buckets cumulative up to `+Inf` =
 * `_count`. Throws on the first violation, naming the line.
 */

export type FamilyType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: FamilyType;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export function parseExposition(text: string): Map<string, Family> {
  if (!text.endsWith('\n')) throw new Error('exposition must end with a newline');
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  let current: Family | null = null;
  const lines = text.slice(0, -1).split('\n');
  lines.forEach((line, index) => {
    const fail = (why: string): never => {
      throw new Error(`line ${index + 1} (${JSON.stringify(line)}): ${why}`);
    };
    if (line === '') return;
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!match) return; // a comment
      const [, keyword, name, rest] = match;
      if (!METRIC_NAME.test(name)) fail('bad metric name');
      if (keyword === 'HELP') {
        if (/\\[^\\n]/.test(rest.replace(/\\\\/g, ''))) fail('bad escape in HELP');
        const family = families.get(name);
        if (family?.samples.length) fail('HELP after samples');
        if (family) family.help = rest;
        else families.set(name, (current = { name, help: rest, type: 'untyped', samples: [] }));
        return;
      }
      if (!TYPES.has(rest)) fail('unknown type');
      const family = families.get(name) ?? { name, help: '', type: 'untyped' as FamilyType, samples: [] };
      if (family.samples.length) fail('TYPE after samples');
      family.type = rest as FamilyType;
      families.set(name, family);
      current = family;
      return;
    }
    const sample = parseSample(line, fail);
    if (!current || !belongsTo(sample.name, current)) fail(`sample outside its family (last TYPE: ${current?.name})`);
    const key = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (seen.has(key)) fail('duplicate series');
    seen.add(key);
    current!.samples.push(sample);
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

function belongsTo(sampleName: string, family: Family): boolean {
  if (sampleName === family.name) return family.type !== 'histogram';
  const suffix = sampleName.slice(family.name.length);
  if (!sampleName.startsWith(family.name)) return false;
  if (family.type === 'histogram') return ['_bucket', '_sum', '_count'].includes(suffix);
  if (family.type === 'summary') return ['_sum', '_count'].includes(suffix);
  return false;
}

function parseSample(line: string, fail: (why: string) => never): Sample {
  let i = 0;
  while (i < line.length && line[i] !== '{' && line[i] !== ' ') i++;
  const name = line.slice(0, i);
  if (!METRIC_NAME.test(name)) fail('bad metric name');
  const labels: Record<string, string> = {};
  if (line[i] === '{') {
    i++;
    while (line[i] !== '}') {
      const start = i;
      while (i < line.length && line[i] !== '=') i++;
      const label = line.slice(start, i);
      if (!LABEL_NAME.test(label)) fail(`bad label name ${JSON.stringify(label)}`);
      if (label in labels) fail(`label ${label} twice`);
      if (line[i + 1] !== '"') fail('label value must be quoted');
      i += 2;
      let value = '';
      for (;;) {
        if (i >= line.length) fail('unterminated label value');
        const c = line[i];
        if (c === '"') break;
        if (c === '\\') {
          const next = line[i + 1];
          if (next === '\\' || next === '"') value += next;
          else if (next === 'n') value += '\n';
          else fail('bad escape in label value');
          i += 2;
        } else {
          value += c;
          i++;
        }
      }
      labels[label] = value;
      i++;
      if (line[i] === ',') i++;
      else if (line[i] !== '}') fail('expected , or } after a label');
    }
    i++;
  }
  if (line[i] !== ' ') fail('expected a space before the value');
  const parts = line.slice(i + 1).split(' ');
  if (parts.length > 2 || (parts[1] !== undefined && !/^-?\d+$/.test(parts[1]))) fail('bad value or timestamp');
  const value = parseValue(parts[0]);
  if (value === null) fail(`bad value ${JSON.stringify(parts[0])}`);
  return { name, labels, value: value! };
}

function parseValue(text: string): number | null {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return null;
  return Number(text);
}

function checkHistogram(family: Family): void {
  const groups = new Map<string, { buckets: [number, number][]; count?: number; sum?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { buckets: [] }));
    if (sample.name.endsWith('_bucket')) {
      if (le === undefined) throw new Error(`${family.name}: bucket without le`);
      group.buckets.push([parseValue(le)!, sample.value]);
    } else if (sample.name.endsWith('_count')) group.count = sample.value;
    else group.sum = sample.value;
  }
  for (const [key, group] of groups) {
    const where = `${family.name}${key}`;
    if (group.count === undefined || group.sum === undefined) throw new Error(`${where}: no _count or _sum`);
    const sorted = group.buckets.sort((a, b) => a[0] - b[0]);
    if (!sorted.length || sorted.at(-1)![0] !== Infinity) throw new Error(`${where}: no +Inf bucket`);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i][1] < sorted[i - 1][1]) throw new Error(`${where}: buckets not cumulative`);
    }
    if (sorted.at(-1)![1] !== group.count) throw new Error(`${where}: +Inf bucket differs from _count`);
  }
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when none, an error when several. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const family = [...families.values()].find((f) => f.samples.some((s) => s.name === name));
  const matches = (family?.samples ?? []).filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (matches.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${matches.length} series`);
  return matches[0]?.value;
}
