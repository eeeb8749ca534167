import {
  components,
  compositionOrder,
  cycleImports,
  domainFolders,
  importsOf,
  isResolver,
  isService,
  resolverServiceImports,
  sources,
  specifiers,
  violations,
} from '../scripts/imports.mjs';

/**
 * Which code may import which (ARCHITECTURE.md, "Layering"), read from the sources' import
 * statements (scripts/imports.mjs; scripts/structure-report.mjs prints the figures):
 * - the domains and everything else under `src/` do not know REST: nothing there imports
 *   `rest-compat/`, except `src/app.ts`, the composition root that mounts the REST engine and its
 *   route table;
 * - the catalogue (add-ons, versions, the add-on lifecycle) sits below signing: nothing under
 *   `src/catalogue/` imports `src/signing/`;
 * - the platform knows no domain (a folder with a `module.ts` or `manifest.ts`): nothing under
 *   `src/db/`, `src/core/`, `src/graphql/`, `src/archive/` or `src/access/` imports one; the
 *   composition hands them what they need;
 * - curation (the log, who curates, shared rules) sits below the curated domains: nothing under
 *   `src/curation/` imports `src/shelves/` or `src/discovery/`, and those two do not import each other;
 * - no import cycle between domains;
 * - a resolver imports no other domain's services, nor the composition's (`src/services.ts`,
 *   `src/modules.ts`): it gets its own module's.
 *
 * Rules that do not hold yet list today's violations (`KNOWN_…`, "file imports target"): a violation
 * not listed fails, and so does a listed one that no longer occurs, so a list only shrinks; remove
 * the lines a change fixes.
 */

/** Files allowed to import `rest-compat/` (repository-relative). */
const REST_WIRING = new Set(['src/app.ts']);

/** The violations found are exactly the known ones (none new, none fixed but still listed). */
function expectOnlyKnown(found: readonly string[], known: readonly string[]) {
  const [isFound, isKnown] = [new Set(found), new Set(known)];
  expect({
    newViolations: found.filter((line) => !isKnown.has(line)),
    fixedButStillListed: known.filter((line) => !isFound.has(line)),
  }).toEqual({ newViolations: [], fixedButStillListed: [] });
}

describe('layering', () => {
  const all = sources('src');
  const domains = domainFolders();
  const under = (dir: string) => all.filter((file) => file.startsWith(`${dir}/`));

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
    // Cycles: a ⇄ b is one component, c (which imports a) another.
    const graph = new Map([
      ['a', ['b']],
      ['b', ['a']],
      ['c', ['a']],
    ]);
    expect(components(graph).sort()).toEqual([['a', 'b'], ['c']]);
    // Services: a domain's `*.service` files and the composition's bag.
    const targets = ['src/services.js', 'src/modules.js', 'src/auth/api-keys.service.js', 'src/auth/viewer.js'];
    expect(targets.map(isService)).toEqual([true, true, true, false]);
    expect(isResolver('src/catalogue/catalogue.resolver.ts')).toBe(true);
  });

  it('lists every domain in the composition, and only there', () => {
    expect(domains).toEqual(expect.arrayContaining(['src/accounts', 'src/catalogue', 'src/reviews', 'src/shelves']));
    expect(domains).not.toContain('src/core');
    const { files, order } = compositionOrder();
    expect(files.length).toBeGreaterThan(0);
    expect([...order].sort()).toEqual(domains);
  });

  it('src/ does not import rest-compat/ (only src/app.ts wires it in)', () => {
    const files = all.filter((file) => !REST_WIRING.has(file));
    expect(violations(files, 'rest-compat')).toEqual([]);
  });

  it('src/db/ does not import any domain (the composition gives it their entities)', () => {
    const db = under('src/db');
    expect(db).toContain('src/db/database.ts');
    expect(domains.flatMap((domain) => violations(db, domain))).toEqual([]);
  });

  it('src/core/, src/graphql/, src/archive/ and src/access/ import no domain (the domains hand down what they declare)', () => {
    const platform = [...under('src/core'), ...under('src/graphql'), ...under('src/archive'), ...under('src/access')];
    expect(platform).toEqual(
      expect.arrayContaining([
        'src/core/context.ts',
        'src/graphql/server.ts',
        'src/archive/zip.ts',
        'src/access/requirements.ts',
      ]),
    );
    expectOnlyKnown(
      domains.flatMap((domain) => violations(platform, domain)),
      KNOWN_PLATFORM_TO_DOMAIN,
    );
  });

  it('src/catalogue/ does not import src/signing/', () => {
    const catalogue = under('src/catalogue');
    expect(catalogue).toContain('src/catalogue/lifecycle/lifecycle.service.ts');
    expect(violations(catalogue, 'src/signing')).toEqual([]);
  });

  it('src/curation/ sits below the curated domains; shelves and discovery do not import each other', () => {
    expect(under('src/curation')).toContain('src/curation/curation-log.ts');
    expect([
      ...violations(under('src/curation'), 'src/shelves'),
      ...violations(under('src/curation'), 'src/discovery'),
    ]).toEqual([]);
    expect(violations(under('src/shelves'), 'src/discovery')).toEqual([]);
    expect(violations(under('src/discovery'), 'src/shelves')).toEqual([]);
  });

  it('no import cycle between domains', () => {
    // A cycle is a strongly connected component of the domain graph; each has at least one import
    // into a domain listed later in the composition. Those imports are the violations.
    const { imports, cycles } = cycleImports(all, domains, compositionOrder().order);
    expect(cycles.length === 0).toBe(imports.length === 0);
    expectOnlyKnown(imports, KNOWN_CYCLE_IMPORTS);
  });

  it("resolvers import no other domain's services, nor the composition's", () => {
    const found = resolverServiceImports(all, domains);
    expect(all).toContain('src/catalogue/catalogue.resolver.ts');
    expectOnlyKnown(found, KNOWN_RESOLVER_SERVICE_IMPORTS);
  });
});

/** Platform files still importing a domain (none left: keep it so). */
const KNOWN_PLATFORM_TO_DOMAIN: readonly string[] = [];

/** Imports closing a cycle between domains (none left: keep it so). */
const KNOWN_CYCLE_IMPORTS: readonly string[] = [];

/** Resolvers still reaching services outside their domain or the composition's (none left: keep it so). */
const KNOWN_RESOLVER_SERVICE_IMPORTS: readonly string[] = [];
