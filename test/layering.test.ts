import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Which code may import which (ARCHITECTURE.md, "Layering"), read from the sources' import
 * statements:
 * - the domains and everything else under `src/` do not know REST: nothing there imports
 *   `rest-compat/`, except `src/app.ts`, the composition root that mounts the REST engine and its
 *   route table;
 * - the catalogue (add-ons, versions, the add-on lifecycle) sits below signing: nothing under
 *   `src/catalogue/` imports `src/signing/`;
 * - the database port knows no domain: nothing under `src/db/` imports a domain folder (one with a
 *   `manifest.ts`); the composition (`src/domains.ts`) hands it the domains' entities;
 * - curation (the log, who curates, shared rules) sits below the curated domains: nothing under
 *   `src/curation/` imports `src/shelves/` or `src/discovery/`, and those two do not import each other.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');

/** Files allowed to import `rest-compat/` (repository-relative). */
const REST_WIRING = new Set(['src/app.ts']);

/** Every `.ts` file under `dir`, tests excluded, repository-relative with `/` separators. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
    .map((name) => relative(ROOT, join(dir, name)).split(sep).join('/'))
    .sort();
}

/** The specifiers of a source's static imports, re-exports and dynamic `import('…')`s. */
function specifiers(code: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** The repository-relative targets of a file's relative imports (`./x.js` → `src/dir/x.js`). */
function importsOf(file: string): string[] {
  const code = readFileSync(join(ROOT, file), 'utf8');
  return specifiers(code)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) =>
      relative(ROOT, resolve(dirname(join(ROOT, file)), spec))
        .split(sep)
        .join('/'),
    );
}

function violations(files: string[], forbidden: string): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((target) => target === forbidden || target.startsWith(`${forbidden}/`))
      .map((target) => `${file} imports ${target}`),
  );
}

describe('layering', () => {
  const all = sources(SRC);

  it('reads imports of every form (the scan sees what it must refuse)', () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all).toContain('src/app.ts');
    expect(all.some((file) => file.endsWith('.test.ts'))).toBe(false);
    expect(importsOf('src/app.ts')).toContain('rest-compat/engine.js');
    const code = [
      "import type { A } from '../../rest-compat/route.js';",
      "import {\n  b,\n  type C,\n} from './b.js';",
      "export { d } from '../d.js';",
      "import './side-effect.js';",
      "const e = await import('../e.js');",
    ].join('\n');
    expect(specifiers(code)).toEqual([
      '../../rest-compat/route.js',
      './b.js',
      '../d.js',
      './side-effect.js',
      '../e.js',
    ]);
  });

  it('src/ does not import rest-compat/ (only src/app.ts wires it in)', () => {
    const files = all.filter((file) => !REST_WIRING.has(file));
    expect(violations(files, 'rest-compat')).toEqual([]);
  });

  it('src/db/ does not import any domain (the composition gives it their entities)', () => {
    const domains = all
      .filter((file) => /^src\/[^/]+\/manifest\.ts$/.test(file))
      .map((file) => file.slice(0, -'/manifest.ts'.length));
    expect(domains).toEqual(expect.arrayContaining(['src/accounts', 'src/catalogue', 'src/reviews', 'src/shelves']));
    // Every domain folder is listed in the composition, and only there does the list live.
    const listed = importsOf('src/domains.ts').filter((target) => target.endsWith('/manifest.js'));
    expect(listed.map((target) => target.slice(0, -'/manifest.js'.length)).sort()).toEqual(domains);
    const db = all.filter((file) => file.startsWith('src/db/'));
    expect(db).toContain('src/db/database.ts');
    expect(domains.flatMap((domain) => violations(db, domain))).toEqual([]);
  });

  it('src/catalogue/ does not import src/signing/', () => {
    const catalogue = all.filter((file) => file.startsWith('src/catalogue/'));
    expect(catalogue).toContain('src/catalogue/lifecycle/lifecycle.service.ts');
    expect(violations(catalogue, 'src/signing')).toEqual([]);
  });

  it('src/curation/ sits below the curated domains; shelves and discovery do not import each other', () => {
    const under = (dir: string) => all.filter((file) => file.startsWith(`${dir}/`));
    expect(under('src/curation')).toContain('src/curation/curation-log.ts');
    expect([
      ...violations(under('src/curation'), 'src/shelves'),
      ...violations(under('src/curation'), 'src/discovery'),
    ]).toEqual([]);
    expect(violations(under('src/shelves'), 'src/discovery')).toEqual([]);
    expect(violations(under('src/discovery'), 'src/shelves')).toEqual([]);
  });
});
