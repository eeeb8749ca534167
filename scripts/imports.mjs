// The sources' imports, read from their text (no TypeScript, no dependencies): what
// test/layering.test.ts checks and scripts/structure-report.mjs measures. Paths are
// repository-relative with `/` separators; a target keeps the specifier's extension (`src/x/y.js`).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { URL, fileURLToPath } from 'node:url';

/** The repository this module belongs to (the default root of the functions below). */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

const posix = (path) => path.split(sep).join('/');

/** Every `.ts` file under `dir` (repository-relative), tests and declarations excluded, sorted. */
export function sources(dir, root = ROOT) {
  const base = join(root, dir);
  if (!existsSync(base)) return [];
  return readdirSync(base, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
    .map((name) => posix(relative(root, join(base, name))))
    .sort();
}

/** The specifiers of a source's static imports, re-exports and dynamic `import('…')`s. */
export function specifiers(code) {
  const found = [];
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** The repository-relative targets of a file's relative imports (`./x.js` → `src/dir/x.js`). */
export function importsOf(file, root = ROOT) {
  const code = readFileSync(join(root, file), 'utf8');
  return specifiers(code)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => posix(relative(root, resolve(dirname(join(root, file)), spec))));
}

/** Whether `target` is `folder` or inside it. */
export const within = (target, folder) => target === folder || target.startsWith(`${folder}/`);

/** `file imports target` for each import of `files` into `folder`. */
export function violations(files, folder, root = ROOT) {
  return files.flatMap((file) =>
    importsOf(file, root)
      .filter((target) => within(target, folder))
      .map((target) => `${file} imports ${target}`),
  );
}

/**
 * The platform folders, below the domains: ports and what every domain may use (src/migrations is
 * the ordered list the database port applies; src/archive reads zip archives under limits; src/access
 * is how operations declare the credentials and requirements they accept, enforced by the executor).
 */
export const PLATFORM = [
  'core',
  'db',
  'events',
  'jobs',
  'storage',
  'mail',
  'graphql',
  'ops',
  'migrations',
  'archive',
  'access',
].map((name) => `src/${name}`);

/**
 * The domain folders: those under `src/` holding a `module.ts` or a `manifest.ts`, sorted; the
 * platform's folders are none (`src/core/module.ts` defines what a module is).
 */
export function domainFolders(root = ROOT) {
  return readdirSync(join(root, 'src'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `src/${entry.name}`)
    .filter((folder) => !PLATFORM.includes(folder))
    .filter((folder) => existsSync(join(root, folder, 'module.ts')) || existsSync(join(root, folder, 'manifest.ts')))
    .sort();
}

/**
 * The composition's list of domains, in its order, and the files it is read from: `src/modules.ts`,
 * then `src/domains.ts` for any domain the first does not list (either may be missing). In each
 * file, a name imported from a domain folder stands for that folder; the order is that of the
 * names' first use after the imports (the list), then that of the imports for any name unused.
 */
export function compositionOrder(root = ROOT) {
  const files = ['src/modules.ts', 'src/domains.ts'].filter((name) => existsSync(join(root, name)));
  const domains = new Set(domainFolders(root));
  const order = files.flatMap((file) => listedIn(readFileSync(join(root, file), 'utf8'), domains));
  return { files, order: [...new Set(order)] };
}

function listedIn(code, domains) {
  const names = new Map();
  const statement = /\bimport\s+(?!type\b)\{([^}]*)\}\s*from\s*['"](\.\/[^'"]+)['"];?/g;
  for (const match of code.matchAll(statement)) {
    const folder = posix(join('src', match[2])).split('/').slice(0, 2).join('/');
    if (!domains.has(folder)) continue;
    for (const part of match[1].split(',')) {
      const name = part
        .split(/\s+as\s+/)
        .pop()
        .trim();
      if (name && !part.trim().startsWith('type ')) names.set(name, folder);
    }
  }
  const body = code.replace(statement, '');
  const used = [...names.entries()]
    .map(([name, folder]) => ({ folder, at: body.search(new RegExp(`\\b${name}\\b`)) }))
    .filter((entry) => entry.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((entry) => entry.folder);
  return [...used, ...names.values()];
}

/**
 * The strongly connected components of a graph (`Map` of node → set of nodes), Tarjan's
 * algorithm; each component's nodes sorted, components in no particular order.
 */
export function components(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    index.set(node, index.size);
    low.set(node, index.get(node));
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The domain folder a path is in (`src/catalogue/lifecycle/x.ts` → `src/catalogue`), if any. */
export function domainOf(path, domains) {
  const top = path.split('/').slice(0, 2).join('/');
  return domains.includes(top) ? top : undefined;
}

/**
 * The imports from one domain into another that close a cycle: `A imports B` where A and B are in
 * one strongly connected component of the domain graph and B comes later than A in `order` (every
 * cycle has at least one such import, so none means no cycle). Returns the imports
 * (`file imports target`) and the components of more than one domain.
 */
export function cycleImports(files, domains, order, root = ROOT) {
  const edges = [];
  const graph = new Map(domains.map((domain) => [domain, new Set()]));
  for (const file of files) {
    const from = domainOf(file, domains);
    if (!from) continue;
    for (const target of importsOf(file, root)) {
      const to = domainOf(target, domains);
      if (!to || to === from) continue;
      graph.get(from).add(to);
      edges.push({ file, target, from, to });
    }
  }
  const cycles = components(graph).filter((component) => component.length > 1);
  const componentOf = new Map(cycles.flatMap((component, i) => component.map((domain) => [domain, i])));
  const rank = (domain) => (order.includes(domain) ? order.indexOf(domain) : order.length);
  const closing = edges
    .filter(({ from, to }) => componentOf.has(from) && componentOf.get(from) === componentOf.get(to))
    .filter(({ from, to }) => rank(to) > rank(from))
    .map(({ file, target }) => `${file} imports ${target}`);
  return { imports: closing, cycles, graph };
}

/** Whether a source is a resolver: named `*.resolver.ts`, or declaring `@Resolver`. */
export function isResolver(file, root = ROOT) {
  return file.endsWith('.resolver.ts') || /@Resolver\s*\(/.test(readFileSync(join(root, file), 'utf8'));
}

/**
 * Whether an import target is a service: a `*.service` file, or the composition's bag of every
 * domain's services (`src/services.ts`; `src/modules.ts`, which types the composition's view).
 */
export const isService = (target) =>
  /\.service(\.[jt]s)?$/.test(target) || /^src\/(services|modules)(\.[jt]s)?$/.test(target);

/**
 * The imports of resolvers under a domain into another domain's services or into the
 * composition's (`file imports target`).
 */
export function resolverServiceImports(files, domains, root = ROOT) {
  return files
    .filter((file) => domainOf(file, domains) && isResolver(file, root))
    .flatMap((file) =>
      importsOf(file, root)
        .filter((target) => isService(target))
        .filter((target) => domainOf(target, domains) !== domainOf(file, domains))
        .map((target) => `${file} imports ${target}`),
    );
}
