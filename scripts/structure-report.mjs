// The structure's figures, read from the sources' import statements (scripts/imports.mjs, the
// reading test/layering.test.ts checks its rules with). Plain Node, no dependencies, no build:
//
//   node scripts/structure-report.mjs [repository root, default this checkout]
//
// What it prints, and how each figure is defined:
// - Domains: the folders under src/ holding a module.ts or a manifest.ts.
// - Largest product files (lines): product is src/** and rest-compat/** .ts, without *.test.ts,
//   *.d.ts, any migrations/ or __tests__/ folder and rest-compat/generated/. Every figure below
//   reads the product files only.
// - Import arrows: a distinct (from-folder, to-folder) pair of a product file's relative import,
//   folder being the importing file's and the target's directory (src/catalogue/lifecycle is a
//   folder of its own; an import within one directory is no arrow). Each folder lies in a layer:
//     0. platform: src/core, src/db, src/events, src/jobs, src/storage, src/mail, src/graphql,
//        src/ops, src/archive, src/access (and src/migrations, the ordered list the database port
//        applies);
//     1. the domains, ordered as the composition lists them (src/modules.ts, then src/domains.ts
//        for any domain it does not list; in each, the order of the names' first use after the
//        imports);
//     2. the composition (the files directly under src/: app.ts, services.ts, modules.ts,
//        domains.ts, platform.ts, config.ts, cli.ts, main.ts; and src/cli/) and rest-compat/, the
//        REST edge, side by side on top.
//   An arrow runs back up when its target lies in a higher layer or, between two domains, when the
//   target comes later in the composition's list. Also printed by top-level unit (src/<x>, the
//   composition, rest-compat), where each unit is one node.
// - Cycles between domains: the strongly connected components of the domain graph (domain A → B
//   when a file under A imports one under B), and the platform folders importing a domain.
// - Resolvers (*.resolver.ts, and files under a domain declaring @Resolver) importing another
//   domain's services (*.service.ts) or the composition's bag (src/services.ts, src/modules.ts).
// - Object rules: objectRule('…') calls whose rule is prose (a string) and those given a rule
//   function; @Requires declarations, those naming an object rule, and those whose only rules are
//   prose (directly or through a constant such as `const OWNER = objectRule('…')`).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import process from 'node:process';
import {
  PLATFORM,
  ROOT,
  components,
  compositionOrder,
  cycleImports,
  domainFolders,
  domainOf,
  importsOf,
  resolverServiceImports,
  sources,
} from './imports.mjs';

const root = resolve(process.argv[2] ?? ROOT);
const COMPOSITION = 'composition';

const read = (file) => readFileSync(resolve(root, file), 'utf8');
const all = [...sources('src', root), ...sources('rest-compat', root)];
const product = all.filter(
  (file) => !/(^|\/)(migrations|__tests__)\//.test(file) && !file.startsWith('rest-compat/generated/'),
);
const domains = domainFolders(root);
const { files: compositionFiles, order } = compositionOrder(root);

/** The top-level unit of a file path: `src/<x>`, the composition, or `rest-compat`. */
function unitOf(path) {
  const parts = path.split('/');
  if (parts[0] === 'rest-compat') return 'rest-compat';
  if (parts.length === 2 || parts[1] === 'cli') return COMPOSITION;
  return parts.slice(0, 2).join('/');
}

/** A unit's layer and, among the domains, its place in the composition's list. */
function rank(unit) {
  if (PLATFORM.includes(unit)) return [0, 0];
  if (domains.includes(unit)) return [1, order.includes(unit) ? order.indexOf(unit) : order.length];
  if (unit === COMPOSITION || unit === 'rest-compat') return [2, 0];
  return [3, 0]; // a folder the layers do not name yet: reported below
}

const runsBackUp = (from, to) => {
  const [a, b] = [rank(from), rank(to)];
  return b[0] > a[0] || (a[0] === 1 && b[0] === 1 && b[1] > a[1]);
};

const percent = (part, whole) => (whole ? ((100 * part) / whole).toFixed(1) : '0.0');
const out = [];
const say = (line = '') => out.push(line);

say(`Structure of ${root}`);
say();
say(`Domains (${domains.length}), in the order of ${compositionFiles.join(' then ') || 'no composition file'}:`);
say(`  ${order.map((d) => d.slice(4)).join(', ')}`);
const unlisted = domains.filter((d) => !order.includes(d));
if (unlisted.length) say(`  not in the composition's list: ${unlisted.join(', ')}`);
const modules = domains.filter((d) => all.includes(`${d}/module.ts`));
say(`  with a module.ts: ${modules.length}; with a manifest.ts only: ${domains.length - modules.length}`);
const unknown = [...new Set(product.map(unitOf))].filter((unit) => rank(unit)[0] === 3);
if (unknown.length) say(`  folders in no layer (counted above the top): ${unknown.join(', ')}`);

say();
const lines = product.map((file) => ({ file, lines: read(file).split('\n').length - 1 }));
lines.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
say(`Product files: ${product.length}; over 400 lines: ${lines.filter((f) => f.lines > 400).length}`);
say('Largest product files (lines):');
for (const { file, lines: count } of lines.slice(0, 5)) say(`  ${String(count).padStart(5)}  ${file}`);

// Import arrows, by folder and by top-level unit.
const edges = product.flatMap((file) => importsOf(file, root).map((target) => ({ file, target })));
function arrows(folderOf) {
  const found = new Map();
  for (const { file, target } of edges) {
    const [from, to] = [folderOf(file), folderOf(target)];
    if (from === to) continue;
    const key = `${from} -> ${to}`;
    if (!found.has(key)) found.set(key, { key, file, up: runsBackUp(unitOf(file), unitOf(target)) });
  }
  return [...found.values()].sort((a, b) => a.key.localeCompare(b.key));
}
const byFolder = arrows(dirname);
const up = byFolder.filter((arrow) => arrow.up);
const byUnit = arrows(unitOf);
const unitUp = byUnit.filter((arrow) => arrow.up);
say();
say(
  `Import arrows (folder to folder): ${byFolder.length}; running back up: ${up.length} (${percent(up.length, byFolder.length)}%)`,
);
say(
  `Import arrows (unit to unit): ${byUnit.length}; running back up: ${unitUp.length} (${percent(unitUp.length, byUnit.length)}%)`,
);
const upTargets = new Map();
for (const arrow of up) {
  const target = arrow.key.split(' -> ')[1];
  upTargets.set(target, (upTargets.get(target) ?? 0) + 1);
}
say(`  back-up arrows by target: ${[...upTargets].map(([t, n]) => `${t} ${n}`).join(', ')}`);
say('Arrows running back up (one importing file each):');
for (const arrow of up) say(`  ${arrow.key}  (${arrow.file})`);

// Cycles between domains, and the platform reaching into them.
const cycles = cycleImports(product, domains, order, root);
say();
say(
  `Import cycles between domains: ${cycles.cycles.length} (sizes ${cycles.cycles.map((c) => c.length).join(', ') || '-'})`,
);
for (const component of cycles.cycles) say(`  ${component.map((d) => d.slice(4)).join(', ')}`);
const pairs = [];
for (const [a, targets] of cycles.graph)
  for (const b of targets) if (a < b && cycles.graph.get(b)?.has(a)) pairs.push(`${a.slice(4)} <-> ${b.slice(4)}`);
say(`  domains importing each other: ${pairs.length}${pairs.length ? `: ${pairs.join(', ')}` : ''}`);
say(`  imports closing a cycle (to a later domain of the same component): ${cycles.imports.length}`);
const acyclic = components(cycles.graph).every((component) => component.length === 1);
say(`  the domain graph is ${acyclic ? '' : 'not '}acyclic`);
const platformImports = product
  .filter((file) => PLATFORM.includes(unitOf(file)))
  .flatMap((file) =>
    importsOf(file, root)
      .filter((target) => domainOf(target, domains))
      .map((target) => `${file} imports ${target}`),
  );
const platformFolders = [...new Set(platformImports.map((line) => unitOf(line.split(' ')[0])))];
say(
  `Platform folders importing a domain: ${platformFolders.length}${platformFolders.length ? ` (${platformFolders.join(', ')})` : ''}; imports: ${platformImports.length}`,
);
for (const line of platformImports) say(`  ${line}`);

// Resolvers reaching other domains' services.
const resolverImports = resolverServiceImports(product, domains, root);
const isBag = (target) => /^src\/(services|modules)\.[jt]s$/.test(target);
const bag = resolverImports.filter((line) => isBag(line.split(' imports ')[1]));
say();
say(
  `Resolvers importing another domain's services: ${resolverImports.length} imports in ${new Set(resolverImports.map((l) => l.split(' ')[0])).size} files (of which the composition's bag: ${bag.length})`,
);
for (const line of resolverImports.filter((l) => !bag.includes(l))) say(`  ${line}`);
const bagImporters = (name) => product.filter((file) => importsOf(file, root).includes(name)).length;
say(
  `Product files importing src/services.ts: ${bagImporters('src/services.js')}; src/modules.ts: ${bagImporters('src/modules.js')}`,
);

// Object rules: prose or functions.
const code = (file) =>
  read(file)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
let prose = 0;
let functions = 0;
let requires = 0;
let withRule = 0;
let proseOnly = 0;
for (const file of product.filter((f) => f.startsWith('src/'))) {
  const text = code(file);
  for (const match of text.matchAll(/(?<!function )\bobjectRule\(\s*(\S)/g)) {
    if (/['"`]/.test(match[1])) prose += 1;
    else functions += 1;
  }
  const proseNames = [...text.matchAll(/\bconst\s+(\w+)\s*=\s*objectRule\(\s*['"`]/g)].map((m) => m[1]);
  const functionNames = [...text.matchAll(/\bconst\s+(\w+)\s*=\s*objectRule\(\s*[\w$]/g)].map((m) => m[1]);
  for (const match of text.matchAll(/@Requires\(/g)) {
    let depth = 1;
    let end = match.index + match[0].length;
    while (depth && end < text.length) {
      if (text[end] === '(') depth += 1;
      else if (text[end] === ')') depth -= 1;
      end += 1;
    }
    const args = text.slice(match.index + match[0].length, end - 1);
    requires += 1;
    const named = (names) => names.some((name) => new RegExp(`\\b${name}\\b`).test(args));
    const hasProse = /\bobjectRule\(\s*['"`]/.test(args) || named(proseNames);
    const hasFunction = /\bobjectRule\(\s*[\w$]/.test(args) || named(functionNames);
    if (hasProse || hasFunction) withRule += 1;
    if (hasProse && !hasFunction) proseOnly += 1;
  }
}
say();
say(`objectRule calls: ${prose + functions}; prose (a string): ${prose}; a rule function: ${functions}`);
say(
  `@Requires declarations: ${requires}; naming an object rule: ${withRule}; whose rules are only prose: ${proseOnly}`,
);

process.stdout.write(`${out.join('\n')}\n`);
